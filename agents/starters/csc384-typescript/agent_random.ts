/**
 * Provided code: the seed's agent_random.py, a legal move at random (from the seeded ctx.random(),
 * so a seed replays a game). Useful to play against before your searches work:
 *   npx mancala play --agentTop agents/starters/csc384-typescript/agent_random.ts
 */
import type { Agent } from '../../../framework/contracts/agent.ts';
import type { MancalaState } from '../../../framework/games/mancala/engine.ts';

const agent: Agent<MancalaState> = {
  name: 'agent_random',
  chooseMove(ctx) {
    const moves = ctx.game.legalMoves(ctx.state);
    return { move: moves[Math.floor(ctx.random() * moves.length)]! };
  },
};

export default agent;
