/**
 * Reference alpha-beta (DESIGN §5): AIMA fail-soft, the root player maximises; a max node prunes
 * on v >= beta and a min node on v <= alpha; children get the parent's current window (free-turn
 * children too); ties go to the first best move. With caching, a transposition table keyed on
 * (position, player to move, depth left) stores values with their bound type, so a cached entry
 * is only used where it cannot change a value: caching changes node counts, never moves or values.
 *
 * Trace events are emitted by small methods of SearchStack so this function stays small enough
 * for V8 to inline the game's calls into it. On Mancala with the basic heuristic and neither a
 * trace nor a table, the same search runs in generated WebAssembly instead (native-alphabeta.ts).
 */
import type { Game } from '../../framework/contracts/game.ts';
import { nativeAlphaBeta } from './native-alphabeta.ts';
import { DEADLINE_MASK, INF, SearchStack, TABLE_LIMIT, type SearchParams, type SearchResult } from './search-stack.ts';

const EXACT = 0;
const LOWER = 1; // the value is at least this (a max node pruned)
const UPPER = 2; // the value is at most this (every child failed low)

interface Entry {
  value: number;
  bound: number;
}

export class AlphaBetaSearch<S> extends SearchStack<S> {
  private readonly table: Map<string, Entry> | undefined;

  private readonly native: boolean;

  constructor(p: SearchParams<S>) {
    super(p);
    this.table = p.caching ? new Map() : undefined;
    this.native = p.native !== false;
  }

  /**
   * Where leaves are valued by `basic` and nothing is traced or cached, a Mancala search runs in
   * the generated WebAssembly module (native-alphabeta.ts: the same results, about 1.6x faster than
   * the TypeScript on Kalah(6,4) at depth 14);
   * everything else, and whatever that module declines, in the TypeScript below.
   */
  override run(state: S): SearchResult {
    if (this.native && this.table === undefined && this.leafCounters !== undefined) {
      const done = nativeAlphaBeta({
        game: this.game,
        state,
        conventions: { turnUnit: this.turnUnit, terminalByScore: this.terminalByScore },
        depth: this.rootDepth,
        deadline: this.deadline,
        evaluationCounters: this.leafCounters,
      });
      if (done !== undefined) return done;
    }
    return super.run(state);
  }

  protected searchRoot(s: S, depth: number): number {
    return this.ab(s, depth, 0, -INF, INF, 'root');
  }

  private ab(s: S, depth: number, ply: number, alpha: number, beta: number, name: string): number {
    this.nodes++;
    if ((++this.expanded & DEADLINE_MASK) === 0 && this.pastDeadline()) return 0;
    const game: Game<S> = this.game;
    const traced = this.trace !== undefined;
    const over = game.isOver(s);
    if (over || depth <= 0) return this.evaluateLeaf(s, over, depth, name, alpha, beta);
    const table = this.table;
    let key = '';
    if (table !== undefined) {
      key = game.key(s) + '|' + depth;
      const hit = table.get(key);
      if (hit !== undefined && (hit.bound === EXACT || (hit.bound === LOWER ? hit.value >= beta : hit.value <= alpha))) {
        if (traced) this.traceCached(name, depth, hit.value);
        return hit.value;
      }
    }
    if (depth === 1 && this.leafCounters !== undefined && table === undefined) return this.frontier(s, ply, alpha, beta);
    const alphaIn = alpha;
    const betaIn = beta;
    const mover = game.toMove(s);
    const maximizing = mover === this.root;
    let v = maximizing ? -INF : INF;
    if (traced) this.traceNode('enter', name, depth, maximizing, v, alpha, beta);
    if (ply + 1 >= this.states.length) this.ensure(ply + 1);
    const child = this.states[ply + 1]!;
    const candidates = game.maxMoves;
    // The root's best move is kept here and stored once when the root is done: a store that
    // first runs millions of nodes into the search would throw away its optimised code.
    let best = -1;
    for (let k = 0; k < candidates; k++) {
      const m = game.moveAt(s, k);
      if (m < 0) continue;
      game.playInto(s, m, child);
      const childOver = game.isOver(child);
      const childDepth = this.turnUnit && !childOver && game.toMove(child) === mover ? depth : depth - 1;
      const childName = traced ? game.moveName(s, m) : '';
      let cv: number;
      if (childOver || childDepth <= 0) {
        // Leaves are most of the nodes: evaluate them here rather than through a recursive call.
        cv = this.leaf(child, childOver, childDepth, childName, alpha, beta);
      } else {
        cv = this.ab(child, childDepth, ply + 1, alpha, beta, childName);
        if (this.aborted) {
          if (ply === 0 && best >= 0) this.bestMove = best;
          return 0;
        }
      }
      let cut: boolean;
      if (maximizing) {
        if (cv > v) {
          v = cv;
          best = m;
        }
        cut = v >= beta;
        if (!cut && v > alpha) alpha = v;
      } else {
        if (cv < v) v = cv;
        cut = v <= alpha;
        if (!cut && v < beta) beta = v;
      }
      if (traced) {
        // On a prune the node shows its value with alpha and beta as they were (seed 000's log).
        this.traceNode('update', name, depth, maximizing, v, alpha, beta);
        if (cut) this.tracePrune(name, depth, maximizing, v, alpha, beta, this.movesAfter(s, k));
      }
      if (cut) break;
    }
    if (ply === 0 && best >= 0) this.bestMove = best;
    if (table !== undefined && table.size < TABLE_LIMIT) table.set(key, { value: v, bound: v <= alphaIn ? UPPER : v >= betaIn ? LOWER : EXACT });
    return v;
  }

  /**
   * The rest of `ab` for a node with depth 1 left when leaves are valued through Game.playLeaf
   * (see SearchStack.leafCounters) and nothing is cached: the same values and counts, without
   * building each leaf and calling the heuristic on it (most nodes are such leaves). In unit
   * `turn` a free-turn child keeps its depth, so it is searched as usual.
   */
  private frontier(s: S, ply: number, alpha: number, beta: number): number {
    const game: Game<S> = this.game;
    const mover = game.toMove(s);
    const maximizing = mover === this.root;
    const counters = this.leafCounters!;
    const flip = this.flip;
    const final = this.terminalByScore;
    const turnUnit = this.turnUnit;
    let v = maximizing ? -INF : INF;
    if (ply + 1 >= this.states.length) this.ensure(ply + 1);
    const child = this.states[ply + 1]!;
    const candidates = game.maxMoves;
    let best = -1;
    for (let k = 0; k < candidates; k++) {
      const m = game.moveAt(s, k);
      if (m < 0) continue;
      const r = game.playLeaf!(s, m, child, final, turnUnit);
      const over = r & 1;
      let cv: number;
      if ((r & 2) !== 0 && over === 0 && turnUnit) {
        cv = this.ab(child, 1, ply + 1, alpha, beta, '');
        if (this.aborted) {
          if (ply === 0 && best >= 0) this.bestMove = best;
          return 0;
        }
      } else {
        // One path for both kinds of leaf: a branch that first runs late (the first finished
        // game) would throw away the optimised code if it had property accesses of its own.
        this.nodes++;
        this.leaves++;
        if (over === 0) this.cutoff = true;
        // The heuristic's value (counted as its call) unless a finished game is valued by its score.
        if (over === 0 || !final) counters.evaluations++;
        cv = (((r >> 2) ^ flip) - flip) | 0;
      }
      if (maximizing) {
        if (cv > v) {
          v = cv;
          best = m;
        }
        if (v >= beta) break;
        if (v > alpha) alpha = v;
      } else {
        if (cv < v) v = cv;
        if (v <= alpha) break;
        if (v < beta) beta = v;
      }
    }
    if (ply === 0 && best >= 0) this.bestMove = best;
    return v;
  }
}

export function alphaBeta<S>(params: SearchParams<S>, state: S): SearchResult {
  return new AlphaBetaSearch(params).run(state);
}
