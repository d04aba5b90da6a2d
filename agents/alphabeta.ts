/**
 * Alpha-beta: the reference search (AIMA fail-soft) with the options' depth limit (none when
 * absent), unit, caching and terminal evaluation; it emits the trace and gives up at the deadline.
 */
import type { Agent } from '../framework/contracts/agent.ts';
import { searchParams } from './agent-options.ts';
import { alphaBeta } from './reference/alphabeta.ts';

const alphabeta: Agent = {
  name: 'alphabeta',
  description: 'reference alpha-beta (options: depth, unit, caching, terminal)',
  chooseMove(ctx) {
    const result = alphaBeta(searchParams(ctx), ctx.state);
    return { move: result.move, value: result.value };
  },
};

export default alphabeta;
