import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Player } from '../framework/contracts/game.ts';
import { MancalaGame } from '../framework/games/mancala/engine.ts';
import { PROFILES } from '../framework/games/mancala/profiles.ts';
import { FREE_TURN, sowingOutcome } from './mancala-sowing.ts';

/**
 * The prediction against the engine itself: play the sowing and see whether the mover kept the
 * turn and how many stones reached its store beyond the one a sowing drops when it passes it.
 */
describe('sowingOutcome', () => {
  for (const profile of ['kalah', 'kalah-empty-capture', 'csc384', 'csci561']) {
    it(`agrees with the engine under ${profile}`, () => {
      fc.assert(
        fc.property(
          fc.integer({ min: 1, max: 8 }).chain((pits) =>
            fc.record({
              pits: fc.constant(pits),
              bottom: fc.array(fc.integer({ min: 0, max: 2 * pits + 3 }), { minLength: pits, maxLength: pits }),
              top: fc.array(fc.integer({ min: 0, max: 2 * pits + 3 }), { minLength: pits, maxLength: pits }),
              mover: fc.constantFrom<Player>(0, 1),
              pit: fc.integer({ min: 0, max: pits - 1 }),
            }),
          ),
          ({ pits, bottom, top, mover, pit }) => {
            const game = new MancalaGame({ ...PROFILES[profile]!.rules, pits });
            const s = game.fromRows(bottom, top, 0, 0, mover);
            if (game.isOver(s) || !game.isLegal(s, pit)) return;
            const stones = game.pit(s, mover, pit);
            const lap = 2 * pits + 1;
            const outcome = sowingOutcome(game, s, mover, pit);
            const after = game.play(s, pit);
            const keptTurn = game.toMove(after) === mover;
            if (stones >= lap) {
              expect(outcome === FREE_TURN ? keptTurn || game.isOver(after) : outcome === 0).toBe(true);
              return;
            }
            const passedStore = stones >= pits - pit ? 1 : 0;
            const captured = game.store(after, mover) - passedStore;
            if (outcome === FREE_TURN) {
              expect(game.rules.freeTurn).toBe(true);
              expect(captured).toBe(0);
              // Game over voids the free turn; otherwise the mover keeps it.
              expect(keptTurn || game.isOver(after)).toBe(true);
            } else {
              expect(captured).toBe(outcome);
              if (game.rules.freeTurn) expect(keptTurn).toBe(false);
            }
          },
        ),
        { numRuns: 400, seed: 42 },
      );
    });
  }
});
