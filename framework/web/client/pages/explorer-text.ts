/**
 * How the Search explorer words a search: values from the root player's side, the α–β window a
 * node received, what kind of node it is. Shared by the tree, the node panel and the summary.
 */
import type { ExplorerAlgo, SearchNodeView } from '../../shared/api.ts';
import { signed } from '../dom.ts';

export const ALGO_LABELS: Record<ExplorerAlgo, string> = { minimax: 'minimax', alphabeta: 'alpha-beta', ids: 'iterative deepening' };

/** A value as the tree shows it: signed, at most two decimals (the advanced heuristic has quarters). */
export function value(v: number): string {
  return signed(Number.isInteger(v) ? v : Math.round(v * 100) / 100);
}

/** A value with its bound: fail-soft alpha-beta's cut nodes know only a side of their value. */
export function boundedValue(n: SearchNodeView): string {
  return `${n.bound === 'upper' ? '≤ ' : n.bound === 'lower' ? '≥ ' : ''}${value(n.value)}`;
}

export const alphaText = (a: number | null | undefined) => (a === null || a === undefined ? '−∞' : value(a));
export const betaText = (b: number | null | undefined) => (b === null || b === undefined ? '+∞' : value(b));
export const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString('en')} ${n === 1 ? one : many}`;

export function kindText(n: SearchNodeView): string {
  switch (n.kind) {
    case 'node':
      return `${plural(n.children, 'child', 'children')} searched${n.pruned > 0 ? `, ${n.pruned} pruned` : ''}`;
    case 'depth':
      return 'a leaf: the depth limit';
    case 'game-over':
      return 'a leaf: the game is over';
    case 'cached':
      return 'answered from the cache';
  }
}
