/**
 * The web app's API: the JSON the server answers and the page reads. Types only (and a few
 * constants), shared by the server (framework/web/server/) and the page (framework/web/client/),
 * so this module imports nothing: the page's bundle must not pull in Node code.
 *
 * Boards are sent as the bottom player sees them: each row left to right, the top player's store
 * on the left and the bottom player's on the right, every pit with the name its course gives it
 * (game.pitName, game.pitLabel: `B3`, `A4`, cups `1`–`6`). The engine runs on the server (see
 * framework/web/README.md for why); the page draws what it is sent.
 */

export type Seat = 'bottom' | 'top';

/** Every error the API answers (4xx): one line, for the page to show as it is. */
export interface ApiError {
  error: string;
}

/** One pit as the board shows it. */
export interface PitView {
  seat: Seat;
  /** the sowing index: what a move names (`move` in the API, in replays) */
  index: number;
  /** the course's name of the pit (`B3`, `A4`, `3`) */
  name: string;
  /** a name no pit of the other side shares (`B3`, `bottom cup 3`) */
  label: string;
  stones: number;
  /** a legal move for the player to move */
  legal: boolean;
}

export interface BoardView {
  pits: number;
  /** the top player's pits, left to right as the bottom player sees them */
  top: PitView[];
  /** the bottom player's pits, left to right */
  bottom: PitView[];
  stores: { top: number; bottom: number };
  toMove: Seat;
  over: boolean;
  /** when over: each store after the end-of-game sweep */
  final?: { top: number; bottom: number };
}

/** A cell of the board: a pit (by its sowing index) or a store. */
export interface CellRef {
  seat: Seat;
  /** a sowing index, or -1 for the store */
  index: number;
}

/** What one move did, worked out by sowing it again on the server (framework/web/server/move-trace.ts). */
export interface MoveView {
  /** 0-based */
  ply: number;
  seat: Seat;
  move: number;
  /** the course's name of the move (the mover's pit) */
  name: string;
  /** the cells that received a stone, in sowing order (a cell twice on a lap) */
  sown: CellRef[];
  /** where the last stone landed */
  last: CellRef;
  /** the mover moves again */
  freeTurn: boolean;
  capture: null | {
    /** stones that went to the mover's store (the last one included when the rule takes it) */
    stones: number;
    /** the mover's pit the last stone landed in */
    landed: CellRef;
    /** the opponent's pit across it, and the stones it held */
    from: CellRef;
    fromStones: number;
    /** one line, with the course's pit names: "B2 captured 5 stones from T3" */
    text: string;
  };
  gameOver: boolean;
  /** who played it: a side's label (`alphabeta:depth=6`, `you`) */
  by: string;
  /** the value the agent gave the move, from its own point of view */
  value?: number;
  /** ms the agent thought */
  ms?: number;
  /** what the agent said of the move (`perfect`: no value proven in its budget, the search's move played) */
  note?: string;
  /** set when the move was an opening's (seeded random) or played for a forfeiting side */
  kind?: 'opening' | 'forfeit';
}

// ---- Play ----------------------------------------------------------------------------------------

export interface ProfileInfo {
  name: string;
  seed?: string;
  summary: string;
  pits: number;
  seeds: number;
  /** how pits are named: 'bt' (B0..), 'csci561' (A2.., B2..), 'cups' (1..N a side) */
  pitNaming: string;
}

export interface AgentInfo {
  name: string;
  options: string[];
  /** held back in a student kit */
  withheld: boolean;
}

export interface Catalog {
  profiles: ProfileInfo[];
  agents: AgentInfo[];
  /** agent specs the page suggests */
  examples: string[];
  /** the folder paths are read under (the server's --root), for messages */
  root: string;
}

/** POST /api/games */
export interface NewGameRequest {
  rules: string;
  pits?: number;
  seeds?: number;
  /** `human` or an agent as the CLI names it (`alphabeta:depth=6`, a submission's path) */
  bottom: string;
  top: string;
  /** an agent's time for one move, ms */
  timePerMoveMs?: number;
  /** the agents' random seed */
  seed?: number;
}

export const HUMAN = 'human';

export interface SeatView {
  seat: Seat;
  human: boolean;
  /** as typed: `human`, `alphabeta:depth=6`, a path */
  label: string;
}

export interface GameView {
  id: string;
  rules: string;
  pits: number;
  seeds: number;
  /** bottom, top */
  seats: [SeatView, SeatView];
  board: BoardView;
  /** every move so far */
  moves: MoveView[];
  /** who is to act: a human at the board, an agent (POST …/advance asks it), or nobody */
  waitingFor: 'human' | 'agent' | 'nobody';
  /** set when the game has ended: its result in one line */
  result?: string;
  /** an agent's failure that ended the game (a crash, an illegal move, a timeout) */
  forfeit?: { seat: Seat; reason: string; message: string };
  /** a human move can be taken back */
  canUndo: boolean;
  timePerMoveMs: number;
}

/** POST /api/games/:id/move */
export interface MoveRequest {
  /** the sowing index of the mover's pit (PitView.index) */
  move: number;
}

/** POST /api/games/:id/hint */
export interface Hint {
  move: number;
  name: string;
  /** the reference's value of the position for the player to move */
  value: number | null;
  /** the search that found it, as an agent spec */
  agent: string;
  nodes: number;
  ms: number;
}

// ---- Replays -----------------------------------------------------------------------------------

/** GET /api/files?dir= : a folder under the root, with the files the Replays page opens. */
export interface FolderListing {
  /** relative to the root; '' is the root */
  dir: string;
  folders: string[];
  /** replays (*.jsonl) and tournament results (results.jsonl) */
  files: { name: string; kind: 'replay' | 'tournament'; bytes: number }[];
  /** grade reports (*.json whose first bytes are a grade report's, or a shard's of one), for the Reports page; suite: when its first bytes name it */
  reports: { name: string; bytes: number; suite?: string }[];
}

/** GET /api/tournament?path= : the games a tournament's results.jsonl records. */
export interface TournamentGames {
  file: string;
  rules: string;
  pits: number;
  seeds: number;
  games: { index: number; A: string; B: string; first: 'A' | 'B'; winner: 'A' | 'B' | 'draw'; score: [number, number]; plies: number; forfeit: string | null }[];
}

/** A replay as the page steps it: the board before each move, and after the last. */
export interface ReplayView {
  /** the file as named (a path under the root, or an uploaded file's name) */
  file: string;
  /** a tournament game: its index */
  game: number;
  rules: string;
  pits: number;
  seeds: number;
  A: string;
  B: string;
  /** the side in the bottom seat, which moves first */
  first: 'A' | 'B';
  seed: number;
  /** frames[k] is the board before move k; the last frame is the board after the last move */
  frames: BoardView[];
  moves: MoveView[];
  openingPlies: number;
  winner: 'A' | 'B' | 'draw';
  score: [number, number];
  forfeit: null | { side: 'A' | 'B'; reason: string; message: string };
  /** the result in one line */
  result: string;
}

/** POST /api/replay : a replay file's text the page read from the user's disk. */
export interface ReplayUpload {
  name: string;
  text: string;
}

// ---- Tournaments -------------------------------------------------------------------------------

/** A game of a pairing, from the row agent's side (a crosstable cell's list). */
export interface PairGame {
  /** the game's schedule index: `#/replays?path=…&game=N` replays it */
  index: number;
  result: 'win' | 'draw' | 'loss';
  /** the row agent's store, then the column agent's */
  score: [number, number];
  /** the row agent moved first (the bottom seat) */
  rowFirst: boolean;
  /** a side forfeited it: 'row' or 'column' */
  forfeit: 'row' | 'column' | null;
}

/** The row agent against the column agent. */
export interface CrosstableCell {
  /** games the schedule has them play (in this file's shard) */
  scheduled: number;
  wins: number;
  draws: number;
  losses: number;
  /** wins + draws / 2 */
  points: number;
  games: PairGame[];
}

/** GET /api/standings?path= (and each event of GET /api/standings/events?path=): a tournament's results as they stand. */
export interface TournamentStandings {
  file: string;
  format: 'round-robin' | 'gauntlet';
  rules: string;
  pits: number;
  seeds: number;
  gamesPerPair: number;
  timePerMoveMs: number;
  /** a shard's file: "2/3" */
  shard: string | null;
  /** games recorded */
  played: number;
  /** games the schedule has (this shard's) */
  total: number;
  /** when the file last changed, ms since 1970 */
  updated: number;
  /** what the reader should know (a game being written was left out) */
  notes: string[];
  /** best first, as `mancala tournament` prints them */
  standings: {
    rank: number;
    agent: string;
    /** openskill mu, and mu ± 2σ */
    rating: number;
    ci: [number, number];
    wins: number;
    draws: number;
    losses: number;
    points: number;
    forfeits: number;
  }[];
  /** cells[r][c]: standings[r]'s agent against standings[c]'s; null on the diagonal and for pairs the schedule never meets */
  crosstable: (CrosstableCell | null)[][];
}

// ---- Reports -----------------------------------------------------------------------------------

/** GET /api/report?path= : a grade report (`mancala grade --json FILE`) checked, in brief; its pages are documents (/reports/view). */
export interface ReportSummary {
  /** the file, relative to the root */
  file: string;
  suite: string;
  /** in the report's order: submission=N (from 1) is submissions[N-1] */
  submissions: { id: string; score: number; maxScore: number; cases: number; passed: number }[];
  /** the class page's address (a submission's: add &submission=N) */
  view: string;
}

// ---- Search explorer ---------------------------------------------------------------------------

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
