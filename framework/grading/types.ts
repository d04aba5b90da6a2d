/**
 * The graders' one small contract (Grader): what a grader may look at (GradeInput) and what it
 * says (CheckResult), and the status each case ends in.
 */
import type { MoveAsker, Observation } from '../sandbox/exchange.ts';
import type { Expected, Manifest, SuiteCase } from '../suites/types.ts';

/** Each case ends in exactly one of these (the JSON report's `status`). */
/** `output-limit`: it wrote more than the grader keeps (stdout, stderr or files), and was stopped. */
export type CaseStatus = 'passed' | 'failed' | 'error' | 'timeout' | 'memory' | 'output-limit';

/** Everything a grader may look at. Expected answers live here, in the parent, never in the child. */
export interface GradeInput {
  manifest: Manifest;
  case: SuiteCase;
  expected: Expected;
  observation: Observation;
  /**
   * Asks the submission's side of the case for moves (the playoff grader plays whole games through
   * it): for an agent role, its agent (the submission's sandboxed process); for a heuristic role,
   * the reference alpha-beta with its heuristic, run in the grader and asking the submission's
   * process for heuristic values only (grading/grader-search-player.ts).
   */
  session?: MoveAsker;
}

/**
 * The prefix of the line that names a failed search's likely bug in a message (the name-the-bug
 * graders add it after what differed); the console report shows that line beside the first one.
 */
export const DIAGNOSIS_PREFIX = 'likely bug: ';

export interface CheckResult {
  /** the check's name (a key of Checks) */
  check: string;
  passed: boolean;
  /** on failure: what differed (expected vs got), the position, the options, and how to reproduce */
  message: string;
  /**
   * A failed check that still earns part of the case's points (`quality` with partial credit):
   * the share, 0 to 1. Absent on a failed check: it earns nothing. A case earns the smallest
   * share among its failed checks (score.ts).
   */
  credit?: number;
  /** status override: a playoff game that timed out may make the check a timeout */
  status?: CaseStatus;
  /**
   * The check does not count (a case's informational node counts): `passed` is always true, and
   * `message` is what it found that a graded check would have refused (empty when nothing), which
   * the report shows as information (CaseReport.info).
   */
  informational?: boolean;
}

/** One module a check (graders/*.ts): given what the agent did and what was expected, a verdict. */
export interface Grader {
  /** the Checks key it grades */
  check: string;
  grade(input: GradeInput): CheckResult | Promise<CheckResult>;
}
