/** Task 2, MiniMax (role `minimax`); at cut-off depth 1 also Greedy, task 1 (role `greedy`). */
import type { Agent } from '../../../framework/contracts/agent.ts';
import { courseSearch } from './search.ts';

const agent: Agent = {
  name: 'my-csci561-minimax', // TODO: your name
  chooseMove: (ctx) => courseSearch(ctx, false),
};

export default agent;
