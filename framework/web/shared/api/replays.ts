/**
 * The API of the Replays page (../api.ts): the folders and files it opens, a tournament's
 * games, a replay as the page steps it.
 */
import type { BoardView, MoveView } from './board.ts';

/** GET /api/files?dir= : a folder under the root, with the files the Replays page opens. */
export interface FolderListing {
  /** relative to the root; '' is the root */
  dir: string;
  folders: string[];
  /** replays (*.jsonl) and tournament results (results.jsonl) */
  files: { name: string; kind: 'replay' | 'tournament'; bytes: number }[];
  /** grade reports (*.json whose first bytes are a grade report's, or a shard's of one) and similarity reports, for the Reports page; suite: when its first bytes name it ("similarity" for a similarity report) */
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
