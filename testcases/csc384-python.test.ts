/**
 * CSC384 (seed 001) in the course's own Python: utils.py, agent_minimax.py and agent_alphabeta.py
 * written against the course's mancala_game, run unchanged with the project's own mancala_game by
 * its bridge (agents/clients/csc384/), graded by the same suites and checks as TypeScript
 * submissions. Real python3, the real sandbox.
 *
 *  - A correct submission (testcases/fixtures/course-apis/csc384/full-marks) gets full marks on the
 *    public and the hidden suite, the advanced heuristic's playoff included.
 *  - Broken copies of it, made here one fault each, get the verdict and the message a student can
 *    act on: a function returning None, raising, missing or not written yet; a Python 2 file; no
 *    utils.py; ties kept the wrong way (named by name-the-bug).
 *  - The project's mancala_game plays exactly as the engine does under the csc384 rules (a
 *    property test over random positions and board sizes). The heuristic's playoff runs its
 *    alpha-beta in the grader: grader-search-playoff.test.ts.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stateToBoard, type BoardSpec } from '../framework/games/mancala/board-io/board.ts';
import type { MancalaGame, MancalaState } from '../framework/games/mancala/engine.ts';
import { mancalaGame } from '../framework/games/mancala/profile-game.ts';
import { PROFILES } from '../framework/games/mancala/profiles.ts';
import type { GradeReport, SubmissionReport } from '../framework/grading/report.ts';
import { gradeSubmissions } from '../framework/grading/runner.ts';
import { playMatch } from '../framework/matches/match.ts';
import { createRandom } from '../framework/random.ts';
import { findStdioAgent } from '../framework/sandbox/stdio-agents/spec.ts';
import { loadSuite } from '../framework/suites/load.ts';
import { python27 } from './fixtures/python27.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const FULL_MARKS = join(ROOT, 'testcases/fixtures/course-apis/csc384/full-marks');
const MANCALA_GAME = join(ROOT, 'agents/clients/csc384');
const work = mkdtempSync(join(tmpdir(), 'csc384-python-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A copy of the correct submission with one fault: `edits` maps a file to [old, new] text (new null: delete the file). */
function broken(name: string, edits: Record<string, [string, string] | null>): string {
  const dir = join(work, name);
  cpSync(FULL_MARKS, dir, { recursive: true });
  for (const [file, edit] of Object.entries(edits)) {
    const path = join(dir, file);
    if (edit === null) {
      unlinkSync(path);
      continue;
    }
    const text = readFileSync(path, 'utf8');
    expect(text, `${file} holds the text to change`).toContain(edit[0]);
    writeFileSync(path, text.replace(edit[0], edit[1]));
  }
  return dir;
}

const BROKEN = {
  returnsNone: { 'agent_alphabeta.py': ['    return alphabeta_max_limit(board, curr_player, alpha, beta, heuristic_func, -1)', '    alphabeta_max_limit(board, curr_player, alpha, beta, heuristic_func, -1)'] },
  raises: { 'agent_alphabeta.py': ['def alphabeta_max_limit(board, curr_player, alpha, beta, heuristic_func, depth_limit):\n', 'def alphabeta_max_limit(board, curr_player, alpha, beta, heuristic_func, depth_limit):\n    board.pockets[9]\n'] },
  python2: { 'agent_minimax.py': ['def _over(board):\n', 'def _over(board):\n    print "looking"\n'] },
  renamed: { 'agent_alphabeta.py': ['def alphabeta_max_basic(', 'def alphabeta_maximum_basic('] },
  noUtils: { 'utils.py': null },
  printsDebugging: { 'agent_minimax.py': ['def _over(board):\n', 'def _over(board):\n    print("looking at", board)\n'] },
  notWritten: { 'agent_minimax.py': ['def minimax_max_basic(board, curr_player, heuristic_func):\n', 'def minimax_max_basic(board, curr_player, heuristic_func):\n    raise NotImplementedError\n'] },
} satisfies Record<string, Record<string, [string, string] | null>>;

/** Every max function of agent_minimax.py keeps the LAST of equally good moves (graded on the hidden suite, which has ties). */
function lastTie(): string {
  const dir = join(work, 'lastTie');
  cpSync(FULL_MARKS, dir, { recursive: true });
  const file = join(dir, 'agent_minimax.py');
  const text = readFileSync(file, 'utf8');
  expect(text).toContain('if value > best_value:');
  writeFileSync(file, text.replaceAll('if value > best_value:', 'if value >= best_value:'));
  return dir;
}

describe('a CSC384 submission in the course\'s Python, graded on the csc384 suites', () => {
  const reports: Record<'public' | 'hidden', GradeReport> = {} as never;
  const paths = Object.fromEntries(Object.entries(BROKEN).map(([name, edits]) => [name, broken(name, edits)])) as Record<keyof typeof BROKEN, string>;
  const tiesLast = lastTie();

  beforeAll(async () => {
    for (const name of ['public', 'hidden'] as const) {
      const suite = await loadSuite(join(ROOT, `testcases/csc384-${name}`));
      const submissions = name === 'public' ? [FULL_MARKS, ...Object.values(paths)] : [FULL_MARKS, tiesLast];
      reports[name] = await gradeSubmissions({ suite, submissions, visibility: 'all', jobs: 2 });
    }
  }, 240_000);

  const graded = (suite: 'public' | 'hidden', path: string): SubmissionReport => reports[suite].submissions.find((s) => s.path === path)!;
  const failing = (path: string) => graded('public', path).cases.filter((c) => c.status !== 'passed');

  it('is found as the course\'s files, run by the bridge that answers heuristic roles too', async () => {
    expect(await findStdioAgent(FULL_MARKS)).toMatchObject({ evaluates: true, source: expect.stringContaining("agent_minimax.py, agent_alphabeta.py, utils.py: CSC384's files") });
  });

  it.each(['public', 'hidden'] as const)('the correct submission gets full marks on the %s suite', (suite) => {
    const report = graded(suite, FULL_MARKS);
    expect(report.cases.filter((c) => c.status !== 'passed').map((c) => `${c.id}: ${c.message}`)).toEqual([]);
    expect(report.score).toBeCloseTo(report.maxScore);
    if (suite === 'hidden') expect(report.cases.map((c) => c.category)).toContain('advanced heuristic playoff');
  });

  it('a search that returns None: an error naming the file, the function and what it returned', () => {
    expect(failing(paths.returnsNone).map((c) => [c.id, c.status, c.message])).toEqual([
      ['alphabeta-public', 'error', expect.stringContaining('agent_alphabeta.py: alphabeta_max_basic returned None: expected (best_move, value)')],
    ]);
  });

  it('a search that raises: the exception\'s type and message, and where in the student\'s file', () => {
    const cases = failing(paths.raises);
    expect(cases.map((c) => c.id)).toEqual(['alphabeta-public', 'alphabeta-limit-public']);
    expect(cases[0]!.message).toMatch(/agent_alphabeta\.py: alphabeta_max_basic raised IndexError: list index out of range\n {2}File "agent_alphabeta\.py", line \d+, in alphabeta_max_basic\n[^]*File "agent_alphabeta\.py", line \d+, in alphabeta_max_limit/);
    expect(cases[0]!.message).not.toContain('csc384_bridge');
  });

  it('a Python 2 file: said to be Python 2, with the way to give an interpreter; the other file\'s cases still pass', () => {
    const cases = failing(paths.python2);
    expect(cases.map((c) => c.id)).toEqual(['minimax-public', 'minimax-limit-public', 'minimax-caching-public']);
    for (const c of cases) {
      expect(c.message).toMatch(/agent_minimax\.py looks like Python 2 \(line 7\), which cannot run on Python 3\.\d+[^]*--python PATH/);
      expect(c.message).not.toMatch(/Traceback/);
    }
  });

  it("a student's debugging prints go to the log, not the protocol: every case passes", () => {
    expect(failing(paths.printsDebugging)).toEqual([]);
  });

  it('a function under another name: the name looked for', () => {
    expect(failing(paths.renamed).map((c) => c.message)).toEqual([expect.stringContaining('agent_alphabeta.py has no function alphabeta_max_basic')]);
  });

  it('no utils.py: every case says what a submission is', () => {
    const cases = failing(paths.noUtils);
    expect(cases).toHaveLength(7);
    for (const c of cases) expect(c.message).toContain('utils.py is missing: a CSC384 submission is utils.py, agent_minimax.py and agent_alphabeta.py');
  });

  it("a function not written yet (the starter's NotImplementedError) is a failed case naming it, not a crash", () => {
    expect(failing(paths.notWritten).map((c) => [c.id, c.status, c.message])).toEqual([
      ['minimax-public', 'failed', 'not written yet: minimax_max_basic (agent_minimax.py)'],
    ]);
  });

  it('ties kept the wrong way: minimax cases fail on the move, and name-the-bug says why', () => {
    const cases = graded('hidden', tiesLast).cases.filter((c) => c.status !== 'passed');
    expect(cases.length).toBeGreaterThan(5);
    for (const c of cases) expect(c.category).toMatch(/^minimax/);
    expect(cases[0]!.message).toMatch(/^move: expected [TB]\d \(index \d\), got [TB]\d \(index \d\)\nlikely bug: Your search matches the reference with ties going to the last best move instead of the first/);
  });
});

describe("a match plays the student's agent as the course's manager runs it (run_ai over stdin and stdout)", () => {
  it('beats random with no forfeit, and plays exactly the games of the same functions called directly', async () => {
    const withoutRunAi = broken('no-run-ai', { 'agent_alphabeta.py': ['def run_ai():', 'def run_ai_unused():'] });
    const asManager = await playMatch({ A: FULL_MARKS, B: 'random', rules: 'csc384', games: 2, timePerMoveMs: 2000, seed: 3 });
    const direct = await playMatch({ A: withoutRunAi, B: 'random', rules: 'csc384', games: 2, timePerMoveMs: 2000, seed: 3 });
    for (const g of asManager.games) {
      expect(g.forfeit, JSON.stringify(g.forfeit)).toBeNull();
      expect(g.winner).toBe('A');
    }
    expect(asManager.games.map((g) => g.moves)).toEqual(direct.games.map((g) => g.moves));
  }, 120_000);

  it("a move the program prints that is no legal pocket is a forfeit naming it", async () => {
    const printsNonsense = broken('prints-99', { 'agent_alphabeta.py': ['        print(select_move(Board(pockets, mancalas), color, limit, caching == 1, heuristic_func))', '        print(99)'] });
    const r = await playMatch({ A: printsNonsense, B: 'random', rules: 'csc384', games: 1, timePerMoveMs: 2000, seed: 3 });
    expect(r.games[0]!.forfeit!.message).toMatch(/agent_alphabeta\.py printed the move 99: expected one of the pockets \[/);
  }, 120_000);
});

/** A random position of `game`: a few random moves from the start (the engine's own legal moves). */
function randomPosition(game: MancalaGame, seed: number, plies: number): MancalaState {
  const random = createRandom(seed);
  let state = game.initial();
  for (let i = 0; i < plies && !game.isOver(state); i++) {
    const moves = game.legalMoves(state);
    state = game.play(state, moves[Math.floor(random() * moves.length)]!);
  }
  return state;
}

/** The course numbers pockets left to right as the bottom player sees them; the engine, in the mover's sowing order. */
const pocketOf = (game: MancalaGame, state: MancalaState, move: number) => (game.toMove(state) === 0 ? move : game.n - 1 - move);

describe("the project's mancala_game.py plays as the engine does (csc384 rules)", () => {
  it('every legal move of random positions, 3 to 8 pits, gives the same board and the same end of game', () => {
    const cases: { game: MancalaGame; state: MancalaState; move: number }[] = [];
    fc.assert(
      fc.property(fc.integer({ min: 3, max: 8 }), fc.integer({ min: 1, max: 6 }), fc.integer({ min: 0, max: 80 }), fc.integer(), (pits, seeds, plies, seed) => {
        const game = mancalaGame(PROFILES.csc384!, pits, seeds);
        const state = randomPosition(game, seed, plies);
        for (const move of game.legalMoves(state)) cases.push({ game, state, move });
      }),
      { numRuns: 200, seed: 384 },
    );
    const input = cases.map(({ game, state, move }) => {
      const b = stateToBoard(game, state);
      return JSON.stringify({ pockets: [b.top, b.bottom], mancalas: [b.topStore, b.bottomStore], player: game.toMove(state) === 0 ? 1 : 0, pocket: pocketOf(game, state, move) });
    });
    const script = [
      'import json, sys',
      'from mancala_game import Board, play_move',
      'for line in sys.stdin:',
      '    c = json.loads(line)',
      '    after = play_move(Board(c["pockets"], c["mancalas"]), c["player"], c["pocket"])',
      '    print(json.dumps({"top": after.pockets[0], "bottom": after.pockets[1], "stores": after.mancalas, "over": after.is_game_over()}))',
    ].join('\n');
    const py = spawnSync('python3', ['-c', script], { input: input.join('\n') + '\n', encoding: 'utf8', env: { ...process.env, PYTHONPATH: MANCALA_GAME }, maxBuffer: 64 << 20 });
    expect(py.status, py.stderr).toBe(0);
    const got = py.stdout.trim().split('\n').map((l) => JSON.parse(l) as { top: number[]; bottom: number[]; stores: number[]; over: boolean });
    expect(got).toHaveLength(cases.length);
    expect(cases.length).toBeGreaterThan(300);
    cases.forEach(({ game, state, move }, i) => {
      const after = game.play(state, move);
      const b: BoardSpec = stateToBoard(game, after);
      expect(got[i], `case ${i}: ${input[i]}`).toEqual({ top: b.top, bottom: b.bottom, stores: [b.topStore, b.bottomStore], over: game.isOver(after) });
    });
  });
});

const PYTHON27 = python27();

describe.runIf(PYTHON27 !== undefined)('a Python 2 submission on a Python 2.7 given with --python', () => {
  it('gets full marks on the public suite, through the real CLI; without --python it is said to be Python 2', () => {
    const dir = broken('python2-submission', BROKEN.python2);
    const json = join(work, 'py27.json');
    const grade = (extra: string[]) => spawnSync(process.execPath, [join(ROOT, 'bin/mancala.js'), 'grade', dir, '--suite', join(ROOT, 'testcases/csc384-public'), '--json', json, '--no-progress', ...extra], { encoding: 'utf8', timeout: 120_000 });
    expect(grade(['--python', PYTHON27!]).status).toBe(0);
    const onPython27 = JSON.parse(readFileSync(json, 'utf8')) as GradeReport;
    expect(onPython27.submissions[0]!.cases.filter((c) => c.status !== 'passed').map((c) => `${c.id}: ${c.message}`)).toEqual([]);
    grade([]);
    const onPython3 = JSON.parse(readFileSync(json, 'utf8')) as GradeReport;
    expect(onPython3.submissions[0]!.cases.find((c) => c.id === 'minimax-public')!.message).toContain('looks like Python 2');
  }, 240_000);
});
