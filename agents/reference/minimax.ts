/**
 * Reference minimax (DESIGN §5): the root player maximises, whoever is to move at a node decides
 * whether it is a max or a min node (so free turns are honoured); ties go to the first best move
 * in the game's order. With caching, values are kept by (position, player to move, depth left):
 * an exact value, so a hit returns what the subtree would have returned.
 */
import type { Game } from '../../framework/contracts/game.ts';
import { DEADLINE_MASK, INF, SearchStack, TABLE_LIMIT, type SearchParams, type SearchResult } from './search-stack.ts';

export class MinimaxSearch<S> extends SearchStack<S> {
  private readonly table: Map<string, number> | undefined;

  constructor(p: SearchParams<S>) {
    super(p);
    this.table = p.caching ? new Map() : undefined;
  }

  protected searchRoot(s: S, depth: number): number {
    return this.mm(s, depth, 0, 'root');
  }

  private mm(s: S, depth: number, ply: number, name: string): number {
    this.nodes++;
    if ((++this.expanded & DEADLINE_MASK) === 0 && this.pastDeadline()) return 0;
    const game: Game<S> = this.game;
    const traced = this.trace !== undefined;
    const over = game.isOver(s);
    if (over || depth <= 0) {
      const value = this.evaluate(s, over);
      if (traced) this.traceLeaf(s, name, depth, value, over);
      return value;
    }
    const table = this.table;
    let key = '';
    if (table !== undefined) {
      key = game.key(s) + '|' + depth;
      const hit = table.get(key);
      if (hit !== undefined) {
        if (traced) this.traceCached(name, depth, hit);
        return hit;
      }
    }
    const mover = game.toMove(s);
    const maximizing = mover === this.root;
    let v = maximizing ? -INF : INF;
    if (traced) this.traceNode('enter', name, depth, maximizing, v);
    if (ply + 1 >= this.states.length) this.ensure(ply + 1);
    const child = this.states[ply + 1]!;
    const candidates = game.maxMoves;
    for (let k = 0; k < candidates; k++) {
      const m = game.moveAt(s, k);
      if (m < 0) continue;
      game.playInto(s, m, child);
      const childDepth = this.turnUnit && game.toMove(child) === mover && !game.isOver(child) ? depth : depth - 1;
      const cv = this.mm(child, childDepth, ply + 1, traced ? game.moveName(s, m) : '');
      if (this.aborted) return 0;
      if (maximizing ? cv > v : cv < v) {
        v = cv;
        if (ply === 0) this.bestMove = m;
      }
      if (traced) this.traceNode('update', name, depth, maximizing, v);
    }
    if (table !== undefined && table.size < TABLE_LIMIT) table.set(key, v);
    return v;
  }
}

export function minimax<S>(params: SearchParams<S>, state: S): SearchResult {
  return new MinimaxSearch(params).run(state);
}
