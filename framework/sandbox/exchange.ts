/**
 * What the parent asks a submission's sandboxed process (ChildRequest) and what comes back (an
 * Attempt, with the Observation measured in the child); MoveAsker, what a session offers to ask it
 * for moves (session.ts). Graders see these shapes too (grading/types.ts GradeInput).
 */
import type { Player } from '../contracts/game.ts';
import type { TraceEvent } from '../contracts/search-trace.ts';
import type { BoardSpec } from '../games/mancala/board-io/board.ts';
import type { MancalaState } from '../games/mancala/engine.ts';
import type { CaseOptions, GameSpec } from '../suites/types.ts';
import { gameForBoard } from '../suites/game.ts';

/** One request to the submission's process. The child builds the game and the state itself. */
export type ChildRequest =
  | {
      type: 'move';
      role: string;
      game: GameSpec;
      board: BoardSpec;
      /** the side to move (overrides board.toMove) */
      player: Player;
      options: CaseOptions;
      /** the heuristic handed to the agent: a reference heuristic the child knows (`basic`) or another role's module (`role:NAME`) */
      heuristic: string;
      /** the agent's own deadline (ctx.deadline); the parent's hard kill comes later */
      timeLimitMs: number;
      /** a match's time bank left (matches/play-game.ts): ms it may think past timeLimitMs; told to the agent */
      bankMs?: number;
      seed: number;
      trace: boolean;
      /** Tic-Tac-Toe: the position as 'XO_/___/___' rows (SuiteCase.tictactoe); `board` is then ignored */
      tictactoe?: string;
    }
  | {
      type: 'evaluate';
      role: string;
      game: GameSpec;
      board: BoardSpec;
      /** whose point of view */
      player: Player;
      /** Tic-Tac-Toe: the position as 'XO_/___/___' rows (SuiteCase.tictactoe); `board` is then ignored */
      tictactoe?: string;
    };

/** What every session's chooseMove sends: `role` chooses a move for `player` on `board`, no trace. */
export function moveRequest(role: string, game: GameSpec, board: BoardSpec, player: Player, options: CaseOptions, timeLimitMs: number, bankMs?: number): ChildRequest {
  return {
    type: 'move',
    role,
    game: gameForBoard(game, board),
    board,
    player,
    options,
    heuristic: options.heuristic ?? 'basic',
    timeLimitMs,
    ...(bankMs !== undefined && bankMs > 0 ? { bankMs } : {}),
    seed: options.seed ?? 0,
    trace: false,
  };
}

/** What the submission did, as measured inside its process. */
export interface Observation {
  move?: number;
  /** the value chooseMove returned, if any */
  value?: number;
  /** the last move published with ctx.report (anytime agents) */
  reported?: { move: number; value?: number };
  nodes?: number;
  evaluations?: number;
  /** heuristic role: what evaluate returned */
  heuristicValue?: number;
  /** heuristic role, many positions at once (HeuristicAsker): what evaluate returned for each, in order */
  heuristicValues?: number[];
  trace?: TraceEvent[];
  /**
   * A program over stdio (PROTOCOL.md): the positions its search visited, in order, the root
   * excluded, each as its path (the moves from the root). A course bridge derives it from the
   * boards the student's search made; the trace check compares it with the reference's trace.
   */
  visited?: number[][];
  /** ms the agent took, measured in the child */
  ms: number;
}

export type Attempt =
  | { status: 'ok'; observation: Observation; ms: number }
  /** the submission failed: threw, returned garbage, exited, sent a malformed message, … */
  | {
      status: 'error' | 'timeout' | 'memory' | 'output-limit';
      message: string;
      ms: number;
      /** the last move the agent published with ctx.report before it failed or ran out of time (anytime agents) */
      reported?: { move: number; value?: number };
      /**
       * an answer that is no move of the position: the index played, or what came back instead of
       * a move, as the program's language writes it ("None"); a match forfeits it as an illegal move
       */
      illegalMove?: number | string;
    };

/** Positions one evaluateMany request carries (a line of about 150 bytes each; a depth-4 playoff move needs at most 1,296). */
export const MAX_BATCH = 20_000;

/** The values of positions asked at once: one per position, in their order; or why there are none. */
export type ValuesAttempt = { status: 'ok'; values: number[]; ms: number } | Exclude<Attempt, { status: 'ok' }>;

/**
 * Asks a submission's heuristic role for the values of many Mancala positions, from `side`'s
 * point of view, in one request (a course bridge over stdio: PROTOCOL.md, evaluate-many). The
 * reference alpha-beta of a heuristic's playoff runs in the grader and asks only this
 * (grading/grader-search-player.ts).
 */
export interface HeuristicAsker {
  evaluateMany(role: string, game: GameSpec, side: Player, states: readonly MancalaState[], hardLimitMs: number): Promise<ValuesAttempt>;
}

/** Asks a submission for moves: a session (session.ts) is one; the playoff grader plays whole games through it. */
export interface MoveAsker {
  /** `role`: the agent role that answers (default `agent`) */
  chooseMove(board: BoardSpec, player: Player, options: CaseOptions, timeLimitMs: number, role?: string): Promise<Attempt>;
}
