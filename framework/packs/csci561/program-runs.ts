/**
 * What a grading of programs keeps of each one beyond its scores (plain data: it crosses the
 * pool's threads): how it was run, why it could not be, and what its failed cases wrote, for the
 * students' reports (student-report.ts) and the run's warnings (startup-failures.ts, not-graded.ts).
 */
import type { CaseStatus } from '../../grading/types.ts';

/** A file the program wrote, as kept: its text up to KEPT_FILE_BYTES. */
export interface KeptFile {
  text: string;
  /** its whole size in bytes (UTF-8) */
  bytes: number;
  truncated: boolean;
}

/** A case the program did not pass, with what it did (plain data: it crosses the pool's threads). */
export interface FailedRun {
  caseId: string;
  status: CaseStatus;
  /** what differed from the expected files (compare.ts), when the program ran; they quote the expected lines */
  problems: string[];
  /** why the run itself failed (crash, timeout, memory…), empty when it ran */
  runMessage: string;
  /** CPU ms charged, wall-clock ms in the sandbox, the peak memory */
  cpuMs: number;
  wallMs: number;
  peakMemoryBytes: number;
  nextState?: KeptFile;
  traverseLog?: KeptFile;
  /** files it wrote under other names (names and sizes) */
  wrote: { name: string; bytes: number }[];
}

/** A submission's failed cases and how it is run, for its report. */
export interface ProgramRuns {
  id: string;
  path: string;
  /** the run command's words and the build's shell line; argv undefined when the folder cannot be run */
  argv?: string[];
  build?: string;
  /** why no case could run (the folder, the build), empty otherwise */
  setupError: string;
  /** the grader could not run it, through no fault of the student's (no runtime of the course's version here) */
  notGraded?: string;
  /** run as the course ran its programs (its run lines), not by a command of its own */
  byCourse?: true;
  failed: FailedRun[];
}
