/** The tournament player: the (buggy, but still sound) alpha-beta at 4 plies, free turns honoured. */
import type { Agent } from '../../../framework/contracts/agent.ts';
import { alphaBeta } from './alphabeta.ts';
import score from './score.ts';

const agent: Agent = {
  name: 'StrictPlayer',
  chooseMove: (ctx) => alphaBeta({ ...ctx, heuristic: score, trace: undefined }, 4, 'honour'),
};

export default agent;
