/**
 * The seed-002 (CPSC 4610) course pack end to end: the course's provided score (100 won, 0 lost,
 * 50 otherwise) is the starter's score.ts, agrees with the course's Player.score on its board, and
 * is what the alpha-beta cases hand the search; its three suites (cpsc4610-public,
 * cpsc4610-hidden, tictactoe-public) are blessed and up to date; the example reference submission
 * gets full marks; the one with pruning on > / < loses exactly the node-count and trace points,
 * each failure naming the bug; the starter prunes nothing and is told so; the seed's pruning
 * example is in the Tic-Tac-Toe suite's reference trace and prints as the seed prints it; and the
 * class tournament's "one thread" rule holds in the sandbox (a player that starts a Worker loses).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fc from 'fast-check';
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TicTacToeGame } from '../framework/games/tictactoe/game.ts';
import type { GradeReport, SubmissionReport } from '../framework/grading/report.ts';
import { gradeSubmissions } from '../framework/grading/runner.ts';
import type { TraceEvent } from '../framework/contracts/search-trace.ts';
import { blessSuite } from '../framework/suites/bless.ts';
import { unblessedCases } from '../framework/suites/expected.ts';
import { loadSuite } from '../framework/suites/load.ts';
import type { Suite } from '../framework/suites/types.ts';
import { pruneLine, prunesOf } from '../agents/starters/cpsc4610-typescript/explain-pruning.ts';
import starterMinimax from '../agents/starters/cpsc4610-typescript/minimax.ts';
import starterScore from '../agents/starters/cpsc4610-typescript/score.ts';
import referenceMinimax from '../agents/minimax.ts';
import provided from '../framework/heuristics/cpsc4610-provided.ts';
import { MancalaGame } from '../framework/games/mancala/engine.ts';
import { findProfile } from '../framework/games/mancala/profiles.ts';
import { createRandom } from '../framework/random.ts';
import { runAgent } from '../framework/search/run-agent.ts';
import { reproduceLines } from '../graders/reproduce.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const REFERENCE = join(ROOT, 'agents/examples/cpsc4610-reference');
const STRICT = join(ROOT, 'agents/examples/cpsc4610-strict-pruning');
const STARTER = join(ROOT, 'agents/starters/cpsc4610-typescript');
const SUITES = ['cpsc4610-public', 'cpsc4610-hidden', 'tictactoe-public'] as const;

/** Named alone, or (where no prune could happen anyway, every value equal) as one of two equal explanations. */
const STRICT_BUG = /likely bug: Your search matches the reference with .*pruning on > \/ < instead of >= \/ <=/;
const NO_PRUNING_BUG = 'likely bug: Your search matches the reference with no pruning, plain minimax where alpha-beta is expected';

const suites = new Map<string, Suite>();
const scratch: string[] = [];

beforeAll(async () => {
  for (const name of SUITES) suites.set(name, await loadSuite(join(ROOT, 'testcases', name)));
});
afterAll(() => {
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
});

function suite(name: (typeof SUITES)[number]): Suite {
  return suites.get(name)!;
}

function submission(report: GradeReport, path: string): SubmissionReport {
  const s = report.submissions.find((x) => x.path === path);
  if (s === undefined) throw new Error(`no submission ${path} in the report`);
  return s;
}

/** Points lost per category (max − score), categories with nothing lost left out. */
function lost(s: SubmissionReport): Record<string, number> {
  const out: Record<string, number> = {};
  for (const c of s.cases) {
    const gone = Math.round((c.maxScore - c.score) * 1e6) / 1e6;
    if (gone > 0) out[c.category] = Math.round(((out[c.category] ?? 0) + gone) * 1e6) / 1e6;
  }
  return out;
}

function failedIds(s: SubmissionReport): string[] {
  return s.cases.filter((c) => c.status !== 'passed').map((c) => c.id).sort();
}

const python = spawnSync('python3', ['--version']).status === 0;

/** Random positions of the cpsc4610 game: random rows (empty cups and finished games likely) and stores. */
const positionArb = fc
  .record({
    bottom: fc.array(fc.integer({ min: 0, max: 6 }), { minLength: 6, maxLength: 6 }),
    top: fc.array(fc.integer({ min: 0, max: 6 }), { minLength: 6, maxLength: 6 }),
    stores: fc.tuple(fc.nat(30), fc.nat(30)),
    toMove: fc.constantFrom<0 | 1>(0, 1),
    emptyRow: fc.constantFrom('none', 'none', 'bottom', 'top'),
  })
  .map((p) => ({ ...p, bottom: p.emptyRow === 'bottom' ? [0, 0, 0, 0, 0, 0] : p.bottom, top: p.emptyRow === 'top' ? [0, 0, 0, 0, 0, 0] : p.top }));

describe("the course's provided score (100 won, 0 lost, 50 otherwise)", () => {
  const game = new MancalaGame(findProfile('cpsc4610')!.rules, 'cpsc4610(6,4)');

  it("is the starter's score.ts as given, and the heuristic the suites' alpha-beta cases hand the search", () => {
    fc.assert(
      fc.property(positionArb, (p) => {
        const s = game.fromRows(p.bottom, p.top, p.stores[0], p.stores[1], p.toMove);
        for (const who of [0, 1] as const) expect(starterScore.evaluate(s, who, game)).toBe(provided.evaluate(s, who, game));
      }),
      { numRuns: 500, seed: 4610 },
    );
    const ttt = new TicTacToeGame();
    for (const board of ['XXX/OO_/___', 'XO_/_X_/O_X', 'XOX/XOO/OXX', '___/___/___']) {
      const s = ttt.fromString(board);
      for (const who of [0, 1] as const) expect(starterScore.evaluate(s, who, ttt)).toBe(provided.evaluate(s, who, ttt));
    }
    for (const name of ['cpsc4610-public', 'cpsc4610-hidden']) {
      const m = suite(name as 'cpsc4610-public').manifest;
      expect(m.roles.score!.reference).toBe('cpsc4610-provided');
      for (const c of suite(name as 'cpsc4610-public').cases.filter((x) => x.role === 'alphabeta' || x.role === 'full')) {
        expect(c.options, c.id).toMatchObject({ heuristic: 'cpsc4610-provided', terminal: 'heuristic' });
      }
    }
  });

  it("makes the starter's provided minimax decide as the course's player: the reference minimax with the provided score", async () => {
    const positions = fc.sample(fc.array(fc.nat(), { minLength: 40, maxLength: 40 }), { numRuns: 60, seed: 2 });
    for (const picks of positions) {
      let s = game.initial();
      for (const pick of picks.slice(0, picks[0]! % 40)) {
        if (game.isOver(s)) break;
        const legal = game.legalMoves(s);
        s = game.play(s, legal[pick % legal.length]!);
      }
      if (game.isOver(s)) continue;
      const course = await runAgent(referenceMinimax, { game, state: s, heuristic: provided, options: { depth: 4, unit: 'move', terminal: 'heuristic', freeTurns: 'ignore' }, random: createRandom(1) });
      // The starter as given: its own score, and nothing said about finished games (it scores them by the score, as the course does).
      const starter = await runAgent(starterMinimax, { game, state: s, heuristic: starterScore, options: { depth: 4 }, random: createRandom(1) });
      expect([starter.choice.move, starter.choice.value], game.describe(s)).toEqual([course.choice.move, course.choice.value]);
    }
  });

  it.runIf(python)("agrees with the course's Player.score on the course's MancalaBoard (hasWon after gameOver's sweep)", () => {
    const script = [
      'import json, sys',
      'sys.path.insert(0, sys.argv[1])',
      'from MancalaBoard import MancalaBoard',
      'def score(board, num):',
      '    # Seed 002, Player.score',
      '    opp = 2 if num == 1 else 1',
      '    if board.hasWon(num): return 100.0',
      '    elif board.hasWon(opp): return 0.0',
      '    else: return 50.0',
      'for line in sys.stdin:',
      '    d = json.loads(line)',
      '    out = []',
      '    for num in (1, 2):',
      '        b = MancalaBoard()',
      "        b.P1Cups, b.P2Cups, b.scoreCups = list(d['p1']), list(d['p2']), list(d['stores'])",
      '        out.append(score(b, num))',
      '    print(json.dumps(out))',
    ].join('\n');
    const positions = fc.sample(positionArb, { numRuns: 400, seed: 4611 });
    const input = positions.map((p) => JSON.stringify({ p1: p.bottom, p2: p.top, stores: p.stores })).join('\n') + '\n';
    const out = execFileSync('python3', ['-c', script, join(ROOT, 'agents/clients/cpsc4610')], { input, encoding: 'utf8' }).trim().split('\n');
    expect(out).toHaveLength(positions.length);
    let finished = 0;
    positions.forEach((p, k) => {
      const s = game.fromRows(p.bottom, p.top, p.stores[0], p.stores[1], p.toMove);
      if (game.isOver(s)) finished++;
      expect(JSON.parse(out[k]!), JSON.stringify(p)).toEqual([provided.evaluate(s, 0, game), provided.evaluate(s, 1, game)]);
    });
    expect(finished).toBeGreaterThan(100);
  });
});

describe('the CPSC 4610 suites', () => {
  it.each(SUITES)('%s: every case is blessed, and blessing again changes nothing', async (name) => {
    const s = suite(name);
    expect(unblessedCases(s).map((c) => c.id)).toEqual([]);
    const again = await blessSuite(s);
    expect(again.changed).toEqual([]);
  });

  it('grade alpha-beta with free turns ignored, as the provided minimax; the optional Full role honours them', () => {
    const pub = suite('cpsc4610-public').manifest;
    const hidden = suite('cpsc4610-hidden').manifest;
    expect(pub.game).toMatchObject({ kind: 'mancala', profile: 'cpsc4610' });
    expect(pub.roles.alphabeta!.reference).toBe('alphabeta:freeTurns=ignore');
    expect(hidden.roles.alphabeta!.reference).toBe('alphabeta:freeTurns=ignore');
    expect(hidden.roles.full!.reference).toBe('alphabeta:freeTurns=honour');
    // The conventions differ on these cases: the blessed answers are the 'ignore' ones.
    const e = suite('cpsc4610-hidden').expected;
    expect(e['full-start']!.nodes).not.toBe(suite('cpsc4610-public').expected['nodes-start']!.nodes);
  });

  it("holds seed 002's pruning example in the Tic-Tac-Toe suite's reference trace, printable as the seed prints it", () => {
    const events = suite('tictactoe-public').expected['seed-pruning-example']!.trace as TraceEvent[];
    // After O's draw at cell 2 (alpha 0), O tries cell 3; X's reply at cell 2 wins (-1 <= alpha): 4 moves skipped.
    expect(events).toContainEqual({ type: 'prune', name: '3', level: 1, maximizing: false, value: -1, alpha: 0, beta: 1e9, skipped: 4 });
    const game = new TicTacToeGame();
    const root = game.fromString('XX_/_O_/___');
    const lines = prunesOf(events).map((p) => pruneLine(game, root, p));
    expect(lines).toContain('alpha is 0 [50.0], score is -1 [0.0]. Aborted on move 2 in minValue on XX2 OO5 678 (after 3; 4 moves not tried)');
  });
});

describe('grading the CPSC 4610 pack', () => {
  let publicReport: GradeReport;
  let hiddenReport: GradeReport;
  let tttReport: GradeReport;

  beforeAll(async () => {
    [publicReport, hiddenReport, tttReport] = await Promise.all([
      gradeSubmissions({ suite: suite('cpsc4610-public'), submissions: [REFERENCE, STRICT], visibility: 'all', jobs: 1 }),
      gradeSubmissions({ suite: suite('cpsc4610-hidden'), submissions: [REFERENCE], visibility: 'all', jobs: 1 }),
      gradeSubmissions({ suite: suite('tictactoe-public'), submissions: [REFERENCE, STRICT, STARTER], visibility: 'all', jobs: 1 }),
    ]);
  }, 120_000);

  it('the reference submission gets full marks on Mancala (public and hidden) and on Tic-Tac-Toe', () => {
    for (const report of [publicReport, hiddenReport, tttReport]) {
      const s = submission(report, REFERENCE);
      expect(failedIds(s)).toEqual([]);
      expect(s.score).toBe(100);
      expect(s.maxScore).toBe(100);
    }
  });

  it('pruning on > / < costs exactly the node counts (and on Tic-Tac-Toe the traces), each failure naming the bug', () => {
    const mancala = submission(publicReport, STRICT);
    expect(lost(mancala)).toEqual({ 'alpha-beta pruning': 20 });
    expect(failedIds(mancala)).toEqual(['nodes-endgame', 'nodes-midgame', 'nodes-start']);
    for (const c of mancala.cases.filter((x) => x.status !== 'passed')) expect(c.message).toMatch(STRICT_BUG);

    const ttt = submission(tttReport, STRICT);
    expect(lost(ttt)).toEqual({ 'node counts': 20, 'pruning trace': 30 });
    const nodeCases = ttt.cases.filter((c) => c.category === 'node counts' || c.id === 'seed-pruning-example');
    for (const c of nodeCases) {
      expect(c.status).toBe('failed');
      expect(c.message).toMatch(STRICT_BUG);
    }
    // The trace names the first event that differs: a min node that should have stopped.
    expect(ttt.cases.find((c) => c.id === 'seed-pruning-example')!.message).toMatch(/trace: first difference at event \d+/);
  });

  it('an alpha-beta that honours free turns is told that this course ignores them', async () => {
    // The reference's optional abPruneFull, graded as the Problem 2 alpha-beta.
    const full = suite('cpsc4610-public');
    const manifest = { ...full.manifest, roles: { ...full.manifest.roles, alphabeta: { ...full.manifest.roles.alphabeta!, files: ['alphabeta-full.ts'] } } };
    // From the start every line is worth 50 either way (the provided score sees no end within 5 plies): the cases where free turns change the answer.
    const asFull: Suite = { ...full, manifest, cases: full.cases.filter((c) => c.id === 'free-turn-ignored' || c.id === 'nodes-midgame') };
    const report = await gradeSubmissions({ suite: asFull, submissions: [REFERENCE], visibility: 'all', jobs: 1 });
    for (const c of report.submissions[0]!.cases) {
      expect(c.status).toBe('failed');
      expect(c.message).toContain('likely bug: Your search matches the reference with free turns honoured (the same player moves again), where this search ignores them');
    }
  });

  it('the starter as given prunes nothing: right moves and values, and the grader says so', () => {
    const s = submission(tttReport, STARTER);
    expect(lost(s)).toEqual({ 'node counts': 20, 'pruning trace': 30 });
    const nodes = s.cases.find((c) => c.id === 'nodes-empty-board')!;
    expect(nodes.message).toContain(NO_PRUNING_BUG);
  });
});

describe('the class tournament rule: one thread', () => {
  it('a tournament player that starts a Worker is refused by the sandbox and loses its games', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cpsc4610-worker-'));
    scratch.push(dir);
    cpSync(REFERENCE, dir, { recursive: true });
    rmSync(join(dir, 'Cpsc4610Reference.agent.ts'));
    writeFileSync(
      join(dir, 'Threaded.agent.ts'),
      [
        "import { Worker } from 'node:worker_threads';",
        'export default {',
        "  name: 'Threaded',",
        '  chooseMove(ctx: { game: { legalMoves(s: unknown): number[] }; state: unknown }) {',
        "    new Worker('postMessage(1)', { eval: true });",
        '    return ctx.game.legalMoves(ctx.state)[0];',
        '  },',
        '};',
        '',
      ].join('\n'),
    );
    const full = suite('cpsc4610-public');
    const onlyPlayer: Suite = { ...full, cases: full.cases.filter((c) => c.role === 'agent') };
    const report = await gradeSubmissions({ suite: onlyPlayer, submissions: [dir], visibility: 'all', jobs: 1 });
    const cases = report.submissions[0]!.cases;
    expect(cases.length).toBe(2);
    for (const c of cases) {
      expect(c.status).not.toBe('passed');
      expect(c.score).toBe(0);
      expect(c.message).toContain('access denied by the sandbox (WorkerThreads): a submission may not start worker threads');
    }
  }, 60_000);
});

describe('the printed reproduce commands', () => {
  it('give exactly the answer each case was graded against, free turns ignored as the reference ignores them', async () => {
    const suite = await loadSuite(join(ROOT, 'testcases/cpsc4610-public'));
    const dir = mkdtempSync(join(tmpdir(), 'cpsc4610-reproduce-'));
    scratch.push(dir);
    let compared = 0;
    for (const c of suite.cases) {
      const expected = suite.expected[c.id]!;
      if (expected.move === undefined && expected.value === undefined) continue;
      const lines = reproduceLines(suite.manifest, c);
      const run = lines.find((l) => /^(reproduce|  then run): npx mancala search /.test(l));
      if (run === undefined) continue;
      const board = /^reproduce: save the board as board\.json: (.*)$/.exec(lines[0]!);
      if (board) writeFileSync(join(dir, 'board.json'), board[1]!);
      const args = run.replace(/^(reproduce|  then run): npx mancala /, '').split(' ');
      expect(args).toContain('--free-turns');
      const out = JSON.parse(execFileSync(process.execPath, [join(ROOT, 'bin/mancala.js'), ...args], { cwd: dir, encoding: 'utf8' })) as { move: number; value: number };
      if (expected.move !== undefined) expect(out.move, `${c.id}: ${run}`).toBe(expected.move);
      if (expected.value !== undefined) expect(out.value, `${c.id}: ${run}`).toBe(expected.value);
      compared++;
    }
    expect(compared).toBeGreaterThanOrEqual(5);
  });
});
