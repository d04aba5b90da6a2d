/**
 * The verdict on one program run: what an execution (execution.ts) comes to for a
 * student, a status and a message naming what happened, the figure and the limit.
 */
import { constants as osConstants } from 'node:os';
import type { Execution, Plan } from './execution.ts';
import { JAVA_OPTIONS_NOTICE } from './runtimes.ts';
import { python2Hint } from './python2.ts';
import { studentText } from '../../student-text.ts';

const MB = 1024 * 1024;

export type ProgramStatus = 'ok' | 'error' | 'timeout' | 'memory' | 'output-limit';

export interface ProgramResult {
  status: ProgramStatus;
  /** for a student: what happened, the figure, the limit (empty when ok) */
  message: string;
  /** CPU ms charged: the tree's CPU time from start to exit, less the start-up */
  cpuMs: number;
  /** wall-clock ms of the whole run (jail start and report included) */
  wallMs: number;
  /** the runtime's start-up CPU ms, not charged */
  startupMs: number;
  peakMemoryBytes: number;
  /** the program's exit code or signal (both null when the grader stopped it) */
  exitCode: number | null;
  signal: string | null;
  /** the ends of stdout and stderr */
  stdout: string;
  stderr: string;
  /** the requested outputs the program left as regular files */
  files: Record<string, Buffer>;
  /** requested outputs left as something else (a folder, a link, a pipe) */
  notFiles: string[];
  /** files in the work folder afterwards (at most LIST_ENTRIES) */
  left: { name: string; bytes: number }[];
}

/** A tmpfs with less free space than this was filled by the program. */
const FULL_BELOW_BYTES = 64 * 1024;
/** Exit code 128 + SIGXFSZ: a file reached RLIMIT_FSIZE. */
const SIGXFSZ_CODE = 128 + osConstants.signals.SIGXFSZ;

const asMb = (bytes: number) => `${Math.round((bytes / MB) * 10) / 10} MB`;

function signalName(code: number): string | undefined {
  const signo = code - 128;
  return Object.entries(osConstants.signals).find(([, n]) => n === signo)?.[0];
}

/** Lines of a stream shown from its start and from its end in a message. */
export const SHOWN_LINES = 20;

/**
 * A stream for a message: its first and last SHOWN_LINES lines (a Java stack trace's first line
 * says what was thrown, its last where), the JVM's notice about its options left out. `total` is
 * all it wrote: past the tail kept (OUTPUT_TAIL_BYTES), its very start is gone, and this says so.
 */
export function headAndTail(text: string, total: number, n = SHOWN_LINES): string[] {
  const lines = text.replace(JAVA_OPTIONS_NOTICE, '').split('\n').map((l) => l.trimEnd());
  while (lines.length > 0 && lines[0] === '') lines.shift();
  while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  if (lines.length === 0) return [];
  const cut = Buffer.byteLength(text) < total ? [`[… its first ${total - Buffer.byteLength(text)} bytes were not kept …]`] : [];
  if (lines.length <= 2 * n) return [...cut, ...lines];
  return [...cut, ...lines.slice(0, n), `[… ${lines.length - 2 * n} lines left out …]`, ...lines.slice(-n)];
}

/** What the program printed, for a message: stderr's head and tail, then stdout's. */
function itsWords(x: Execution, stdout: string, stderr: string): string {
  const parts: string[] = [];
  const err = headAndTail(stderr, x.stderr.total);
  const out = headAndTail(stdout, x.stdout.total);
  if (err.length > 0) parts.push(`on stderr:\n${err.join('\n')}`);
  if (out.length > 0) parts.push(`on stdout:\n${out.join('\n')}`);
  return parts.length === 0 ? '; it printed nothing' : `; ${parts.join('\n')}`;
}

/** `text` with the run's folders on the grader's disk (the weak sandbox) named as the program sees them: its work folder is `.`. */
function withoutHostFolders(x: Execution, text: string): string {
  const f = x.hostFolders;
  if (f === undefined) return text;
  return text.split(`${f.work}/`).join('').split(f.work).join('.').split(f.run).join('<the run folder>');
}

export function judge(plan: Plan, x: Execution): Omit<ProgramResult, 'startupMs'> {
  const charged = Math.max(0, Math.round(x.measuredCpuMs - plan.startupCpuMs));
  const exitCode = x.report?.exitCode;
  const signal = exitCode !== undefined && exitCode > 128 ? (signalName(exitCode) ?? null) : null;
  const base = {
    cpuMs: charged,
    wallMs: Math.round(x.wallMs),
    peakMemoryBytes: x.peakMemoryBytes,
    exitCode: exitCode === undefined || signal !== null ? null : exitCode,
    signal,
    stdout: withoutHostFolders(x, x.stdout.text()),
    stderr: withoutHostFolders(x, x.stderr.text()),
    files: x.report?.files ?? {},
    notFiles: x.report?.notFiles ?? [],
    left: (x.report?.left ?? []).map(({ name, bytes }) => ({ name, bytes })),
  };
  // Cut from the streams as kept (their byte counts say what was left out), then the host folders named as the program sees them.
  const said = withoutHostFolders(x, itsWords(x, x.stdout.text(), x.stderr.text()));
  // What the program printed is quoted in its message: terminal-safe from here on.
  const verdict = (status: ProgramStatus, message: string) => ({ ...base, status, message: studentText(message) });
  const memoryLimit = `the limit is ${asMb(plan.memoryBytes)}`;

  if (x.stoppedFor === 'output') {
    return verdict('output-limit', `the program wrote more than ${asMb(plan.outputBytes)} to stdout and stderr (${asMb(x.stdout.total + x.stderr.total)} by then) and was stopped: write answers to the files, not the screen`);
  }
  // The kernel's kill leaves no words worth showing (the shell's "Killed").
  if (x.overMemory) return verdict('memory', `the program ran out of memory (${memoryLimit}; it held ${asMb(x.peakMemoryBytes)}) and was killed`);
  if (x.heldBytes !== undefined) {
    return verdict('memory', `the program ran out of memory: it was allocating without pause (it held ${asMb(x.heldBytes)} after ${charged} ms of CPU time) and would have gone over its limit soon after its ${plan.cpuMs} ms (${memoryLimit}); it was stopped`);
  }
  if (x.stoppedFor === 'cpu') {
    return verdict('timeout', `the program used more than its ${plan.cpuMs} ms of CPU time (${charged} ms, start-up not counted) and was killed`);
  }
  if (x.stoppedFor === 'wall') {
    return verdict('timeout', `the program was still running after ${(x.wallMs / 1000).toFixed(1)} s of wall-clock time (${charged} ms of CPU time; the limit is ${plan.cpuMs} ms of CPU time) and was killed: is it waiting or sleeping?`);
  }
  if (x.stoppedFor === 'report') return verdict('error', "the program wrote into the sandbox's report channel and was stopped");
  if (!x.started) {
    if (x.report?.setupFailed) {
      return verdict('error', `the submission's files (${asMb(plan.files.bytes)}) could not be copied into the sandbox's work folder${said}`);
    }
    // Nothing of the student's ran: the jail itself failed, which is the machine's problem.
    throw new Error(`internal: the sandbox did not start (exit code ${x.jailExit ?? 'none'}): ${studentText(x.stderr.text().trim().slice(-400))}`);
  }
  if (x.report === undefined || !x.report.complete) {
    return verdict('error', `the program stopped the sandbox before it could report (${x.malformed ?? 'no report'}): nothing was read back`);
  }
  const r = x.report;
  const outOfMemoryText = exitCode !== 0 && x.sawOutOfMemory;
  if (outOfMemoryText) {
    // Far under the limit, the poll missed the growth (meters/memory-backstop.ts refused it): no figure then.
    const held = x.peakMemoryBytes >= plan.memoryBytes / 2 ? `it held ${asMb(x.peakMemoryBytes)}` : 'an allocation past it was refused';
    return verdict('memory', `the program ran out of memory (${memoryLimit}; ${held})${said}`);
  }
  const fileLimit = Math.max(plan.fileBytes, plan.files.largestFileBytes + 1);
  const tooLarge = r.left.find((f) => f.bytes >= fileLimit) ?? Object.entries(r.sizes).map(([name, bytes]) => ({ name, bytes })).find((f) => f.bytes > plan.fileBytes);
  if (exitCode === SIGXFSZ_CODE || tooLarge !== undefined) {
    return verdict('output-limit', `the program wrote a file of ${asMb(tooLarge?.bytes ?? fileLimit)} or more${tooLarge ? ` (${tooLarge.name})` : ''}, over the ${asMb(plan.fileBytes)} a file may hold`);
  }
  if (r.workFree !== undefined && r.workTotal! > 0 && r.workFree < FULL_BELOW_BYTES) {
    return verdict('output-limit', `the program filled the sandbox's work folder (${asMb(r.workTotal!)}, of which its own files take ${asMb(plan.files.bytes)})`);
  }
  if (r.tmpFree !== undefined && r.tmpTotal! > 0 && r.tmpFree < FULL_BELOW_BYTES) {
    return verdict('output-limit', `the program filled /tmp (${asMb(r.tmpTotal!)})`);
  }
  if (exitCode !== 0) {
    const how = signal !== null ? `was killed by ${signal}` : `exited with code ${exitCode}`;
    return verdict('error', `the program ${how}${said}${python2Hint(base.stderr)}`);
  }
  return verdict('ok', '');
}
