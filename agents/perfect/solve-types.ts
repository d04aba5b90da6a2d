/**
 * What a perfect-play solve answers, shared by the plain specification (plain-solve.ts), the fast
 * solver, and everything that uses them (the `perfect` agent, the `quality` check, `mancala solve`,
 * the web explorer). The value is the final store margin (the mover's store minus the other's,
 * after the end-of-game sweep) under perfect play by both sides, from the point of view of the
 * player to move in the solved position: the quantity Irving et al. (2000) tabulate for the start.
 */
import type { MancalaGame, MancalaState } from '../../framework/games/mancala/engine.ts';

export interface SolveOptions {
  /** Transposition table budget in MB (the fast solver; the plain one has none). */
  ttMb?: number;
  /** An endgame database file built by `mancala solve --build-endgame` (the fast solver). */
  endgameFile?: string;
  /** Give up after this many milliseconds of wall clock: the result is then `proven: false`. */
  deadlineMs?: number;
  /** Called now and then on long solves (progress display). */
  onProgress?: (p: { nodes: number; ms: number; bound?: [number, number] }) => void;
}

export interface SolveResult {
  /** The perfect-play margin for the player to move (undefined when not proven in time). */
  value: number | undefined;
  /** Every move (engine move numbers, search order) that reaches `value`; empty when not proven. */
  bestMoves: number[];
  /** The value of every legal move, by move number, where the solver proved it (for quality and the explorer). */
  moveValues?: Map<number, number>;
  proven: boolean;
  nodes: number;
  ms: number;
  peakMb?: number;
}

export type Solver = (game: MancalaGame, state: MancalaState, options?: SolveOptions) => SolveResult;
