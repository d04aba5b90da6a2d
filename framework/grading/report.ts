/**
 * The JSON report of a grading run: our own stable schema (documented in the README), from which
 * every other output (console, Gradescope, JUnit, CSV) is derived.
 *
 * Scores: a case's `maxScore` is its points scaled so that the cases of a category add up to the
 * category's weight; a submission's `score` is the sum of its cases' scores.
 */
import type { CaseStatus, CheckResult } from './types.ts';
import type { Visibility } from '../suites/types.ts';

export interface CaseReport {
  id: string;
  category: string;
  status: CaseStatus;
  score: number;
  maxScore: number;
  /** empty when passed; otherwise what went wrong, actionable by a student */
  message: string;
  /** wall-clock ms of the case in the sandbox (round trip) */
  ms: number;
  /** nodes the agent's search visited, when it searched */
  nodes: number | null;
  visibility: Visibility;
  description?: string;
  checks?: CheckResult[];
}

export interface SubmissionReport {
  /** the submission's name: its folder or file name */
  id: string;
  /** the path given on the command line */
  path: string;
  score: number;
  maxScore: number;
  cases: CaseReport[];
  /** things the grader wants the reader to know: refused symlinks, missing roles, isolation limits */
  notes: string[];
}

export interface GradeReport {
  /** schema version of this report */
  version: 1;
  suite: string;
  /** how the submissions were isolated, e.g. whether the network was cut off */
  isolation: { network: boolean; note?: string };
  submissions: SubmissionReport[];
}
