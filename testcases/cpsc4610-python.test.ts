/**
 * Seed 002's (CPSC 4610) students write Python 3 against the course's own MancalaBoard and
 * TicTacToe. The project's versions (agents/clients/cpsc4610/) play by the cpsc4610 rules exactly as
 * the engine does, and a student's file runs unchanged through the bridge, graded by the same suites
 * and checks as a TypeScript submission. Real python3, the real sandbox.
 *
 *  - A tournament entry, NAME.py holding `class NAME(Player)`, plays matches; each way a player
 *    can fail is a forfeit whose reason says what it did.
 *  - The whole submission, YourPlayer.py (Player with alphaBetaMove, MancalaPlayer's score, the
 *    custom player), gets full marks on cpsc4610-public, cpsc4610-hidden and tictactoe-public
 *    (testcases/fixtures/course-apis/cpsc4610/full-marks); its node counts and the pruning trace
 *    are read from the project's boards. Failing ones get the verdict and the message a student
 *    can act on: an alpha-beta that prunes too late (right moves; node counts and the trace fail,
 *    the trace naming where, in the seed's words), a score returning None, a syntax error.
 *  - The scoring function's playoff runs its alpha-beta in the grader, asking the bridge for
 *    values only: grader-search-playoff.test.ts.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MancalaGame } from '../framework/games/mancala/engine.ts';
import { PROFILES } from '../framework/games/mancala/profiles.ts';
import { TicTacToeGame } from '../framework/games/tictactoe/game.ts';
import type { GradeReport, SubmissionReport } from '../framework/grading/report.ts';
import { gradeSubmissions } from '../framework/grading/runner.ts';
import { playMatch } from '../framework/matches/match.ts';
import { StdioAgentSession } from '../framework/sandbox/stdio-agents/session.ts';
import { findStdioAgent } from '../framework/sandbox/stdio-agents/spec.ts';
import { loadSuite } from '../framework/suites/load.ts';
import { python27 } from './fixtures/python27.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const PLAYERS = join(ROOT, 'testcases/fixtures/course-apis/cpsc4610');
const API = join(ROOT, 'agents/clients/cpsc4610');
const python = spawnSync('python3', ['--version']).status === 0;
const player = (name: string) => join(PLAYERS, name);

describe.runIf(python)("the course's MancalaBoard, as the project wrote it", () => {
  it('makeMove and gameOver agree with the engine under the cpsc4610 rules, move by move, on random games', () => {
    const games = fc.sample(fc.array(fc.nat(), { minLength: 200, maxLength: 200 }), { numRuns: 150, seed: 4610 });
    const game = new MancalaGame(PROFILES.cpsc4610!.rules, 'cpsc4610');
    const input: string[] = [];
    const expected: string[][] = [];
    for (const picks of games) {
      let s = game.initial();
      const first = game.toMove(s);
      const cups: number[] = [];
      const lines: string[] = [];
      for (const pick of picks) {
        if (game.isOver(s)) break;
        const legal = game.legalMoves(s);
        const move = legal[pick % legal.length]!;
        const mover = game.toMove(s);
        s = game.play(s, move);
        cups.push(move + 1);
        const over = game.isOver(s);
        // Over, both rows are swept into their owners' Mancalas (the board's gameOver does the same).
        const p1 = over ? [0, 0, 0, 0, 0, 0] : game.row(s, 0);
        const p2 = over ? [0, 0, 0, 0, 0, 0] : game.row(s, 1);
        const score = over ? [game.store(s, 0) + game.row(s, 0).reduce((a, b) => a + b, 0), game.store(s, 1) + game.row(s, 1).reduce((a, b) => a + b, 0)] : [game.store(s, 0), game.store(s, 1)];
        const again = !over && game.toMove(s) === mover;
        lines.push(over ? `over ${JSON.stringify(score)}` : `${again ? 'True' : 'False'} ${JSON.stringify(p1)} ${JSON.stringify(p2)} ${JSON.stringify(score)} False`);
      }
      input.push([first + 1, ...cups].join(' '));
      expected.push(lines);
    }
    const out = execFileSync('python3', ['-B', join(PLAYERS, 'harness', 'board_replay.py'), API], { input: input.join('\n') + '\n', encoding: 'utf8' });
    const got = out.trim().split('\nend').map((g) => g.trim().split('\n').filter((l) => l !== ''));
    let overs = 0;
    expected.forEach((lines, k) => {
      lines.forEach((want, i) => {
        const line = got[k]![i]!.replace(/, /g, ',');
        if (want.startsWith('over ')) {
          // At the end: the game is over, and the Mancalas hold what the engine's final count says.
          overs++;
          expect(line.endsWith(' True'), `game ${input[k]}`).toBe(true);
          expect(line.split(' ')[3], `game ${input[k]}`).toBe(want.slice('over '.length));
        } else {
          expect(line, `game ${input[k]}, move ${i + 1}`).toBe(want);
        }
      });
    });
    expect(overs).toBeGreaterThan(100);
  });
});

describe.runIf(python)("a student's NAME.py, unchanged", () => {
  it('is found as the course API and run by the bridge with the project\'s MancalaBoard', async () => {
    const spec = await findStdioAgent(player('DavesPlayer'));
    expect(spec).toMatchObject({ run: ['python3', join(API, 'cpsc4610_bridge.py'), 'DavesPlayer'] });
    expect(spec!.source).toMatch(/^DavesPlayer\.py: class Player, class DavesPlayer\(Player\), CPSC 4610's player file/);
  });

  it('an alpha-beta player plays whole games from both seats without a forfeit, and beats random', async () => {
    const r = await playMatch({ A: player('DavesPlayer'), B: 'random', rules: 'cpsc4610', games: 4, timePerMoveMs: 3000, seed: 11 });
    for (const g of r.games) expect(g.forfeit, JSON.stringify(g.forfeit)).toBeNull();
    expect(r.games.filter((g) => g.winner === 'A').length).toBeGreaterThanOrEqual(3);
  }, 180_000);

  it('a player that returns None plays an illegal move naming what came back, not a crash', async () => {
    const r = await playMatch({ A: player('NonePlayer'), B: 'random', rules: 'cpsc4610', games: 1, timePerMoveMs: 2000, seed: 1 });
    expect(r.games[0]!.forfeit).toMatchObject({ side: 'A', reason: 'illegal-move' });
    expect(r.games[0]!.forfeit!.message).toMatch(/^at move \d+: played None, not a legal move \(NonePlayer\.chooseMove returned None: expected a cup number, 1 to 6\); legal: \S+/);
  }, 60_000);

  it('a player that raises forfeits, the reason naming the exception', async () => {
    const r = await playMatch({ A: player('RaisesPlayer'), B: 'random', rules: 'cpsc4610', games: 1, timePerMoveMs: 2000, seed: 1 });
    expect(r.games[0]!.forfeit!.message).toMatch(/RaisesPlayer\.chooseMove raised ValueError: RaisesPlayer has no idea with \d+ in its Mancala\n  File "RaisesPlayer\.py", line \d+, in chooseMove/);
  }, 60_000);

  it('a Python 2 file is said to be Python 2, never a raw traceback', async () => {
    const r = await playMatch({ A: player('OldPlayer'), B: 'random', rules: 'cpsc4610', games: 1, timePerMoveMs: 2000, seed: 1 });
    const message = r.games[0]!.forfeit!.message;
    expect(message).toMatch(/OldPlayer\.py looks like Python 2 \(line 15\), which cannot run on Python 3\.\d+: print\(\.\.\.\) is a function in Python 3[^]*--python PATH/);
    expect(message).not.toMatch(/Traceback/);
  }, 60_000);
});

describe.runIf(python)("the course's TicTacToe, as the project wrote it", () => {
  it('legalMoves, makeMove, hasWon and gameOver agree with the engine on random games; cells print as the seed prints them', () => {
    const game = new TicTacToeGame();
    const games = fc.sample(fc.array(fc.nat(), { minLength: 9, maxLength: 9 }), { numRuns: 300, seed: 2 });
    const expected: string[] = [];
    const input = games.map((picks) => {
      let s = game.initial();
      const cells: number[] = [];
      for (const pick of picks) {
        if (game.isOver(s)) break;
        const legal = game.legalMoves(s);
        const m = legal[pick % legal.length]!;
        s = game.play(s, m);
        cells.push(m);
        const board = game.toBoardString(s).replaceAll('/', '');
        const winner = game.winner(s);
        expected.push(JSON.stringify([board.replaceAll('_', ' '), [...board].flatMap((c, i) => (c === '_' ? [i] : [])), winner === 0, winner === 1, game.isOver(s)]));
      }
      return cells.join(' ');
    });
    const script = [
      'import json, sys',
      `sys.path.insert(0, ${JSON.stringify(API)})`,
      'from TicTacToe import TTTBoard',
      'class P:',
      '    def __init__(self, num): self.num = num',
      'for line in sys.stdin:',
      '    b = TTTBoard(); mover = 1',
      '    for cell in line.split():',
      '        assert b.legalMove(P(mover), int(cell)) and b.makeMove(P(mover), int(cell))',
      '        assert not b.makeMove(P(mover), int(cell))',
      '        print(json.dumps(["".join(b.board), b.legalMoves(P(mover)), b.hasWon(1), b.hasWon(2), b.gameOver()], separators=(",", ":")))',
      '        mover = 3 - mover',
      'b = TTTBoard()',
      'for cell in (0, 1, 4, 3): b.makeMove(P(1 + len([c for c in b.board if c != " "]) % 2), cell)',
      'print(repr(b).replace("\\n", " ").strip())',
    ].join('\n');
    const out = execFileSync('python3', ['-B', '-c', script], { input: input.join('\n') + '\n', encoding: 'utf8' }).trim().split('\n');
    // legalMoves lists the empty cells, also once the game is won (as the course's board does).
    expect(out.slice(0, -1)).toEqual(expected);
    expect(expected.length).toBeGreaterThan(1500);
    expect(out.at(-1)).toBe('XO2 OX5 678');
  });
});

const FULL_MARKS = player('full-marks');
const PRUNES_LATE = player('prunes-late');
const SCORE_NONE = player('score-none');
const SYNTAX_ERROR = player('syntax-error');

describe.runIf(python)("a whole submission in the course's Python, YourPlayer.py, graded on the cpsc4610 and tictactoe suites", () => {
  const SUITES = { 'cpsc4610-public': [FULL_MARKS, PRUNES_LATE, SCORE_NONE, SYNTAX_ERROR], 'cpsc4610-hidden': [FULL_MARKS], 'tictactoe-public': [FULL_MARKS, PRUNES_LATE, SYNTAX_ERROR] };
  type SuiteName = keyof typeof SUITES;
  const reports = {} as Record<SuiteName, GradeReport>;

  beforeAll(async () => {
    for (const [name, submissions] of Object.entries(SUITES) as [SuiteName, string[]][]) {
      reports[name] = await gradeSubmissions({ suite: await loadSuite(join(ROOT, 'testcases', name)), submissions, visibility: 'all', jobs: 2 });
    }
  }, 300_000);

  const graded = (suite: SuiteName, path: string): SubmissionReport => reports[suite].submissions.find((s) => s.path === path)!;
  const byId = (suite: SuiteName, path: string) => new Map(graded(suite, path).cases.map((c) => [c.id, c]));

  it('is found as the course\'s file: the bridge, YourPlayer named, answering the scoring function\'s requests too', async () => {
    expect(await findStdioAgent(FULL_MARKS)).toMatchObject({
      run: ['python3', join(API, 'cpsc4610_bridge.py'), 'YourPlayer'],
      evaluates: true,
      source: "YourPlayer.py: class Player, class MancalaPlayer(Player), class YourPlayer(Player), CPSC 4610's player file, run with the project's MancalaBoard and TicTacToe",
    });
  });

  it("answers an evaluate request with MancalaPlayer(num, ...).score(board), for either side's view", async () => {
    const cpsc4610 = { kind: 'mancala' as const, profile: 'cpsc4610', name: 'cpsc4610(6,4)', rules: PROFILES.cpsc4610!.rules };
    const session = await StdioAgentSession.open((await findStdioAgent(FULL_MARKS))!, { memoryMb: 256 }, { game: cpsc4610 });
    try {
      const board = { top: [0, 5, 1, 0, 3, 2], bottom: [2, 0, 4, 1, 0, 6], topStore: 11, bottomStore: 13, toMove: 0 as const };
      // The fixture's score for bottom: 2 * (13 - 11) + 0.75 * (13 - 11) + its cup 3's free turn (4 stones, 4 to its Mancala).
      for (const [player, value] of [[0, 6.5], [1, -6.5]] as const) {
        const r = await session.request({ type: 'evaluate', role: 'score', game: cpsc4610, board, player }, 5000);
        expect(r).toMatchObject({ status: 'ok', observation: { heuristicValue: value } });
      }
    } finally {
      await session.close();
    }
  });

  it.each(Object.keys(SUITES) as SuiteName[])('the correct submission gets full marks on %s', (suite) => {
    const report = graded(suite, FULL_MARKS);
    expect(report.cases.filter((c) => c.status !== 'passed').map((c) => `${c.id}: ${c.message}`)).toEqual([]);
    expect(report.score).toBeCloseTo(report.maxScore);
    expect(report.cases.length).toBeGreaterThan(9);
  });

  it('an alpha-beta that prunes too late: moves and values right; node counts and the pruning trace fail, the trace naming where in the seed\'s words', () => {
    const mancala = graded('cpsc4610-public', PRUNES_LATE);
    for (const c of mancala.cases) expect([c.id, c.status]).toEqual([c.id, c.category === 'alpha-beta pruning' ? 'failed' : c.id === 'custom-vs-alphabeta-2' ? c.status : 'passed']);
    expect(byId('cpsc4610-public', PRUNES_LATE).get('nodes-start')!.message).toMatch(/^nodes: expected exactly \d+ \(the reference's count\), got \d+ \(\d+ more than the reference\)/);
    const ttt = byId('tictactoe-public', PRUNES_LATE);
    for (const id of ['empty-board', 'corner-opening-reply', 'win-in-one', 'lost-anyway', 'depth-2-heuristic']) expect(ttt.get(id)!.status).toBe('passed');
    const example = ttt.get('seed-pruning-example')!;
    expect(example.status).toBe('failed');
    expect(example.message).not.toMatch(/^(move|value):/m);
    expect(example.message).toContain(
      'trace: pruned too late after O 3, X 2 (XXX OO5 678): there the reference\'s minValue node O 3 (XX2 OO5 678) stops (value -1 <= alpha 0), skipping its 4 other moves; your search went on to O 3, X 5 (XX2 OOX 678)\n' +
        'trace: the reference, as the seed prints it: alpha is 0, score is -1. Aborted on move 2 in minValue on XX2 OO5 678',
    );
    expect(ttt.get('pruning-block')!.message).toMatch(/^trace: pruned too late after /);
  });

  it('a score that returns None: the scoring function\'s playoff names it; the alpha-beta cases, which use the course\'s score, pass', () => {
    const cases = byId('cpsc4610-public', SCORE_NONE);
    for (const c of cases.values()) if (c.category.startsWith('alpha-beta')) expect([c.id, c.status]).toEqual([c.id, 'passed']);
    expect(cases.get('score-playoff')!.message).toContain('NoScorePlayer.py: MancalaPlayer.score returned None: expected a number (bigger is better for the player)');
    // The custom player searches with it too, and stops on None as Python does: the exception and where.
    expect(cases.get('custom-vs-random')!.message).toMatch(/NoScorePlayer\.py: NoScorePlayer\.chooseMove raised TypeError: '[<>]' not supported between instances of 'NoneType' and 'float'\n {2}File "NoScorePlayer\.py", line \d+, in value/);
    expect(cases.get('custom-vs-random')!.message).not.toMatch(/\^\^\^|cpsc4610_bridge/);
  });

  it('a syntax error: every case says so, with the line, never a traceback', () => {
    for (const suite of ['cpsc4610-public', 'tictactoe-public'] as const) {
      for (const c of graded(suite, SYNTAX_ERROR).cases) {
        expect(c.status).toBe('error');
        expect(c.message).toMatch(/BrokenPlayer\.py has a syntax error: .+ \(line 23\)/);
        expect(c.message).not.toMatch(/Traceback/);
      }
    }
  });
});

const PYTHON27 = python ? python27() : undefined;

describe.runIf(PYTHON27 !== undefined)('under Python 2.7 (mancala grade --python)', () => {
  const out = mkdtempSync(join(tmpdir(), 'cpsc4610-py27-'));
  afterAll(() => rmSync(out, { recursive: true, force: true }));

  it('the bridge, the boards and the correct submission run as they do on Python 3: full marks on tictactoe-public, through the real CLI', () => {
    const json = join(out, 'report.json');
    const r = spawnSync('node', [join(ROOT, 'bin/mancala.js'), 'grade', FULL_MARKS, '--suite', join(ROOT, 'testcases/tictactoe-public'), '--python', PYTHON27!, '--json', json], { encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    const report = JSON.parse(readFileSync(json, 'utf8')) as GradeReport;
    const submission = report.submissions[0]!;
    expect(submission.cases.filter((c) => c.status !== 'passed').map((c) => `${c.id}: ${c.message}`)).toEqual([]);
  }, 120_000);
});

