/**
 * Example submission "csci561-reference": seed 000's three tasks as the CSCI-561 pack grades them.
 * This file is Alpha-Beta (task 3, role `agent`); minimax.ts is MiniMax (task 2) and, at cut-off
 * depth 1, Greedy (task 1). It should get full marks on testcases/csci561-public and -hidden.
 */
import type { Agent } from '../../../framework/contracts/agent.ts';
import { courseSearch } from './search.ts';

const agent: Agent = {
  name: 'csci561-alphabeta',
  description: 'CSCI-561 Alpha-Beta: depth in turns, agent is max, positional order, traverse-log events',
  chooseMove: (ctx) => courseSearch(ctx, true),
};

export default agent;
