/**
 * The random agent: a legal move uniformly at random, drawn from the seeded ctx.random(), so a
 * seed replays a game (seed 003 grades against a random opponent).
 */
import type { Agent } from '../framework/contracts/agent.ts';
import { randomInt } from '../framework/random.ts';

const random: Agent = {
  name: 'random',
  description: 'a legal move uniformly at random (seeded)',
  chooseMove(ctx) {
    const moves = ctx.game.legalMoves(ctx.state);
    // -1 is the searches' "no legal move" (a finished game), so every reference agent agrees on it.
    if (moves.length === 0) return { move: -1 };
    return { move: moves[randomInt(ctx.random, moves.length)]! };
  },
};

export default random;
