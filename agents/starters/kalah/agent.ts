/**
 * Starter for a Kalah course of your own (the kalah-basics suite): an alpha-beta agent. Fill in
 * the TODO; as it is, it plays the first legal move with value 0, which the suite grades as failed
 * cases (never as errors).
 *
 * What you get (framework/contracts/agent.ts): `ctx.game` (legalMoves, play — a new state —,
 * toMove, isOver, score), `ctx.state`, `ctx.player` (you), `ctx.options` (depth, unit, caching,
 * terminal), `ctx.heuristic.evaluate(state, player, game)` at the cut-off, and `ctx.trace` for the
 * search's events (framework/contracts/search-trace.ts), which the trace cases compare.
 */
import type { Agent, AgentContext, MoveChoice } from '../../../framework/contracts/agent.ts';

function alphaBeta<S>(ctx: AgentContext<S>): MoveChoice {
  const moves = ctx.game.legalMoves(ctx.state);
  // TODO: search ctx.options.depth moves ahead with alpha-beta pruning, from ctx.player's point of
  // view, and return the first best move with its value.
  return { move: moves[0]!, value: 0 };
}

const agent: Agent = {
  name: 'my-kalah-alphabeta', // TODO: your name
  chooseMove: (ctx) => alphaBeta(ctx),
};

export default agent;
