/**
 * What an execution of a program in the sandbox is planned under, its jail, and what the grader saw
 * of it: shared by a jail of its own per run (execution.ts) and a jail for a submission's runs (jail-session.ts).
 */
import type { JailSpec } from '../jail/command.ts';
import type { Mechanisms, SandboxMode } from '../jail/mechanisms.ts';
import type { Report } from './report.ts';
import type { StagedFiles } from './staging.ts';
import { runtimeEnv, type Runtime } from './runtimes.ts';
import { OutputTail, OUTPUT_TAIL_BYTES } from '../sandboxed-process.ts';

/** A request resolved: the runtime found, every limit given a value. */
export interface Plan {
  m: Mechanisms;
  mode: SandboxMode;
  files: StagedFiles;
  inputs: Readonly<Record<string, string | Buffer>>;
  outputs: readonly string[];
  /** the program's words, the first resolved */
  argv: string[];
  runtime: Runtime;
  companions: Runtime[];
  cpuMs: number;
  memoryBytes: number;
  maxProcesses: number;
  fileBytes: number;
  workBytes: number;
  tmpBytes: number;
  outputBytes: number;
  wallMs: number;
  /** CPU ms not charged (the runtime's start-up) */
  startupCpuMs: number;
}

/** What the grader saw of one execution. */
export interface Execution {
  stoppedFor?: 'cpu' | 'wall' | 'output' | 'report';
  started: boolean;
  report?: Report;
  malformed?: string;
  stdout: OutputTail;
  stderr: OutputTail;
  sawOutOfMemory: boolean;
  /** CPU ms from start to exit (or to the end) */
  measuredCpuMs: number;
  wallMs: number;
  peakMemoryBytes: number;
  overMemory: boolean;
  /** stopped for time short of its memory limit while allocating fast enough to reach it soon: what it held */
  heldBytes?: number;
  /** exit code of the jail's outermost process */
  jailExit: number | null;
  /**
   * Outside the jail (the weak sandbox), the run's folder on the grader's disk and its work folder
   * in it: a traceback names them, and what a student reads must not (verdict.ts takes them out).
   */
  hostFolders?: { run: string; work: string };
}


/** An execution before anything was seen of it. */
export function newExecution(): Execution {
  return { started: false, stdout: new OutputTail(OUTPUT_TAIL_BYTES), stderr: new OutputTail(OUTPUT_TAIL_BYTES), sawOutOfMemory: false, measuredCpuMs: 0, wallMs: 0, peakMemoryBytes: 0, overMemory: false, jailExit: null };
}

/**
 * The jail a program of `plan` runs in, `argv` its first process (a wrapper or a supervisor), `work`
 * and `tmp` its writable folders (size-capped), `readOnly` what it may read besides the system.
 */
export function programJail(plan: Plan, o: { argv: string[]; work: string; tmp: string; readOnly: string[]; supervised?: boolean }): JailSpec {
  const path = [...new Set([...plan.runtime.pathDirs, ...plan.companions.flatMap((c) => c.pathDirs), '/usr/local/bin', '/usr/bin', '/bin'])];
  return {
    argv: o.argv,
    cwd: o.work,
    env: { PATH: path.join(':'), HOME: o.work, LANG: 'C.UTF-8', TMPDIR: o.tmp, ...runtimeEnv(plan.memoryBytes) },
    readOnly: [...new Set([...o.readOnly, ...plan.runtime.readOnly, ...plan.companions.flatMap((c) => c.readOnly)])],
    writable: [
      { path: o.work, sizeBytes: plan.files.bytes + plan.workBytes },
      { path: o.tmp, sizeBytes: plan.tmpBytes },
    ],
    // A file of the submission as large as the limit must still copy in.
    fileSizeBytes: Math.max(plan.fileBytes, plan.files.largestFileBytes + 1),
    ...(o.supervised === true ? { supervised: true } : {}),
  };
}
