/**
 * The alpha-beta search of the example CPSC 4610 submission (seed 002, Problem 2), shared by its
 * three players: `alphabeta.ts` (free turns ignored, as the provided minimax), `alphabeta-full.ts`
 * (the optional abPruneFull: free turns honoured) and the tournament player.
 *
 * AIMA fail-soft: the root player maximises; a max node stops when its value reaches beta
 * (v >= beta), a min node when it falls to alpha (v <= alpha); moves in the game's order; the
 * first best move wins ties. Every move is one ply. It emits the search events the graders
 * compare (ctx.trace) and gives up when the deadline passes.
 */
import type { AgentContext } from '../../../framework/contracts/agent.ts';
import type { Game, Player } from '../../../framework/contracts/game.ts';
import type { Heuristic } from '../../../framework/contracts/heuristic.ts';
import { gameForSearch, type FreeTurns } from '../../../framework/contracts/search-conventions.ts';
import type { TraceEvent } from '../../../framework/contracts/search-trace.ts';

export interface SearchSettings<S> {
  freeTurns: FreeTurns;
  /** plies; Infinity: to the end of the game */
  depth: number;
  heuristic: Heuristic<S>;
  /** performance.now() time to give up at (OutOfTime) */
  deadline?: number;
}

/** Thrown when the deadline passes in the middle of a search. */
export class OutOfTime extends Error {}

/** The options' depth: a number ≥ 0, or Infinity when there is none (null, -1 or absent). */
export function depthOf(ctx: AgentContext, fallback = Infinity): number {
  const d = ctx.options.depth;
  if (d === undefined) return fallback;
  return typeof d === 'number' && d >= 0 ? d : Infinity;
}

export function alphaBeta<S>(ctx: AgentContext<S>, settings: SearchSettings<S>): { move: number; value: number } {
  // With free turns ignored, search the same rules without them: every move passes the turn.
  const game: Game<S> = gameForSearch(ctx.game, settings.freeTurns);
  const root: Player = ctx.player;
  const { heuristic, depth } = settings;
  const deadline = settings.deadline ?? Infinity;
  const byScore = (ctx.options.terminal ?? 'score') === 'score';
  const emit = ctx.trace === undefined ? undefined : (e: TraceEvent) => ctx.trace!(e);
  let visited = 0;
  let best = game.legalMoves(ctx.state)[0] ?? -1;

  function ab(s: S, ply: number, alpha: number, beta: number, name: string): number {
    if ((++visited & 255) === 0 && performance.now() > deadline) throw new OutOfTime();
    const over = game.isOver(s);
    const maximizing = game.toMove(s) === root;
    if (over || ply >= depth) {
      const value = over && byScore ? game.score(s, root) : heuristic.evaluate(s, root, game);
      emit?.({ type: 'leaf', name, level: ply, maximizing, value, reason: over ? 'game-over' : 'depth', alpha, beta });
      return value;
    }
    let v = maximizing ? -Infinity : Infinity;
    emit?.({ type: 'enter', name, level: ply, maximizing, value: v, alpha, beta });
    const moves = game.legalMoves(s);
    for (let k = 0; k < moves.length; k++) {
      const m = moves[k]!;
      const cv = ab(game.play(s, m), ply + 1, alpha, beta, game.moveName(s, m));
      let cut: boolean;
      if (maximizing) {
        if (cv > v) {
          v = cv;
          if (ply === 0) best = m;
        }
        cut = v >= beta;
        if (!cut && v > alpha) alpha = v;
      } else {
        if (cv < v) v = cv;
        cut = v <= alpha;
        if (!cut && v < beta) beta = v;
      }
      emit?.({ type: 'update', name, level: ply, maximizing, value: v, alpha, beta });
      if (cut) {
        emit?.({ type: 'prune', name, level: ply, maximizing, value: v, alpha, beta, skipped: moves.length - k - 1 });
        break;
      }
    }
    return v;
  }

  const value = ab(ctx.state, 0, -Infinity, Infinity, 'root');
  return { move: best, value };
}
