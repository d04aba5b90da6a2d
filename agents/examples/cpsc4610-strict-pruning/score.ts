/** The scoring function: store difference, plus a little for the stones still on each side. */
import type { Game, Player } from '../../../framework/contracts/game.ts';
import type { Heuristic } from '../../../framework/contracts/heuristic.ts';
import type { MancalaGame, MancalaState } from '../../../framework/games/mancala/engine.ts';

const score: Heuristic = {
  name: 'stores-and-sides',
  evaluate(state: unknown, player: Player, game: Game<any>): number {
    if (game.kind !== 'mancala') return game.isOver(state) ? game.score(state, player) : 0;
    const g = game as MancalaGame;
    const s = state as MancalaState;
    const them: Player = player === 0 ? 1 : 0;
    return g.store(s, player) - g.store(s, them) + 0.25 * (g.rowSum(s, player) - g.rowSum(s, them));
  },
};

export default score;
