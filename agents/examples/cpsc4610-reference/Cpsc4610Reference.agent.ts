/**
 * Problem 3: the tournament player ("Cpsc4610Reference"; the seed asks for the file to carry the
 * player's name). Alpha-beta honouring free turns (the tournament plays the real rules) with the
 * scoring function of score.ts, deepened one ply at a time while the time lasts: the tournament
 * gives no depth, only a limit of 10 s a move, so the player spends a fraction of its time
 * (`options.ms`, the tournament's time per move, else the deadline) and keeps the deepest
 * finished answer. One thread, no files, no network: the sandbox allows nothing else.
 */
import type { Agent } from '../../../framework/contracts/agent.ts';
import score from './score.ts';
import { alphaBeta, OutOfTime } from './search.ts';

/** Of its time per move, the share the player plans to use (a deeper ply costs several times the last). */
const SHARE = 0.25;
const MAX_DEPTH = 40;

const agent: Agent = {
  name: 'Cpsc4610Reference',
  description: 'iterative-deepening alpha-beta, free turns honoured, the score.ts heuristic',
  chooseMove(ctx) {
    const start = performance.now();
    const ms = typeof ctx.options.ms === 'number' ? ctx.options.ms : Math.min(ctx.timeLeft(), 10_000);
    const stop = Math.min(start + SHARE * ms, start + 0.5 * ctx.timeLeft());
    const hardStop = start + 0.5 * Math.min(ms, ctx.timeLeft());
    let best = { move: ctx.game.legalMoves(ctx.state)[0]!, value: 0 };
    for (let depth = 1; depth <= MAX_DEPTH && performance.now() < stop; depth++) {
      try {
        best = alphaBeta({ ...ctx, trace: undefined }, { freeTurns: 'honour', depth, heuristic: score, deadline: hardStop });
        ctx.report(best.move, best.value);
      } catch (e) {
        if (e instanceof OutOfTime) break;
        throw e;
      }
    }
    return best;
  },
};

export default agent;
