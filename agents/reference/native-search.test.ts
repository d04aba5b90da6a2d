/**
 * Alpha-beta on Mancala runs in a generated WebAssembly module when leaves are valued by `basic`
 * and nothing is traced or cached (native-alphabeta.ts). That fast path must change nothing a
 * report shows: the same move, value, nodes, leaves, cut-off flag, plays and heuristic evaluations
 * as the TypeScript search (itself held equal to the generic path by leaf-shortcut.test.ts).
 * Checked on random positions of every profile and pit count, with both depth units, both
 * terminal rules, both free-turn conventions and either player to move.
 *
 * Every random choice comes from fast-check under a fixed seed.
 */
import { describe, expect, it, vi } from 'vitest';
import fc from 'fast-check';
import type { Player } from '../../framework/contracts/game.ts';
import { countingHeuristic } from '../../framework/contracts/heuristic.ts';
import { MancalaGame } from '../../framework/games/mancala/engine.ts';
import { PROFILE_NAMES, PROFILES } from '../../framework/games/mancala/profiles.ts';
import type { DepthUnit, FreeTurns, TerminalEvaluation } from '../../framework/contracts/search-conventions.ts';
import basic from '../heuristics/basic.ts';
import { alphaBeta } from './alphabeta.ts';
import { NATIVE_FROM_DEPTH, prepareNativeSearch } from './native-alphabeta.ts';

const FC_SEED = 20_261_202;

interface Case {
  profile: string;
  bottom: number[];
  top: number[];
  stores: [number, number];
  toMove: Player;
  depth: number;
  unit: DepthUnit;
  terminal: TerminalEvaluation;
  freeTurns: FreeTurns;
}

/** Pits mostly small, sometimes empty, now and then a whole lap (2N+1 stones or more). */
const pitArb = fc.oneof(
  { weight: 3, arbitrary: fc.constant(0) },
  { weight: 5, arbitrary: fc.integer({ min: 1, max: 4 }) },
  { weight: 1, arbitrary: fc.integer({ min: 5, max: 30 }) },
);

const caseArb: fc.Arbitrary<Case> = fc.integer({ min: 1, max: 7 }).chain((pits) => {
  const row = fc.array(pitArb, { minLength: pits, maxLength: pits });
  return fc.record({
    profile: fc.constantFrom(...PROFILE_NAMES),
    bottom: row,
    top: row,
    stores: fc.tuple(fc.integer({ min: 0, max: 20 }), fc.integer({ min: 0, max: 20 })),
    toMove: fc.constantFrom<Player>(0, 1),
    depth: fc.integer({ min: 1, max: 6 }),
    unit: fc.constantFrom<DepthUnit>('move', 'turn'),
    terminal: fc.constantFrom<TerminalEvaluation>('score', 'heuristic'),
    freeTurns: fc.constantFrom<FreeTurns>('honour', 'ignore'),
  });
});

/** One search on a fresh fork: what its report would show, and whether the game's move functions ran (the TypeScript search). */
function search(c: Case, native: boolean, deadline?: number) {
  const game = new MancalaGame({ ...PROFILES[c.profile]!.rules, pits: c.bottom.length }).fork();
  // Shallow searches use a module only once one is made (NATIVE_FROM_DEPTH): made here, so every case can.
  if (native) prepareNativeSearch(c.freeTurns === 'ignore' ? { ...game.rules, freeTurn: false } : game.rules, { turnUnit: c.unit === 'turn', terminalByScore: c.terminal === 'score' });
  const state = game.fromRows(c.bottom, c.top, c.stores[0], c.stores[1], c.toMove);
  const playInto = vi.spyOn(MancalaGame.prototype, 'playInto');
  const playLeaf = vi.spyOn(MancalaGame.prototype, 'playLeaf');
  try {
    const result = alphaBeta(
      { game, heuristic: countingHeuristic(basic, game), depth: c.depth, unit: c.unit, terminal: c.terminal, freeTurns: c.freeTurns, native, ...(deadline === undefined ? {} : { deadline }) },
      state,
    );
    return { report: { ...result, plays: game.counters.plays, evaluations: game.counters.evaluations }, typescript: playInto.mock.calls.length + playLeaf.mock.calls.length > 0 };
  } finally {
    playInto.mockRestore();
    playLeaf.mockRestore();
  }
}

describe('alpha-beta in the generated WebAssembly search', () => {
  it('gives the same move, value and counts as the TypeScript search', () => {
    let nativeRuns = 0;
    fc.assert(
      fc.property(caseArb, (c) => {
        const state = new MancalaGame({ ...PROFILES[c.profile]!.rules, pits: c.bottom.length }).fromRows(c.bottom, c.top, c.stores[0], c.stores[1], c.toMove);
        fc.pre(state.cells[2 * c.bottom.length + 3] === 0); // a finished game has no search to run
        const fast = search(c, true);
        const readable = search(c, false);
        expect(fast.report).toEqual(readable.report);
        expect(readable.typescript).toBe(true);
        if (!fast.typescript) nativeRuns++;
      }),
      { seed: FC_SEED, numRuns: 1500 },
    );
    // The property is about the WebAssembly search only if it ran.
    expect(nativeRuns).toBeGreaterThan(1000);
  });

  it('agrees on the Kalah(6,4) opening to depth 7 in both depth units, for either player to move', () => {
    for (const unit of ['move', 'turn'] as const) {
      for (const toMove of [0, 1] as const) {
        const c: Case = { profile: 'kalah-empty-capture', bottom: [4, 4, 4, 4, 4, 4], top: [4, 4, 4, 4, 4, 4], stores: [0, 0], toMove, depth: 7, unit, terminal: 'score', freeTurns: 'honour' };
        const fast = search(c, true);
        expect(fast.typescript).toBe(false);
        expect(fast.report).toEqual(search(c, false).report);
      }
    }
  });

  it('is made by a second search deep enough to repay it, or a first deeper one, and then used at any depth', () => {
    // Rule sets no other test here uses (9 and 10 pits): their modules are not made yet.
    const run = (pits: number, depth: number) => {
      const g = new MancalaGame({ ...PROFILES.csc384!.rules, pits }).fork();
      const playInto = vi.spyOn(g, 'playInto');
      const row = Array<number>(pits).fill(3);
      alphaBeta({ game: g, heuristic: countingHeuristic(basic, g), depth, unit: 'move', terminal: 'heuristic' }, g.fromRows(row, row, 0, 0, 0));
      return playInto.mock.calls.length > 0 ? 'typescript' : 'native';
    };
    const { soon, atOnce } = NATIVE_FROM_DEPTH.move;
    expect(run(9, soon - 1)).toBe('typescript');
    expect(run(9, soon - 1)).toBe('typescript');
    expect(run(9, soon)).toBe('typescript');
    expect(run(9, soon)).toBe('native');
    expect(run(9, 1)).toBe('native');
    expect(run(10, atOnce)).toBe('native');
  });

  it('stops at a passed deadline where the TypeScript search stops (the 256th expanded node), keeping the best move so far', () => {
    const c: Case = { profile: 'kalah', bottom: [4, 4, 4, 4, 4, 4], top: [4, 4, 4, 4, 4, 4], stores: [0, 0], toMove: 0, depth: 10, unit: 'move', terminal: 'score', freeTurns: 'honour' };
    const passed = performance.now() - 1;
    const fast = search(c, true, passed);
    expect(fast.typescript).toBe(false);
    expect(fast.report.aborted).toBe(true);
    expect(fast.report).toEqual(search(c, false, passed).report);
  });
});
