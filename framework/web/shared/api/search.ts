/**
 * The API of the Search explorer (../api.ts): the searches it runs, a position and a search
 * asked for, and the tree, sent node by node.
 */
import type { BoardView, Seat } from './board.ts';

/** The searches the explorer runs: the reference minimax and alpha-beta, and alpha-beta deepened 1, 2, … d. */
export const EXPLORER_ALGOS = ['minimax', 'alphabeta', 'ids'] as const;
export type ExplorerAlgo = (typeof EXPLORER_ALGOS)[number];

/** GET /api/search: what the explorer's form offers. */
export interface SearchOptionsView {
  algos: ExplorerAlgo[];
  heuristics: string[];
  maxDepth: number;
  /** the most nodes a tree may have (all iterations of iterative deepening together) */
  maxNodes: number;
}

/** POST /api/search: a position (the profile's start, or a board as text) and a search to run on it. */
export interface SearchRequestBody {
  profile: string;
  /** the start position's size (not with a board, which has its own) */
  pits?: number;
  seeds?: number;
  /** a board in a format `mancala search --board` reads: JSON, csc384, csci561 (input.txt or next_state) */
  board?: string;
  /** default: guessed as the CLI does (JSON if it starts with `{`, commas: csc384, else csci561) */
  boardFormat?: 'json' | 'csc384' | 'csci561';
  /** the player to move (default: the board's, else bottom) */
  player?: Seat;
  algo: ExplorerAlgo;
  depth: number;
  /** default `basic` */
  heuristic?: string;
}

/**
 * A node of a searched tree. Values are the root player's: the player to move at the root
 * maximises (a max node), the opponent minimises; a free turn keeps the mover, so a max node may
 * have max children. α and β are null where unbounded (−∞, +∞).
 */
export interface SearchNodeView {
  id: number;
  /** the move that led here, as the course names it; `root` at the root */
  move: string;
  /** moves from the root */
  ply: number;
  /** the depth the search had left here (its limit less the trace's level: a free turn in unit `turn` uses none) */
  depthLeft: number;
  max: boolean;
  toMove: Seat;
  kind: 'node' | 'depth' | 'game-over' | 'cached';
  value: number;
  /** alpha-beta is fail-soft: a value ≤ the α it received is an upper bound of the node's minimax value, ≥ β a lower bound */
  bound: 'exact' | 'upper' | 'lower';
  /** the window the node received (alpha-beta) */
  alpha?: number | null;
  beta?: number | null;
  /** the window after its last child (alpha-beta, expanded nodes) */
  alphaOut?: number | null;
  betaOut?: number | null;
  /** children the search visited */
  children: number;
  /** moves a prune left unsearched */
  pruned: number;
  /** on the principal variation */
  pv: boolean;
}

/** GET /api/search/:id/nodes/:node: a node with its children (never grandchildren) and its position. */
export interface SearchNodeDetail {
  node: SearchNodeView;
  children: SearchNodeView[];
  /** the moves a prune left unsearched, in the game's order */
  prunedMoves: string[];
  /** the moves from the root */
  path: string[];
  board: BoardView;
  /** the position as a JSON board file (`mancala search --board FILE.json`) */
  boardJson: string;
  /**
   * For an expanded node: `mancala search` from this position at the depth left finds a value
   * `relation` `value` (its value for the player to move there: this node's value, negated at a min
   * node; `=` where the node's value is exact, else the bound's side).
   */
  check?: { command: string; value: number; relation: '=' | '≤' | '≥' };
  /** the perfect-play values of this position and its searched children, or why there are none (server/solved-values.ts) */
  solved: SolvedValues;
}

/**
 * Perfect-play values beside a node's search values, in the same terms: the final store margin
 * from the root player's point of view. null: not proven in the solver's time.
 */
export interface SolvedValues {
  /** this node's position */
  value?: number | null;
  /** each of the node's `children`, in their order */
  children?: (number | null)[];
  /** why there are no values (the board is too big, no solver here), or that some were not proven in time */
  note?: string;
}

/** One searched tree: the search, or one iteration of iterative deepening. */
export interface SearchTreeView {
  depth: number;
  move: number;
  moveName: string;
  value: number | null;
  nodes: number;
  evaluations: number;
  ms: number;
  /** the same search on the command line (the board saved as position.json when not the start) */
  command: string;
  root: SearchNodeView;
  /** nodes, leaves and pruned moves a ply */
  perDepth: { ply: number; nodes: number; leaves: number; pruned: number }[];
  /** the principal variation, the root first */
  pv: SearchNodeView[];
  /** csci561: the traverse log's first lines, each with its node (-1: the header); GET /api/search/:id/log?from= the rest */
  log?: { text: string; node: number }[];
  /** csci561: the log's lines in all */
  logTotal?: number;
  /** csci561: why there is no traverse log */
  logNote?: string;
}

/** POST /api/search: the exploration, kept on the server (a bounded number of them) for its node routes. */
export interface SearchExploration {
  id: string;
  profile: string;
  pits: number;
  algo: ExplorerAlgo;
  depth: number;
  heuristic: string;
  unit: 'move' | 'turn';
  terminal: 'score' | 'heuristic';
  /** the root position */
  board: BoardView;
  boardJson: string;
  /** a csci561 input.txt's own task and depth */
  csci561?: { task: number; depth: number };
  /** one tree; iterative deepening: depth 1 first, one a depth (the node routes take ?iteration=K) */
  trees: SearchTreeView[];
}
