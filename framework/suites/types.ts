/**
 * What a suite is, once loaded and validated (framework/suites/load.ts turns files into these).
 *
 * A suite folder holds `suite.yaml` (or `suite.json`): the manifest; case files (JSON or YAML,
 * one case or a list of cases each); and `expected.json`, written by `mancala suite bless`, that
 * holds the reference answers. Instructors write positions and checks, never answers.
 */
import type { MancalaRules } from '../games/mancala/rules.ts';
import type { BoardSpec } from '../games/mancala/board-io/board.ts';
import type { DepthUnit, TerminalEvaluation } from '../contracts/search-conventions.ts';

/**
 * What a student sees of a case, as Gradescope's tiers: `visible` (the case, expected against got,
 * the likely bug), `after_due_date` (the same once the due date has passed, the score only before),
 * `hidden` (the score only). Set on the suite, a category or a case; the most specific one holds.
 */
export type Visibility = 'visible' | 'hidden' | 'after_due_date';

export interface RoleSpec {
  /** an `agent` module (chooseMove) or a `heuristic` module (evaluate) */
  kind: 'agent' | 'heuristic';
  /** globby patterns, relative to the submission folder; the first file found fills the role */
  files: string[];
  /** what `suite bless` runs for this role: an agent spec (`alphabeta`, `minimax:caching=true`) or a heuristic name */
  reference: string;
}

export interface Category {
  name: string;
  /** points this category is worth in the total; its cases' points are scaled to it */
  weight: number;
  description?: string;
  /** what students see of its cases, over the suite's `visibility` and under a case's own */
  visibility?: Visibility;
}

export interface Limits {
  /** wall-clock ms a case may take in the sandbox; over it the case is `timeout` */
  ms: number;
  /** memory cap of the submission's process, in MB; over it the case is `memory` */
  memoryMb: number;
}

/** The game a suite plays: a Mancala profile (possibly resized) or Tic-Tac-Toe. */
export type GameSpec =
  | { kind: 'mancala'; profile: string; rules: MancalaRules; name: string }
  | { kind: 'tictactoe'; name: 'tictactoe' };

/**
 * Whether a case's `nodes` check counts: `graded` (a wrong count fails the case, the default) or
 * `informational` (the case passes or fails on its other checks; a count the check would refuse
 * is reported as information: "your search visited 2,298 nodes; the reference 1,200").
 */
export type NodeCounts = 'graded' | 'informational';

export interface Manifest {
  name: string;
  description?: string;
  /** where the manifest came from (absolute) */
  file: string;
  /** the suite folder (absolute) */
  dir: string;
  game: GameSpec;
  roles: Record<string, RoleSpec>;
  categories: Category[];
  limits: Limits;
  visibility: Visibility;
  /** globby patterns for case files, relative to the suite folder */
  cases: string[];
  /** `node_counts` as the manifest gives it, for every case that does not say otherwise; absent: graded */
  nodeCounts?: NodeCounts;
}

/** How a counted quantity (nodes, evaluations) is compared with the reference's. */
export type CountCheck =
  | { mode: 'exact' }
  /** at most the reference's count (an agent may search less, e.g. with better ordering) */
  | { mode: 'at-most' }
  /** within a factor: reference / ratio ≤ got ≤ reference × ratio */
  | { mode: 'ratio'; ratio: number };

export interface Checks {
  /** the move equals the reference's (ties: the first best move in the profile's order) */
  move?: boolean;
  /**
   * the stones the agent's move gives up against a best move, by the perfect-play solver: full
   * marks at most `tolerance`; with `noCreditAt`, partial credit falling linearly to 0 there
   */
  quality?: QualityCheck;
  /** the value the agent returned equals the reference's, within `tolerance` */
  value?: { tolerance: number };
  nodes?: CountCheck;
  evaluations?: CountCheck;
  /** the agent's trace events equal the reference's (`events`), or their seed-000 traverse log (`traverse-log`) */
  trace?: { format: 'events' | 'traverse-log' };
  /** the board after the agent's move equals the board after the reference's */
  nextState?: boolean;
  /** heuristic role: the value of the submission's heuristic equals the reference heuristic's */
  heuristicValue?: { reference: string; tolerance: number };
  /** the case's answer came within this many ms (over the case limit it is a timeout instead) */
  time?: { ms: number };
  /** the submission plays `games` seeded games against `opponent` (an agent spec) and must win at least `winRate` of them */
  playoff?: { opponent: string; games: number; winRate: number; seed: number; msPerMove: number };
}

/** The `quality` check, resolved (quality-check.ts). */
export interface QualityCheck {
  /** the most stones in the pits of a board this case may be (the solver's reach the suite declares) */
  maxStones: number;
  /** stones a move may give up and still earn full marks */
  tolerance: number;
  /** absent: a move over the tolerance earns nothing; else credit falls linearly to 0 at this loss */
  noCreditAt?: number;
}

/** What the agent is asked, in the suite's terms. `heuristic` names a reference heuristic or `role:NAME`. */
export interface CaseOptions {
  depth?: number | null;
  unit?: DepthUnit;
  caching?: boolean;
  terminal?: TerminalEvaluation;
  heuristic?: string;
  /** time budget handed to anytime agents */
  ms?: number;
  /** seed for ctx.random() */
  seed?: number;
}

export interface SuiteCase {
  /** unique in the suite */
  id: string;
  /** the case file, relative to the suite folder */
  file: string;
  description?: string;
  category: string;
  role: string;
  /** the position, resolved (any board format in the file becomes this) */
  board: BoardSpec;
  /** Tic-Tac-Toe position as 'XO_/___/___' rows when the suite's game is tictactoe */
  tictactoe?: string;
  options: CaseOptions;
  checks: Checks;
  /**
   * Set on a case with a `nodes` check: whether that check counts (the case's `node_counts`, else
   * the manifest's, else graded; `mancala grade --node-counts` overrides both). Not part of the
   * case's hash: it changes no expected answer. Absent (a case built by hand): graded.
   */
  nodeCounts?: NodeCounts;
  points: number;
  /** the manifest's limits with the case's own overrides applied */
  limits: Limits;
  visibility: Visibility;
}

/** Reference answers for one case, written by `suite bless`; `hash` detects a case edited since. */
export interface Expected {
  hash: string;
  move?: number;
  moveName?: string;
  value?: number;
  nodes?: number;
  evaluations?: number;
  /** reference trace: events, or traverse-log lines */
  trace?: unknown[];
  /** board after the reference move */
  nextState?: BoardSpec;
  heuristicValue?: number;
  /** the perfect-play value (the mover's final store margin) after each legal move, by move index (`quality`) */
  moveValues?: Record<string, number>;
}

export interface Suite {
  manifest: Manifest;
  cases: SuiteCase[];
  /** by case id; a case missing here was never blessed */
  expected: Record<string, Expected>;
}
