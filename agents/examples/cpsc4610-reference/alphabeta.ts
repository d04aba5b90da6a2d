/**
 * Problem 2 (ABPRUNE): alpha-beta with the provided minimax's simplification — free turns are
 * ignored, players simply alternate every move. Depth: the case's (the course's player searches
 * 5 plies); the heuristic: the one the grader hands in (ctx.heuristic).
 */
import type { Agent } from '../../../framework/contracts/agent.ts';
import { alphaBeta, depthOf } from './search.ts';

const agent: Agent = {
  name: 'cpsc4610-alphabeta',
  description: 'alpha-beta, free turns ignored (Problem 2)',
  chooseMove: (ctx) => alphaBeta(ctx, { freeTurns: 'ignore', depth: depthOf(ctx, 5), heuristic: ctx.heuristic }),
};

export default agent;
