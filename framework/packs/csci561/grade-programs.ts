/**
 * Grading file-in/file-out programs (any language) on a csci561 suite, as the course graded them:
 * each case becomes an input.txt, the program runs on it (program.ts), and its next_state.txt and
 * traverse_log.txt are compared with the reference solution's by the official rule, strict about
 * extra lines and fields (compare.ts). The result is the same GradeReport `mancala grade` writes,
 * so every report format applies.
 *
 * A case's input.txt is the suite's `inputs/<id>.txt` when there is one (its task, player and
 * board must be the case's: a Greedy input keeps its own cut-off depth line, which the task
 * ignores), else it is written from the case: the task from the role's reference (greedy 1,
 * minimax 2, alphabeta 3) and the case's depth. The expected files are computed here, in the
 * grader, by the reference solution; they never reach the program's folder. A folder of the
 * course's own files (course-suite.ts) brings its own inputs and expected files instead.
 *
 * With keepFailures, each failed case's run comes back too (what the program wrote, capped at
 * KEPT_FILE_BYTES a file; time and memory), for the students' reports (student-report.ts).
 */
import { existsSync, readFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { UserError } from '../../errors.ts';
import { unreadableSubmission } from '../../files/submission-entries.ts';
import { parseCsci561Input, writeCsci561InputBoard } from '../../games/mancala/board-io/index.ts';
import type { GradeReport, SubmissionReport } from '../../grading/report.ts';
import { selectCases, type VisibilityFilter } from '../../grading/runner.ts';
import { scoreSubmission } from '../../grading/score.ts';
import type { CaseStatus } from '../../grading/types.ts';
import { parseAgentSpec } from '../../plugins/agents.ts';
import { solveCsci561 } from '../../plugins/csci561-solver.ts';
import type { SandboxMode } from '../../sandbox/jail/mechanisms.ts';
import { knownStartups, measuredStartups, measureStartupOf, seedStartups, settleCleanups, type StagedFiles, type Startup } from '../../sandbox/programs/run.ts';
import type { Suite, SuiteCase } from '../../suites/types.ts';
import { jobKind, type Job } from '../../workers/job.ts';
import { runJobs, startWorkers } from '../../workers/pool.ts';
import { compareCaseFiles, type ExpectedFiles } from './compare.ts';
import { courseCaseFiles, isCourseSuite } from './course-suite.ts';
import { prepareProgram, programSandbox, readProgramSubmission, runProgram, type ProgramRun, type ProgramSubmission } from './program.ts';
import type { CourseLines } from '../../sandbox/programs/build-files.ts';
import type { RunLines } from '../../sandbox/programs/run-lines.ts';
import { programRunLines, runLinesNote } from './course-run-lines.ts';
import { missingRuntime, notGradedNotes } from './not-graded.ts';
import { startUpWarning } from './startup-failures.ts';
import type { FailedRun, KeptFile, ProgramRuns } from './program-runs.ts';
import { EarlyStop, type StopRules } from '../../grading/early-stop.ts';
import { takeRecorded, type JournalOpener } from '../../grading/grade-journal.ts';
import { studentName } from '../../student-text.ts';
import { notePhase } from '../../sandbox/programs/case-phases.ts';

const TASK_OF_REFERENCE: Record<string, 1 | 2 | 3> = { greedy: 1, minimax: 2, alphabeta: 3 };

export interface ProgramCase {
  c: SuiteCase;
  /** input.txt's text */
  input: string;
  /** where it came from: the suite's file, or written from the case */
  source: string;
  expected: ExpectedFiles;
}

/** The task a case asks for, from its role's reference agent. */
export function caseTask(suite: Suite, c: SuiteCase): 1 | 2 | 3 {
  const reference = parseAgentSpec(suite.manifest.roles[c.role]!.reference).name;
  const task = TASK_OF_REFERENCE[reference];
  if (task === undefined) throw new UserError(`${suite.manifest.file}: role ${c.role}: a program is graded on Greedy, MiniMax or Alpha-Beta; its reference is ${reference}`);
  return task;
}

/** input.txt and the expected files of each case, checked against the case. */
export function programCases(suite: Suite, cases: readonly SuiteCase[]): ProgramCase[] {
  // A folder of the course's files carries its own inputs and expected files (course-suite.ts).
  if (isCourseSuite(suite)) return cases.map((c) => ({ c, ...courseCaseFiles(suite, c) }));
  const game = suite.manifest.game;
  if (game.kind !== 'mancala' || game.profile !== 'csci561') {
    throw new UserError(`${suite.manifest.file}: game: programs are graded on csci561 suites (CSCI-561's files), this suite plays ${game.name}`);
  }
  return cases.map((c) => {
    const task = caseTask(suite, c);
    const file = join(suite.manifest.dir, 'inputs', `${c.id}.txt`);
    let input: string;
    let source: string;
    if (existsSync(file)) {
      input = readFileSync(file, 'utf8');
      source = `${basename(suite.manifest.dir)}/inputs/${c.id}.txt`;
      const b = parseCsci561Input(input, file);
      const same = JSON.stringify([b.top, b.bottom, b.topStore, b.bottomStore, b.toMove]) === JSON.stringify([c.board.top, c.board.bottom, c.board.topStore, c.board.bottomStore, c.board.toMove ?? 0]);
      if (!same || b.csci561!.task !== task || (task !== 1 && b.csci561!.depth !== c.options.depth)) {
        throw new UserError(`${file}: does not say what case ${c.id} asks (task ${task}, depth ${c.options.depth}, its board and player)`);
      }
    } else {
      input = writeCsci561InputBoard({ ...c.board, toMove: c.board.toMove ?? 0 }, task, c.options.depth ?? 1);
      source = `case ${c.id}`;
    }
    const solved = solveCsci561(input, source, { optionalLines: 'mark' });
    const expected: ExpectedFiles = { task, nextState: solved.nextState };
    if (solved.traverseLog !== undefined) expected.traverseLog = solved.traverseLog.join('\n') + '\n';
    return { c, input, source, expected };
  });
}

export interface ProgramGradeOptions {
  suite: Suite;
  /** submission folders, each with a `command` file */
  submissions: readonly string[];
  visibility: VisibilityFilter;
  jobs: number;
  /** 'full' (default): refuses to grade without bubblewrap; 'weak' only when the instructor chose it */
  sandbox?: SandboxMode;
  /** grade only these cases (ids of the suite's cases, in the suite's order); all selected when absent */
  caseIds?: readonly string[];
  /** keep what each failed case's program wrote, for the students' reports (student-report.ts) */
  keepFailures?: boolean;
  /** how the course ran programs handed in as sources (default: programRunLines of the suite's folder) */
  runLines?: RunLines;
  /** the arguments of this run, in place of the course's ({args} of its run lines) */
  runArgs?: string;
  onCase?: (submission: string, caseId: string, status: CaseStatus, notRun?: true) => void;
  /** when to stop a program early (grading/early-stop.ts); absent: every case runs */
  stop?: StopRules;
  /** programs graded before (grading/grade-journal.ts): those it holds are not graded again, and each graded one is recorded in it */
  journal?: JournalOpener<GradedProgram>;
}

/** At most this much of each file a failed case's program wrote is kept for the students' reports. */
export const KEPT_FILE_BYTES = 1024 * 1024;

export type { FailedRun, KeptFile, ProgramRuns } from './program-runs.ts';

/** A grading run with what its reports need: the cases graded and each submission's failed runs. */
export interface ProgramGrading {
  report: GradeReport;
  cases: ProgramCase[];
  /** in the submissions' order; each `failed` is empty unless keepFailures was asked */
  programs: ProgramRuns[];
  /** said loudly at the end of the run (also in the report's notes): many programs failed at start-up */
  warnings: string[];
}

/** The message of a failed case: what differed, then the input, how to run the program on it and how to see the reference's files. */
function failureMessage(problems: readonly string[], pc: ProgramCase, submission: ProgramSubmission): string {
  const build = submission.build === undefined ? '' : `${submission.build} && `;
  return [
    ...problems,
    `input.txt (${pc.source}):`,
    ...pc.input.trimEnd().split('\n').map((l) => `  ${l}`),
    `reproduce: save it as input.txt in a copy of the submission's folder, then run there: ${build}${shellCommand(submission.argv)}`,
    "the expected files: npx mancala csci561 input.txt --optional-lines mark",
  ].join('\n');
}

/** Words as one POSIX shell line: plain words as they are, others in single quotes. */
export function shellCommand(argv: readonly string[]): string {
  return argv.map(shellWord).join(' ');
}

export function shellWord(word: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** Up to KEPT_FILE_BYTES of a file's text. */
function keep(text: string | undefined): KeptFile | undefined {
  if (text === undefined) return undefined;
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes <= KEPT_FILE_BYTES) return { text, bytes, truncated: false };
  // Cut at a byte count; a split character at the end is dropped by the decoder.
  return { text: Buffer.from(text, 'utf8').subarray(0, KEPT_FILE_BYTES).toString('utf8').replace(/\uFFFD$/, ''), bytes, truncated: true };
}

/** A case graded: what `onCase` sees as it happens. */
interface ProgramCaseGraded {
  submission: string;
  caseId: string;
  status: CaseStatus;
  /** not run: the program was stopped early */
  notRun?: true;
}

/** What every program of a run is graded on (plain data: it crosses to the pool's threads). */
export interface ProgramJobSetup {
  suite: Suite;
  cases: ProgramCase[];
  sandbox: SandboxMode;
  keepFailures: boolean;
  course: CourseLines;
  stop?: StopRules;
}

/** A program graded: what a run's reports are made of (and what its journal keeps). */
export interface GradedProgram {
  report: SubmissionReport;
  runs: ProgramRuns;
  /** the runtimes' start-ups measured in the thread that ran it, for the report's note */
  startups: Startup[];
}

/** A job's setup with the runtimes' start-ups measured before the jobs began (none with one job: it measures its own). */
export type ProgramJobTask = ProgramJobSetup & { startups?: [string, Startup][] };

/** Grades the programs it is given one after the other (a job of the worker pool: workers/pool.ts). */
export function gradeProgramJob(setup: ProgramJobTask, tell: (event: ProgramCaseGraded) => void): Job<string, GradedProgram> {
  // Every thread leaves out the same start-ups, measured once (not three runs a runtime in each thread).
  seedStartups(setup.startups ?? []);
  return {
    async run(path) {
      const { report, runs } = await gradeProgram(setup, path, tell);
      return { report, runs, startups: await measuredStartups() };
    },
    close: async () => {},
  };
}

export const GRADE_PROGRAM_JOB = jobKind(import.meta.url, 'gradeProgramJob', gradeProgramJob);

async function gradeProgram(setup: ProgramJobSetup, path: string, tell: (event: ProgramCaseGraded) => void): Promise<{ report: SubmissionReport; runs: ProgramRuns }> {
  const { suite, cases, sandbox } = setup;
  const id = studentName(basename(resolve(path)));
  const failed: FailedRun[] = [];
  const notes: string[] = [];
  let submission: ProgramSubmission | undefined;
  let files: StagedFiles | undefined;
  let setupError = '';
  let notGraded: string | undefined;
  try {
    submission = readProgramSubmission(path, setup.course);
    notGraded = await missingRuntime(submission);
    if (notGraded !== undefined) throw new UserError(notGraded);
    // One copy of the submission for all its cases, built once if it builds; each run copies it into its own sandbox.
    const prepared = await prepareProgram(submission, sandbox);
    notes.push(...prepared.notes);
    if ('error' in prepared) setupError = prepared.error;
    else files = prepared.files;
  } catch (e) {
    // The program's own problem (or a folder of it that cannot be read): its error, and the class goes on.
    const why = e instanceof UserError ? e.message : unreadableSubmission(e);
    if (why === undefined) throw e;
    setupError = why;
    notes.push(`not graded: ${why}`);
  }
  const early = setup.stop === undefined ? undefined : new EarlyStop(setup.stop);
  try {
    const startups = new Set<string>();
    const results = [];
    for (const [k, pc] of cases.entries()) {
      const { c } = pc;
      if (submission === undefined || files === undefined) {
        results.push({ c, status: 'error' as const, message: setupError, ms: 0, nodes: null });
        tell({ submission: id, caseId: c.id, status: 'error' });
        continue;
      }
      const skipped = early?.before(c);
      if (skipped !== undefined) {
        results.push({ c, ...skipped, ms: 0, nodes: null });
        tell({ submission: id, caseId: c.id, status: skipped.status, notRun: true });
        continue;
      }
      const started = performance.now();
      const run = await runProgram(submission, pc.input, { ms: c.limits.ms, memoryMb: c.limits.memoryMb }, { sandbox, files, next: k < cases.length - 1 });
      early?.after(c, run.status === 'ok' ? 'passed' : run.status, run.status === 'ok' ? '' : run.message, performance.now() - started);
      for (const note of run.notes) if (!notes.includes(note)) notes.push(note);
      if (run.startupMs > 0) startups.add(`${submission.argv[0]}: ${run.startupMs} ms of CPU time`);
      let status: CaseStatus = run.status === 'ok' ? 'passed' : run.status;
      let message = run.status === 'ok' ? '' : failureMessage([run.message], pc, submission);
      let problems: string[] = [];
      if (run.status === 'ok') {
        const compared = performance.now();
        problems = compareCaseFiles(pc.expected, run);
        notePhase('compare', performance.now() - compared);
        if (problems.length > 0) {
          status = 'failed';
          message = failureMessage([...problems, ...whatItWrote(pc.expected, run)], pc, submission);
        }
      }
      results.push({ c, status, message, ms: run.cpuMs, nodes: null });
      if (status !== 'passed' && setup.keepFailures) {
        const nextState = keep(run.nextState);
        const traverseLog = keep(run.traverseLog);
        failed.push({
          caseId: c.id,
          status,
          problems,
          runMessage: run.status === 'ok' ? '' : run.message,
          cpuMs: run.cpuMs,
          wallMs: run.ms,
          peakMemoryBytes: run.peakMemoryBytes,
          ...(nextState !== undefined ? { nextState } : {}),
          ...(traverseLog !== undefined ? { traverseLog } : {}),
          wrote: run.wrote,
        });
      }
      tell({ submission: id, caseId: c.id, status });
    }
    for (const s of startups) notes.push(`start-up not charged to the cases (measured in the sandbox): ${s}`);
    const runs: ProgramRuns = {
      id,
      path,
      ...(submission !== undefined ? { argv: submission.argv } : {}),
      ...(submission?.build !== undefined ? { build: submission.build } : {}),
      setupError,
      ...(notGraded !== undefined ? { notGraded } : {}),
      ...(submission?.byCourse === true ? { byCourse: true as const } : {}),
      failed,
    };
    const report = scoreSubmission(suite, id, path, notes, results);
    return { report: notGraded === undefined ? report : { ...report, notGraded }, runs };
  } finally {
    // The jail started for a case that will not run goes, and the last runs' cgroups are released, before the program counts as graded (execution.ts).
    await settleCleanups();
    await files?.dispose();
  }
}

/** When an expected file is missing: the files the program did write, so that a wrong name (`d:\\next_state.txt`) shows. */
function whatItWrote(expected: ExpectedFiles, run: ProgramRun): string[] {
  const missing = run.nextState === undefined || (expected.task !== 1 && expected.traverseLog !== undefined && run.traverseLog === undefined);
  if (!missing || run.wrote.length === 0) return [];
  return [`the files it wrote: ${run.wrote.slice(0, 10).map((f) => `${JSON.stringify(f.name)} (${f.bytes} bytes)`).join(', ')}${run.wrote.length > 10 ? ` and ${run.wrote.length - 10} more` : ''}`];
}

export async function gradePrograms(o: ProgramGradeOptions): Promise<GradeReport> {
  return (await gradeProgramsWithRuns(o)).report;
}

/**
 * The ids of `wanted` among the suite's cases, in the suite's order; an unknown id is one line
 * naming it and a few that exist.
 */
export function selectCaseIds(suite: Suite, wanted: readonly string[]): Set<string> {
  const known = new Set(suite.cases.map((c) => c.id));
  const unknown = wanted.filter((id) => !known.has(id));
  if (unknown.length > 0) {
    const some = suite.cases.slice(0, 5).map((c) => c.id);
    const more = suite.cases.length > some.length ? `, … (${suite.cases.length} in all)` : '';
    throw new UserError(`--case ${unknown.join(',')}: no such case in ${suite.manifest.name}; its cases are ${some.join(', ')}${more}`);
  }
  const asked = new Set(wanted);
  return new Set(suite.cases.filter((c) => asked.has(c.id)).map((c) => c.id));
}

/** What every program of the run is graded on: also what a journal entry's key covers (grading/grade-journal.ts). */
export function programJobSetup(o: ProgramGradeOptions, cases: ProgramCase[], lines: RunLines): ProgramJobSetup {
  const course = { lines, ...(o.runArgs !== undefined ? { args: o.runArgs } : {}) };
  return { suite: o.suite, cases, sandbox: o.sandbox ?? 'full', keepFailures: o.keepFailures === true, course, ...(o.stop !== undefined ? { stop: o.stop } : {}) };
}

/**
 * Before several jobs start: the start-ups of the runtimes the programs run on (under each memory
 * limit the cases give), measured in this thread while the pool's threads load, for every job to
 * take (gradeProgramJob). A folder that cannot be read is left for its own job to report.
 */
async function startupsAhead(setup: ProgramJobSetup, paths: readonly string[], jobs: number): Promise<[string, Startup][]> {
  startWorkers(GRADE_PROGRAM_JOB, jobs, paths.length);
  const words = new Set<string>();
  for (const path of paths) {
    try {
      const word = readProgramSubmission(path, setup.course).argv[0];
      if (word !== undefined) words.add(word);
    } catch {
      // its job says why
    }
  }
  const limits = new Map(setup.cases.map((pc) => [pc.c.limits.memoryMb, pc.c.limits]));
  for (const word of words) {
    for (const l of limits.values()) await measureStartupOf(word, { cpuMs: l.ms, memoryBytes: l.memoryMb * 1024 * 1024 }, setup.sandbox);
  }
  return knownStartups();
}

/** Grades the programs and keeps, with keepFailures, what their failed cases wrote (student-report.ts writes it). */
export async function gradeProgramsWithRuns(o: ProgramGradeOptions): Promise<ProgramGrading> {
  let selected = selectCases(o.suite, o.visibility);
  if (o.caseIds !== undefined) {
    const ids = selectCaseIds(o.suite, o.caseIds);
    const left = new Set(selected.map((c) => c.id));
    const unseen = [...ids].filter((id) => !left.has(id));
    if (unseen.length > 0) throw new UserError(`--case ${unseen.join(',')}: not visible to students, and --visibility visible grades only the visible cases`);
    selected = selected.filter((c) => ids.has(c.id));
  }
  const cases = programCases(o.suite, selected);
  // Before any run: a machine without bubblewrap stops here with the instructor's choices.
  await programSandbox(o.sandbox ?? 'full');
  const graded: GradedProgram[] = new Array(o.submissions.length);
  const lines = o.runLines ?? programRunLines(o.suite.manifest.dir);
  const setup = programJobSetup(o, cases, lines);
  // Those the journal holds are taken from it; the rest are graded, each recorded as it comes.
  const journal = await o.journal?.(setup);
  const left = takeRecorded(journal, o.submissions, graded);
  const items = left.map((k) => o.submissions[k]!);
  const task: ProgramJobTask = o.jobs > 1 && items.length > 1 ? { ...setup, startups: await startupsAhead(setup, items, Math.min(o.jobs, items.length)) } : setup;
  await runJobs({
    kind: GRADE_PROGRAM_JOB,
    setup: task,
    items,
    jobs: o.jobs,
    onResult: (result, path, index) => {
      graded[left[index]!] = result;
      journal?.record(path, result);
    },
    onEvent: (e) => o.onCase?.(e.submission, e.caseId, e.status, e.notRun),
  });
  // Taken after the runs, so that the start-ups they measured are in the note.
  const { isolation } = await programSandbox(o.sandbox ?? 'full', graded.flatMap((g) => g.startups));
  const report: GradeReport = { version: 1, suite: o.suite.manifest.name, isolation, submissions: graded.map((g) => g.report) };
  const programs = graded.map((g) => g.runs);
  const how =
    o.runArgs === undefined
      ? `${lines.course} ran its programs with \`${lines.args.trim()}\` (${lines.source}): check those run lines, or the programs' own command files`
      : `this run's --run-args \`${o.runArgs.trim()}\` replaced ${lines.course}'s \`${lines.args.trim()}\``;
  const warnings = [startUpWarning(report.submissions, programs, how, shellCommand)].filter((w) => w !== undefined);
  // The course's lines are said when they ran something: programs with their own command files need no such note.
  const linesNote = programs.some((p) => p.byCourse === true) ? [runLinesNote(lines, o.runArgs)] : [];
  report.notes = [...(report.notes ?? []), ...linesNote, ...notGradedNotes(programs), ...warnings];
  return { report, cases, programs, warnings };
}

