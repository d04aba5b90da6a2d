/** Provided code (do not change): the module the `heuristic_basic` tests load. Write the function in utils.ts. */
import type { Heuristic } from '../../../framework/contracts/heuristic.ts';
import type { MancalaState } from '../../../framework/games/mancala/engine.ts';
import { heuristic_basic } from './utils.ts';

const heuristic: Heuristic<MancalaState> = {
  name: 'heuristic_basic',
  evaluate: (state, player, game) => heuristic_basic(game, state, player),
};

export default heuristic;
