/**
 * Iterative deepening: the reference alpha-beta at depth 1, 2, 3, … until the time budget runs
 * out, reporting the best move after each completed depth (seed 003: the best move so far is kept
 * when time runs out). Budget: options.ms, never past ctx.deadline (see budgetDeadline);
 * options.depth, when given, is the deepest iteration.
 */
import type { Agent } from '../framework/contracts/agent.ts';
import { budgetDeadline, searchParams } from './agent-options.ts';
import { iterativeDeepening } from './reference/iterative-deepening.ts';

const ids: Agent = {
  name: 'ids',
  description: 'iterative-deepening alpha-beta under a time budget (options: ms, depth, unit, caching, terminal)',
  chooseMove(ctx) {
    const { depth, ...params } = searchParams(ctx);
    const result = iterativeDeepening(
      {
        ...params,
        maxDepth: depth,
        deadline: budgetDeadline(ctx, performance.now()),
        onIteration: (it) => ctx.report(it.move, it.value),
      },
      ctx.state,
    );
    return { move: result.move, value: result.value, depth: result.depth };
  },
};

export default ids;
