/**
 * The API of the Play page (../api.ts): the catalog of profiles and agents, a game, a move and
 * a hint.
 */
import type { BoardView, MoveView, PitView, Seat } from './board.ts';

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
  /** `mancala serve --read-only`: nothing can be played, searched or uploaded; the page hides those controls */
  readOnly: boolean;
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
