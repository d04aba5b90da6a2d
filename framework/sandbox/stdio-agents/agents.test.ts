/**
 * Agents in other languages over stdio (protocol 1): the Python and Java examples play matches
 * and are graded in the real sandbox; hostile programs get clear verdicts; start-up is not
 * charged to a move. Real python3, javac and java: nothing is mocked.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UserError } from '../../errors.ts';
import { gradeSubmission } from '../../grading/grade-submission.ts';
import { playMatch } from '../../matches/match.ts';
import { gameSpec } from '../../suites/game.ts';
import { loadSuite } from '../../suites/load.ts';
import { measureStdioRoundTrip } from './bench.ts';
import { StdioAgentSession } from './session.ts';
import { MANIFEST_FILE } from '../programs/build-plan.ts';
import { findStdioAgent } from './spec.ts';
import { readProgramLine } from './wire.ts';
import { submissionFolder } from '../../../testcases/fixtures/submission-folder.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const PYTHON_GREEDY = join(ROOT, 'agents/examples/python-greedy');
const JAVA_GREEDY = join(ROOT, 'agents/examples/java-greedy');
const START = { top: [4, 4, 4, 4, 4, 4], bottom: [4, 4, 4, 4, 4, 4], topStore: 0, bottomStore: 0 };
const kalah = gameSpec('kalah');

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'stdio-agent-test-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A submission folder holding `files`. */
const submission = (name: string, files: Record<string, string>) => submissionFolder(dir, name, files);

/** A Python agent whose choose_move body is `body` (it may use `request`), over the provided client. */
function pythonAgent(name: string, body: string, beforeRun = ''): string {
  const code = `from mancala_agent import run\nimport sys\n${beforeRun}\ndef choose_move(request):\n${body
    .split('\n')
    .map((l) => `    ${l}`)
    .join('\n')}\n\nrun(choose_move, ${JSON.stringify(name)})\n`;
  return submission(name, { 'agent.py': code });
}

async function openAgent(path: string, memoryMb = 256): Promise<StdioAgentSession> {
  const spec = await findStdioAgent(path);
  if (spec === undefined) throw new Error(`${path} is not a stdio agent`);
  return StdioAgentSession.open(spec, { memoryMb }, { game: kalah });
}

describe('finding a stdio agent', () => {
  it('infers python3 agent.py, javac + java for a class with main, and reads a manifest', async () => {
    expect((await findStdioAgent(PYTHON_GREEDY))?.run).toEqual(['python3', 'agent.py']);
    // Java is planned as a file program's Java is (programs/build-plan.ts); the client comes from the grader.
    expect(await findStdioAgent(JAVA_GREEDY)).toMatchObject({ run: ['java', '-cp', '.', 'GreedyAgent'], build: 'javac -encoding UTF-8 -d . GreedyAgent.java', supportFiles: { 'MancalaAgent.java': expect.stringMatching(/agents\/clients\/java\/MancalaAgent\.java$/) } });
    const withManifest = submission('manifest', { [MANIFEST_FILE]: 'protocol: 1\nrun: python3 -u main.py\n' });
    expect(await findStdioAgent(withManifest)).toMatchObject({ run: ['python3', '-u', 'main.py'] });
    expect(await findStdioAgent(withManifest)).not.toHaveProperty('build');
    const built = submission('manifest-build', { [MANIFEST_FILE]: 'protocol: 1\nbuild: g++ -O2 -o agent agent.cpp\nrun: ./agent\n' });
    expect(await findStdioAgent(built)).toMatchObject({ run: ['./agent'], build: 'g++ -O2 -o agent agent.cpp' });
    // The same manifest without protocol: is a file-in/file-out program's, not an agent's.
    expect(await findStdioAgent(submission('file-manifest', { [MANIFEST_FILE]: 'run: python3 main.py\n', 'agent.py': '' }))).toBeUndefined();
    // A TypeScript agent and a single file are not stdio agents.
    expect(await findStdioAgent(join(ROOT, 'agents/examples/alice'))).toBeUndefined();
    expect(await findStdioAgent(join(PYTHON_GREEDY, 'agent.py'))).toBeUndefined();
    // Java that does not use the client is a file program, not a stdio agent.
    expect(await findStdioAgent(submission('file-program', { 'Main.java': 'public class Main { public static void main(String[] a) {} }\n' }))).toBeUndefined();
    const twoMains = submission('two-mains', { 'A.java': 'class A { public static void main(String[] a) { MancalaAgent.run("a", null); } }', 'B.java': 'class B { public static void main(String[] a) {} }' });
    await expect(findStdioAgent(twoMains)).rejects.toThrow(/A\.java, B\.java each have `public static void main`: say which to run in mancala\.yaml .*protocol: 1/);
  });

  it('names the manifest and the field it rejects', async () => {
    const badVersion = submission('bad-version', { [MANIFEST_FILE]: 'protocol: 7\nrun: python3 a.py\n' });
    await expect(findStdioAgent(badVersion)).rejects.toThrow(/: mancala\.yaml: protocol: this grader speaks protocol 1, got 7$/);
    const notNumber = submission('not-number', { [MANIFEST_FILE]: 'protocol: one\nrun: python3 a.py\n' });
    await expect(findStdioAgent(notNumber)).rejects.toThrow(/mancala\.yaml: protocol: expected a version of the stdio protocol \(1\), got "one"$/);
    const noRun = submission('no-run', { [MANIFEST_FILE]: 'protocol: 1\n' });
    await expect(findStdioAgent(noRun)).rejects.toThrow(UserError);
    await expect(findStdioAgent(noRun)).rejects.toThrow(/mancala\.yaml: run: missing/);
    const unknown = submission('unknown-field', { [MANIFEST_FILE]: 'protocol: 1\nrun: python3 a.py\nname: x\n' });
    await expect(findStdioAgent(unknown)).rejects.toThrow(/mancala\.yaml: unknown field name: expected build:, run: and, for an agent over stdio, protocol:$/);
  });
});

describe('reading a program line', () => {
  it('reads answers, reports and ready, and quotes a line that is not a message', () => {
    expect(readProgramLine('{"id": 3, "move": 2, "value": -1.5, "nodes": 40, "pv": [2, 0], "extra": true}')).toEqual({
      kind: 'answer',
      id: 3,
      observation: { move: 2, value: -1.5, nodes: 40 },
      pv: [2, 0],
    });
    expect(readProgramLine('{"type": "report", "move": 1}')).toEqual({ kind: 'report', move: 1 });
    expect(readProgramLine('{"type": "ready", "name": "x"}')).toEqual({ kind: 'ready', name: 'x' });
    const bad = readProgramLine('thinking about move 3...');
    expect(bad).toMatchObject({ kind: 'bad' });
    expect(bad.kind === 'bad' && bad.problem).toMatch(/printed "thinking about move 3\.\.\." on stdout, which is not a JSON message/);
    expect(readProgramLine('{"move": 1.5}')).toMatchObject({ kind: 'bad', problem: expect.stringMatching(/field "move"/) });
    // Python's json.dumps and Java write ±Infinity bare: a won or lost position's value.
    expect(readProgramLine('{"move": 1, "value": -Infinity}')).toMatchObject({ kind: 'answer', observation: { move: 1, value: -Infinity } });
    expect(readProgramLine('{"move": 1, "value": NaN}')).toMatchObject({ kind: 'bad', problem: expect.stringMatching(/field "value": expected a number/) });
  });
});

describe('Tic-Tac-Toe over stdio', () => {
  it('hello names the game; a move request carries the board, its cells and the mover\'s mark; the answer is a cell, and `visited` when the trace is wanted', async () => {
    const program = submission('ttt', {
      'agent.py': [
        'import json, sys',
        'hello = json.loads(sys.stdin.readline())',
        'sys.stdout.write(json.dumps({"type": "ready", "name": "ttt"}) + "\\n"); sys.stdout.flush()',
        'for line in iter(sys.stdin.readline, ""):',
        '    r = json.loads(line)',
        '    seen = {k: r.get(k) for k in ("side", "board", "cells", "toMove", "legal", "legalNames", "depth", "want")}',
        '    answer = {"id": r["id"], "move": r["legal"][-1], "value": 1, "nodes": 1 + len(r["legal"]), "log": [json.dumps(hello["game"]), json.dumps(seen)]}',
        '    if "visited" in r["want"]: answer["visited"] = [[m] for m in r["legal"]]',
        '    sys.stdout.write(json.dumps(answer) + "\\n"); sys.stdout.flush()',
      ].join('\n'),
    });
    const ttt = gameSpec('tictactoe');
    const session = await StdioAgentSession.open((await findStdioAgent(program))!, { memoryMb: 256 }, { game: ttt });
    try {
      const board = { top: [], bottom: [], topStore: 0, bottomStore: 0 };
      const ask = (trace: boolean) =>
        session.request({ type: 'move', role: 'agent', game: ttt, board, player: 1, tictactoe: 'XX_/_O_/___', options: { depth: 3 }, heuristic: 'basic', timeLimitMs: 2000, seed: 1, trace }, 5000);
      const plain = await ask(false);
      expect(plain).toMatchObject({ status: 'ok', observation: { move: 8, value: 1, nodes: 7 } });
      expect(session.lastAnswer.log!.map((l) => JSON.parse(l) as unknown)).toEqual([
        { kind: 'tictactoe', name: 'tictactoe' },
        { side: 'O', board: 'XX_/_O_/___', cells: ['X', 'X', '_', '_', 'O', '_', '_', '_', '_'], toMove: 'O', legal: [2, 3, 5, 6, 7, 8], legalNames: ['2', '3', '5', '6', '7', '8'], depth: 3, want: ['move', 'value', 'nodes'] },
      ]);
      expect(plain.status === 'ok' && plain.observation.visited).toBeUndefined();
      const traced = await ask(true);
      expect(traced).toMatchObject({ status: 'ok', observation: { move: 8, visited: [[2], [3], [5], [6], [7], [8]] } });
    } finally {
      await session.close();
    }
  });

  it('a path of `visited` that is not a list of moves is a protocol error naming the field', () => {
    expect(readProgramLine('{"move": 2, "visited": [[2], [2, 3]]}')).toEqual({ kind: 'answer', observation: { move: 2, visited: [[2], [2, 3]] } });
    expect(readProgramLine('{"move": 2, "visited": [[2], [-1]]}')).toMatchObject({ kind: 'bad', problem: expect.stringMatching(/field "visited\.1\.0"/) });
    expect(readProgramLine('{"move": 2, "visited": [2]}')).toMatchObject({ kind: 'bad', problem: expect.stringMatching(/field "visited\.0"/) });
  });
});

describe('the example agents over stdio', () => {
  it('the Python and the Java greedy agents each play a seeded match against random without a forfeit', async () => {
    for (const A of [PYTHON_GREEDY, JAVA_GREEDY]) {
      const r = await playMatch({ A, B: 'random', games: 4, seed: 3 });
      expect(r.games).toHaveLength(4);
      for (const g of r.games) {
        expect(g.forfeit).toBeNull();
        expect(g.score[0] + g.score[1]).toBe(48);
      }
      expect(r.stats.A.decisions).toBeGreaterThan(0);
    }
  });

  it('the Python and the Java agents are graded on kalah-basics: move-only cases pass, heuristic roles are a clear error', async () => {
    const suite = await loadSuite(join(ROOT, 'testcases/kalah-basics'));
    for (const path of [PYTHON_GREEDY, JAVA_GREEDY]) {
      const { report } = await gradeSubmission(suite, path, suite.cases, 'full', () => {});
      const byId = new Map(report.cases.map((c) => [c.id, c]));
      expect(report.notes.join('\n')).toMatch(/agent over stdio/);
      // The legal-moves category and the playoff against random need only legal, sensible moves.
      const legal = report.cases.filter((c) => c.category === 'legal moves' || c.category === 'playoff');
      expect(legal.length).toBeGreaterThan(0);
      for (const c of legal) expect(c.status, `${c.id}: ${c.message}`).toBe('passed');
      for (const c of report.cases) {
        if (c.category === 'heuristic') expect(c.message).toMatch(/an agent over stdio answers move requests only/);
        else expect(['passed', 'failed'], `${c.id}: ${c.message}`).toContain(c.status);
      }
      expect(byId.get('trace-events-depth-2')?.message).toMatch(/got no trace/);
      // Boards of 4 and 7 pits in a 6-pit suite: the program is told each size's rules (a new hello) and answers.
      for (const id of ['four-pits', 'seven-pits-text']) expect(['passed', 'failed'], id).toContain(byId.get(id)?.status);
    }
  });
});

describe('hostile and broken programs get clear verdicts', () => {
  it('a stray print on stdout is a protocol error quoting it; the next request starts a fresh program', async () => {
    const path = pythonAgent('chatty', 'if request["id"] == 1:\n    print("let me think")\nreturn request["legal"][0]');
    const s = await openAgent(path);
    try {
      const a = await s.chooseMove(START, 0, {}, 1000);
      expect(a).toMatchObject({ status: 'error', message: expect.stringMatching(/^protocol error: it printed "let me think" on stdout, which is not a JSON message/) });
      expect(await s.chooseMove(START, 0, {}, 1000)).toMatchObject({ status: 'ok', observation: { move: 0 } });
    } finally {
      await s.close();
    }
  });

  it('an illegal move, an exit and an endless loop', async () => {
    const illegal = await openAgent(pythonAgent('illegal', 'return 9'));
    const exits = await openAgent(pythonAgent('exits', 'sys.stderr.write("giving up\\n")\nsys.exit(3)'));
    const loops = await openAgent(pythonAgent('loops', 'while True:\n    pass'));
    try {
      expect(await illegal.chooseMove(START, 0, {}, 1000)).toMatchObject({ status: 'error', message: 'illegal move 9: the legal moves were 0, 1, 2, 3, 4, 5' });
      expect(await exits.chooseMove(START, 0, {}, 1000)).toMatchObject({ status: 'error', message: expect.stringMatching(/exited with code 3.*giving up/s) });
      expect(await loops.chooseMove(START, 0, {}, 300)).toMatchObject({ status: 'timeout', message: expect.stringMatching(/^no answer within \d+ ms of CPU time/) });
    } finally {
      await Promise.all([illegal.close(), exits.close(), loops.close()]);
    }
  });

  it('a memory bomb is a memory verdict; a timeout keeps the last move reported', async () => {
    const bomb = await openAgent(pythonAgent('bomb', 'hoard = []\nwhile True:\n    hoard.append(b"x" * 10_000_000)'), 128);
    const anytime = await openAgent(pythonAgent('anytime', 'from mancala_agent import report\nreport(request["legal"][-1], 0.5)\nwhile True:\n    pass'));
    try {
      expect(await bomb.chooseMove(START, 0, {}, 5000)).toMatchObject({ status: 'memory', message: expect.stringMatching(/out of memory.*128 MB/) });
      expect(await anytime.chooseMove(START, 0, {}, 300)).toMatchObject({ status: 'timeout', reported: { move: 5, value: 0.5 } });
    } finally {
      await Promise.all([bomb.close(), anytime.close()]);
    }
  });

  it('cannot read the checkout, and has no network', async () => {
    const probe = [
      'import socket',
      'try:',
      `    open(${JSON.stringify(join(ROOT, 'README.md'))}).read()`,
      '    return 99  # read the checkout: an illegal move says so',
      'except OSError:',
      '    pass',
      'try:',
      '    socket.create_connection(("1.1.1.1", 53), timeout=1)',
      '    return 98',
      'except OSError:',
      '    return request["legal"][0]',
    ].join('\n');
    const s = await openAgent(pythonAgent('nosy', probe));
    try {
      expect(await s.chooseMove(START, 0, {}, 3000)).toMatchObject({ status: 'ok', observation: { move: 0 } });
    } finally {
      await s.close();
    }
  });

  it('an agent.py in Python 2 is said to be Python 2, with --python PATH', async () => {
    const r = await playMatch({ A: submission('python2-agent', { 'agent.py': 'from mancala_agent import run\nprint "starting"\nrun(lambda request: request["legal"][0])\n' }), B: 'random', games: 1, seed: 1 });
    expect(r.games[0]!.forfeit!.message).toMatch(/Missing parentheses in call to 'print'[^]*This looks like Python 2 code[^]*--python PATH/);
  });

  it('a stdio agent that crashes forfeits its games of a match, with the reason', async () => {
    const r = await playMatch({ A: pythonAgent('crashes', 'raise RuntimeError("boom")'), B: 'random', games: 2, seed: 1 });
    for (const g of r.games) expect(g.forfeit).toMatchObject({ side: 'A', reason: 'crash', message: expect.stringMatching(/RuntimeError: boom/) });
  });

  it('a traceback names the program\'s files relative to its folder; the weak mode runs it too', async () => {
    const path = pythonAgent('traceback', 'raise ValueError("no idea")');
    for (const sandbox of ['full', 'weak'] as const) {
      const s = await StdioAgentSession.open((await findStdioAgent(path))!, { memoryMb: 256 }, { game: kalah, sandbox });
      try {
        expect(await s.chooseMove(START, 0, {}, 1000)).toMatchObject({ status: 'error', message: expect.stringMatching(/File "agent\.py", line \d+.*ValueError: no idea/s) });
      } finally {
        await s.close();
      }
    }
  });

  it('a program that never starts (a syntax error) says so on every request', async () => {
    const s = await openAgent(submission('syntax', { 'agent.py': 'def choose_move(:\n' }));
    try {
      for (let i = 0; i < 2; i++) {
        expect(await s.chooseMove(START, 0, {}, 1000)).toMatchObject({ status: 'error', message: expect.stringMatching(/while starting \(before saying ready\).*SyntaxError/s) });
      }
    } finally {
      await s.close();
    }
  });

  it('start-up is not charged to the first move', async () => {
    // About a second of CPU before `ready`; the move itself is instant and has 200 ms.
    const slowStart = 'import time\n_t = time.process_time()\nwhile time.process_time() - _t < 1.0:\n    pass\n';
    const s = await openAgent(pythonAgent('slow-start', 'return request["legal"][0]', slowStart));
    try {
      expect(s.lastStart?.cpuMs).toBeGreaterThan(900);
      const a = await s.chooseMove(START, 0, {}, 200);
      expect(a).toMatchObject({ status: 'ok', observation: { move: 0 } });
      expect(a.ms).toBeLessThan(200);
    } finally {
      await s.close();
    }
  });

  it('a manifest\'s build runs once in the sandbox, the grader\'s Java client in its folder; a restart does not rebuild', async () => {
    const java = readFileSync(join(JAVA_GREEDY, 'GreedyAgent.java'), 'utf8').replace('return new MancalaAgent.Answer(move)', 'if (r.id == 1) System.exit(4);\n        return new MancalaAgent.Answer(move)');
    const path = submission('java-manifest', { 'GreedyAgent.java': java, [MANIFEST_FILE]: 'protocol: 1\nbuild: javac -d classes *.java\nrun: java -cp classes GreedyAgent\n' });
    const s = await openAgent(path);
    try {
      const built = s.lastBuild;
      expect(built?.cpuMs).toBeGreaterThan(0);
      expect(await s.chooseMove(START, 0, {}, 2000)).toMatchObject({ status: 'error', message: expect.stringMatching(/exited with code 4/) });
      expect(await s.chooseMove(START, 0, {}, 2000)).toMatchObject({ status: 'ok' });
      expect(s.lastBuild).toBe(built);
    } finally {
      await s.close();
    }
  });

  it('a build that fails is reported with the compiler\'s words', async () => {
    const s = await openAgent(submission('java-broken', { 'Broken.java': 'public class Broken { public static void main(String[] a) { MancalaAgent.run("broken", r -> ); } }\n' }));
    try {
      expect(await s.chooseMove(START, 0, {}, 1000)).toMatchObject({ status: 'error', message: expect.stringMatching(/^compile error: Broken\.java:1: error.*`javac -encoding UTF-8 -d \. Broken\.java` exited with code 1/s) });
    } finally {
      await s.close();
    }
  });
});

describe('the round-trip benchmark', () => {
  it('measures the median of its requests to a trivial agent (no claim on the figure here)', async () => {
    const r = await measureStdioRoundTrip(5, 'full');
    expect(r).toMatchObject({ mode: 'full', requests: 5 });
    expect(r.medianMs).toBeGreaterThan(0);
    expect(Number.isFinite(r.startMs)).toBe(true);
  });
});
