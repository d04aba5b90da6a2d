/**
 * The shapes that cross the boundaries of grading: what the parent asks the sandboxed submission
 * (ChildRequest), what comes back (Attempt), and the graders' one small contract (Grader).
 */
import type { Player } from '../contracts/game.ts';
import type { BoardSpec } from '../games/mancala/board-io/board.ts';
import type { TraceEvent } from '../search/trace.ts';
import type { CaseOptions, Expected, GameSpec, Manifest, SuiteCase } from '../suites/types.ts';

/**
 * The reference heuristics the submission's process can hand an agent (besides `role:NAME`, a
 * heuristic of the submission's own). Only given code goes there: `advanced` is a solution.
 */
export const SANDBOX_HEURISTICS: readonly string[] = ['basic'];

/** Each case ends in exactly one of these (the JSON report's `status`). */
/** `output-limit`: it wrote more than the grader keeps (stdout, stderr or files), and was stopped. */
export type CaseStatus = 'passed' | 'failed' | 'error' | 'timeout' | 'memory' | 'output-limit';

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
  trace?: TraceEvent[];
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
    };

/** Everything a grader may look at. Expected answers live here, in the parent, never in the child. */
export interface GradeInput {
  manifest: Manifest;
  case: SuiteCase;
  expected: Expected;
  observation: Observation;
  /**
   * Asks the submission's side of the case for moves (the playoff grader plays whole games through
   * it): for an agent role, its agent (the submission's sandboxed process); for a heuristic role,
   * the reference alpha-beta with its heuristic (a player session: sandbox/session.ts), which the
   * runner opens only for such cases.
   */
  session?: MoveAsker;
}

export interface MoveAsker {
  /** `role`: the agent role that answers (default `agent`); ignored by a player session */
  chooseMove(board: BoardSpec, player: Player, options: CaseOptions, timeLimitMs: number, role?: string): Promise<Attempt>;
}

export interface CheckResult {
  /** the check's name (a key of Checks) */
  check: string;
  passed: boolean;
  /** on failure: what differed (expected vs got), the position, the options, and how to reproduce */
  message: string;
  /** status override: a playoff game that timed out may make the check a timeout */
  status?: CaseStatus;
}

/** One module a check (graders/*.ts): given what the agent did and what was expected, a verdict. */
export interface Grader {
  /** the Checks key it grades */
  check: string;
  grade(input: GradeInput): CheckResult | Promise<CheckResult>;
}
