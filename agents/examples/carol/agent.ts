/**
 * Example submission "carol": greedy — the move that gains the most stones in her store right
 * now, no look-ahead. Beats a random player, fails the search cases.
 */
import type { Agent } from '../../../framework/contracts/agent.ts';

const agent: Agent = {
  name: 'carol-greedy',
  chooseMove({ game, state, player }) {
    let best = { move: -1, gain: -Infinity };
    for (const m of game.legalMoves(state)) {
      const gain = game.score(game.play(state, m), player);
      if (gain > best.gain) best = { move: m, gain };
    }
    return best.move;
  },
};

export default agent;
