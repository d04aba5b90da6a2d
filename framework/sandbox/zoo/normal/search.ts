// A helper module of the submission's own: plain minimax to a fixed depth, in plies.
import type { Game, Player } from '../../../contracts/game.ts';
import type { Heuristic } from '../../../contracts/heuristic.ts';

export function minimax<S>(game: Game<S>, state: S, depth: number, me: Player, h: Heuristic<S>): number {
  if (depth === 0 || game.isOver(state)) return h.evaluate(state, me, game);
  const maximizing = game.toMove(state) === me;
  let best = maximizing ? -Infinity : Infinity;
  for (const move of game.legalMoves(state)) {
    const value = minimax(game, game.play(state, move), depth - 1, me, h);
    best = maximizing ? Math.max(best, value) : Math.min(best, value);
  }
  return best;
}
