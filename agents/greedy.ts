/**
 * Greedy: minimax with cut-off depth 1 in the options' unit. In unit 'turn' that looks through a
 * whole turn, free-turn chains included (seed 000: "Greedy is MiniMax with cut-off depth 1, free-turn
 * chains included"); in unit 'move' it looks one move ahead. options.depth is ignored.
 */
import type { Agent } from '../framework/contracts/agent.ts';
import { searchParams } from './agent-options.ts';
import { minimax } from './reference/minimax.ts';

const greedy: Agent = {
  name: 'greedy',
  description: 'the move with the best value one level ahead (a whole turn in unit "turn")',
  chooseMove(ctx) {
    const result = minimax({ ...searchParams(ctx), depth: 1, caching: false }, ctx.state);
    return { move: result.move, value: result.value };
  },
};

export default greedy;
