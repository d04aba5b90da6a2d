/**
 * Alpha-beta values leaves through Game.playLeaf when its heuristic is `basic` (search-stack.ts
 * leafCounters). That shortcut must change nothing a report shows: the same move, value, nodes,
 * leaves, plays and heuristic evaluations as the generic path, which a heuristic that computes
 * the same values but is not `basic` takes. Checked on random positions of every profile, with
 * every depth unit, terminal rule and caching setting.
 *
 * Every random choice comes from fast-check under a fixed seed.
 */
import { describe, expect, it, vi } from 'vitest';
import fc from 'fast-check';
import type { Player } from '../../framework/contracts/game.ts';
import { countingHeuristic, type Heuristic } from '../../framework/contracts/heuristic.ts';
import { MancalaGame, type MancalaState } from '../../framework/games/mancala/engine.ts';
import { PROFILE_NAMES, PROFILES } from '../../framework/games/mancala/profiles.ts';
import type { DepthUnit, TerminalEvaluation } from '../../framework/contracts/search-conventions.ts';
import type { TraceEvent } from '../../framework/contracts/search-trace.ts';
import basic from '../heuristics/basic.ts';
import { alphaBeta } from './alphabeta.ts';

const FC_SEED = 438_615;

/** `basic`'s values from another object: the search cannot tell it is basic, so it takes the generic path. */
const basicTwin: Heuristic<MancalaState> = { name: 'basic-twin', evaluate: (s, p, g) => basic.evaluate(s, p, g) };

interface Case {
  profile: string;
  bottom: number[];
  top: number[];
  stores: [number, number];
  toMove: Player;
  depth: number;
  unit: DepthUnit;
  terminal: TerminalEvaluation;
  caching: boolean;
}

/** Pits mostly small, sometimes empty, now and then a whole lap (2N+1 stones or more). */
const pitArb = fc.oneof(
  { weight: 3, arbitrary: fc.constant(0) },
  { weight: 5, arbitrary: fc.integer({ min: 1, max: 4 }) },
  { weight: 1, arbitrary: fc.integer({ min: 5, max: 16 }) },
);

const caseArb: fc.Arbitrary<Case> = fc.integer({ min: 1, max: 6 }).chain((pits) => {
  const row = fc.array(pitArb, { minLength: pits, maxLength: pits });
  return fc.record({
    profile: fc.constantFrom(...PROFILE_NAMES),
    bottom: row,
    top: row,
    stores: fc.tuple(fc.integer({ min: 0, max: 20 }), fc.integer({ min: 0, max: 20 })),
    toMove: fc.constantFrom<Player>(0, 1),
    depth: fc.integer({ min: 0, max: 5 }),
    unit: fc.constantFrom<DepthUnit>('move', 'turn'),
    terminal: fc.constantFrom<TerminalEvaluation>('score', 'heuristic'),
    caching: fc.boolean(),
  });
});

/** One search on a fresh fork, with what its report would show and how often playLeaf ran. */
function search(c: Case, heuristic: Heuristic<MancalaState>, trace?: (e: TraceEvent) => void) {
  const game = new MancalaGame({ ...PROFILES[c.profile]!.rules, pits: c.bottom.length }).fork();
  const state = game.fromRows(c.bottom, c.top, c.stores[0], c.stores[1], c.toMove);
  const playLeaf = vi.spyOn(game, 'playLeaf');
  const result = alphaBeta(
    // native: false keeps the TypeScript search (native-search.test.ts compares the WebAssembly one with it)
    { game, heuristic: countingHeuristic(heuristic, game), depth: c.depth, unit: c.unit, terminal: c.terminal, caching: c.caching, native: false, ...(trace ? { trace } : {}) },
    state,
  );
  return { report: { ...result, plays: game.counters.plays, evaluations: game.counters.evaluations }, playLeafCalls: playLeaf.mock.calls.length };
}

describe('alpha-beta leaves valued through playLeaf', () => {
  it('gives the same move, value and counts as the generic path', () => {
    let shortcutLeaves = 0;
    fc.assert(
      fc.property(caseArb, (c) => {
        const fast = search(c, basic);
        const generic = search(c, basicTwin);
        expect(fast.report).toEqual(generic.report);
        expect(generic.playLeafCalls).toBe(0);
        shortcutLeaves += fast.playLeafCalls;
      }),
      { seed: FC_SEED, numRuns: 600 },
    );
    // The property is about the shortcut only if it ran.
    expect(shortcutLeaves).toBeGreaterThan(1000);
  });

  it('is not taken under a trace, which needs every leaf built and named', () => {
    const c: Case = { profile: 'kalah', bottom: [4, 4, 4, 4], top: [4, 4, 4, 4], stores: [0, 0], toMove: 0, depth: 4, unit: 'move', terminal: 'score', caching: false };
    const events: TraceEvent[] = [];
    const traced = search(c, basic, (e) => events.push(e));
    expect(traced.playLeafCalls).toBe(0);
    expect(events.some((e) => e.type === 'leaf')).toBe(true);
    const fast = search(c, basic);
    expect(fast.playLeafCalls).toBeGreaterThan(0);
    expect(fast.report).toEqual(traced.report);
  });

  it('agrees on the Kalah(6,4) opening to depth 8 in both depth units', () => {
    for (const unit of ['move', 'turn'] as const) {
      const c: Case = { profile: 'kalah-empty-capture', bottom: [4, 4, 4, 4, 4, 4], top: [4, 4, 4, 4, 4, 4], stores: [0, 0], toMove: 0, depth: 8, unit, terminal: 'score', caching: false };
      const fast = search(c, basic);
      expect(fast.playLeafCalls).toBeGreaterThan(0);
      expect(fast.report).toEqual(search(c, basicTwin).report);
    }
  });
});
