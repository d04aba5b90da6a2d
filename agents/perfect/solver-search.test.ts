import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Player } from '../../framework/contracts/game.ts';
import { mancalaGame } from '../../framework/games/mancala/profile-game.ts';
import { PROFILE_NAMES, PROFILES } from '../../framework/games/mancala/profiles.ts';
import { BoardKey } from './board-key.ts';
import { buildEndgameDb, type EndgameDb } from './endgame-db.ts';
import { plainValue } from './plain-solve.ts';
import { SolveTable } from './solve-table.ts';
import { SolverSearch } from './solver-search.ts';

/**
 * The search's fail-soft promise, window by window, with enhanced transposition cut-off at every
 * position (the solver tries it only far above the endgame database, where the property tests'
 * small boards never reach): a result at or above beta is a lower bound of the true future
 * margin, one at or below alpha an upper bound, anything between exact.
 */
const position = fc.integer({ min: 2, max: 3 }).chain((pits) =>
  fc.record({
    pits: fc.constant(pits),
    stones: fc.array(fc.integer({ min: 0, max: 2 * pits - 1 }), { minLength: 4, maxLength: 11 }),
    mover: fc.constantFrom<Player>(0, 1),
  }),
);

describe('the solver search with enhanced transposition cut-off everywhere', () => {
  for (const profile of PROFILE_NAMES) {
    for (const dbStones of [0, 3]) {
      it(`keeps its window promise against exhaustive negamax under ${profile}${dbStones > 0 ? ', over a 3-stone database' : ''}`, () => {
        const dbs = new Map<number, EndgameDb>();
        fc.assert(
          fc.property(position, fc.array(fc.integer({ min: -12, max: 12 }), { minLength: 1, maxLength: 6 }), ({ pits, stones, mover }, betas) => {
            const game = mancalaGame(PROFILES[profile]!, pits, 1);
            const rows = Array<number>(2 * pits).fill(0);
            for (const k of stones) rows[k]!++;
            const s = game.fromRows(rows.slice(0, pits), rows.slice(pits), 0, 0, mover);
            if (game.isOver(s)) return;
            if (dbStones > 0 && !dbs.has(pits)) dbs.set(pits, buildEndgameDb(game, dbStones));
            const truth = plainValue(game, s);
            const key = new BoardKey(pits, stones.length);
            // One table for every window: later searches start from what earlier ones proved, as MTD(f)'s do.
            const search = new SolverSearch({
              game,
              total: stones.length,
              table: new SolveTable(1, key.words),
              key,
              db: dbStones > 0 ? dbs.get(pits) : undefined,
              deadline: Infinity,
              etcMinStones: 0,
            });
            for (const beta of betas) {
              const g = search.search(s, 0, beta - 1, beta);
              if (g >= beta) expect(truth).toBeGreaterThanOrEqual(g);
              else expect(truth).toBeLessThanOrEqual(g);
            }
            expect(search.search(s, 0, -100, 100)).toBe(truth);
          }),
          { numRuns: 60, seed: 2411 },
        );
      });
    }
  }
});
