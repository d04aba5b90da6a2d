import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Player } from '../../framework/contracts/game.ts';
import { mancalaGame } from '../../framework/games/mancala/profile-game.ts';
import { PROFILE_NAMES, PROFILES } from '../../framework/games/mancala/profiles.ts';
import type { SolveOptions, SolveResult } from './solve-types.ts';
import { fastSolve } from './fast-solve.ts';
import { plainSolve } from './plain-solve.ts';

/** What the two solvers must agree on. */
function answer(r: SolveResult) {
  return { value: r.value, bestMoves: [...r.bestMoves].sort(), moveValues: [...(r.moveValues ?? new Map())].sort((a, b) => a[0] - b[0]) };
}

/**
 * A random position of a small board: up to 8 stones dropped into random pits (so rows are often
 * empty or nearly so, where the rules differ most), random stores, either player to move.
 */
const position = fc.integer({ min: 1, max: 4 }).chain((pits) =>
  fc.record({
    pits: fc.constant(pits),
    stones: fc.array(fc.integer({ min: 0, max: 2 * pits - 1 }), { maxLength: 8 }),
    stores: fc.tuple(fc.nat(6), fc.nat(6)),
    mover: fc.constantFrom<Player>(0, 1),
  }),
);

describe('fastSolve equals the plain specification', () => {
  const configurations: [string, SolveOptions][] = [
    ['search alone', { endgameStones: 0, ttMb: 1 }],
    ['with an endgame database of 3 stones', { endgameStones: 3, ttMb: 1 }],
  ];
  for (const profile of PROFILE_NAMES) {
    for (const [what, options] of configurations) {
      it(`on random positions under ${profile}, ${what}`, () => {
        fc.assert(
          fc.property(position, ({ pits, stones, stores, mover }) => {
            const game = mancalaGame(PROFILES[profile]!, pits, 1);
            const rows = Array<number>(2 * pits).fill(0);
            for (const k of stones) rows[k]!++;
            const s = game.fromRows(rows.slice(0, pits), rows.slice(pits), stores[0], stores[1], mover);
            const fast = fastSolve(game, s, options);
            expect(fast.proven).toBe(true);
            expect(answer(fast)).toEqual(answer(plainSolve(game, s)));
            // 'best': the same value and best moves, each best move's value.
            const quick = fastSolve(game, s, { ...options, moveValues: 'best' });
            expect([quick.value, [...quick.bestMoves].sort()]).toEqual([fast.value, [...fast.bestMoves].sort()]);
            for (const m of quick.bestMoves) expect(quick.moveValues!.get(m)).toBe(fast.value);
          }),
          { numRuns: 40, seed: 24 },
        );
      });
    }
  }

  it.each(PROFILE_NAMES.flatMap((p) => [[p, 3, 2] as const, [p, 2, 3] as const]))(
    'from the start of %s(%i,%i)',
    (profile, pits, seeds) => {
      const game = mancalaGame(PROFILES[profile]!, pits, seeds);
      expect(answer(fastSolve(game, game.initial(), { ttMb: 1 }))).toEqual(answer(plainSolve(game, game.initial())));
    },
  );
});

// Irving, Donkers & Uiterwijk (2000), Table 9 (empty-capture Kalah, first player's margin): the
// entries this solver proves in a test's time (testcases/perfect-play.slow.test.ts: more of them).
// docs/perfect-play.md has the whole table.
describe('the published values', () => {
  it.each([
    [4, 1, 2],
    [4, 2, 6],
    [5, 1, 0],
    [5, 2, 0],
    [6, 1, 2],
  ])('Kalah(%i,%i) is %i', (pits, seeds, published) => {
    const game = mancalaGame(PROFILES['kalah-empty-capture']!, pits, seeds);
    const r = fastSolve(game, game.initial(), { moveValues: 'best' });
    expect(r.proven).toBe(true);
    expect(r.value).toBe(published);
  });
});

describe('fastSolve with a deadline', () => {
  it('gives up unproven, with bounds that hold the value', () => {
    const game = mancalaGame(PROFILES['kalah-empty-capture']!, 6, 4);
    const r = fastSolve(game, game.initial(), { deadlineMs: 50, endgameStones: 0, ttMb: 4 });
    expect(r.proven).toBe(false);
    expect(r.value).toBeUndefined();
    expect(r.bestMoves).toEqual([]);
    // Kalah(6,4) is +10 for the first player (Irving et al.).
    expect(r.bounds![0]).toBeLessThanOrEqual(10);
    expect(r.bounds![1]).toBeGreaterThanOrEqual(10);
  });

  it('values a finished game by its final margin', () => {
    const game = mancalaGame(PROFILES.kalah!, 3, 2);
    const s = game.fromRows([0, 0, 0], [1, 2, 0], 5, 4, 0);
    expect(answer(fastSolve(game, s))).toEqual(answer(plainSolve(game, s)));
  });
});
