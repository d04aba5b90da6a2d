/**
 * One run of a file-in/file-out program (any language) in the sandbox: used by csci561's
 * `command` submissions and meant for any course whose programs read and write files.
 *
 * The parts, one module each:
 *  - staging.ts: the submission's files, copied once for any number of runs;
 *  - report.ts: the sh wrapper that runs the program inside the jail and reports over
 *    fd 3, and the parser of that report;
 *  - execution.ts: one execution of the wrapper, watched within bounded memory, CPU
 *    time and wall-clock time;
 *  - startup.ts: the runtime's start-up, measured once and not charged;
 *  - verdict.ts: what an execution comes to for a student.
 * This module resolves a request into a plan and runs it; its exports are the API of the whole.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mechanisms, sandboxFor, type SandboxMode } from '../jail/mechanisms.ts';
import { execute, settleCleanups, type Plan } from './execution.ts';
export { settleCleanups };
import { stageFiles, type StagedFiles } from './staging.ts';
import { median, startupOf, type RuntimePlan } from './startup.ts';
import { judge, type ProgramResult } from './verdict.ts';
import { runsAsSandboxUserOnHost } from '../jail/sandbox-user.ts';
import { companionRuntimes, resolveRuntime } from './runtimes.ts';
import { notePhase } from './case-phases.ts';

export { parseReport } from './report.ts';
export { stageFiles, type StagedFiles } from './staging.ts';
export { knownStartups, measuredStartups, seedStartups, type Startup } from './startup.ts';
export type { ProgramResult, ProgramStatus } from './verdict.ts';

const MB = 1024 * 1024;

export interface ProgramLimits {
  /** CPU ms of the whole process tree, the runtime's start-up not counted */
  cpuMs: number;
  /** resident memory of the whole tree (tmpfs files included) */
  memoryBytes: number;
  /** processes and threads at once (default 128) */
  maxProcesses?: number;
  /** the largest file the program may write, and the most read back of a requested one (default 16 MB) */
  fileBytes?: number;
  /** room in the work folder beyond the submission's own files (default 64 MB) */
  workBytes?: number;
  /** room in /tmp (default 32 MB) */
  tmpBytes?: number;
  /** stdout and stderr together (default 8 MB) */
  outputBytes?: number;
  /** wall-clock ms after which the program is stopped whatever its CPU time (default 3 × cpuMs + start-up + 3 s) */
  wallMs?: number;
}

export const DEFAULT_FILE_BYTES = 16 * MB;
export const DEFAULT_WORK_BYTES = 64 * MB;
export const DEFAULT_TMP_BYTES = 32 * MB;
export const DEFAULT_OUTPUT_BYTES = 8 * MB;
export const DEFAULT_MAX_PROCESSES = 128;

export interface ProgramRequest {
  files: StagedFiles;
  /** the command as the submission gives it; its first word is resolved by runtimes.ts */
  argv: readonly string[];
  /** files written into the work folder before the run (plain names) */
  inputs: Readonly<Record<string, string | Buffer>>;
  /** files to send back (plain names); copies of them in the submission are removed first */
  outputs: readonly string[];
  limits: ProgramLimits;
  /** 'full' (default) needs bubblewrap; 'weak' only when the instructor chose it */
  mode?: SandboxMode;
  /** another run of the same program follows (other inputs): its jail is started now, while this one runs (execution.ts) */
  next?: boolean;
}

const PLAIN_NAME = /^[A-Za-z0-9._-]+$/;

/**
 * What a run costs beyond the program itself (jail start, wrapper, copy and read-back): the
 * median wall-clock ms of `n` runs of /bin/true with one input and two outputs, each on its own
 * (its jail started and ended, awaited), and of a case among `n` run as a class's cases run (a
 * jail kept for them where the grader is root), for `mancala bench`.
 */
export async function measureProgramOverhead(n: number, mode: SandboxMode): Promise<{ mode: SandboxMode; msPerRun: number; msPerKeptCase: number }> {
  const root = await mkdtemp(join(tmpdir(), 'program-bench-'));
  try {
    await writeFile(join(root, 'program.txt'), 'a file to copy in');
    const files = await stageFiles(root);
    try {
      const once = async (next: boolean) => {
        const t = performance.now();
        const r = await runInSandbox({ files, argv: ['/bin/true'], inputs: { 'input.txt': 'x' }, outputs: ['next_state.txt', 'traverse_log.txt'], limits: { cpuMs: 1000, memoryBytes: 256 * MB }, mode, next });
        if (!next) await settleCleanups();
        if (r.status !== 'ok') throw new Error(`internal: the overhead benchmark's run failed: ${r.message}`);
        return performance.now() - t;
      };
      const alone: number[] = [];
      for (let i = 0; i < n; i++) alone.push(await once(false));
      const kept: number[] = [];
      for (let i = 0; i < n; i++) kept.push(await once(i < n - 1));
      await settleCleanups();
      // The first of a class's cases starts its jail: the rest are what a case costs.
      return { mode, msPerRun: median(alone), msPerKeptCase: median(kept.slice(1)) };
    } finally {
      await files.dispose();
    }
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

/** What a run of `word`'s runtime is planned under, before its program and files are known. */
async function runtimePlan(word: string, limits: ProgramLimits, mode: SandboxMode): Promise<RuntimePlan | { problem: string }> {
  const m = mode === 'full' ? await sandboxFor('full') : await mechanisms();
  const onHost = runsAsSandboxUserOnHost(m, mode);
  const runtime = await resolveRuntime(word, onHost);
  if ('problem' in runtime) return { problem: `cannot run the command: ${runtime.problem}` };
  return {
    m,
    mode,
    runtime,
    companions: await companionRuntimes(onHost),
    cpuMs: limits.cpuMs,
    memoryBytes: limits.memoryBytes,
    maxProcesses: limits.maxProcesses ?? DEFAULT_MAX_PROCESSES,
    fileBytes: limits.fileBytes ?? DEFAULT_FILE_BYTES,
    workBytes: limits.workBytes ?? DEFAULT_WORK_BYTES,
    tmpBytes: limits.tmpBytes ?? DEFAULT_TMP_BYTES,
    outputBytes: limits.outputBytes ?? DEFAULT_OUTPUT_BYTES,
    wallMs: 0,
  };
}

/**
 * Measures now (once a thread) the start-up of the runtime a command beginning with `word` runs
 * on, under `limits` in `mode`: a grading with several jobs measures its runtimes before they
 * start and gives the figures to every job's thread (seedStartups), so that each case of a class
 * leaves out the same start-up whichever thread runs it. A command that cannot run is left for
 * its own run to report.
 */
export async function measureStartupOf(word: string, limits: ProgramLimits, mode: SandboxMode): Promise<void> {
  const base = await runtimePlan(word, limits, mode);
  if (!('problem' in base)) await startupOf(base, word);
}

/** A result for a command that cannot run at all (its runtime is missing): nothing ran. */
function notRun(message: string): ProgramResult {
  return { status: 'error', message, cpuMs: 0, wallMs: 0, startupMs: 0, peakMemoryBytes: 0, exitCode: null, signal: null, stdout: '', stderr: '', files: {}, notFiles: [], left: [] };
}

/**
 * Runs `request.argv` once in the sandbox on its inputs and returns the verdict with its figures
 * and the requested outputs. Throws a UserError when the full sandbox is asked for and this
 * machine cannot give it, and an Error when the sandbox itself fails to start.
 */
export async function runInSandbox(request: ProgramRequest): Promise<ProgramResult> {
  const planned = performance.now();
  // First: a machine without the full sandbox says so, whatever the request.
  if ((request.mode ?? 'full') === 'full') await sandboxFor('full');
  for (const name of [...Object.keys(request.inputs), ...request.outputs]) {
    if (!PLAIN_NAME.test(name)) throw new Error(`internal: ${JSON.stringify(name)} is not a plain file name`);
  }
  const [word, ...rest] = request.argv;
  if (word === undefined) return notRun('the command is empty');
  const base = await runtimePlan(word, request.limits, request.mode ?? 'full');
  if ('problem' in base) return notRun(base.problem);
  const { runtime } = base;
  const limits = request.limits;
  // Its start-up is a phase of its own (case-phases.ts), measured once.
  notePhase('plan', performance.now() - planned);
  const s = await startupOf(base, word);
  const resumed = performance.now();
  const plan: Plan = {
    ...base,
    files: request.files,
    inputs: request.inputs,
    outputs: request.outputs,
    argv: [runtime.executable, ...rest],
    startupCpuMs: s.cpuMs,
    wallMs: limits.wallMs ?? 3 * limits.cpuMs + s.wallMs + 3000,
  };
  notePhase('plan', performance.now() - resumed);
  const x = await execute(plan, request.next === true);
  return { ...judge(plan, x), startupMs: Math.round(s.cpuMs) };
}
