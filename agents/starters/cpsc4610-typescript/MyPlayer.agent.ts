/**
 * Problem 3: your tournament player. Rename this file after your player (DavesPlayer.agent.ts) and
 * give `name` the same name. The tournament gives no depth, only time: options.ms (the time per
 * move, 10 s in the class tournament) and ctx.timeLeft(). Over it, the game is forfeited. One
 * thread, no files, no network, no processes: the sandbox refuses them, and the player loses.
 *
 * As given: your alpha-beta with your scoring function (which scores finished games too), free
 * turns honoured (the tournament plays the real rules), searched one ply deeper at a time while the
 * next depth should end within half the time. A better player stops a search that runs late (see
 * ctx.timeLeft()) and keeps the last finished answer.
 *   npx mancala check agents/students/<you> --suite testcases/cpsc4610-public
 *   npx mancala match agents/students/<you> alphabeta:depth=5,freeTurns=ignore --rules cpsc4610 --games 10
 */
import type { Agent } from '../../../framework/contracts/agent.ts';
import { abPruneMove } from './alphabeta.ts';
import score from './score.ts';

/** How many times longer than the last depth the next one may take (Mancala's branching, less pruning): a guess. */
const GROWTH = 8;

const agent: Agent = {
  name: 'MyPlayer',
  chooseMove(ctx) {
    const start = performance.now();
    const ms = Math.min(typeof ctx.options.ms === 'number' ? ctx.options.ms : 10_000, ctx.timeLeft());
    let best = { move: ctx.game.legalMoves(ctx.state)[0]!, value: 0 };
    let last = 0;
    // Start a deeper search only when, if it costs GROWTH times the last one, it ends within half the time.
    for (let depth = 1; depth <= 30 && performance.now() - start + GROWTH * last < ms / 2; depth++) {
      const t = performance.now();
      best = abPruneMove({ ...ctx, trace: undefined, options: { ...ctx.options, depth, terminal: 'heuristic' } }, 'honour', score, depth);
      last = performance.now() - t;
      ctx.report(best.move, best.value);
    }
    return best;
  },
};

export default agent;
