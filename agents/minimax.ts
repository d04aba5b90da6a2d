/**
 * Minimax: the reference search with the options' depth limit (none when absent), unit, caching
 * and terminal evaluation; it emits the trace and gives up at the deadline.
 */
import type { Agent } from '../framework/contracts/agent.ts';
import { searchParams } from './agent-options.ts';
import { minimax as search } from './reference/minimax.ts';

const minimax: Agent = {
  name: 'minimax',
  description: 'reference minimax (options: depth, unit, caching, terminal)',
  chooseMove(ctx) {
    const result = search(searchParams(ctx), ctx.state);
    return { move: result.move, value: result.value };
  },
};

export default minimax;
