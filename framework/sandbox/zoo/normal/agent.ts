// A well-behaved TypeScript agent: framework types, a helper of its own, ctx.report as it goes.
import type { Agent } from '../../../contracts/agent.ts';
import { minimax } from './search.ts';

const agent: Agent = {
  name: 'zoo-normal',
  chooseMove(ctx) {
    const depth = typeof ctx.options.depth === 'number' ? ctx.options.depth : 3;
    let best = { move: -1, value: -Infinity };
    for (const move of ctx.game.legalMoves(ctx.state)) {
      const value = minimax(ctx.game, ctx.game.play(ctx.state, move), depth - 1, ctx.player, ctx.heuristic);
      if (value > best.value) {
        best = { move, value };
        ctx.report(move, value);
      }
    }
    return best;
  },
};

export default agent;
