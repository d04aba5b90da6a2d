import { describe, expect, it } from 'vitest';
import type { Game } from '../contracts/game.ts';
import type { DepthUnit } from '../contracts/search-conventions.ts';
import { MancalaGame } from '../games/mancala/engine.ts';
import { PROFILES } from '../games/mancala/profiles.ts';
import { TicTacToeGame } from '../games/tictactoe/game.ts';
import { createRandom, randomInt } from '../random.ts';
import { perft, perftDivide } from './perft.ts';

const kalahEmptyCapture = new MancalaGame(PROFILES['kalah-empty-capture']!.rules);
const kalah = new MancalaGame(PROFILES.kalah!.rules);

/** The same definitions written the plain way: the value layer (play), no buffers, no shared walker. */
function naivePerft<S>(game: Game<S>, s: S, depth: number, unit: DepthUnit): number {
  if (depth === 0) return 1;
  if (game.isOver(s)) return 0;
  const turn = (t: S, mover: number): number => {
    let total = 0;
    for (const m of game.legalMoves(t)) {
      const child = game.play(t, m);
      const sameTurn = unit === 'turn' && !game.isOver(child) && game.toMove(child) === mover;
      total += sameTurn ? turn(child, mover) : naivePerft(game, child, depth - 1, unit);
    }
    return total;
  };
  return turn(s, game.toMove(s));
}

describe('perft on Kalah(6,4)', () => {
  // Golden values: ../shared/bench/kalah.c, `kalah perft-table 8 --mode ply` (default rules: a
  // capture from an empty opposite pit) and `--mode turn`; and with --capture-needs-opposite.
  it('matches kalah.c in unit move (kalah-empty-capture)', () => {
    const expected = [6, 35, 185, 942, 4685, 23169];
    expected.forEach((leaves, k) => expect(perft(kalahEmptyCapture, kalahEmptyCapture.initial(), k + 1, 'move').leaves).toBe(leaves));
  });

  it('matches kalah.c in unit turn (kalah-empty-capture)', () => {
    const expected = [10, 116, 1022, 9682, 125678];
    expected.forEach((leaves, k) => expect(perft(kalahEmptyCapture, kalahEmptyCapture.initial(), k + 1, 'turn').leaves).toBe(leaves));
  });

  it('matches kalah.c for standard kalah, where the rules first differ (depth 5)', () => {
    expect(perft(kalah, kalah.initial(), 5, 'move').leaves).toBe(4690);
    expect(perft(kalah, kalah.initial(), 6, 'move').leaves).toBe(23233);
    expect(perft(kalah, kalah.initial(), 5, 'turn').leaves).toBe(125843);
  });

  it('counts the moves played like kalah.c (its "moves=" field)', () => {
    // kalah.c perft 6 --mode ply: moves=29022; perft 4 --mode turn: moves=12214.
    expect(perft(kalahEmptyCapture, kalahEmptyCapture.initial(), 6, 'move').moves).toBe(29022);
    expect(perft(kalahEmptyCapture, kalahEmptyCapture.initial(), 4, 'turn').moves).toBe(12214);
  });

  it('depth 0 is the position itself', () => {
    expect(perft(kalah, kalah.initial(), 0, 'move')).toMatchObject({ leaves: 1, moves: 0 });
  });

  it('rejects a depth that is not a whole number ≥ 0', () => {
    expect(() => perft(kalah, kalah.initial(), -1, 'move')).toThrow(RangeError);
    expect(() => perft(kalah, kalah.initial(), 1.5, 'move')).toThrow(RangeError);
  });
});

describe('perft against a plain recursive count', () => {
  /** Positions of Kalah(4,3) a few seeded random moves in, so games end inside the tree too. */
  function positions(game: MancalaGame, count: number, seed: number): ReturnType<MancalaGame['initial']>[] {
    const rand = createRandom(seed);
    const out = [game.initial()];
    while (out.length < count) {
      let s = game.initial();
      const plies = 4 + randomInt(rand, 20);
      for (let k = 0; k < plies && !game.isOver(s); k++) {
        const moves = game.legalMoves(s);
        s = game.play(s, moves[randomInt(rand, moves.length)]!);
      }
      out.push(s);
    }
    return out;
  }

  for (const profile of ['kalah', 'csc384', 'csci561'] as const) {
    it(`agrees in both units, and divide adds up (${profile}, 4 pits, 3 stones)`, () => {
      const game = new MancalaGame({ ...PROFILES[profile]!.rules, pits: 4, seeds: 3 });
      for (const s of positions(game, 12, 7)) {
        for (const unit of ['move', 'turn'] as const) {
          for (let d = 0; d <= 4; d++) {
            const count = perft(game, s, d, unit);
            expect(count.leaves).toBe(naivePerft(game, s, d, unit));
            const divided = perftDivide(game, s, d, unit);
            expect(divided.reduce((a, e) => a + e.leaves, 0)).toBe(d === 0 ? 0 : count.leaves);
          }
        }
      }
    });
  }

  it('finds games that end before the depth: they add 0 and are counted', () => {
    // Kalah(2,1): tiny rows empty within a few moves.
    const game = new MancalaGame({ ...PROFILES.kalah!.rules, pits: 2, seeds: 1 });
    const count = perft(game, game.initial(), 6, 'move');
    expect(count.earlyTerminals).toBeGreaterThan(0);
    expect(count.leaves).toBe(naivePerft(game, game.initial(), 6, 'move'));
  });
});

describe('perft on Tic-Tac-Toe', () => {
  /** An independent count on a plain array board: positions at exactly depth d, finished games stop. */
  function ticTacToeLeaves(depth: number): number {
    const board: number[] = Array(9).fill(0);
    const lines = [
      [0, 1, 2], [3, 4, 5], [6, 7, 8], [0, 3, 6], [1, 4, 7], [2, 5, 8], [0, 4, 8], [2, 4, 6],
    ];
    const won = () => lines.some(([a, b, c]) => board[a!] !== 0 && board[a!] === board[b!] && board[b!] === board[c!]);
    const walk = (d: number, mark: number): number => {
      if (d === 0) return 1;
      if (won() || board.every((v) => v !== 0)) return 0;
      let total = 0;
      for (let i = 0; i < 9; i++) {
        if (board[i] !== 0) continue;
        board[i] = mark;
        total += walk(d - 1, 3 - mark);
        board[i] = 0;
      }
      return total;
    };
    return walk(depth, 1);
  }

  it('matches the independent count and the published sequence at depths 1..9', () => {
    const game = new TicTacToeGame();
    // The commonly published counts of the Tic-Tac-Toe game tree by depth (games stop at a win);
    // the independent count above is what checks them.
    const published = [9, 72, 504, 3024, 15120, 54720, 148176, 200448, 127872];
    for (let d = 1; d <= 9; d++) {
      const leaves = perft(game, game.initial(), d, 'move').leaves;
      expect(leaves).toBe(ticTacToeLeaves(d));
      expect(leaves).toBe(published[d - 1]);
      // No free turns in Tic-Tac-Toe: a turn is one move.
      expect(perft(game, game.initial(), d, 'turn').leaves).toBe(leaves);
    }
    expect(perft(game, game.initial(), 10, 'move').leaves).toBe(0);
  });
});
