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
