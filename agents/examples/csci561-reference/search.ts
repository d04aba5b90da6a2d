/**
 * The search of seed 000's homework, written as a student would: MiniMax and Alpha-Beta with a
 * cut-off depth counted in turns (the mover's free turn keeps its depth), the agent as the max
 * player, moves in the game's order (B2, B3, … / A2, A3, …, ties to the first best), a finished
 * game valued by its final score and a cut-off position by the store difference, and the trace
 * events the framework writes as traverse_log.txt.
 *
 * Every child is made with game.play exactly once, so the node count is the course's too.
 */
import type { AgentContext, MoveChoice } from '../../../framework/contracts/agent.ts';
import type { TraceEvent } from '../../../framework/contracts/search-trace.ts';

export function courseSearch<S>(ctx: AgentContext<S>, pruning: boolean): MoveChoice {
  const { game, player: me, heuristic } = ctx;
  const cutoff = typeof ctx.options.depth === 'number' && ctx.options.depth >= 0 ? ctx.options.depth : 1;
  const byScore = (ctx.options.terminal ?? 'score') === 'score';
  // The course counts turns; a suite of another course may ask for moves.
  const turnUnit = (ctx.options.unit ?? 'turn') === 'turn';
  const emit = (e: TraceEvent): void => ctx.trace?.(e);
  let bestMove = game.legalMoves(ctx.state)[0] ?? -1;

  function search(s: S, left: number, ply: number, alpha: number, beta: number, name: string): number {
    const level = cutoff - left;
    const maximizing = game.toMove(s) === me;
    const window = pruning ? { alpha, beta } : {};
    const over = game.isOver(s);
    if (over || left <= 0) {
      const value = over && byScore ? game.score(s, me) : heuristic.evaluate(s, me, game);
      emit({ type: 'leaf', name, level, maximizing, value, reason: over ? 'game-over' : 'depth', ...window });
      return value;
    }
    let v = maximizing ? -Infinity : Infinity;
    emit({ type: 'enter', name, level, maximizing, value: v, ...window });
    const moves = game.legalMoves(s);
    for (let k = 0; k < moves.length; k++) {
      const move = moves[k]!;
      const child = game.play(s, move);
      // A free turn: the same player moves again in the same turn, so the depth is not used up.
      const freeTurn = turnUnit && !game.isOver(child) && game.toMove(child) === game.toMove(s);
      const cv = search(child, freeTurn ? left : left - 1, ply + 1, alpha, beta, game.moveName(s, move));
      if (maximizing ? cv > v : cv < v) {
        v = cv;
        if (ply === 0) bestMove = move;
      }
      let cut = false;
      if (pruning) {
        cut = maximizing ? v >= beta : v <= alpha;
        // On a cut the node reports alpha and beta as they were.
        if (!cut && maximizing) alpha = Math.max(alpha, v);
        if (!cut && !maximizing) beta = Math.min(beta, v);
      }
      emit({ type: 'update', name, level, maximizing, value: v, ...(pruning ? { alpha, beta } : {}) });
      if (cut) {
        emit({ type: 'prune', name, level, maximizing, value: v, alpha, beta, skipped: moves.length - k - 1 });
        break;
      }
    }
    return v;
  }

  const value = search(ctx.state, cutoff, 0, -Infinity, Infinity, 'root');
  return { move: bestMove, value };
}
