/**
 * Problem 1: the scoring function, from the point of view of `player`. The store difference alone
 * never sees the end of the game coming; stones still on a side are likely to end up in that
 * side's store (the sweep), so they count a quarter each. (Tried and dropped, as the writeup would
 * say: a bonus for pits that end in the store, and one for captures waiting opposite empty pits;
 * against the store difference at equal depth both lost games, over 80 games from seeded openings.)
 */
import type { Game, Player } from '../../../framework/contracts/game.ts';
import type { Heuristic } from '../../../framework/contracts/heuristic.ts';
import type { MancalaGame, MancalaState } from '../../../framework/games/mancala/engine.ts';

function sideValue(g: MancalaGame, s: MancalaState, p: Player): number {
  const n = g.n;
  let stones = 0;
  for (let i = 0; i < n; i++) stones += g.pit(s, p, i);
  return g.store(s, p) + 0.25 * stones;
}

const score: Heuristic = {
  name: 'cpsc4610-score',
  evaluate(state: unknown, player: Player, game: Game<any>): number {
    if (game.kind !== 'mancala') return game.isOver(state) ? game.score(state, player) : 0;
    const g = game as MancalaGame;
    const s = state as MancalaState;
    if (g.isOver(s)) return g.score(s, player);
    return sideValue(g, s, player) - sideValue(g, s, player === 0 ? 1 : 0);
  },
};

export default score;
