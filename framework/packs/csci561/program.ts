/**
 * Submissions in any language, run the way the course ran them: the submission's command (its
 * one-line `command` file, e.g. `python3 mancala.py`; or its mancala.yaml's `run:`; or inferred
 * from its sources, built first: sandbox/programs/build-plan.ts) is run in a fresh folder holding a copy of
 * the submission and input.txt, and what it leaves in next_state.txt and traverse_log.txt is read back.
 *
 * Student code is untrusted: each run is one `runInSandbox` (framework/sandbox/programs/run.ts):
 * an allow-list jail with no network, its own size-capped work folder, the case's memory limit
 * kept by the kernel, and the case's time limit counted in CPU time of the whole process tree,
 * the runtime's start-up (Python's, the JVM's) left out, so a busy grader costs no case.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { UserError } from '../../errors.ts';
import { hasEntry, readSubmissionText } from '../../files/submission-entries.ts';
import type { GradeReport } from '../../grading/report.ts';
import { describeMechanisms, sandboxFor, type SandboxMode } from '../../sandbox/jail/mechanisms.ts';
import { measuredStartups, runInSandbox, stageFiles, type ProgramStatus, type StagedFiles, type Startup } from '../../sandbox/programs/run.ts';
import { buildInSandbox } from '../../sandbox/programs/build.ts';
import { planFromFolder, type CourseLines } from '../../sandbox/programs/build-files.ts';
import { MANIFEST_FILE, splitCommand } from '../../sandbox/programs/build-plan.ts';
import type { CourseProgram } from '../../sandbox/programs/run-lines.ts';
import { INPUT_FILE, NEXT_STATE_FILE, TRAVERSE_LOG_FILE } from './files.ts';

/** The file in a submission folder that says how to run it. */
export const COMMAND_FILE = 'command';
/** A command file is one line: more is no command file. */
const MAX_COMMAND_BYTES = 64 * 1024;

export interface ProgramSubmission {
  /** the folder, as given */
  dir: string;
  /** the command's words, e.g. ['python3', 'mancala.py'] */
  argv: string[];
  /** a shell line run once in the sandbox before the cases (sandbox/programs/build.ts) */
  build?: string;
  /** where the command came from, for the submission's notes */
  how: string;
  /** what the course's run lines said of it (none: its own command, or inferred) */
  course?: CourseProgram;
  /** run as the course ran its programs: by its run line, or inferred and given the course's arguments */
  byCourse?: true;
}

export { splitCommand };

/**
 * How to run the submission in `dir`: its `command` file (one line, not run by a shell), else its
 * manifest (mancala.yaml: `build:` and `run:`), else the course's line for the file it holds
 * (sandbox/programs/run-lines.ts), else what its files say (sandbox/programs/build-plan.ts). A folder with nothing to run
 * is a UserError naming what was looked for and what was found.
 */
export function readProgramSubmission(dir: string, course?: CourseLines): ProgramSubmission {
  const file = join(dir, COMMAND_FILE);
  // Looked at without following: a `command` that is a link (to /dev/zero, to the suite's answers) is refused, never read.
  if (!hasEntry(dir, COMMAND_FILE)) {
    const plan = planFromFolder(dir, course);
    if ('problem' in plan) throw new UserError(`${dir}: ${plan.problem}`);
    // The same manifest says `protocol:` for an agent over stdio: another kind of submission.
    if (plan.protocol !== undefined) throw new UserError(`${dir}: ${MANIFEST_FILE}: protocol: ${plan.protocol} makes it an agent over stdio (graded with \`mancala grade\`), not a program that reads input.txt: drop the protocol line`);
    return { dir, argv: plan.run, ...(plan.build !== undefined ? { build: plan.build } : {}), how: plan.why, ...('course' in plan ? { course: plan.course } : {}), ...('course' in plan || 'courseArgs' in plan ? { byCourse: true as const } : {}) };
  }
  if (hasEntry(dir, MANIFEST_FILE)) throw new UserError(`${dir}: has both a \`${COMMAND_FILE}\` file and ${MANIFEST_FILE}: keep one (${MANIFEST_FILE} can also build)`);
  const read = readSubmissionText(dir, COMMAND_FILE, MAX_COMMAND_BYTES);
  if (!read.ok) throw new UserError(`${dir}: ${read.message}: the command file is a plain file holding the program's command line (e.g. "python3 mancala.py")`);
  const text = read.text;
  const lines = text.split(/\r?\n/);
  const index = lines.findIndex((l) => l.trim() !== '' && !l.trim().startsWith('#'));
  if (index < 0) throw new UserError(`${file}: expected the command that runs the program (e.g. "python3 mancala.py"), but the file has none`);
  const argv = splitCommand(lines[index]!.trim());
  if (argv === undefined) throw new UserError(`${file}:${index + 1}: a quote is not closed`);
  return { dir, argv, how: `command: ${argv.join(' ')}` };
}

// ---- the sandbox -------------------------------------------------------------------------------

export interface ProgramSandbox {
  /** the report's isolation: no network when jailed; the note says how, and what start-up was left out */
  isolation: GradeReport['isolation'];
  /** one line per runtime whose start-up was measured, e.g. "python3: 39 ms of CPU time" */
  startups: string[];
}

export function describeStartup(s: Startup): string {
  return `${s.runtime}: ${Math.round(s.cpuMs)} ms of CPU time`;
}

/**
 * How programs are confined on this machine in `mode` (a UserError when the full sandbox is asked
 * for and cannot be had), and the start-ups `measured` (default: those measured so far in this
 * thread; call it after the runs to have them).
 */
export async function programSandbox(mode: SandboxMode = 'full', measured?: readonly Startup[]): Promise<ProgramSandbox> {
  const m = await sandboxFor(mode);
  const jailed = mode === 'full' && m.bwrap !== undefined;
  // One a runtime: each pool thread measures its own, and any of them says what was left out.
  const byRuntime = new Map((measured ?? (await measuredStartups())).filter((s) => s.mode === mode).map((s) => [s.runtime, s]));
  const startups = [...byRuntime.values()].map(describeStartup);
  const time =
    "Time limits count the CPU time of the program's whole process tree" +
    (startups.length > 0 ? `, less its runtime's start-up (measured in the sandbox: ${startups.join(', ')})` : '') +
    '.';
  return { isolation: { network: jailed, note: `${describeMechanisms(m, mode)}. ${time}` }, startups };
}

// ---- one run -----------------------------------------------------------------------------------

export interface ProgramLimits {
  /** CPU ms of the program's process tree, its runtime's start-up not counted */
  ms: number;
  memoryMb: number;
}

export interface ProgramRunOptions {
  /** 'full' (default): refuses to run without bubblewrap; 'weak' only when the instructor chose it */
  sandbox?: SandboxMode;
  /** the submission's staged copy (stageFiles), to copy it once for many cases */
  files?: StagedFiles;
  /** another case of the same submission follows: its jail starts while this one runs */
  next?: boolean;
}

export interface ProgramRun {
  status: ProgramStatus;
  /** what went wrong, for a student (empty when ok) */
  message: string;
  /** wall-clock ms of the run in the sandbox */
  ms: number;
  /** CPU ms charged to the case */
  cpuMs: number;
  /** the runtime's start-up CPU ms, not charged */
  startupMs: number;
  peakMemoryBytes: number;
  /** the files the program left (undefined: not written) */
  nextState?: string;
  traverseLog?: string;
  /** what copying the submission noted (refused symlinks, …) */
  notes: string[];
  /** files the run left in its folder that were neither the submission's nor input.txt (at most 100 listed) */
  wrote: { name: string; bytes: number }[];
}

/**
 * Runs the submission once on `input` (input.txt's text) in a fresh sandbox and reads back
 * next_state.txt and traverse_log.txt. Left-over answers in the submission do not count.
 */
export async function runProgram(submission: ProgramSubmission, input: string, limits: ProgramLimits, options: ProgramRunOptions = {}): Promise<ProgramRun> {
  const files = options.files ?? (await stageFiles(submission.dir));
  try {
    const r = await runInSandbox({
      files,
      argv: submission.argv,
      inputs: { [INPUT_FILE]: input },
      outputs: [NEXT_STATE_FILE, TRAVERSE_LOG_FILE],
      limits: { cpuMs: limits.ms, memoryBytes: limits.memoryMb * 1024 * 1024 },
      mode: options.sandbox ?? 'full',
      ...(options.next === true ? { next: true } : {}),
    });
    // What it wrote under other names than asked (`d:\\next_state.txt`): shown when a file is missing.
    const wrote = r.left.filter((f) => f.name !== INPUT_FILE && !existsSync(join(files.dir, f.name))).sort((a, b) => (a.name < b.name ? -1 : 1));
    const figures = { ms: r.wallMs, cpuMs: r.cpuMs, startupMs: r.startupMs, peakMemoryBytes: r.peakMemoryBytes, notes: files.notes, wrote };
    const notFile = r.notFiles[0];
    if (r.status === 'ok' && notFile !== undefined) return { ...figures, status: 'error', message: `${notFile} is not a regular file` };
    const nextState = r.files[NEXT_STATE_FILE];
    const traverseLog = r.files[TRAVERSE_LOG_FILE];
    return {
      ...figures,
      status: r.status,
      message: r.message,
      ...(nextState !== undefined ? { nextState: nextState.toString('utf8') } : {}),
      ...(traverseLog !== undefined ? { traverseLog: traverseLog.toString('utf8') } : {}),
    };
  } finally {
    if (options.files === undefined) await files.dispose();
  }
}

// ---- staging and building, once per submission -------------------------------------------------

/** A submission ready for its cases: the files each run starts from (built, if it builds). */
export type PreparedProgram = { files: StagedFiles; notes: string[] } | { error: string; notes: string[] };

/**
 * Stages the submission once and, when it has a build, builds it once in the sandbox (its own
 * limits, charged to no case: sandbox/programs/build.ts). A failed build is `error` (a compile error with
 * the compiler's first and last lines); the caller disposes `files`.
 */
export async function prepareProgram(submission: ProgramSubmission, mode: SandboxMode): Promise<PreparedProgram> {
  const notes = [submission.how];
  const staged = await stageFiles(submission.dir);
  if (submission.build === undefined) return { files: staged, notes };
  notes.push(...staged.notes);
  try {
    const built = await buildInSandbox(staged, submission.build, mode);
    if (!built.ok) return { error: built.message, notes: [...notes, `the build failed: \`${submission.build}\``] };
    notes.push(`built once before the cases (\`${submission.build}\`), not charged to them: ${built.cpuMs} ms of CPU time, ${built.wallMs} ms in all`);
    return { files: built.files, notes };
  } finally {
    // The cases start from the built copy, which holds the sources too.
    await staged.dispose();
  }
}
