/**
 * The `perfect` agent: plays a best move by the perfect-play solver (agents/perfect/index.ts),
 * the first of the best moves in search order, with its proven value (the final store margin for
 * the mover). Its time per move comes from the context's deadline (or options.ms, whichever is
 * sooner): the solver gets most of it; where it proves no value in that time the agent says so
 * (MoveChoice.note, which `mancala play`, the web app and replays show) and plays the strong
 * search's move (agents/strong.ts) in the time left.
 *
 * A reference: it knows every position's true value, so it never runs beside student code (the
 * sandbox runtime bundles nothing outside framework/, and the student kits leave agents/perfect/
 * out: framework/sandbox/runtime.ts, framework/kit/reference-scan.ts).
 */
import type { Agent, AgentContext, MoveChoice } from '../../framework/contracts/agent.ts';
import { toMoveChoice } from '../../framework/contracts/agent.ts';
import type { MancalaGame, MancalaState } from '../../framework/games/mancala/engine.ts';
import type { SolveOptions, Solver } from '../../framework/plugins/perfect-solver.ts';
import { budgetDeadline } from '../agent-options.ts';
import strong from '../strong.ts';
import { solve } from './index.ts';

/** A move's budget when neither the context's deadline nor options.ms bounds it. */
export const PERFECT_DEFAULT_MS = 5000;
/** The share of the budget the solver may use; the rest is the fallback search's. */
const SOLVE_SHARE = 0.7;

/** The solver's options from the agent's: `ttMb` and `endgame` as the spec gives them. */
function solveOptions(ctx: AgentContext, deadlineMs: number): SolveOptions {
  const o = ctx.options;
  return {
    ...(typeof o.ttMb === 'number' ? { ttMb: o.ttMb } : {}),
    ...(typeof o.endgame === 'string' ? { endgameFile: o.endgame } : {}),
    deadlineMs,
  };
}

/** The perfect agent over `solver` (the solver everything uses: agents/perfect/index.ts). */
export function perfectAgent(solver: Solver): Agent {
  return {
    name: 'perfect',
    description: 'a best move by the perfect-play solver; where it proves no value in time, says so and plays the strong search (options: ms, ttMb, endgame)',
    async chooseMove(ctx) {
      const start = performance.now();
      const deadline = budgetDeadline(ctx, start, PERFECT_DEFAULT_MS);
      if (ctx.game.kind !== 'mancala') return fallback(ctx, deadline, 'perfect: the solver solves Mancala positions only');
      const budget = Math.max(1, Math.floor((deadline - start) * SOLVE_SHARE));
      const result = solver(ctx.game as unknown as MancalaGame, ctx.state as MancalaState, solveOptions(ctx, budget));
      const move = result.bestMoves[0];
      if (result.proven && move !== undefined && result.value !== undefined) {
        ctx.report(move, result.value);
        return { move, value: result.value };
      }
      const why = `perfect: no value proven within ${Math.round(result.ms)} ms (${result.nodes.toLocaleString('en-US')} positions); played the strong search's move`;
      return fallback(ctx, deadline, why);
    },
  };
}

/** The strong search's move in the time left, with `note` saying why it was not the solver's. */
async function fallback(ctx: AgentContext, deadline: number, note: string): Promise<MoveChoice> {
  const ms = Math.max(1, deadline - performance.now());
  const choice = toMoveChoice(await strong.chooseMove({ ...ctx, options: { ...ctx.options, ms } }));
  return { ...choice, note };
}

export default perfectAgent(solve);
