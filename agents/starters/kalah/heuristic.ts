/**
 * Starter for a Kalah course of your own: your heuristic, the value of a position for `player`
 * (higher is better for them). Fill in the TODO; as it is, every position is worth 0.
 */
import type { Heuristic } from '../../../framework/contracts/heuristic.ts';

const heuristic: Heuristic = {
  name: 'my-kalah-heuristic', // TODO: your name
  evaluate(state, player, game) {
    // TODO: e.g. your store minus the opponent's, plus what you can judge of the pits.
    void state;
    void player;
    void game;
    return 0;
  },
};

export default heuristic;
