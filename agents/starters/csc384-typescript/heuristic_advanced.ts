/** Provided code (do not change): the module the advanced-heuristic playoff loads. Write the function in utils.ts. */
import type { Heuristic } from '../../../framework/contracts/heuristic.ts';
import type { MancalaState } from '../../../framework/games/mancala/engine.ts';
import { heuristic_advanced } from './utils.ts';

const heuristic: Heuristic<MancalaState> = {
  name: 'heuristic_advanced',
  evaluate: (state, player, game) => heuristic_advanced(game, state, player),
};

export default heuristic;
