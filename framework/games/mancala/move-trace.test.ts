/**
 * The move trace (what a move did, found by sowing it again without the capture rule) against the
 * engine, on random positions of every profile: the trace's free turn and capture are what the
 * engine's new position shows.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createRandom } from '../../random.ts';
import { mancalaGame } from './profile-game.ts';
import { PROFILES } from './profiles.ts';
import { traceMove } from './move-trace.ts';

describe('traceMove', () => {
  it.each(Object.keys(PROFILES))('%s: sown cells, the last one, free turns and captures agree with the engine', (name) => {
    fc.assert(
      fc.property(fc.integer({ min: 3, max: 8 }), fc.integer({ min: 1, max: 8 }), fc.integer({ min: 0, max: 60 }), fc.integer(), (pits, seeds, plies, seed) => {
        const game = mancalaGame(PROFILES[name]!, pits, seeds);
        const random = createRandom(seed);
        let s = game.initial();
        for (let i = 0; i < plies && !game.isOver(s); i++) {
          const moves = game.legalMoves(s);
          s = game.play(s, moves[Math.floor(random() * moves.length)]!);
        }
        if (game.isOver(s)) return;
        for (const m of game.legalMoves(s)) {
          const after = game.play(s, m);
          const t = traceMove(game, s, m, after);
          const mover = game.toMove(s);
          const ownStore = mover === 0 ? pits : 2 * pits + 1;
          expect(t.sown).toContain(t.last);
          expect(t.sown.length).toBe(new Set(t.sown).size);
          expect(t.gameOver).toBe(game.isOver(after));
          expect(t.freeTurn).toBe(!t.gameOver && game.toMove(after) === mover);
          // A free turn needs the last stone in the mover's store, where the rules grant one.
          if (t.freeTurn) expect(t.last).toBe(ownStore);
          // A capture took stones: the mover's store gained more than the plain sowing put there.
          if (t.capture !== null) {
            expect(t.capture.stones).toBeGreaterThan(0);
            expect(t.capture.from).toBe(2 * pits - t.last);
          }
        }
      }),
      { numRuns: 60, seed: 7 },
    );
  });
});
