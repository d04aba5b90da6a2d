/**
 * Reference alpha-beta (DESIGN §5): AIMA fail-soft, the root player maximises; a max node prunes
 * on v >= beta and a min node on v <= alpha; children get the parent's current window (free-turn
 * children too); ties go to the first best move. With caching, a transposition table keyed on
 * (position, player to move, depth left) stores values with their bound type, so a cached entry
 * is only used where it cannot change a value: caching changes node counts, never moves or values.
 */
import type { Game } from '../../framework/contracts/game.ts';
import { DEADLINE_MASK, SearchStack, type SearchParams, type SearchResult } from './search-stack.ts';

const EXACT = 0;
const LOWER = 1; // the value is at least this (a max node pruned, or a min node whose children all failed high)
const UPPER = 2; // the value is at most this

interface Entry {
  value: number;
  bound: number;
}

export class AlphaBetaSearch<S> extends SearchStack<S> {
  private readonly table: Map<string, Entry> | undefined;

  constructor(p: SearchParams<S>) {
    super(p);
    this.table = p.caching ? new Map() : undefined;
  }

  protected searchRoot(s: S, depth: number): number {
    return this.ab(s, depth, 0, -1e9, 1e9, "root");
  }

  private ab(s: S, depth: number, ply: number, alpha: number, beta: number, name: string): number {
    if ((++this.nodes & DEADLINE_MASK) === 0 && this.pastDeadline()) return 0;
    const game: Game<S> = this.game;
    const trace = this.trace;
    const over = game.isOver(s);
    if (over || depth <= 0) {
      const value = this.evaluate(s, over);
      if (!over) this.cutoff = true;
      if (trace) {
        trace({ type: 'leaf', name, level: this.levelOf(depth), maximizing: game.toMove(s) === this.root, value, reason: over ? 'game-over' : 'depth', alpha, beta });
      }
      return value;
    }
    let key = '';
    const table = this.table;
    if (table !== undefined) {
      key = game.key(s) + '|' + depth;
      const hit = table.get(key);
      if (hit !== undefined && (hit.bound === EXACT || (hit.bound === LOWER ? hit.value >= beta : hit.value <= alpha))) {
        if (trace) trace({ type: 'cached', name, level: this.levelOf(depth), value: hit.value });
        return hit.value;
      }
    }
    const alphaIn = alpha;
    const betaIn = beta;
    const mover = game.toMove(s);
    const maximizing = mover === this.root;
    const level = trace ? this.levelOf(depth) : 0;
    let v = maximizing ? -1e9 : 1e9;
    if (trace) trace({ type: 'enter', name, level, maximizing, value: v, alpha, beta });
    if (ply + 1 >= this.states.length) this.ensure(ply + 1);
    const moves = this.moves[ply]!;
    const count = game.legalMovesInto(s, moves);
    const child = this.states[ply + 1]!;
    for (let i = 0; i < count; i++) {
      const m = moves[i]!;
      game.playInto(s, m, child);
      const childDepth = this.turnUnit && game.toMove(child) === mover && !game.isOver(child) ? depth : depth - 1;
      const cv = this.ab(child, childDepth, ply + 1, alpha, beta, trace ? game.moveName(s, m) : '');
      if (this.aborted) return 0;
      if (maximizing) {
        if (cv > v) {
          v = cv;
          if (ply === 0) this.bestMove = m;
        }
        if (v >= beta) {
          if (trace) {
            trace({ type: 'update', name, level, maximizing, value: v, alpha, beta });
            trace({ type: 'prune', name, level, maximizing, value: v, alpha, beta, skipped: count - i - 1 });
          }
          break;
        }
        if (v > alpha) alpha = v;
      } else {
        if (cv < v) v = cv;
        if (v <= alpha) {
          if (trace) {
            trace({ type: 'update', name, level, maximizing, value: v, alpha, beta });
            trace({ type: 'prune', name, level, maximizing, value: v, alpha, beta, skipped: count - i - 1 });
          }
          break;
        }
        if (v < beta) beta = v;
      }
      if (trace) trace({ type: 'update', name, level, maximizing, value: v, alpha, beta });
    }
    if (table !== undefined) {
      table.set(key, { value: v, bound: v <= alphaIn ? UPPER : v >= betaIn ? LOWER : EXACT });
    }
    return v;
  }
}

export function alphaBeta<S>(params: SearchParams<S>, state: S): SearchResult {
  return new AlphaBetaSearch(params).run(state);
}
