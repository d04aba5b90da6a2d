/**
 * Grades submissions on a suite: suite + submissions in, a GradeReport out (DESIGN §2). Each
 * submission is graded by grade-submission.ts, `jobs` at once on the worker pool
 * (workers/pool.ts); the report keeps the submissions' order.
 */
import { UserError } from '../errors.ts';
import { describeMechanisms, sandboxFor } from '../sandbox/jail/mechanisms.ts';
import { isBlessed } from '../suites/expected.ts';
import type { Limits, Suite, SuiteCase } from '../suites/types.ts';
import { runJobs, startWorkers } from '../workers/pool.ts';
import { parseQueueUrl } from '../distributed/queue-url.ts';
import { GRADE_SUBMISSION_JOB, type CaseGraded, type GradeJobSetup, type GradedSubmission } from './grade-submission.ts';
import type { CaseReport, GradeReport } from './report.ts';
import type { CaseStatus } from './types.ts';
import type { SandboxMode } from '../sandbox/jail/mechanisms.ts';
import type { StopRules } from './early-stop.ts';
import { takeRecorded, type JournalOpener } from './grade-journal.ts';

export { caseSeed, childRequest, submissionId } from './grade-submission.ts';
export { scoreSubmission } from './score.ts';

export type VisibilityFilter = 'all' | 'visible';

export interface ProgressEvent {
  submission: string;
  caseId: string;
  status: CaseStatus;
  /** ms the agent thought, as measured in its own process (0 when it gave no answer) */
  agentMs: number;
  /** the case was not run: its submission was stopped early (early-stop.ts) */
  notRun?: true;
  /** cases finished so far over all submissions, and the total */
  done: number;
  total: number;
}

export interface GradeRunOptions {
  suite: Suite;
  /** agent files or submission folders, as given on the command line */
  submissions: readonly string[];
  /** `visible`: only the cases students may see (what `mancala check` runs) */
  visibility: VisibilityFilter;
  /** submissions graded at the same time (each in its own process) */
  jobs: number;
  /** how submissions are confined (sandbox/jail/mechanisms.ts); default `full`, which needs bubblewrap */
  sandbox?: SandboxMode;
  /** limits for every case of this run, over the suite's own (`--time-limit`, `--memory`); noted in the report */
  limits?: LimitOverrides;
  onProgress?: (event: ProgressEvent) => void;
  /** `--queue redis://…`: the submissions are graded by `mancala worker`s through that Redis (framework/distributed/), not by local jobs */
  queue?: string;
  /** what the queue has to say beyond results (a worker refused the run, Redis lost it, …) */
  onNotice?(line: string): void;
  /** when to stop a submission early (early-stop.ts); absent: every case of every submission runs */
  stop?: StopRules;
  /** submissions graded before (grade-journal.ts): those it holds are not graded again, and each graded one is recorded in it */
  journal?: JournalOpener<GradedSubmission>;
}

/** Limits that replace every case's for one run; an absent field keeps the suite's. */
export interface LimitOverrides {
  /** ms a case */
  ms?: number;
  /** MB for the submission's process */
  memoryMb?: number;
}

/**
 * The suite with `overrides` in every case's limits and in the manifest's (what a session is
 * opened with). Blessed answers stay valid: limits are not part of a case's hash.
 */
export function overrideLimits(suite: Suite, overrides: LimitOverrides): Suite {
  if (overrides.ms === undefined && overrides.memoryMb === undefined) return suite;
  const over = (limits: Limits): Limits => ({ ms: overrides.ms ?? limits.ms, memoryMb: overrides.memoryMb ?? limits.memoryMb });
  return {
    ...suite,
    manifest: { ...suite.manifest, limits: over(suite.manifest.limits) },
    cases: suite.cases.map((c) => ({ ...c, limits: over(c.limits) })),
  };
}

/** The report's note on overridden limits, or undefined when none was. */
export function limitsNote(overrides: LimitOverrides): string | undefined {
  const parts = [
    ...(overrides.ms !== undefined ? [`time ${overrides.ms} ms (--time-limit)`] : []),
    ...(overrides.memoryMb !== undefined ? [`memory ${overrides.memoryMb} MB (--memory)`] : []),
  ];
  return parts.length === 0 ? undefined : `limits overridden for this run, for every case instead of the suite's: ${parts.join(', ')}`;
}

/** The cases a run grades, in suite order. */
export function selectCases(suite: Suite, visibility: VisibilityFilter): SuiteCase[] {
  return visibility === 'all' ? suite.cases : suite.cases.filter((c) => c.visibility === 'visible');
}

/** Every case must carry a blessed answer that matches its current content. */
export function assertBlessed(suite: Suite, cases: readonly SuiteCase[]): void {
  const stale = cases.filter((c) => !isBlessed(suite, c)).map((c) => c.id);
  if (stale.length > 0) {
    const shown = stale.length > 5 ? `${stale.slice(0, 5).join(', ')} and ${stale.length - 5} more` : stale.join(', ');
    throw new UserError(
      `${suite.manifest.dir}: ${stale.length} case(s) have no reference answers or changed since blessing (${shown}): run \`mancala suite bless ${suite.manifest.dir}\``,
    );
  }
}

/** Starts the threads a grading run of `submissions` with `jobs` jobs will use (workers/pool.ts startWorkers). */
export function startGradingWorkers(jobs: number, submissions: number): void {
  startWorkers(GRADE_SUBMISSION_JOB, jobs, submissions);
}

export async function gradeSubmissions(o: GradeRunOptions): Promise<GradeReport> {
  if (o.queue === undefined) startGradingWorkers(o.jobs, o.submissions.length);
  const suite = overrideLimits(o.suite, o.limits ?? {});
  const cases = selectCases(suite, o.visibility);
  assertBlessed(suite, cases);
  const mode = o.sandbox ?? 'full';
  // Refused here, before any submission is copied, when the machine cannot confine as asked.
  // With --queue the workers' sandboxes confine the submissions (each worker checks its own machine).
  const confinement =
    o.queue === undefined ? describeMechanisms(await sandboxFor(mode), mode) : `graded by mancala worker through ${parseQueueUrl(o.queue).shown}, each in the ${mode} sandbox of its machine`;
  const graded: GradedSubmission[] = new Array(o.submissions.length);
  const setup: GradeJobSetup = { suite, cases, sandbox: mode, ...(o.stop !== undefined ? { stop: o.stop } : {}) };
  // Those the journal holds are taken from it; the rest are graded, each recorded as it comes.
  const journal = await o.journal?.(setup);
  const left = takeRecorded(journal, o.submissions, graded);
  const toGrade = left.map((k) => o.submissions[k]!);
  const total = cases.length * toGrade.length;
  let done = 0;
  const run = {
    kind: GRADE_SUBMISSION_JOB,
    setup,
    items: toGrade,
    onResult: (result: GradedSubmission, path: string, index: number) => {
      graded[left[index]!] = result;
      journal?.record(path, result);
    },
    onEvent: (e: CaseGraded) => o.onProgress?.({ ...e, done: ++done, total }),
  };
  if (o.queue === undefined) await runJobs({ ...run, jobs: o.jobs });
  else {
    const onNotice = o.onNotice;
    // Loaded only here: BullMQ is no part of a local run's start.
    const { runJobsOnQueue } = await import('../distributed/coordinator.ts');
    // A submission's key is its place on the command line, which the run's identity holds: the whole
    // command line, not what the journal left to grade, so a coordinator run again after a kill (its
    // journal holding more by then) asks for the same run and its workers' finished jobs count.
    const queued = { queue: o.queue, label: 'grade', keyOf: (_: string, index: number) => String(left[index]), identity: [...o.submissions], files: [...o.submissions] };
    await runJobsOnQueue({ ...run, ...queued, ...(onNotice !== undefined ? { onNotice } : {}) });
  }
  const reports = graded;
  // The weak sandbox leaves the network open whatever a session says of itself.
  const network = mode === 'full' && reports.every((r) => r.isolation.network);
  const sessionNote = reports.map((r) => r.isolation.note).find((n) => n !== undefined);
  const overridden = limitsNote(o.limits ?? {});
  return {
    version: 1,
    suite: suite.manifest.name,
    // A session of a weaker sandbox says the same line itself: once is enough.
    isolation: { network, note: sessionNote === undefined || sessionNote.includes(confinement) ? confinement : `${confinement}; ${sessionNote}` },
    ...(overridden !== undefined ? { notes: [overridden] } : {}),
    submissions: reports.map((r) => r.report),
  };
}

export type { CaseReport };
