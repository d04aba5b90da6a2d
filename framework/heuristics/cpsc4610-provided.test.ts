/**
 * Seed 002's provided score: 100 won, 0 lost, 50 otherwise (in play, or a tie), a finished game
 * judged after the end-of-game sweep as the course's board does (gameOver() sweeps, then hasWon).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Player } from '../contracts/game.ts';
import { MancalaGame } from '../games/mancala/engine.ts';
import { findProfile } from '../games/mancala/profiles.ts';
import { TicTacToeGame } from '../games/tictactoe/game.ts';
import provided from './cpsc4610-provided.ts';
import { SANDBOX_HEURISTICS } from './sandbox-heuristics.ts';

const game = new MancalaGame(findProfile('cpsc4610')!.rules, 'cpsc4610(6,4)');

describe('cpsc4610-provided', () => {
  it('is 50 for both players while the game is in play, however the stores stand', () => {
    const s = game.fromRows([0, 0, 0, 0, 0, 1], [1, 0, 0, 0, 0, 0], 30, 16, 0);
    expect(game.isOver(s)).toBe(false);
    expect([provided.evaluate(s, 0, game), provided.evaluate(s, 1, game)]).toEqual([50, 50]);
    expect(provided.evaluate(game.initial(), 0, game)).toBe(50);
  });

  it('judges a finished game after the sweep: the stones left on a side are its owner\'s', () => {
    // Bottom's row is empty: over. The stores stand 23 to 20, but the sweep gives top 5 more: 23 to 25.
    const s = game.fromRows([0, 0, 0, 0, 0, 0], [1, 1, 1, 1, 1, 0], 23, 20, 1);
    expect(game.isOver(s)).toBe(true);
    expect(provided.evaluate(s, 1, game)).toBe(100);
    expect(provided.evaluate(s, 0, game)).toBe(0);
    const tie = game.fromRows([0, 0, 0, 0, 0, 0], [2, 0, 0, 0, 0, 0], 24, 22, 0);
    expect([provided.evaluate(tie, 0, game), provided.evaluate(tie, 1, game)]).toEqual([50, 50]);
  });

  it('is 100 / 50 / 0 exactly as the final score is positive, zero or negative, from either side (fast-check)', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 5 }), { minLength: 12, maxLength: 12 }), fc.nat(30), fc.nat(30), fc.constantFrom<Player>(0, 1), (cells, a, b, p) => {
        const s = game.fromRows(cells.slice(0, 6), cells.slice(6), a, b, p);
        for (const who of [0, 1] as const) {
          const v = provided.evaluate(s, who, game);
          if (!game.isOver(s)) expect(v).toBe(50);
          else expect(v).toBe(game.score(s, who) > 0 ? 100 : game.score(s, who) < 0 ? 0 : 50);
        }
      }),
      { numRuns: 300, seed: 4610 },
    );
  });

  it("scores Tic-Tac-Toe as the seed's pruning example does: 100 won, 50 drawn or in play, 0 lost", () => {
    const ttt = new TicTacToeGame();
    const xWon = ttt.fromString('XXX/OO_/___');
    expect([provided.evaluate(xWon, 0, ttt), provided.evaluate(xWon, 1, ttt)]).toEqual([100, 0]);
    expect(provided.evaluate(ttt.fromString('XX_/_O_/___'), 1, ttt)).toBe(50);
  });

  it('is given course code: the sandbox offers it to a submission beside basic', () => {
    expect(SANDBOX_HEURISTICS).toEqual(['basic', 'cpsc4610-provided']);
  });
});
