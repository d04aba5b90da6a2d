/** Example submission "alice": her heuristic, the store difference from the player's side. */
import type { Heuristic } from '../../../framework/contracts/heuristic.ts';
import type { MancalaGame, MancalaState } from '../../../framework/games/mancala/engine.ts';

const heuristic: Heuristic<MancalaState> = {
  name: 'alice-store-difference',
  evaluate(state, player, game) {
    const g = game as unknown as MancalaGame;
    return g.store(state, player) - g.store(state, player === 0 ? 1 : 0);
  },
};

export default heuristic;
