/**
 * PROVIDED (CPSC 4610's MINIMAX player): minimax to a fixed number of plies, free turns ignored —
 * after every move the other player moves — valuing each position where it stops with the score
 * the grader hands in (ctx.heuristic: the course's provided score, 100 won / 0 lost / 50
 * otherwise). Read it before writing alphabeta.ts: yours has the same shape (maxValue /
 * minValue), the same move order (cups 1 to 6) and the same values, and visits fewer positions.
 *
 *   npx mancala check agents/students/<you> --suite testcases/cpsc4610-public
 */
import type { Agent, AgentContext } from '../../../framework/contracts/agent.ts';
import { searchOf, type Search } from './search.ts';

export function minimaxMove<S>(ctx: AgentContext<S>): { move: number; value: number } {
  const search = searchOf(ctx, 'ignore');
  const { game } = search;
  let best = { move: game.legalMoves(ctx.state)[0] ?? -1, value: -Infinity };
  for (const m of game.legalMoves(ctx.state)) {
    const v = minValue(search, game.play(ctx.state, m), 1);
    // Only a strictly better value replaces the best move: ties go to the first best move.
    if (v > best.value) best = { move: m, value: v };
  }
  return best;
}

/** The value of a position where the root player (MAX) is to move. */
function maxValue<S>(search: Search<S>, s: S, ply: number): number {
  const { game } = search;
  if (game.isOver(s) || ply >= search.depth) return search.value(s);
  let score = -Infinity;
  for (const m of game.legalMoves(s)) score = Math.max(score, minValue(search, game.play(s, m), ply + 1));
  return score;
}

/** The value of a position where the opponent (MIN) is to move. */
function minValue<S>(search: Search<S>, s: S, ply: number): number {
  const { game } = search;
  if (game.isOver(s) || ply >= search.depth) return search.value(s);
  let score = Infinity;
  for (const m of game.legalMoves(s)) score = Math.min(score, maxValue(search, game.play(s, m), ply + 1));
  return score;
}

const agent: Agent = {
  name: 'provided-minimax',
  description: 'CPSC 4610 MINIMAX: fixed depth, free turns ignored',
  chooseMove: (ctx) => minimaxMove(ctx),
};

export default agent;
