/**
 * `mancala csci561`: the command run in this process (commander, the action, the files it
 * writes) on the course's 30 official graded cases, read in place and compared byte for byte,
 * and on inputs the project generates itself, checked against the reference searches and the
 * traverse log's invariants.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { XMLParser } from 'fast-xml-parser';
import { afterAll, describe, expect, it } from 'vitest';
import { boardToState, parseCsci561Input, parseCsci561NextState, stateToBoard } from '../../games/mancala/board-io/index.ts';
import type { MancalaState } from '../../games/mancala/engine.ts';
import { randomCsci561Input } from '../../packs/csci561/positions.ts';
import { addCsci561Command } from './csci561.ts';
import { addCsci561GradeCommand } from './csci561-grade.ts';
import { runCommand } from '../../../testcases/fixtures/run-command.ts';
import { CSCI561_OFFICIAL_DIR } from '../../../testcases/shared-data.ts';
import { alphaBeta } from '../../../agents/reference/alphabeta.ts';
import { solveCsci561 } from '../../../agents/reference/csci561-task.ts';
import { csci561Game } from '../../packs/csci561/game.ts';
import { minimax } from '../../../agents/reference/minimax.ts';
import basic from '../../../agents/heuristics/basic.ts';

const work = mkdtempSync(join(tmpdir(), 'mancala-csci561-test-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
let folders = 0;
const freshDir = (): string => join(work, `run-${++folders}`);

/** The command as main.ts runs it: a user's mistake is one line on stderr and exit code 2. */
const csci561 = (args: string[]) => runCommand(addCsci561Command, ['csci561', ...args]);

/** Runs the command on `input` (text) in a fresh folder; returns the folder's files. */
async function runOn(input: string, extra: string[] = []): Promise<Record<string, string>> {
  const dir = freshDir();
  const inputFile = join(work, `input-${folders}.txt`);
  writeFileSync(inputFile, input);
  const r = await csci561([inputFile, '--out', dir, '--quiet', ...extra]);
  expect(r.err).toBe('');
  expect(r.code).toBe(0);
  return Object.fromEntries(readdirSync(dir).map((f) => [f, readFileSync(join(dir, f), 'utf8')]));
}

// ---- the official graded cases ----------------------------------------------------------------

const officialDir = CSCI561_OFFICIAL_DIR + '/';
const haveOfficial = existsSync(officialDir);
const OPTIONAL_MARK = '\tOPTIONAL';

describe(`mancala csci561 on the 30 official graded cases (${officialDir})`, () => {
  if (!haveOfficial) it.skip(`official cases not found at ${officialDir}: skipped`, () => {});
  const read = (name: string) => readFileSync(join(officialDir, name), 'utf8');

  it.runIf(haveOfficial).each(Array.from({ length: 30 }, (_, i) => i + 1))('case %i: the files are the official ones, byte for byte', async (k) => {
    const input = read(`testInput_${k}.txt`);
    const task = Number(input.split('\n')[0]);
    const printed = await runOn(input);
    const omitted = await runOn(input, ['--optional-lines', 'omit']);
    const marked = await runOn(input, ['--optional-lines', 'mark']);
    for (const files of [printed, omitted, marked]) {
      expect(files['next_state.txt']).toBe(read(`next_state_${k}.txt`));
      expect(Object.keys(files).sort()).toEqual(task === 1 ? ['next_state.txt'] : ['next_state.txt', 'traverse_log.txt']);
    }
    if (task === 1) return;
    const official = read(`traverse_log_${k}.txt`);
    // Marked: the official file itself.
    expect(marked['traverse_log.txt']).toBe(official);
    // Omitted: the official file without its OPTIONAL lines, byte for byte.
    expect(omitted['traverse_log.txt']).toBe(
      official
        .split('\n')
        .filter((l) => !l.endsWith(OPTIONAL_MARK))
        .join('\n'),
    );
    // Printed: every other line byte for byte; an OPTIONAL line as the same fields with an infinity.
    const ours = printed['traverse_log.txt']!.split('\n');
    const theirs = official.split('\n');
    expect(ours).toHaveLength(theirs.length);
    theirs.forEach((line, i) => {
      if (!line.endsWith(OPTIONAL_MARK)) {
        if (ours[i] !== line) expect(`line ${i + 1}: ${ours[i]}`).toBe(`line ${i + 1}: ${line}`);
        return;
      }
      const [name, depth, value, ...window] = line.slice(0, -OPTIONAL_MARK.length).split(',');
      expect(value).toBe('+/-Infinity');
      expect(ours[i]).toMatch(new RegExp(`^${name},${depth},-?Infinity${window.map((w) => `,${w}`).join('')}$`));
    });
  });
});

// ---- generated inputs -------------------------------------------------------------------------

type Params = Parameters<typeof minimax<MancalaState>>[0];

/** The reference search's (move, value) from `state`, its mover maximising, as the task asks. */
function referenceSearch(task: number, depth: number, pits: number, state: MancalaState) {
  const game = csci561Game(pits);
  const params: Params = { game, heuristic: basic, depth: task === 1 ? 1 : depth, unit: 'turn', terminal: 'score' };
  return (task === 3 ? alphaBeta : minimax)(params, state);
}

/**
 * The value of playing `move` in `state` for its mover, searched afresh below it: a free turn
 * keeps the depth (the mover maximises again), the opponent's turn uses one level and is worth
 * the negation of the opponent's own value (the store difference is zero-sum).
 */
function valueOfMove(depth: number, pits: number, state: MancalaState, move: number): number {
  const game = csci561Game(pits);
  const mover = game.toMove(state);
  const child = game.play(state, move);
  if (game.isOver(child)) return game.score(child, mover);
  const params = (d: number): Params => ({ game, heuristic: basic, depth: d, unit: 'turn', terminal: 'score' });
  if (game.toMove(child) === mover) return minimax(params(depth), child).value;
  if (depth - 1 <= 0) return basic.evaluate(child, mover, game);
  return -minimax(params(depth - 1), child).value;
}

/** The agent's whole turn from `state`: `first`, then the reference's choice at each free turn. */
function playTurn(task: number, depth: number, pits: number, state: MancalaState, first: number): MancalaState {
  const game = csci561Game(pits);
  const agent = game.toMove(state);
  let s = game.play(state, first);
  while (!game.isOver(s) && game.toMove(s) === agent) s = game.play(s, referenceSearch(task, depth, pits, s).move);
  return game.swept(s);
}

const fields = (line: string) => line.split(',');

describe('mancala csci561 on generated inputs (tasks 1–3, cut-off depths 1–3)', () => {
  const SEEDS = Array.from({ length: 60 }, (_, i) => 1000 + i);

  it.each(SEEDS)('seed %i: the files agree with the reference solver and searches, and the log keeps its invariants', async (seed) => {
    const { text, task, depth, pits } = randomCsci561Input(seed);
    const files = await runOn(text);
    const solved = solveCsci561(text, 'input.txt');
    expect(files['next_state.txt']).toBe(solved.nextState);

    const game = csci561Game(pits);
    const board = parseCsci561Input(text, 'input.txt');
    const start = boardToState(game, board);
    const reference = referenceSearch(task, depth, pits, start);
    // next_state: the reference's move, then the agent's free-turn chain, the board swept if the game ended.
    const next = parseCsci561NextState(files['next_state.txt']!, 'next_state.txt');
    const expected = stateToBoard(game, playTurn(task, depth, pits, start, reference.move));
    expect([next.top, next.bottom, next.topStore, next.bottomStore]).toEqual([expected.top, expected.bottom, expected.topStore, expected.bottomStore]);
    if (task === 1) {
      expect(files['traverse_log.txt']).toBeUndefined();
      return;
    }

    const log = files['traverse_log.txt']!;
    expect(log.endsWith('\n')).toBe(true);
    const lines = log.slice(0, -1).split('\n');
    expect(lines.join('\n')).toBe(solved.traverseLog!.join('\n'));
    const ab = task === 3;
    expect(lines[0]).toBe(ab ? 'Node,Depth,Value,Alpha,Beta' : 'Node,Depth,Value');
    expect(lines[1]).toBe(ab ? 'root,0,-Infinity,-Infinity,Infinity' : 'root,0,-Infinity');
    const rows = lines.slice(1).map(fields);
    for (const row of rows) {
      expect(row).toHaveLength(ab ? 5 : 3);
      expect(Number(row[1])).toBeGreaterThanOrEqual(0);
      expect(Number(row[1])).toBeLessThanOrEqual(depth);
      expect(row[2]).toMatch(/^(-?Infinity|-?\d+)$/);
      if (ab) {
        const [alpha, beta] = [row[3]!, row[4]!].map((v) => (v === 'Infinity' ? Infinity : v === '-Infinity' ? -Infinity : Number(v)));
        expect(alpha, row.join(',')).toBeLessThanOrEqual(beta!);
      }
    }
    // The root comes last with the search's value; that value is the move written's.
    const last = rows[rows.length - 1]!;
    expect(last.slice(0, 2)).toEqual(['root', '0']);
    const rootValue = Number(last[2]);
    expect(rootValue).toBe(reference.value);
    // The move written: the first root child whose return set the root to its final value.
    let chosen: string | undefined;
    let rootSoFar = -Infinity;
    for (let i = 1; i < rows.length; i++) {
      const row = rows[i]!;
      if (row[0] !== 'root') continue;
      const v = Number(row[2]);
      if (v > rootSoFar) {
        rootSoFar = v;
        // The child's line just before the root's update is its final value.
        chosen = rows[i - 1]![0];
        expect(Number(rows[i - 1]![2])).toBe(v);
      }
    }
    expect(chosen).toBe(game.moveName(start, reference.move));
    expect(valueOfMove(depth, pits, start, reference.move)).toBe(rootValue);
  });
});

// ---- task 4, defaults and mistakes ----------------------------------------------------------------

/** Every board the agent's whole turn can end on (all free-turn chains), as next_state text. */
function turnOutcomes(pits: number, start: MancalaState): Set<string> {
  const game = csci561Game(pits);
  const agent = game.toMove(start);
  const out = new Set<string>();
  const walk = (s: MancalaState) => {
    for (const m of game.legalMoves(s)) {
      const child = game.play(s, m);
      if (!game.isOver(child) && game.toMove(child) === agent) walk(child);
      else {
        const b = stateToBoard(game, game.swept(child));
        out.add([b.top.join(' '), b.bottom.join(' '), b.topStore, b.bottomStore].join('\n') + '\n');
      }
    }
  };
  walk(start);
  return out;
}

describe('mancala csci561: the competition, defaults, and mistakes', () => {
  it('task 4 plays a whole legal turn within its time budget and writes next_state.txt only', async () => {
    for (const [player, rows] of [
      [1, ['4 4 4 4 4 4', '4 4 4 4 4 4']],
      [2, ['0 3 1 0 7', '2 0 0 5 1']],
    ] as const) {
      const text = ['4', String(player), '0', ...rows, '3', '1'].join('\n') + '\n';
      const begin = performance.now();
      const files = await runOn(text, ['--ms', '200']);
      // The budget is 200 ms; the margin is for a busy machine.
      expect(performance.now() - begin).toBeLessThan(3000);
      expect(Object.keys(files)).toEqual(['next_state.txt']);
      const board = parseCsci561Input(text, 'input.txt');
      const pits = board.top.length;
      expect(turnOutcomes(pits, boardToState(csci561Game(pits), board)).has(files['next_state.txt']!)).toBe(true);
    }
  });

  it('reads ./input.txt and writes into the current folder by default, with a summary line', async () => {
    const dir = freshDir();
    const cwd = process.cwd();
    mkdirSync(dir);
    writeFileSync(join(dir, 'input.txt'), '2\n1\n2\n1 1 1\n3 0 1\n0\n0\n');
    process.chdir(dir);
    try {
      const r = await csci561([]);
      expect(r.err).toBe('');
      expect(r.code).toBe(0);
      expect(r.out).toMatch(/^task 2 \(MiniMax\), player 1, cut-off depth 2, 3 pits a side: wrote next_state\.txt, traverse_log\.txt \(\d+ lines\)\n$/);
    } finally {
      process.chdir(cwd);
    }
    expect(readdirSync(dir).sort()).toEqual(['input.txt', 'next_state.txt', 'traverse_log.txt']);
    expect(readFileSync(join(dir, 'next_state.txt'), 'utf8')).toBe(solveCsci561('2\n1\n2\n1 1 1\n3 0 1\n0\n0\n', 'input.txt').nextState);
  });

  it('a mistake is one line naming the file (and line), exit code 2, and nothing written', async () => {
    const dir = freshDir();
    const missing = join(work, 'no-such-input.txt');
    const truncated = join(work, 'truncated.txt');
    writeFileSync(truncated, '2\n1\n2\n1 1 1\n');
    const task5 = join(work, 'task5.txt');
    writeFileSync(task5, '5\n1\n2\n1 1 1\n3 0 1\n0\n0\n');
    const over = join(work, 'over.txt');
    writeFileSync(over, '3\n2\n2\n0 0 0\n3 0 1\n0\n0\n');
    const cases: [string[], RegExp][] = [
      [[missing], /^mancala: .*no-such-input\.txt: cannot read the input file: no such file\n$/],
      [[truncated], /^mancala: .*truncated\.txt:5: expected the bottom row \(player 1's pits\) on line 5, but the file ends after line 4\n$/],
      [[task5], /^mancala: .*task5\.txt:1: expected the task: 1 \(Greedy\), 2 \(MiniMax\), 3 \(Alpha-Beta\) or 4 \(Competition\), got "5"\n$/],
      [[over], /^mancala: .*over\.txt: player 2 has no legal move \(the game is over on this board\)\n$/],
      [[truncated, '--ms', '3'], /^mancala: .*--ms.*\n$/],
    ];
    for (const [args, message] of cases) {
      const r = await csci561([...args, '--out', dir]);
      expect(r.code).toBe(2);
      expect(r.err).toMatch(message);
      expect(r.err.trim().split('\n')).toHaveLength(1);
      expect(existsSync(dir)).toBe(false);
    }
    const file = join(work, 'a-file');
    writeFileSync(file, '');
    const r = await csci561([join(officialDir, 'testInput_2.txt'), '--out', file]);
    if (haveOfficial) expect([r.code, r.err]).toEqual([2, `mancala: ${file}: expected an output folder, but it is a file\n`]);
  });
});

// ---- csci561-grade, and the real process -------------------------------------------------------

describe('mancala csci561-grade', () => {
  const root = fileURLToPath(new URL('../../../', import.meta.url));

  it('grades a program folder on a suite and writes the JSON report; a program that writes nothing gets 0', async () => {
    const sub = join(work, 'silent');
    mkdirSync(sub);
    writeFileSync(join(sub, 'command'), 'true\n');
    const json = join(work, 'silent.json');
    const r = await csci561Grade([sub, '--suite', join(root, 'testcases/csci561-public'), '--json', json, '--no-color']);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(/^Suite CSCI-561 Mancala \(public\): 1 submission\n/);
    expect(r.out).toContain('silent  0 / 30  0 of 30 cases passed');
    const report = JSON.parse(readFileSync(json, 'utf8'));
    expect(report.submissions[0].cases[0].message).toMatch(/^next_state\.txt: your program did not write it\ntraverse_log\.txt: your program did not write it\ninput\.txt \(csci561-public\/inputs\/alphabeta-d1-1\.txt\):\n  3\n/);
  });

  it('--check (the kit\'s npm run check) exits 1 when a case fails, as every course\'s check does, and 0 when all pass', async () => {
    const sub = join(work, 'silent-checked');
    mkdirSync(sub);
    writeFileSync(join(sub, 'command'), 'true\n');
    const failing = await csci561Grade([sub, '--suite', join(root, 'testcases/csci561-public'), '--case', 'greedy-01', '--no-color', '--check', '--weak-sandbox']);
    expect(failing.code).toBe(1);
    expect(failing.err).toContain('1 of 1 cases did not pass');
    // a student's check lists each failed case under the submission's line
    expect(failing.out).toMatch(/^  ✗ \S+ +greedy-01  next_state\.txt: your program did not write it$/m);
    const passing = await csci561Grade([join(root, 'agents/examples/csci561-reference/program'), '--suite', join(root, 'testcases/csci561-public'), '--case', 'greedy-01', '--no-color', '--check', '--weak-sandbox']);
    expect(passing.code, passing.err).toBe(0);
  });

  it('when every program of one interpreter fails every case the same way, says loudly that the machine is at fault', async () => {
    // Each "student" runs a program the machine cannot run: the same failure, whoever wrote it.
    const subs = ['ann', 'ben'].map((name) => {
      const sub = join(work, 'broken-machine', name);
      mkdirSync(sub, { recursive: true });
      writeFileSync(join(sub, 'command'), 'sh -c "exit 3"\n');
      return sub;
    });
    const json = join(work, 'broken-machine', 'report.json');
    const r = await csci561Grade([...subs, '--suite', join(root, 'testcases/csci561-public'), '--json', json, '--no-color']);
    expect(r.code, r.err).toBe(0);
    const warning = /WARNING: all 2 sh submissions failed every case the same way: "[^"\n]+" — this is most likely the grading machine, not the students/;
    // Last on stderr, after the report files, where it is seen.
    expect(r.err.trimEnd().split('\n').at(-1)).toMatch(warning);
    const report = JSON.parse(readFileSync(json, 'utf8'));
    expect(report.notes).toHaveLength(1);
    expect(report.notes[0]).toMatch(warning);
    expect(r.out).toMatch(/note: WARNING: all 2 sh submissions/);
  });

  it('a missing suite or submission folder is one line, exit code 2', async () => {
    expect(await csci561Grade([work, '--suite', join(work, 'nope')])).toMatchObject({ code: 2, err: `mancala: --suite ${join(work, 'nope')}: expected a suite folder\n` });
    const file = join(work, 'not-a-folder');
    writeFileSync(file, '');
    expect(await csci561Grade([file, '--suite', join(root, 'testcases/csci561-public')])).toMatchObject({
      code: 2,
      err: `mancala: submission ${file}: expected a folder with a \`command\` file\n`,
    });
  });
});

describe('mancala csci561-grade: reports a student can act on, one case, Gradescope and JUnit', () => {
  const root = fileURLToPath(new URL('../../../', import.meta.url));
  const publicSuite = join(root, 'testcases/csci561-public');
  // A Python program from sources only that answers "python task N": wrong on purpose.
  const wrong = join(root, 'testcases/fixtures/programs/python');

  it('--reports keeps the failing case: its input, the diff, the program\'s own file, and a command that re-runs the program', async () => {
    const out = join(work, 'reports-visible');
    const files = { reports: join(out, 'reports'), gradescope: join(out, 'results.json'), junit: join(out, 'junit.xml') };
    const r = await csci561Grade([wrong, '--suite', publicSuite, '--case', 'minimax-d2-1', '--reports', files.reports, '--gradescope', files.gradescope, '--junit', files.junit, '--no-color']);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain('python  0 / 10  0 of 1 cases passed');
    expect(r.err).toContain(`wrote ${files.gradescope}, ${files.junit}\n`);
    expect(r.err).toContain(`wrote 1 student report in ${files.reports} (python/report.txt)\n`);

    const report = readFileSync(join(files.reports, 'python', 'report.txt'), 'utf8');
    const caseDir = join(files.reports, 'python', 'minimax-d2-1');
    const expectedState = readFileSync(join(caseDir, 'expected_next_state.txt'), 'utf8');
    expect(report).toMatch(/^python: 0 \/ 10 on CSCI-561 Mancala \(public\) \(0 of 1 cases passed\)\n/);
    expect(report).toContain('== minimax-d2-1 [minimax]: failed\n');
    expect(report).toMatch(/time: \d+(\.\d)? ms of CPU time \(limit 2000 ms\), \d+(\.\d)? ms wall-clock; memory: [\d.]+ MB at the peak \(limit 512 MB\)/);
    expect(report).toContain(`input.txt (csci561-public/inputs/minimax-d2-1.txt):\n${readFileSync(join(publicSuite, 'inputs', 'minimax-d2-1.txt'), 'utf8').trimEnd().split('\n').map((l) => `  ${l}`).join('\n')}\n`);
    // The unified diff: the expected lines removed, the program's line added.
    const diff = ['--- expected_next_state.txt', '+++ next_state.txt (yours)', '@@ -1,4 +1 @@', ...expectedState.trimEnd().split('\n').map((l) => `-${l}`), '+python task 2'].join('\n') + '\n';
    expect(readFileSync(join(caseDir, 'next_state.txt.diff'), 'utf8')).toBe(diff);
    expect(report).toContain(diff.trimEnd().split('\n').map((l) => `    ${l}`).join('\n'));
    expect(readFileSync(join(caseDir, 'traverse_log.txt.diff'), 'utf8')).toMatch(/^--- expected_traverse_log.txt\n\+\+\+ traverse_log.txt \(yours\)\n@@ -1,\d+ \+1 @@\n Node,Depth,Value\n-root,0,-Infinity\n/);
    expect(readdirSync(caseDir).sort()).toEqual(['expected_next_state.txt', 'expected_traverse_log.txt', 'input.txt', 'next_state.txt', 'next_state.txt.diff', 'traverse_log.txt', 'traverse_log.txt.diff']);
    // The program's own files, as it wrote them.
    expect(readFileSync(join(caseDir, 'next_state.txt'), 'utf8')).toBe('python task 2\n');
    expect(readFileSync(join(caseDir, 'traverse_log.txt'), 'utf8')).toBe('Node,Depth,Value\n');

    // The reproduce command runs the student's program (not the reference) on the case's input.
    const lines = report.split('\n');
    const command = lines[lines.findIndex((l) => l.startsWith('reproduce ')) + 1]!.trim();
    expect(command).toContain('python3 main.py');
    const rerun = spawnSync('sh', ['-c', command], { encoding: 'utf8', cwd: work });
    expect([rerun.status, rerun.stderr]).toEqual([0, '']);
    expect(readFileSync(join(caseDir, 'run', 'next_state.txt'), 'utf8')).toBe(readFileSync(join(caseDir, 'next_state.txt'), 'utf8'));
    expect(readFileSync(join(caseDir, 'run', 'input.txt'), 'utf8')).toBe(readFileSync(join(caseDir, 'input.txt'), 'utf8'));
    // The submission's own folder is left alone.
    expect(existsSync(join(wrong, 'next_state.txt'))).toBe(false);

    const gs = JSON.parse(readFileSync(files.gradescope, 'utf8'));
    expect(gs.tests).toHaveLength(1);
    expect(gs.tests[0]).toMatchObject({ score: 0, status: 'failed' });
    const xml = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(readFileSync(files.junit, 'utf8'));
    expect(xml.testsuites).toMatchObject({ tests: '1', failures: '1' });

    // A second run replaces the earlier report whole.
    const again = await csci561Grade([join(root, 'agents/examples/csci561-reference/program'), wrong, '--suite', publicSuite, '--case', 'greedy-01', '--reports', files.reports, '--no-color']);
    expect(again.code, again.err).toBe(0);
    expect(readdirSync(join(files.reports, 'python'))).toEqual(['greedy-01', 'report.txt'].sort());
    expect(readFileSync(join(files.reports, 'program', 'report.txt'), 'utf8')).toMatch(/^program: 10 \/ 10 on CSCI-561 Mancala \(public\) \(1 of 1 cases passed\)\n[^]*\npassed: greedy-01\n$/);
  }, 120_000);

  it('a hidden case tells what was wrong and never shows the expected text', async () => {
    const hiddenSuite = join(root, 'testcases/csci561-hidden');
    const reports = join(work, 'reports-hidden');
    const json = join(work, 'reports-hidden.json');
    const r = await csci561Grade([wrong, '--suite', hiddenSuite, '--case', 'minimax-d2-1', '--case', 'greedy-01', '--reports', reports, '--json', json, '--no-color']);
    expect(r.code, r.err).toBe(0);
    const written = JSON.parse(readFileSync(json, 'utf8'));
    expect(written.notes).toEqual([
      expect.stringMatching(/^programs handed in as sources \(mancala\.java, .*\) run as CSCI-561 ran them/),
      "--case: only greedy-01, minimax-d2-1 graded (2 of the suite's 30 cases); scores are over these",
    ]);
    const graded = written.submissions[0].cases;
    expect(graded.map((c: { id: string; visibility: string }) => [c.id, c.visibility])).toEqual([
      ['greedy-01', 'hidden'],
      ['minimax-d2-1', 'hidden'],
    ]);
    const report = readFileSync(join(reports, 'python', 'report.txt'), 'utf8');
    expect(report).toContain('== minimax-d2-1 [minimax]: failed (a hidden case: its expected files are not shown)\n');
    expect(report).toContain('  next_state.txt line 1: got "python task 2" (not what was expected)\n');
    expect(report).not.toMatch(/expected "|expected_|^[-+]{3} /m);
    for (const id of ['minimax-d2-1', 'greedy-01']) {
      const dir = join(reports, 'python', id);
      // The input and the program's own files only: no expected file, no diff.
      expect(readdirSync(dir).sort()).toEqual(['input.txt', 'next_state.txt', 'traverse_log.txt']);
      // No line of the expected answer (the grading's JSON has them) is anywhere in the report, unless the input has it too.
      const input = readFileSync(join(dir, 'input.txt'), 'utf8').split('\n');
      const message: string = graded.find((c: { id: string }) => c.id === id).message;
      const expectedLines = [...message.matchAll(/expected "([^"]+)"/g)].map((m) => m[1]!).filter((l) => !input.includes(l));
      expect(expectedLines.length).toBeGreaterThan(0);
      for (const l of expectedLines) expect(report).not.toContain(l);
    }
  }, 120_000);

  it('lists the files written under other names, cuts a huge file at 1 MB, and says once why nothing ran', async () => {
    const huge = join(work, 'huge');
    mkdirSync(huge);
    writeFileSync(join(huge, 'command'), `sh -c "head -c 1500000 /dev/zero | tr '\\\\0' x > next_state.txt"\n`);
    const reports = join(work, 'reports-names');
    const programs = join(root, 'testcases/fixtures/programs');
    const r = await csci561Grade([join(programs, 'wrong-names'), join(programs, 'nothing'), huge, '--suite', publicSuite, '--case', 'greedy-01', '--reports', reports, '--no-color']);
    expect(r.code, r.err).toBe(0);
    const names = readFileSync(join(reports, 'wrong-names', 'report.txt'), 'utf8');
    expect(names).toContain('next_state.txt: your program did not write it\n');
    expect(names).toContain('other files your program wrote (the grader reads only next_state.txt and traverse_log.txt): "d:\\\\next_state.txt" (4 bytes), "out/traverse_log.txt" (17 bytes)\n');
    // Not a file name the course took (main.py): inferred, and run with the course's arguments.
    expect(names).toContain('&& python3 main.py -i input.txt\n');
    const nothing = readFileSync(join(reports, 'nothing', 'report.txt'), 'utf8');
    expect(nothing).toMatch(/\nNo case could run:\n  .*nothing to run: looked for a `command` file/);
    expect(nothing).toContain('== greedy-01 [greedy]: error\nplayer 2\nnot run: see above\n');
    const kept = readFileSync(join(reports, 'huge', 'greedy-01', 'next_state.txt'), 'utf8');
    expect(kept).toBe('x'.repeat(1024 * 1024));
    expect(readFileSync(join(reports, 'huge', 'report.txt'), 'utf8')).toContain('(1500000 bytes; the first 1048576 kept)');
  }, 120_000);

  it('a bad --case, an unwritable --reports or a folder in the way is one line, exit 2, before anything runs', async () => {
    const json = join(work, 'refused.json');
    const badCase = await csci561Grade([wrong, '--suite', publicSuite, '--case', 'minimax-d2-1,nope', '--json', json]);
    expect(badCase).toMatchObject({
      code: 2,
      err: 'mancala: --case nope: no such case in CSCI-561 Mancala (public); its cases are alphabeta-d1-1, alphabeta-d1-2, alphabeta-d1-3, alphabeta-d2-1, alphabeta-d2-2, … (30 in all)\n',
    });
    const file = join(work, 'reports-is-a-file');
    writeFileSync(file, '');
    const inFile = await csci561Grade([wrong, '--suite', publicSuite, '--reports', join(file, 'reports'), '--json', json]);
    expect(inFile).toMatchObject({ code: 2, err: `mancala: --reports ${join(file, 'reports')}: cannot create the folder ${join(file, 'reports')}: ${file} is a file, not a folder\n` });
    const reports = join(work, 'reports-in-the-way');
    mkdirSync(join(reports, 'python'), { recursive: true });
    writeFileSync(join(reports, 'python', 'notes.txt'), 'mine');
    const inTheWay = await csci561Grade([wrong, '--suite', publicSuite, '--reports', reports]);
    expect(inTheWay).toMatchObject({ code: 2, err: `mancala: --reports ${reports}: ${join(reports, 'python')} is in the way: it is not an earlier report (no report.txt); move it or choose another folder\n` });
    expect(readFileSync(join(reports, 'python', 'notes.txt'), 'utf8')).toBe('mine');
    // Refused before grading: no sandbox announced, no report file.
    for (const r of [badCase, inFile, inTheWay]) expect(r.out).toBe('');
    expect(existsSync(json)).toBe(false);
  });
});

const csci561Grade = (args: string[]) => runCommand(addCsci561GradeCommand, ['csci561-grade', ...args]);

describe('node bin/mancala.js csci561 (the real process)', () => {
  it.runIf(haveOfficial)('writes the official files of case 3 and exits 0; a bad input exits 2 with one line', () => {
    const bin = fileURLToPath(new URL('../../../bin/mancala.js', import.meta.url));
    const dir = freshDir();
    const ok = spawnSync(process.execPath, [bin, 'csci561', join(officialDir, 'testInput_3.txt'), '--out', dir, '--optional-lines', 'mark'], { encoding: 'utf8' });
    expect([ok.status, ok.stderr]).toEqual([0, '']);
    expect(readFileSync(join(dir, 'next_state.txt'), 'utf8')).toBe(readFileSync(join(officialDir, 'next_state_3.txt'), 'utf8'));
    expect(readFileSync(join(dir, 'traverse_log.txt'), 'utf8')).toBe(readFileSync(join(officialDir, 'traverse_log_3.txt'), 'utf8'));
    const bad = spawnSync(process.execPath, [bin, 'csci561', join(work, 'missing.txt')], { encoding: 'utf8' });
    expect([bad.status, bad.stderr]).toEqual([2, `mancala: ${join(work, 'missing.txt')}: cannot read the input file: no such file\n`]);
  });
});
