/**
 * Example submission "bob": plain minimax where the course asked for alpha-beta. Moves and values
 * come out right, node counts do not; the grader's "name the bug" should say so.
 */
import type { Agent, AgentContext } from '../../../framework/contracts/agent.ts';

function minimax<S>(ctx: AgentContext<S>, s: S, depth: number): number {
  const { game, heuristic, player } = ctx;
  if (game.isOver(s)) return (ctx.options.terminal ?? 'score') === 'score' ? game.score(s, player) : heuristic.evaluate(s, player, game);
  if (depth === 0) return heuristic.evaluate(s, player, game);
  const values = game.legalMoves(s).map((m) => {
    const child = game.play(s, m);
    const keepsDepth = ctx.options.unit === 'turn' && game.toMove(child) === game.toMove(s) && !game.isOver(child);
    return minimax(ctx, child, keepsDepth ? depth : depth - 1);
  });
  return game.toMove(s) === player ? Math.max(...values) : Math.min(...values);
}

const agent: Agent = {
  name: 'bob-minimax',
  chooseMove(ctx) {
    const { game, state } = ctx;
    const depth = typeof ctx.options.depth === 'number' && ctx.options.depth >= 0 ? ctx.options.depth : 6;
    let best = { move: -1, value: -Infinity };
    for (const m of game.legalMoves(state)) {
      const child = game.play(state, m);
      const keepsDepth = ctx.options.unit === 'turn' && game.toMove(child) === ctx.player && !game.isOver(child);
      const value = minimax(ctx, child, keepsDepth ? depth : depth - 1);
      if (value > best.value) best = { move: m, value };
    }
    return best;
  },
};

export default agent;
