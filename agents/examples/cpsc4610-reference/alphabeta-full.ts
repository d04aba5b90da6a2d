/** The optional abPruneFull: alpha-beta that honours free turns (the same player moves again). */
import type { Agent } from '../../../framework/contracts/agent.ts';
import { alphaBeta, depthOf } from './search.ts';

const agent: Agent = {
  name: 'cpsc4610-alphabeta-full',
  description: 'alpha-beta, free turns honoured (optional abPruneFull)',
  chooseMove: (ctx) => alphaBeta(ctx, { freeTurns: 'honour', depth: depthOf(ctx, 5), heuristic: ctx.heuristic }),
};

export default agent;
