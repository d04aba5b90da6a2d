/**
 * The registry of the perfect-play solver. The solver is a reference (it knows every position's
 * true value), so it lives in agents/perfect/ and framework's users (`mancala solve`, the web
 * explorer, the `perfect` agent's options) reach it through here, registered by bin/plugins.ts.
 *
 * What a solve answers, shared by the plain specification (agents/perfect/plain-solve.ts), the
 * fast solver, and everything that uses them. The value is the final store margin (the mover's
 * store minus the other's, after the end-of-game sweep) under perfect play by both sides, from the
 * point of view of the player to move in the solved position: the quantity Irving et al. (2000)
 * tabulate for the start.
 */
import type { MancalaGame, MancalaState } from '../games/mancala/engine.ts';
import { pluginSlot } from './slot.ts';

export interface SolveOptions {
  /** Transposition table budget in MB (the fast solver; the plain one has none). */
  ttMb?: number;
  /** An endgame database file built by `mancala solve --build-endgame` (the fast solver). */
  endgameFile?: string;
  /**
   * Without endgameFile: the stones at most of the endgame database the fast solver builds in
   * memory for this game (kept for the next solves of the same rules); 0 for none; default: a
   * small one sized to the board when the position holds many stones.
   */
  endgameStones?: number;
  /** 'all' (default): every legal move's exact value in moveValues; 'best': the value and every best move only (faster). */
  moveValues?: 'all' | 'best';
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
  /** CPU time the solve took (on a busy machine, less than ms). */
  cpuMs?: number;
  peakMb?: number;
  /** When not proven: bounds of the value, and the best move among those proven so far. */
  bounds?: [number, number];
  bestKnownMove?: number;
  /** The fast solver's table size and endgame database (stones at most; 0: none). */
  tableMb?: number;
  endgameStones?: number;
  /** Wall-clock ms of `ms` spent reading (or building) the endgame database; 0 when it was already in memory. */
  endgameLoadMs?: number;
}

export type Solver = (game: MancalaGame, state: MancalaState, options?: SolveOptions) => SolveResult;

const solver = pluginSlot<Solver>('the perfect-play solver', 'registerPerfectSolver');

export function registerPerfectSolver(solve: Solver): void {
  solver.set(solve);
}

/**
 * Builds the endgame database of `game`'s rules for at most `maxStones` stones on the board and
 * writes it to `file` (`mancala solve --build-endgame`); what it wrote.
 */
export type EndgameBuilder = (
  game: MancalaGame,
  maxStones: number,
  file: string,
  options?: { /** threads at once (default 1) */ jobs?: number; onProgress?: (done: number, total: number) => void },
) => Promise<{ positions: number; bytes: number }>;

const endgameBuilder = pluginSlot<EndgameBuilder>('the endgame database builder', 'registerEndgameBuilder');

export function registerEndgameBuilder(build: EndgameBuilder): void {
  endgameBuilder.set(build);
}

export const buildEndgameFile: EndgameBuilder = (game, maxStones, file, options) => endgameBuilder.get()(game, maxStones, file, options);

/** Solves through the registered solver (agents/perfect/). */
export const solvePerfect: Solver = (game, state, options) => solver.get()(game, state, options);
