/**
 * Reference iterative deepening (seed 003): alpha-beta at depth 1, 2, 3, … until the deadline.
 * Each completed iteration is the best move so far and is published through `onIteration`; an
 * iteration the deadline interrupts is thrown away, so the answer is always a completed search.
 * It stops early once an iteration reached every game end (no depth cut-off: deeper searches
 * would return the same) or reached `maxDepth`. Depth 1 always completes, whatever the budget.
 */
import { alphaBeta } from './alphabeta.ts';
import type { SearchParams } from './search-stack.ts';

export interface DeepeningParams<S> extends Omit<SearchParams<S>, 'depth' | 'deadline'> {
  /** deepest iteration; null/undefined/negative: no limit */
  maxDepth?: number | null;
  /** performance.now() time after which no iteration is started or finished */
  deadline: number;
  /** called after each completed iteration, shallowest first */
  onIteration?: (iteration: DeepeningIteration) => void;
}

export interface DeepeningIteration {
  depth: number;
  move: number;
  value: number;
  /** positions this iteration visited, the root included */
  nodes: number;
}

export interface DeepeningResult extends DeepeningIteration {
  /** true when the last completed iteration had no depth cut-off: the value is exact */
  complete: boolean;
  /** iterations completed */
  iterations: number;
}

export function iterativeDeepening<S>(params: DeepeningParams<S>, state: S): DeepeningResult {
  const { maxDepth, deadline, onIteration, ...search } = params;
  const limit = typeof maxDepth === 'number' && maxDepth >= 0 ? maxDepth : Infinity;
  let best: DeepeningResult | undefined;
  for (let depth = 1; ; depth++) {
    // Depth 1 runs without a deadline: an anytime agent must always have a searched move.
    const result = alphaBeta({ ...search, depth, deadline: depth === 1 ? Infinity : deadline }, state);
    if (result.aborted) break;
    best = { depth, move: result.move, value: result.value, nodes: result.nodes, complete: !result.cutoff, iterations: depth };
    onIteration?.({ depth, move: result.move, value: result.value, nodes: result.nodes });
    if (!result.cutoff || depth >= limit || performance.now() >= deadline) break;
  }
  return best!;
}
