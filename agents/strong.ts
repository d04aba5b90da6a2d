/**
 * The strong agent: iterative deepening over the strong search (alpha-beta with a transposition
 * table, move ordering and the advanced heuristic, agents/strong-search.ts) under a time budget:
 * options.ms (default 1000 ms), never past ctx.deadline. It reports the best move after every
 * completed depth, stops once a depth saw every game end (the value is then exact) and, when
 * options.depth is given, at that depth. It uses the advanced heuristic whatever ctx.heuristic is.
 * On a game other than Mancala it runs the reference iterative deepening instead.
 */
import type { Agent, AgentContext } from '../framework/contracts/agent.ts';
import { countingHeuristic } from '../framework/contracts/heuristic.ts';
import type { MancalaGame, MancalaState } from '../framework/games/mancala/engine.ts';
import { hasDepthLimit } from './agent-options.ts';
import advanced from './heuristics/advanced.ts';
import { iterativeDeepening } from './reference/iterative-deepening.ts';
import { StrongSearch, valueInStones } from './strong-search.ts';
import { TranspositionTable } from './transposition-table.ts';

export const STRONG_DEFAULT_MS = 1000;
/** Deepest iteration when no depth is given (a finished search stops long before). */
const MAX_DEPTH = 1000;
/** 2^20 entries, about 24 MB, made once and reused by every decision of the process. */
const TABLE_BITS = 20;
let sharedTable: TranspositionTable | undefined;

/** Stop before ctx.deadline by a margin (a tenth of the time left, at most 50 ms) to return in time. */
function stopTime(ctx: AgentContext, start: number): number {
  const ms = typeof ctx.options.ms === 'number' && ctx.options.ms > 0 ? ctx.options.ms : STRONG_DEFAULT_MS;
  const margin = Math.min(50, (ctx.deadline - start) / 10);
  return Math.min(start + ms, ctx.deadline - margin);
}

const strong: Agent = {
  name: 'strong',
  description: 'alpha-beta with a transposition table, move ordering and the advanced heuristic, deepening under a time budget (options: ms, depth)',
  chooseMove(ctx) {
    const start = performance.now();
    const deadline = stopTime(ctx, start);
    const maxDepth = hasDepthLimit(ctx.options.depth) ? Math.max(1, ctx.options.depth) : MAX_DEPTH;
    const heuristic = countingHeuristic(advanced, ctx.game);
    if (ctx.game.kind !== 'mancala') {
      const result = iterativeDeepening(
        { game: ctx.game, heuristic, unit: 'move', terminal: 'score', maxDepth, deadline, onIteration: (it) => ctx.report(it.move, it.value) },
        ctx.state,
      );
      return { move: result.move, value: result.value, depth: result.depth };
    }
    const game = ctx.game as MancalaGame;
    const state = ctx.state as MancalaState;
    sharedTable ??= new TranspositionTable(TABLE_BITS);
    sharedTable.newSearch();
    const search = new StrongSearch({ game, heuristic, table: sharedTable });
    let best = { move: -1, value: 0, depth: 0 };
    for (let depth = 1; depth <= maxDepth; depth++) {
      // Depth 1 ignores the deadline: there must always be a searched move to play.
      const result = search.searchRoot(state, depth, depth === 1 ? Infinity : deadline);
      if (result === undefined) break;
      best = { move: result.move, value: valueInStones(result.value), depth };
      ctx.report(best.move, best.value);
      if (result.exact) break;
      // The next depth costs several times this one: if half the budget is gone it would not finish.
      const now = performance.now();
      if (now - start > (deadline - start) / 2) break;
    }
    return best;
  },
};

export default strong;
