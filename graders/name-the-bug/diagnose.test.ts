/**
 * Name the bug, checked the way CS188 checks its own: each broken reference is taken as the
 * "submission" (its move, value and node count become the observation) on a position where it
 * behaves unlike the reference and unlike every other variant, and diagnose must name exactly it.
 * Expected answers come from the real reference agents (as blessing computes them), so the test
 * also covers the mutant search's reproduction of them.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { Player } from '../../framework/contracts/game.ts';
import type { DepthUnit, TerminalEvaluation } from '../../framework/contracts/search-conventions.ts';
import { stateToBoard } from '../../framework/games/mancala/board-io/index.ts';
import { MancalaGame } from '../../framework/games/mancala/engine.ts';
import type { GradeInput } from '../../framework/grading/types.ts';
import { casePosition } from '../case-context.ts';
import { gradeInput, mancalaSpec, testCase, testManifest } from '../testing.ts';
import { baseConfig, diagnose, matchVariants } from './diagnose.ts';
import { mutantSearch, type MutantResult } from './mutant-search.ts';
import { pairsOf, variantsOf } from './variants.ts';

/** Every variant variants.ts can offer; the test fails if one is never exercised. */
const ALL_VARIANTS = [
  'depth-1',
  'depth+1',
  'no-pruning',
  'strict-pruning',
  'pruning',
  'alternate-by-ply',
  'unit-move',
  'unit-turn',
  'terminal-stores',
  'terminal-score',
  'capture-last-and-opposite',
  'capture-opposite-only',
  'capture-none',
  'capture-needs-stones',
  'capture-empty-opposite',
  'no-free-turn',
  'free-turn',
  'last-best-move',
  'caching',
  'no-caching',
];

interface Scenario {
  profile: string;
  pits: number;
  seeds: number;
  choices: number[];
  reference: 'minimax' | 'alphabeta';
  depth: number;
  unit: DepthUnit;
  terminal: TerminalEvaluation;
  caching: boolean;
  heuristic: 'basic' | 'advanced';
}

const scenarioArb: fc.Arbitrary<Scenario> = fc.record({
  profile: fc.constantFrom('kalah', 'kalah-empty-capture', 'csci561', 'csc384', 'cs540'),
  pits: fc.integer({ min: 3, max: 5 }),
  seeds: fc.integer({ min: 2, max: 4 }),
  choices: fc.array(fc.nat({ max: 100 }), { minLength: 2, maxLength: 24 }),
  reference: fc.constantFrom('minimax' as const, 'alphabeta' as const),
  depth: fc.integer({ min: 1, max: 4 }),
  unit: fc.constantFrom<DepthUnit>('move', 'turn'),
  terminal: fc.constantFrom<TerminalEvaluation>('score', 'heuristic'),
  caching: fc.boolean(),
  heuristic: fc.constantFrom('basic' as const, 'advanced' as const),
});

/** The scenario's case: a position reached by random play, with the reference's settings. */
function scenarioCase(s: Scenario) {
  const game = mancalaSpec(s.profile, s.pits, s.seeds);
  const manifest = testManifest(game, { agent: { kind: 'agent', files: ['agent.ts'], reference: s.reference } });
  const g = new MancalaGame((game as { rules: MancalaGame['rules'] }).rules, game.name);
  let state = g.initial();
  for (const c of s.choices) {
    const legal = g.legalMoves(state);
    if (legal.length === 0) break;
    state = g.play(state, legal[c % legal.length]!);
  }
  const c = testCase(manifest, {
    board: stateToBoard(g, state),
    options: { depth: s.depth, unit: s.unit, terminal: s.terminal, caching: s.caching, heuristic: s.heuristic },
    checks: { move: true, value: { tolerance: 0 }, nodes: { mode: 'exact' } },
  });
  return { manifest, c, over: g.isOver(state) };
}

const triple = (r: MutantResult) => `${r.move}/${r.value}/${r.nodes}`;

describe('name the bug', () => {
  it('names exactly the variant a submission behaves like, for every variant', async () => {
    const found = new Map<string, string>();
    const offered = new Set<string>();
    const scenarios = fc.sample(scenarioArb, { seed: 188, numRuns: 600 });
    for (const s of scenarios) {
      if (found.size === ALL_VARIANTS.length) break;
      const { manifest, c, over } = scenarioCase(s);
      if (over) continue;
      const input = await gradeInput(manifest, c, { ms: 0 });
      const base = baseConfig(input)!;
      const variants = variantsOf(base.config);
      const results = variants.map((v) => ({ v, r: mutantSearch(v.apply(base.config), base.state)! }));
      const reference = triple(mutantSearch(base.config, base.state)!);
      for (const { v, r } of results) {
        offered.add(v.id);
        if (found.has(v.id)) continue;
        const t = triple(r);
        if (t === reference || results.some((o) => o.v !== v && triple(o.r) === t)) continue;
        // The variant as the submission: its move, value and node count observed.
        const submitted: GradeInput = { ...input, observation: { move: r.move, value: r.value, nodes: r.nodes, ms: 0 } };
        const matches = matchVariants(submitted)!;
        expect(matches.full.map((m) => m.variant.id)).toEqual([v.id]);
        expect(diagnose(submitted)).toBe(`Your search matches the reference with ${v.description} (same move, value and node count).`);
        found.set(v.id, JSON.stringify(s));
      }
    }
    expect([...offered].sort()).toEqual([...ALL_VARIANTS].sort());
    expect([...found.keys()].sort()).toEqual([...ALL_VARIANTS].sort());
  });

  it('names two mistakes at once when no single one explains the answer', async () => {
    const found = new Set<string>();
    for (const s of fc.sample(scenarioArb, { seed: 561, numRuns: 12 })) {
      const { manifest, c, over } = scenarioCase(s);
      if (over) continue;
      const input = await gradeInput(manifest, c, { ms: 0 });
      const base = baseConfig(input)!;
      const singles = variantsOf(base.config);
      const all = [...singles, ...pairsOf(singles)].map((v) => ({ v, t: triple(mutantSearch(v.apply(base.config), base.state)!) }));
      const reference = triple(mutantSearch(base.config, base.state)!);
      for (const { v, t } of all) {
        if (!v.id.includes('+') || found.has(v.id) || t === reference || all.some((o) => o.v !== v && o.t === t)) continue;
        const [move, value, nodes] = t.split('/').map(Number);
        const submitted: GradeInput = { ...input, observation: { move, value, nodes, ms: 0 } };
        // The exact sentence: this variant's description and no "It matches equally …".
        expect(diagnose(submitted)).toBe(`Your search matches the reference with ${v.description} (same move, value and node count).`);
        found.add(v.id);
      }
    }
    expect(found.size).toBeGreaterThan(20);
  });

  it('names plain minimax without its cache on a caching alpha-beta case', async () => {
    const { manifest, c } = scenarioCase({
      profile: 'kalah', pits: 6, seeds: 4, choices: [3, 1, 4, 1, 5, 9, 2, 6], reference: 'alphabeta', depth: 5, unit: 'move', terminal: 'score', caching: true, heuristic: 'basic',
    });
    const input = await gradeInput(manifest, c, { ms: 0 });
    const base = baseConfig(input)!;
    const plain = mutantSearch({ ...base.config, algorithm: 'minimax', caching: false }, base.state)!;
    const text = diagnose({ ...input, observation: { move: plain.move, value: plain.value, nodes: plain.nodes, ms: 0 } });
    expect(text).toBe(
      'Your search matches the reference with no pruning, plain minimax where alpha-beta is expected, and no transposition table where caching is expected (same move, value and node count).',
    );
  });

  it("says nothing for the reference's own answer or for an answer no variant gives", async () => {
    const { manifest, c } = scenarioCase({
      profile: 'kalah', pits: 6, seeds: 4, choices: [3, 1, 4, 1, 5, 9], reference: 'alphabeta', depth: 4, unit: 'move', terminal: 'score', caching: false, heuristic: 'basic',
    });
    const input = await gradeInput(manifest, c, { ms: 0 });
    const e = input.expected;
    expect(diagnose({ ...input, observation: { move: e.move, value: e.value, nodes: e.nodes, ms: 0 } })).toBeUndefined();
    expect(diagnose({ ...input, observation: { move: e.move, value: e.value, nodes: 987_654, ms: 0 } })).toBeUndefined();
  });

  it('mentions a variant that matches the move and value but not the node count, carefully', async () => {
    const { manifest, c } = scenarioCase({
      profile: 'kalah', pits: 6, seeds: 4, choices: [3, 1, 4, 1, 5, 9], reference: 'alphabeta', depth: 4, unit: 'move', terminal: 'score', caching: false, heuristic: 'basic',
    });
    const input = await gradeInput(manifest, c, { ms: 0 });
    const base = baseConfig(input)!;
    const shallower = mutantSearch({ ...base.config, depth: 3 }, base.state)!;
    expect(`${shallower.move}/${shallower.value}`).not.toBe(`${input.expected.move}/${input.expected.value}`);
    const text = diagnose({ ...input, observation: { move: shallower.move, value: shallower.value, nodes: shallower.nodes + 7, ms: 0 } });
    expect(text).toMatch(new RegExp(`^Your move and value match the reference with depth 3 instead of 4, the depth off by one \\(which visits ${shallower.nodes} nodes\\)`));
    expect(text).toContain(`, though not your node count (${shallower.nodes + 7})`);
    expect(text).toContain('that may be one of your bugs');
  });

  it('does not diagnose what it cannot model: a heuristic from a role, an anytime reference, a blessing it cannot reproduce', async () => {
    const s: Scenario = { profile: 'cs540', pits: 4, seeds: 3, choices: [1, 2], reference: 'minimax', depth: 3, unit: 'move', terminal: 'score', caching: false, heuristic: 'basic' };
    const { manifest, c } = scenarioCase(s);
    const input = await gradeInput(manifest, c, { ms: 0 });
    const base = baseConfig(input)!;
    const bug = mutantSearch({ ...base.config, depth: 2 }, base.state)!;
    const observation = { move: bug.move, value: bug.value, nodes: bug.nodes, ms: 0 };
    expect(diagnose({ ...input, observation })).toMatch(/^Your search matches the reference with depth 2 instead of 3/);
    // The blessed answer differs from what the mutant search computes: no diagnosis.
    expect(diagnose({ ...input, expected: { ...input.expected, nodes: input.expected.nodes! + 1 }, observation })).toBeUndefined();
    const roleHeuristic = { ...input, case: { ...input.case, options: { ...input.case.options, heuristic: 'role:h' } }, observation };
    expect(diagnose(roleHeuristic)).toBeUndefined();
    const ids = { ...input, manifest: { ...manifest, roles: { agent: { kind: 'agent' as const, files: ['a.ts'], reference: 'ids:ms=50' } } }, observation };
    expect(diagnose(ids)).toBeUndefined();
    expect(casePosition(manifest, c).player).toBe(c.board.toMove as Player);
  });
});
