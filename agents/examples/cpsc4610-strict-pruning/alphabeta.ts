/**
 * Example submission "cpsc4610-strict-pruning": the CPSC 4610 homework with one classic bug, the
 * cut-off tested with > and < instead of >= and <=. Moves and values stay right (pruning on a
 * strict inequality only prunes less), node counts do not, and the pruning trace differs: the
 * grader should take the node-count and trace points and name the bug ("likely bug: … pruning on
 * > / < instead of >= / <="). Free turns are ignored, as the provided minimax does.
 */
import type { Agent, AgentContext } from '../../../framework/contracts/agent.ts';
import type { Game, Player } from '../../../framework/contracts/game.ts';
import { gameForSearch } from '../../../framework/contracts/search-conventions.ts';
import type { TraceEvent } from '../../../framework/contracts/search-trace.ts';

export function alphaBeta<S>(ctx: AgentContext<S>, depth: number, freeTurns: 'ignore' | 'honour'): { move: number; value: number } {
  const game: Game<S> = gameForSearch(ctx.game, freeTurns);
  const root: Player = ctx.player;
  const emit = (e: TraceEvent) => ctx.trace?.(e);
  let best = game.legalMoves(ctx.state)[0] ?? -1;
  // A finished game as the grader says: the heuristic (the cpsc4610 cases: the provided score), or the final score.
  const byScore = (ctx.options.terminal ?? 'score') === 'score';

  function ab(s: S, ply: number, alpha: number, beta: number, name: string): number {
    const over = game.isOver(s);
    const maximizing = game.toMove(s) === root;
    if (over || ply >= depth) {
      const value = over && byScore ? game.score(s, root) : ctx.heuristic.evaluate(s, root, game);
      emit({ type: 'leaf', name, level: ply, maximizing, value, reason: over ? 'game-over' : 'depth', alpha, beta });
      return value;
    }
    let v = maximizing ? -Infinity : Infinity;
    emit({ type: 'enter', name, level: ply, maximizing, value: v, alpha, beta });
    const moves = game.legalMoves(s);
    for (let k = 0; k < moves.length; k++) {
      const cv = ab(game.play(s, moves[k]!), ply + 1, alpha, beta, game.moveName(s, moves[k]!));
      let cut: boolean;
      if (maximizing) {
        if (cv > v) {
          v = cv;
          if (ply === 0) best = moves[k]!;
        }
        cut = v > beta; // the bug: should be v >= beta
        if (!cut && v > alpha) alpha = v;
      } else {
        if (cv < v) v = cv;
        cut = v < alpha; // the bug: should be v <= alpha
        if (!cut && v < beta) beta = v;
      }
      emit({ type: 'update', name, level: ply, maximizing, value: v, alpha, beta });
      if (cut) {
        emit({ type: 'prune', name, level: ply, maximizing, value: v, alpha, beta, skipped: moves.length - k - 1 });
        break;
      }
    }
    return v;
  }

  const value = ab(ctx.state, 0, -Infinity, Infinity, 'root');
  return { move: best, value };
}

const agent: Agent = {
  name: 'strict-pruning-alphabeta',
  chooseMove(ctx) {
    const d = ctx.options.depth;
    return alphaBeta(ctx, typeof d === 'number' && d >= 0 ? d : d === undefined ? 5 : Infinity, 'ignore');
  },
};

export default agent;
