/**
 * MiniMax of seed 000 (task 2, role `minimax`); with cut-off depth 1 it is also Greedy (task 1,
 * role `greedy`, which falls back on this file when there is no greedy.ts).
 */
import type { Agent } from '../../../framework/contracts/agent.ts';
import { courseSearch } from './search.ts';

const agent: Agent = {
  name: 'csci561-minimax',
  description: 'CSCI-561 MiniMax: depth in turns, agent is max, positional order, traverse-log events',
  chooseMove: (ctx) => courseSearch(ctx, false),
};

export default agent;
