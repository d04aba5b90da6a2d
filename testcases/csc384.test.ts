/**
 * The seed-001 (CSC384 style) course pack: testcases/csc384-public and csc384-hidden.
 *
 * - The suites are the handout's table: its categories and marks, 1 public + 9 hidden tests a
 *   search category, 1 + 4 for heuristic_basic, the 20-game playoff; blessed and up to date.
 * - The cases test what their comments claim: pruning matters on every plain alpha-beta case, the
 *   depth limit cuts every depth-limited search off, caching saves enough on every caching case
 *   that a search without a cache fails it, and the playoff's games differ.
 * - Node counts are information, as the course grades move and value only (`node_counts:
 *   informational`); every other suite still grades them, and a wrong count fails its case there.
 * - Graded for real (`mancala grade`: the runner, the sandbox): the reference submission gets full
 *   marks on both suites; the one whose cache is never filled gets full marks too, each caching
 *   case telling its node count and the bug as information, and with node counts graded
 *   (`--node-counts graded`) loses exactly the two caching categories, each failure naming the
 *   bug; the untouched starter loads and fails every case with its "not implemented yet".
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { findAgent, findHeuristic } from '../agents/index.ts';
import type { AgentOptions } from '../framework/contracts/agent.ts';
import { boardToState } from '../framework/games/mancala/board-io/index.ts';
import { MancalaGame } from '../framework/games/mancala/engine.ts';
import type { GradeReport, SubmissionReport } from '../framework/grading/report.ts';
import { gradeSubmissions } from '../framework/grading/runner.ts';
import { createRandom } from '../framework/random.ts';
import type { MoveAsker } from '../framework/sandbox/exchange.ts';
import { runAgent } from '../framework/search/run-agent.ts';
import { blessSuite } from '../framework/suites/bless.ts';
import { loadSuite } from '../framework/suites/load.ts';
import { withNodeCounts } from '../framework/suites/node-counts.ts';
import type { Suite, SuiteCase } from '../framework/suites/types.ts';
import { ratioRange } from '../graders/count.ts';
import { gradeCase } from '../graders/index.ts';
import { playPlayoff } from '../graders/playoff.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const PUBLIC = join(ROOT, 'testcases/csc384-public');
const HIDDEN = join(ROOT, 'testcases/csc384-hidden');
const REFERENCE = join(ROOT, 'agents/examples/csc384-reference');
const NO_CACHING = join(ROOT, 'agents/examples/csc384-no-caching');
const STARTER = join(ROOT, 'agents/starters/csc384-typescript');

/** The handout's table: category, marks, tests (public + hidden). */
const TABLE: [string, number, number][] = [
  ['heuristic_basic', 5, 5],
  ['minimax', 20, 10],
  ['minimax + depth limit', 20, 10],
  ['minimax + depth limit + caching', 10, 10],
  ['alpha-beta pruning', 15, 10],
  ['alpha-beta pruning + depth limit', 15, 10],
  ['alpha-beta pruning + depth limit + caching', 10, 10],
  ['advanced heuristic playoff', 5, 1],
];
const CACHING = ['minimax + depth limit + caching', 'alpha-beta pruning + depth limit + caching'];

let publicSuite: Suite;
let hiddenSuite: Suite;
beforeAll(async () => {
  [publicSuite, hiddenSuite] = await Promise.all([loadSuite(PUBLIC), loadSuite(HIDDEN)]);
});

function casesOf(suite: Suite, category: string): SuiteCase[] {
  return suite.cases.filter((c) => c.category === category);
}

describe('the suites are the handout\'s table', () => {
  it('categories and marks as the table; 3 minutes a test; csc384 rules on the 6-pocket board', () => {
    for (const suite of [publicSuite, hiddenSuite]) {
      expect(suite.manifest.categories.map((c) => [c.name, c.weight])).toEqual(TABLE.map(([name, weight]) => [name, weight]));
      expect(suite.manifest.limits.ms).toBe(180_000);
      expect(suite.manifest.game).toMatchObject({ kind: 'mancala', profile: 'csc384', name: 'csc384(6,4)' });
      expect(Object.entries(suite.manifest.roles).map(([name, r]) => [name, r.kind, r.reference])).toEqual([
        ['minimax', 'agent', 'minimax'],
        ['alphabeta', 'agent', 'alphabeta'],
        ['heuristic_basic', 'heuristic', 'basic'],
        ['heuristic_advanced', 'heuristic', 'advanced'],
      ]);
    }
  });

  it('the hidden suite holds every test of the final grade: one public and the rest hidden', () => {
    for (const [category, , tests] of TABLE) {
      const cases = casesOf(hiddenSuite, category);
      expect(cases, category).toHaveLength(tests);
      const visible = cases.filter((c) => c.visibility === 'visible').map((c) => c.id);
      expect(visible, category).toEqual(category === 'advanced heuristic playoff' ? [] : casesOf(publicSuite, category).map((c) => c.id));
      expect(cases.filter((c) => c.visibility === 'hidden'), category).toHaveLength(tests - visible.length);
    }
    expect(publicSuite.cases).toHaveLength(7);
    expect(publicSuite.cases.every((c) => c.visibility === 'visible')).toBe(true);
  });

  it('both players move in every search category, and plain searches have no depth limit', () => {
    for (const [category] of TABLE.slice(1, 7)) {
      const cases = casesOf(hiddenSuite, category);
      expect(new Set(cases.map((c) => c.board.toMove)), category).toEqual(new Set([0, 1]));
      const plain = category === 'minimax' || category === 'alpha-beta pruning';
      for (const c of cases) {
        expect(c.options.depth === null, c.id).toBe(plain);
        expect(c.options.caching === true, c.id).toBe(CACHING.includes(category));
        expect(c.nodeCounts, c.id).toBe('informational');
        expect(c.checks.nodes, c.id).toEqual(
          category.startsWith('minimax +') && CACHING.includes(category)
            ? { mode: 'at-most' }
            : CACHING.includes(category)
              ? { mode: 'ratio', ratio: 1.25 }
              : { mode: 'exact' },
        );
      }
    }
  });

  it('node counts are information in both suites (the course grades move and value), the public cases included in the hidden suite', () => {
    for (const suite of [publicSuite, hiddenSuite]) {
      expect(suite.manifest.nodeCounts).toBe('informational');
      const counted = suite.cases.filter((c) => c.checks.nodes !== undefined);
      expect(counted).toHaveLength(suite === publicSuite ? 6 : 60);
      for (const c of counted) expect([c.id, c.checks.move, c.checks.value, c.nodeCounts]).toEqual([c.id, true, { tolerance: 0 }, 'informational']);
    }
  });

  it('expected.json of both suites is blessed and up to date', async () => {
    for (const suite of [publicSuite, hiddenSuite]) {
      const result = await blessSuite(suite);
      expect(result.changed).toEqual([]);
    }
  });
});

// ---- the cases test what they claim ---------------------------------------------------------------

/** The reference agent's answer on a case's position, with the case's options changed by `change`. */
async function referenceRun(suite: Suite, c: SuiteCase, agent: 'minimax' | 'alphabeta', change: AgentOptions = {}) {
  const game = new MancalaGame((suite.manifest.game as Extract<Suite['manifest']['game'], { kind: 'mancala' }>).rules, suite.manifest.game.name);
  const state = boardToState(game, c.board, c.board.toMove ?? 0);
  const options: AgentOptions = { depth: c.options.depth ?? null, unit: 'move', terminal: 'heuristic', caching: c.options.caching === true, ...change };
  const run = await runAgent(findAgent(agent)!, { game, state, heuristic: findHeuristic('basic')!, options, random: createRandom(1) });
  return { move: run.choice.move, value: run.choice.value, nodes: run.nodes };
}

describe('the cases test what they claim', () => {
  it('plain alpha-beta: minimax visits at least twice as many positions, so a search that does not prune fails', async () => {
    for (const c of casesOf(hiddenSuite, 'alpha-beta pruning')) {
      const expected = hiddenSuite.expected[c.id]!;
      const minimax = await referenceRun(hiddenSuite, c, 'minimax');
      expect(minimax.nodes, c.id).toBeGreaterThanOrEqual(2 * expected.nodes!);
    }
  });

  it('depth-limited cases: the limit cuts the search off (one move deeper visits more positions)', async () => {
    for (const category of ['minimax + depth limit', 'alpha-beta pruning + depth limit', ...CACHING]) {
      for (const c of casesOf(hiddenSuite, category)) {
        const agent = category.startsWith('minimax') ? 'minimax' : 'alphabeta';
        const deeper = await referenceRun(hiddenSuite, c, agent, { depth: c.options.depth! + 1 });
        expect(deeper.nodes, c.id).toBeGreaterThan(hiddenSuite.expected[c.id]!.nodes!);
      }
    }
  });

  it('caching cases: the same search without a cache gets the same move and value, and a count a graded node check refuses', async () => {
    for (const category of CACHING) {
      for (const c of casesOf(hiddenSuite, category)) {
        const expected = hiddenSuite.expected[c.id]!;
        const agent = category.startsWith('minimax') ? 'minimax' : 'alphabeta';
        const uncached = await referenceRun(hiddenSuite, c, agent, { caching: false });
        expect([uncached.move, uncached.value], c.id).toEqual([expected.move, expected.value]);
        const check = c.checks.nodes!;
        const limit = check.mode === 'ratio' ? ratioRange(expected.nodes!, check.ratio).high : expected.nodes!;
        expect(uncached.nodes, c.id).toBeGreaterThan(limit);
      }
    }
  });

  it('the playoff: 20 games from 10 different seeded openings, each with both colours; a copy of basic wins exactly half', async () => {
    const c = hiddenSuite.cases.find((x) => x.id === 'advanced-heuristic-playoff')!;
    expect(c.checks.playoff).toEqual({ opponent: 'alphabeta:depth=4', games: 20, winRate: 0.5, seed: 1, msPerMove: 300 });
    const alphabeta = findAgent('alphabeta')!;
    const basic = findHeuristic('basic')!;
    // Our side as the grader plays it (the reference alpha-beta with the submission's heuristic), here with `basic`.
    const asker: MoveAsker = {
      async chooseMove(board, player, options) {
        const game = new MancalaGame((hiddenSuite.manifest.game as Extract<Suite['manifest']['game'], { kind: 'mancala' }>).rules);
        const run = await runAgent(alphabeta, { game, state: boardToState(game, board, player), heuristic: basic, options: { ...options }, random: createRandom(1) });
        return { status: 'ok', observation: { move: run.choice.move, ms: run.ms }, ms: run.ms };
      },
    };
    const result = await playPlayoff({ manifest: hiddenSuite.manifest, case: c, expected: hiddenSuite.expected[c.id]!, observation: { ms: 0 } }, asker);
    const openings = result.games.map((g) => g.opening.join(' '));
    expect(new Set(openings).size).toBe(10);
    for (let g = 0; g < 20; g += 2) {
      expect(openings[g + 1]).toBe(openings[g]);
      expect([result.games[g]!.side, result.games[g + 1]!.side]).toEqual([0, 1]);
    }
    expect([result.wins, result.draws, result.losses]).toEqual([10, 0, 10]);
    expect(result.passed).toBe(true);
  });
});

// ---- node counts: information here, graded everywhere else -------------------------------------------

describe('node counts', () => {
  const n = (x: number) => x.toLocaleString('en-US');
  /** The reference's own answer on the case, but `extra` more nodes. */
  const offByNodes = (suite: Suite, c: SuiteCase, extra: number) => {
    const e = suite.expected[c.id]!;
    return { manifest: suite.manifest, case: c, expected: e, observation: { move: e.move!, value: e.value!, nodes: e.nodes! + extra, ms: 1 } };
  };

  it('a csc384 case: right move and value with a wrong count passes, the count told as information; with node counts graded it fails', async () => {
    const c = publicSuite.cases.find((x) => x.id === 'minimax-limit-public')!;
    const want = publicSuite.expected[c.id]!.nodes!;
    const results = await gradeCase(offByNodes(publicSuite, c, 98));
    expect(results.every((r) => r.passed)).toBe(true);
    expect(results.find((r) => r.check === 'nodes')).toEqual({
      check: 'nodes',
      passed: true,
      message: `nodes: your search visited ${n(want + 98)} nodes; the reference ${n(want)} (informational, not graded)`,
      informational: true,
    });

    const graded = withNodeCounts(publicSuite, 'graded').suite;
    const results2 = await gradeCase(offByNodes(graded, graded.cases.find((x) => x.id === c.id)!, 98));
    expect(results2.filter((r) => !r.passed).map((r) => r.check)).toEqual(['nodes']);
    expect(results2.find((r) => r.check === 'nodes')!.message).toMatch(new RegExp(`^nodes: expected exactly ${n(want)} \\(the reference's count\\), got ${n(want + 98)} \\(98 more than the reference\\)`));
  });

  it('every other suite grades node counts as before: kalah-basics fails a wrong count', async () => {
    const others = readdirSync(join(ROOT, 'testcases'), { withFileTypes: true })
      .filter((d) => d.isDirectory() && !d.name.startsWith('csc384-') && readdirSync(join(ROOT, 'testcases', d.name)).includes('suite.yaml'))
      .map((d) => d.name);
    expect(others).toEqual(expect.arrayContaining(['kalah-basics', 'hidden-example', 'csci561-public', 'csci561-hidden', 'tictactoe-public', 'cpsc4610-public']));
    // No file of theirs says node_counts (so every one grades them) …
    const files = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((d) => (d.isDirectory() ? files(join(dir, d.name)) : /\.(ya?ml|json)$/.test(d.name) ? [join(dir, d.name)] : []));
    for (const name of others) {
      for (const file of files(join(ROOT, 'testcases', name))) expect(readFileSync(file, 'utf8'), file).not.toMatch(/node_counts/);
    }
    // … and loaded, each case that checks nodes grades them.
    for (const name of ['kalah-basics', 'hidden-example', 'csci561-public', 'tictactoe-public']) {
      const suite = await loadSuite(join(ROOT, 'testcases', name));
      expect(suite.manifest.nodeCounts, name).toBeUndefined();
      for (const c of suite.cases) expect(c.nodeCounts, `${name}: ${c.id}`).toBe(c.checks.nodes === undefined ? undefined : 'graded');
    }
    const basics = await loadSuite(join(ROOT, 'testcases/kalah-basics'));
    const c = basics.cases.find((x) => x.id === 'nodes-exact-depth-3')!;
    const results = await gradeCase(offByNodes(basics, c, 1));
    const nodes = results.find((r) => r.check === 'nodes')!;
    expect([nodes.passed, nodes.informational]).toEqual([false, undefined]);
    expect(nodes.message).toMatch(/^nodes: expected exactly [\d,]+ \(the reference's count\), got [\d,]+ \(1 more than the reference\)/);
  });
});

// ---- graded for real -----------------------------------------------------------------------------

function categoryScores(s: SubmissionReport): Record<string, [number, number]> {
  const out: Record<string, [number, number]> = {};
  for (const c of s.cases) {
    const [score, max] = out[c.category] ?? [0, 0];
    out[c.category] = [score + c.score, max + c.maxScore];
  }
  for (const k of Object.keys(out)) out[k] = out[k]!.map((x) => Math.round(x * 1e6) / 1e6) as [number, number];
  return out;
}

describe('mancala grade on the example submissions', () => {
  const reports: Record<'public' | 'hidden', GradeReport> = {} as never;
  /** The same suites with node counts graded, as `mancala grade --node-counts graded` runs them. */
  const gradedNodes: Record<'public' | 'hidden', GradeReport> = {} as never;
  beforeAll(async () => {
    for (const [name, suite] of [['public', publicSuite], ['hidden', hiddenSuite]] as const) {
      reports[name] = await gradeSubmissions({ suite, submissions: [REFERENCE, NO_CACHING, STARTER], visibility: 'all', jobs: 2 });
      gradedNodes[name] = await gradeSubmissions({ suite: withNodeCounts(suite, 'graded').suite, submissions: [NO_CACHING], visibility: 'all', jobs: 1 });
    }
  }, 90_000);
  const submission = (suite: 'public' | 'hidden', id: string, from = reports) => from[suite].submissions.find((s) => s.id === id)!;

  it('the reference submission gets full marks on both suites (95 public: the playoff has no public test; 100 hidden)', () => {
    for (const [suite, max] of [['public', 95], ['hidden', 100]] as const) {
      const s = submission(suite, 'csc384-reference');
      expect(s.cases.filter((c) => c.status !== 'passed').map((c) => `${c.id}: ${c.message}`)).toEqual([]);
      expect([s.score, s.maxScore]).toEqual([max, max]);
    }
    const playoff = submission('hidden', 'csc384-reference').cases.find((c) => c.id === 'advanced-heuristic-playoff')!;
    expect(playoff.checks![0]!.message).toMatch(/^playoff of the reference alpha-beta \(depth 4\) with your heuristic against alphabeta:depth=4: won 1[5-9]|won 20/);
  });

  it('the submission that never fills its cache: full marks, as its moves and values are right; each caching case tells its node count and the bug', () => {
    for (const suite of ['public', 'hidden'] as const) {
      const s = submission(suite, 'csc384-no-caching');
      expect([s.score, s.maxScore]).toEqual(suite === 'public' ? [95, 95] : [100, 100]);
      expect(s.cases.filter((c) => c.status !== 'passed').map((c) => c.id)).toEqual([]);
      const told = s.cases.filter((c) => c.info !== undefined);
      expect(told.map((c) => c.id)).toEqual(s.cases.filter((c) => CACHING.includes(c.category)).map((c) => c.id));
      for (const c of told) {
        expect(c.message, c.id).toBe('');
        expect(c.info, c.id).toHaveLength(1);
        const [finding, bug, ...rest] = c.info![0]!.split('\n');
        expect(finding, c.id).toMatch(/^nodes: your search visited [\d,]+ nodes; the reference [\d,]+ \(informational, not graded; graded, it would need (at most [\d,]+|[\d,]+ to [\d,]+)\)$/);
        expect(bug, c.id).toBe('likely bug: Your search matches the reference with no transposition table where caching is expected (same move, value and node count).');
        expect(rest, c.id).toEqual([]);
        expect(c.checks!.find((k) => k.check === 'nodes'), c.id).toMatchObject({ passed: true, informational: true });
      }
    }
  });

  it('with node counts graded (--node-counts graded), the same submission loses exactly the caching categories, and is told why', () => {
    for (const suite of ['public', 'hidden'] as const) {
      const s = submission(suite, 'csc384-no-caching', gradedNodes);
      const scores = categoryScores(s);
      for (const [category, [score, max]] of Object.entries(scores)) {
        expect(score, `${suite}: ${category}`).toBe(CACHING.includes(category) ? 0 : max);
      }
      const failed = s.cases.filter((c) => c.status !== 'passed');
      expect(failed.map((c) => c.category).sort()).toEqual(s.cases.filter((c) => CACHING.includes(c.category)).map((c) => c.category).sort());
      for (const c of failed) {
        expect(c.status, c.id).toBe('failed');
        expect(c.message, c.id).toMatch(/^nodes: expected (at most|[\d,]+ to [\d,]+) /);
        expect(c.message, c.id).toContain('likely bug: Your search matches the reference with no transposition table where caching is expected (same move, value and node count).');
      }
    }
    expect(submission('hidden', 'csc384-no-caching', gradedNodes).score).toBe(80);
  });

  it('the untouched starter loads, and every case fails (an unfinished part, not a crash) saying which function is not written yet', () => {
    const s = submission('hidden', 'csc384-typescript');
    expect(s.score).toBe(0);
    for (const c of s.cases) {
      expect(c.status, c.id).toBe('failed');
      expect(c.message, c.id).toMatch(/^not written yet: (minimax_max_\w+|alphabeta_max_\w+|heuristic_basic|heuristic_advanced)$/m);
    }
  });
});
