/**
 * Problem 1: the scoring function — how good `state` is for `player` (bigger is better). As given
 * it is the store difference, which "never looks ahead to see the end of the game until it's too
 * late". Improve it: stones on each side, empty pits, pits that end in the store (free turns),
 * captures waiting to happen, … and test each idea systematically (the writeup asks how):
 *
 *   npx mancala check agents/students/<you> --suite testcases/cpsc4610-public
 *
 * plays the reference alpha-beta with this function against itself with the basic one.
 */
import type { Game, Player } from '../../../framework/contracts/game.ts';
import type { Heuristic } from '../../../framework/contracts/heuristic.ts';
import type { MancalaGame, MancalaState } from '../../../framework/games/mancala/engine.ts';

const score: Heuristic = {
  name: 'my-score',
  evaluate(state: unknown, player: Player, game: Game<any>): number {
    if (game.kind !== 'mancala') return game.isOver(state) ? game.score(state, player) : 0;
    const g = game as MancalaGame;
    const s = state as MancalaState;
    const opponent: Player = player === 0 ? 1 : 0;
    // g.store(s, p): p's store; g.pit(s, p, i): pit i of p in sowing order (0 is furthest from the
    // store); g.rowSum(s, p): the stones on p's side; g.n: pits a side; g.isOver(s), g.score(s, p).
    return g.store(s, player) - g.store(s, opponent);
  },
};

export default score;
