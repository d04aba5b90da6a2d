/**
 * The JSON report of a grading run: our own stable schema (documented in docs/reports.md), from which
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
  /**
   * what the grader found but did not grade, whatever the status: an informational check's
   * finding (a node count a graded check would refuse, with its likely bug); absent when none
   */
  info?: string[];
  /** CPU time the case was charged, ms: the submission's process tree while the case ran, measured by the grader (start-up of an interpreter or JVM not included) */
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
  /**
   * why the grader could not grade it, through no fault of the student's (no Python 2.7 on the
   * machine for a course that ran Python 2.7); its score is no grade. Absent for every graded one.
   */
  notGraded?: string;
  /**
   * The late policy's verdict (--due, --late-policy): when it was handed in, how late, the grace
   * days spent, and the score after the penalty. `score` above stays the raw score. Absent when
   * the run had no due date.
   */
  late?: LateVerdict;
}

/** A submission against its due date (grading/late/): the raw score, the lateness, the adjusted score. */
export interface LateVerdict {
  /** the due date that applied to this student (ISO 8601): --due, or their extension */
  due: string;
  /** a per-student extension set it */
  extended?: boolean;
  /** when it was handed in (ISO 8601); absent when nothing says (on time, unless the export marked it late) */
  submittedAt?: string;
  /** where that time came from: the LMS export's metadata, the newest of the files' own times, or --submission-times */
  submittedAtSource?: 'export' | 'file-times' | 'submission-times';
  /** marked late by the export (Canvas's `_LATE`) with no time: `minutesLate` is the lateness counted (grading/late/lateness.ts), not measured */
  latenessUnknown?: true;
  /** minutes after the due date, before grace days (0: on time) */
  minutesLate: number;
  /** grace days this assignment spent (the ledger's entry for it) */
  graceDaysSpent: number;
  /** grace days the student has left for the term, after this assignment; absent without grace days */
  graceDaysLeft?: number;
  /** points taken off */
  penalty: number;
  rawScore: number;
  /** the score after the penalty, what the gradebook gets */
  score: number;
  /** one line for people: "26 h 5 min late, 1 grace day spent, −10% (8 points): 72 / 80" */
  summary: string;
}

export interface GradeReport {
  /** schema version of this report */
  version: 1;
  suite: string;
  /** how the submissions were isolated, e.g. whether the network was cut off */
  isolation: { network: boolean; note?: string };
  /**
   * what the reader must know about the run as a whole: limits overridden for it (--time-limit,
   * --memory), a warning that every submission of a kind failed the same way (common-failure.ts).
   * Absent when there is nothing to say, so reports of ordinary runs keep their bytes.
   */
  notes?: string[];
  submissions: SubmissionReport[];
}
