/** Task 3, Alpha-Beta (role `agent` of the csci561 suites). */
import type { Agent } from '../../../framework/contracts/agent.ts';
import { courseSearch } from './search.ts';

const agent: Agent = {
  name: 'my-csci561-alphabeta', // TODO: your name
  chooseMove: (ctx) => courseSearch(ctx, true),
};

export default agent;
