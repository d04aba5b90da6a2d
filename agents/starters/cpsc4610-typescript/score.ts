/**
 * Problem 1: the scoring function — how good `state` is for `player` (bigger is better). As given
 * it is the course's provided score: 100 when `player` has won, 0 when it has lost, 50 otherwise
 * (a game still in play, or a tie). It is "too simple to be useful": the agent "never looks ahead
 * to see the end of the game until it's too late". Improve it: the stones in each store, stones on
 * each side, empty cups, cups that end in the store (free turns), captures waiting to happen, …
 * and test each idea systematically (the writeup asks how):
 *
 *   npx mancala check agents/students/<you> --suite testcases/cpsc4610-public
 *
 * plays the reference alpha-beta with this function against itself with the store difference.
 * The searches ask it about finished games too (as the course's minimax does), so keep a won game
 * worth more than any game still in play, and a lost one less.
 */
import type { Game, Player } from '../../../framework/contracts/game.ts';
import type { Heuristic } from '../../../framework/contracts/heuristic.ts';
import type { MancalaGame, MancalaState } from '../../../framework/games/mancala/engine.ts';

const score: Heuristic = {
  name: 'my-score',
  evaluate(state: unknown, player: Player, game: Game<any>): number {
    if (game.isOver(state)) {
      // game.score(s, p): the final store difference for p, after the sweep (Tic-Tac-Toe: +1, 0, -1)
      const final = game.score(state, player);
      if (final > 0) return 100;
      if (final < 0) return 0;
      return 50;
    }
    if (game.kind !== 'mancala') return 50;
    // A Mancala game still in play. What you can look at (g = game as MancalaGame, s = state as
    // MancalaState): g.store(s, p), p's store; g.pit(s, p, i), the stones in p's cup i + 1 (i = 0 is
    // cup 1, the furthest from p's store); g.rowSum(s, p), the stones on p's side; g.n, cups a side.
    return 50;
  },
};

export default score;
