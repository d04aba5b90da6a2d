/**
 * Example submission "alice": alpha-beta written the way the course asks (AIMA fail-soft, moves in
 * the game's order, ties to the first best move, a free turn keeps its depth in unit `turn`),
 * with the optional transposition table and trace events. It should pass every search case.
 * Students import only the framework's contracts.
 */
import type { Agent, AgentContext } from '../../../framework/contracts/agent.ts';
import type { Game, Player } from '../../../framework/contracts/game.ts';
import type { TraceEvent } from '../../../framework/contracts/search-trace.ts';
import { countLegalAfter, NO_LIMIT } from './helpers.ts';

interface Bound {
  value: number;
  kind: 'exact' | 'lower' | 'upper';
}

function search<S>(ctx: AgentContext<S>): { move: number; value: number } {
  const game: Game<S> = ctx.game;
  const root: Player = ctx.player;
  const depth = typeof ctx.options.depth === 'number' && ctx.options.depth >= 0 ? ctx.options.depth : NO_LIMIT;
  const turnUnit = ctx.options.unit === 'turn';
  const byScore = (ctx.options.terminal ?? 'score') === 'score';
  const table = ctx.options.caching === true ? new Map<string, Bound>() : undefined;
  const emit = (e: TraceEvent): void => ctx.trace?.(e);
  let best = game.legalMoves(ctx.state)[0] ?? -1;

  const evaluate = (s: S): number => (game.isOver(s) && byScore ? game.score(s, root) : ctx.heuristic.evaluate(s, root, game));

  function ab(s: S, left: number, alpha: number, beta: number, name: string): number {
    const level = depth - left;
    const maximizing = game.toMove(s) === root;
    if (game.isOver(s) || left <= 0) {
      const value = evaluate(s);
      emit({ type: 'leaf', name, level, maximizing, value, reason: game.isOver(s) ? 'game-over' : 'depth', alpha, beta });
      return value;
    }
    const key = table ? `${game.key(s)}|${left}` : '';
    const hit = table?.get(key);
    if (hit && (hit.kind === 'exact' || (hit.kind === 'lower' ? hit.value >= beta : hit.value <= alpha))) {
      emit({ type: 'cached', name, level, value: hit.value });
      return hit.value;
    }
    const [alphaIn, betaIn] = [alpha, beta];
    let v = maximizing ? -Infinity : Infinity;
    emit({ type: 'enter', name, level, maximizing, value: v, alpha, beta });
    const moves = game.legalMoves(s);
    for (let k = 0; k < moves.length; k++) {
      const child = game.play(s, moves[k]!);
      const freeTurn = turnUnit && game.toMove(child) === game.toMove(s) && !game.isOver(child);
      const cv = ab(child, freeTurn ? left : left - 1, alpha, beta, game.moveName(s, moves[k]!));
      let cut = false;
      if (maximizing) {
        if (cv > v) {
          v = cv;
          if (level === 0) best = moves[k]!;
        }
        cut = v >= beta;
        if (!cut) alpha = Math.max(alpha, v);
      } else {
        v = Math.min(v, cv);
        cut = v <= alpha;
        if (!cut) beta = Math.min(beta, v);
      }
      emit({ type: 'update', name, level, maximizing, value: v, alpha, beta });
      if (cut) {
        emit({ type: 'prune', name, level, maximizing, value: v, alpha, beta, skipped: countLegalAfter(moves, k) });
        break;
      }
    }
    table?.set(key, { value: v, kind: v <= alphaIn ? 'upper' : v >= betaIn ? 'lower' : 'exact' });
    return v;
  }

  const value = ab(ctx.state, depth, -Infinity, Infinity, 'root');
  return { move: best, value };
}

const agent: Agent = {
  name: 'alice-alphabeta',
  description: 'alpha-beta with optional caching and traces',
  chooseMove: (ctx) => search(ctx),
};

export default agent;
