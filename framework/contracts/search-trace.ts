/**
 * Structured search events. The reference searches emit them when given a sink; renderers turn
 * them into seed 000's traverse log or a pruning explanation (seed 002). A contract: an agent
 * sends them to ctx.trace (AgentContext), and graders judge them.
 *
 * `path` is the list of moves from the root; `name` is the move's name ("root" at the root);
 * `level` is the depth in the search's unit (the root is 0). alpha/beta are present for alpha-beta.
 */

export type TraceEvent =
  /** the search arrives at a node that it will expand; value is the initial ±Infinity */
  | { type: 'enter'; name: string; level: number; maximizing: boolean; value: number; alpha?: number; beta?: number }
  /** a node that is not expanded: cut off by depth, or the game is over */
  | { type: 'leaf'; name: string; level: number; maximizing: boolean; value: number; reason: 'depth' | 'game-over'; alpha?: number; beta?: number }
  /** a cached value answered for the node (caching on) */
  | { type: 'cached'; name: string; level: number; value: number }
  /** a child returned; the node's value (and alpha or beta) after taking it into account */
  | { type: 'update'; name: string; level: number; maximizing: boolean; value: number; alpha?: number; beta?: number }
  /** the node stops early: value >= beta at a max node, value <= alpha at a min node */
  | { type: 'prune'; name: string; level: number; maximizing: boolean; value: number; alpha: number; beta: number; skipped: number };

export type TraceSink = (event: TraceEvent) => void;

/** Collects events into an array (tests, renderers). */
export function collectTrace(): { events: TraceEvent[]; sink: TraceSink } {
  const events: TraceEvent[] = [];
  return { events, sink: (e) => events.push(e) };
}
