/**
 * Search conventions (DESIGN §5): what "the reference" means, so node counts, values and traces
 * are gradable. A profile fixes them per course; the CLI and suites may override each.
 */

export type DepthUnit =
  /** a move that earns a free turn keeps its depth; a free turn earned at the cut-off is still expanded (seed 000) */
  | 'turn'
  /** every move is one level (seeds 001, 002, 003) */
  | 'move';

export type TerminalEvaluation =
  /** a finished position is worth the game's score: store difference after the sweep (seed 000, the C baseline) */
  | 'score'
  /** a finished position is evaluated by the heuristic on the board as it stands, without the sweep (seed 001) */
  | 'heuristic';

export interface SearchConventions {
  depthUnit: DepthUnit;
  /** the depth limit when none is given; null means search to the end of the game */
  defaultDepth: number | null;
  terminal: TerminalEvaluation;
}

/** Depth given to a search that has no limit (kept an int so the hot recursion stays on small integers). */
export const NO_DEPTH_LIMIT = 1 << 30;
