/**
 * One run of a file-in/file-out program (any language) in the sandbox: used by csci561's
 * `command` submissions and meant for any course whose programs read and write files.
 *
 * Inside the jail (jail.ts), a small sh wrapper (WRAPPER below) does everything that touches the
 * program's files, so the grader never reads a file of unbounded size nor looks into the
 * sandbox's folder:
 *   1. copies the submission's staged host copy (bound read-only) and the input files into the
 *      work folder, a size-capped tmpfs, removing left-over copies of the requested outputs;
 *   2. says `start` on fd 3 and runs the program, stdin closed, fd 3 closed;
 *   3. says `exit CODE`, then kills every other process of the sandbox (`kill -9 -1` reaches
 *      only its own pid namespace), so nothing writes while it reports;
 *   4. sends back over fd 3 the free space of its tmpfs folders, the files left (names and
 *      sizes, at most LIST_ENTRIES) and each requested output, at most `fileBytes` of it.
 *
 * The grader keeps only bounded state: the tails of stdout and stderr (killed past
 * `outputBytes` in all), and fd 3's stream (killed past what an honest report can hold).
 *
 * Time is CPU time of the whole process tree, measured by the meter from `start` to `exit`, less
 * the runtime's start-up (the median of three trivial runs in the same jail, measured once per
 * grader process): a loaded machine or a slow interpreter start costs no case. A wall-clock
 * backstop ends a program that sleeps or waits.
 *
 * Weak mode (the instructor chose it: no bubblewrap) runs the same wrapper in a host folder;
 * then nothing hides the machine's files, and the wrapper does not kill "every process" (it
 * would be the whole machine's): the meter kills the tree instead.
 */
import { chmod, mkdir, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { realpathSync } from 'node:fs';
import { constants as osConstants, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { execa } from 'execa';
import { copySubmission } from './copy.ts';
import { jailCommand, type JailSpec } from './jail.ts';
import { createMeter, mechanisms, sandboxFor, type Mechanisms, type SandboxMode } from './mechanisms.ts';
import type { ResourceMeter } from './resource-meter.ts';
import { companionRuntimes, JAVA_OPTIONS_NOTICE, resolveRuntime, runtimeEnv, type Runtime } from './runtimes.ts';
import { OutputTail, OUTPUT_TAIL_BYTES } from './sandboxed-process.ts';

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

/** A private host copy of a submission's files (stageFiles), bound read-only into each run. */
export interface StagedFiles {
  dir: string;
  /** what the copy occupies on a tmpfs (whole pages) */
  bytes: number;
  /** the largest file of the copy */
  largestFileBytes: number;
  /** what copying noted (refused symlinks, …) */
  notes: string[];
  dispose(): Promise<void>;
}

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
}

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

/** Files listed back at most, and the bytes of a listed name kept. */
const LIST_ENTRIES = 100;
const LIST_NAME_BYTES = 256;
/** A tmpfs with less free space than this was filled by the program. */
const FULL_BELOW_BYTES = 64 * 1024;
const POLL_MS = 15;
/** Exit code 128 + SIGXFSZ: a file reached RLIMIT_FSIZE. */
const SIGXFSZ_CODE = 128 + osConstants.signals.SIGXFSZ;
/** What Python, C++, Java and C print when an allocation fails. */
const OUT_OF_MEMORY = /MemoryError|std::bad_alloc|OutOfMemoryError|Cannot allocate memory|out of memory/i;
const PLAIN_NAME = /^[A-Za-z0-9._-]+$/;

/**
 * The wrapper (POSIX sh, run as `sh -c WRAPPER sh SRC INPUTS WORK TMP KILLALL CAP OUTPUTS PROGRAM…`).
 * Its report on fd 3: `start`, `exit CODE`, `space WFREE WBLOCK WTOTAL TFREE TBLOCK TTOTAL`,
 * `list` then entries `SIZE NAME\0` ended by an empty entry, then per output `file NAME SIZE SENT`
 * and SENT bytes, `none NAME` or `special NAME`, then `end`; `setup copy` if the copy failed.
 */
const WRAPPER = `set -f
src=$1 inputs=$2 work=$3 tmp=$4 killall=$5 cap=$6 outputs=$7
shift 7
cd "$work" || exit 120
unset OLDPWD
if ! cp -R "$src/." . ; then printf 'setup copy\\n' >&3; exit 0; fi
for f in $outputs; do rm -rf -- "$f"; done
if ! cp -R "$inputs/." . ; then printf 'setup copy\\n' >&3; exit 0; fi
printf 'start\\n' >&3
"$@" </dev/null 3>&-
code=$?
printf 'exit %s\\n' "$code" >&3
if [ "$killall" = 1 ]; then
  n=0
  # dash's kill: -9, not -s KILL, before -1; it succeeds while zombies remain, so this also waits for them to be reaped.
  while [ $n -lt 100000 ] && kill -9 -1 2>/dev/null; do n=$((n+1)); done
fi
space() { stat -f -c '%a %S %b' "$1" 2>/dev/null || echo '0 0 0'; }
printf 'space %s %s\\n' "$(space .)" "$(space "$tmp")" >&3
printf 'list\\n' >&3
find . -xdev ! -type d -printf '%s %P\\0' 2>/dev/null | head -z -n ${LIST_ENTRIES} | cut -z -b 1-${LIST_NAME_BYTES} >&3
printf '\\0' >&3
for f in $outputs; do
  chmod u+r -- "$f" 2>/dev/null
  if [ -L "$f" ] || { [ -e "$f" ] && { [ ! -f "$f" ] || [ ! -r "$f" ]; }; }; then
    printf 'special %s\\n' "$f" >&3
  elif [ -f "$f" ]; then
    size=$(stat -c %s -- "$f") || size=0
    sent=$size
    [ "$size" -gt "$cap" ] && sent=$cap
    printf 'file %s %s %s\\n' "$f" "$size" "$sent" >&3
    head -c "$sent" -- "$f" >&3
  else
    printf 'none %s\\n' "$f" >&3
  fi
done
printf 'end\\n' >&3
`;

// ---- staging -----------------------------------------------------------------------------------

const PAGE = 4096;
const pages = (bytes: number) => Math.ceil(bytes / PAGE) * PAGE;

async function makeReadable(dir: string): Promise<{ bytes: number; largest: number }> {
  // The jail's user owns nothing on the host: the copy must be world-readable to be copied in.
  await chmod(dir, 0o755);
  let bytes = PAGE;
  let largest = 0;
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      const inner = await makeReadable(path);
      bytes += inner.bytes;
      largest = Math.max(largest, inner.largest);
    } else {
      const info = await stat(path);
      await chmod(path, info.mode & 0o111 ? 0o755 : 0o644);
      bytes += pages(info.size) || PAGE;
      largest = Math.max(largest, info.size);
    }
  }
  return { bytes, largest };
}

/** Copies a submission folder once (copy.ts's rules: no links out, capped) for any number of runs. */
export async function stageFiles(source: string): Promise<StagedFiles> {
  const root = await mkdtemp(join(tmpdir(), 'program-files-'));
  const dir = join(root, 'files');
  const notes: string[] = [];
  try {
    await chmod(root, 0o755);
    await copySubmission(realpathSync(source), dir, notes);
    const { bytes, largest } = await makeReadable(dir);
    return { dir, bytes, largestFileBytes: largest, notes, dispose: () => rm(root, { recursive: true, force: true }) };
  } catch (e) {
    await rm(root, { recursive: true, force: true });
    throw e;
  }
}

// ---- one execution -----------------------------------------------------------------------------

interface Plan {
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

interface Report {
  setupFailed: boolean;
  exitCode?: number;
  workFree?: number;
  workTotal?: number;
  tmpFree?: number;
  tmpTotal?: number;
  left: { name: string; bytes: number }[];
  files: Record<string, Buffer>;
  sizes: Record<string, number>;
  notFiles: string[];
  complete: boolean;
}

interface Execution {
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
  /** exit code of the jail's outermost process */
  jailExit: number | null;
}

/**
 * Parses fd 3's stream. Out of form means the wrapper was disturbed: killed by the program (same
 * user), or, where /proc lets the program open the wrapper's fd 3 (not when the grader is root:
 * the wrapper changed user, so it is not dumpable), written to.
 */
export function parseReport(data: Buffer): Report | { problem: string } {
  const report: Report = { setupFailed: false, left: [], files: {}, sizes: {}, notFiles: [], complete: false };
  let at = 0;
  const line = (): string | undefined => {
    const end = data.indexOf(0x0a, at);
    if (end < 0) return undefined;
    const text = data.subarray(at, end).toString('utf8');
    at = end + 1;
    return text;
  };
  const bad = (why: string) => ({ problem: why });
  const first = line();
  if (first === 'setup copy') return { ...report, setupFailed: true, complete: true };
  if (first !== 'start') return bad(`expected "start", got ${JSON.stringify(first ?? '')}`);
  const exit = line();
  if (exit === undefined) return report;
  const e = /^exit (\d+)$/.exec(exit);
  if (e === null) return bad(`expected "exit CODE", got ${JSON.stringify(exit)}`);
  report.exitCode = Number(e[1]);
  const space = line();
  if (space === undefined) return report;
  const s = /^space (\d+) (\d+) (\d+) (\d+) (\d+) (\d+)$/.exec(space);
  if (s === null) return bad(`expected "space …", got ${JSON.stringify(space)}`);
  const n = s.slice(1).map(Number);
  [report.workFree, report.workTotal, report.tmpFree, report.tmpTotal] = [n[0]! * n[1]!, n[2]! * n[1]!, n[3]! * n[4]!, n[5]! * n[4]!];
  if (line() !== 'list') return bad('expected "list"');
  for (;;) {
    const end = data.indexOf(0, at);
    if (end < 0) return bad('the file list does not end');
    const entry = data.subarray(at, end).toString('utf8');
    at = end + 1;
    if (entry === '') break;
    const m = /^(\d+) ([^]*)$/.exec(entry);
    if (m === null || report.left.length >= LIST_ENTRIES) return bad('a malformed file list');
    report.left.push({ name: m[2]!, bytes: Number(m[1]) });
  }
  for (;;) {
    const header = line();
    if (header === undefined) return bad('the report stops before "end"');
    if (header === 'end') break;
    const file = /^file (\S+) (\d+) (\d+)$/.exec(header);
    if (file !== null) {
      const sent = Number(file[3]);
      if (at + sent > data.length) return bad(`${file[1]} is cut short`);
      report.files[file[1]!] = Buffer.from(data.subarray(at, at + sent));
      report.sizes[file[1]!] = Number(file[2]);
      at += sent;
      continue;
    }
    const other = /^(none|special) (\S+)$/.exec(header);
    if (other === null) return bad(`expected a file's header, got ${JSON.stringify(header.slice(0, 80))}`);
    if (other[1] === 'special') report.notFiles.push(other[2]!);
  }
  if (at !== data.length) return bad('bytes after "end"');
  report.complete = true;
  return report;
}

function killTree(meter: ResourceMeter, pid: number | undefined): void {
  meter.killAll();
  try {
    // The chain up to bwrap is one process group (detached); bwrap's children die with it.
    if (pid !== undefined) process.kill(-pid, 'SIGKILL');
  } catch {
    // gone already
  }
}

async function execute(plan: Plan): Promise<Execution> {
  const run = await mkdtemp(join(tmpdir(), 'program-run-'));
  const meter = createMeter(plan.m, { memoryBytes: plan.memoryBytes, maxProcesses: plan.maxProcesses });
  try {
    await chmod(run, 0o755);
    const inputs = join(run, 'inputs');
    await mkdir(inputs, { mode: 0o755 });
    for (const [name, content] of Object.entries(plan.inputs)) await writeFile(join(inputs, name), content, { mode: 0o644 });
    const jailed = plan.mode === 'full' && plan.m.bwrap !== undefined;
    let work = '/sandbox';
    let tmp = '/tmp';
    if (!jailed) {
      work = join(run, 'work');
      tmp = join(run, 'tmp');
      await mkdir(work);
      await mkdir(tmp);
    }
    const path = [...new Set([...plan.runtime.pathDirs, ...plan.companions.flatMap((c) => c.pathDirs), '/usr/local/bin', '/usr/bin', '/bin'])];
    const readOnly = [...new Set([plan.files.dir, inputs, ...plan.runtime.readOnly, ...plan.companions.flatMap((c) => c.readOnly)])];
    // A file of the submission as large as the limit must still copy in.
    const fileSizeBytes = Math.max(plan.fileBytes, plan.files.largestFileBytes + 1);
    const spec: JailSpec = {
      argv: ['/bin/sh', '-c', WRAPPER, 'sh', plan.files.dir, inputs, work, tmp, jailed ? '1' : '0', String(plan.fileBytes), plan.outputs.join(' '), ...plan.argv],
      cwd: work,
      env: { PATH: path.join(':'), HOME: work, LANG: 'C.UTF-8', TMPDIR: tmp, ...runtimeEnv(plan.memoryBytes) },
      readOnly,
      writable: [
        { path: work, sizeBytes: plan.files.bytes + plan.workBytes },
        { path: tmp, sizeBytes: plan.tmpBytes },
      ],
      fileSizeBytes,
    };
    const command = jailCommand(plan.m, plan.mode, meter, spec);
    return await watch(plan, meter, command, spec.env);
  } finally {
    await meter.dispose();
    await rm(run, { recursive: true, force: true });
  }
}

async function watch(plan: Plan, meter: ResourceMeter, command: { file: string; args: string[]; cwd: string }, env: Record<string, string>): Promise<Execution> {
  const begin = performance.now();
  const child = execa(command.file, command.args, {
    cwd: command.cwd,
    extendEnv: false,
    env,
    stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
    detached: true,
    buffer: false,
    reject: false,
    cleanup: false,
  });
  // Without a pid nothing started (the close below says why); a polling meter must not watch pid 0.
  if (child.pid !== undefined) meter.attach(child.pid);
  const x: Execution = {
    started: false,
    stdout: new OutputTail(OUTPUT_TAIL_BYTES),
    stderr: new OutputTail(OUTPUT_TAIL_BYTES),
    sawOutOfMemory: false,
    measuredCpuMs: 0,
    wallMs: 0,
    peakMemoryBytes: 0,
    overMemory: false,
    jailExit: null,
  };
  const stop = (why: NonNullable<Execution['stoppedFor']>) => {
    x.stoppedFor ??= why;
    killTree(meter, child.pid);
  };
  const onOutput = (tail: OutputTail) => (chunk: Buffer) => {
    tail.push(chunk);
    if (x.stdout.total + x.stderr.total > plan.outputBytes) stop('output');
  };
  child.stdout?.on('data', onOutput(x.stdout));
  let overlap = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    onOutput(x.stderr)(chunk);
    // Scanned as it streams: a long stack dump could push the marker out of the tail.
    const text = overlap + chunk.toString('latin1');
    if (OUT_OF_MEMORY.test(text)) x.sawOutOfMemory = true;
    overlap = text.slice(-64);
  });

  // fd 3: an honest report is at most this long; more can only be the program writing into it.
  const reportCap = plan.outputs.length * (plan.fileBytes + 512) + LIST_ENTRIES * (LIST_NAME_BYTES + 2) + 4096;
  const chunks: Buffer[] = [];
  let received = 0;
  /** the stream's first bytes, where the start and exit markers are */
  let head = '';
  let cpuAtStart: number | undefined;
  let cpuAtExit: number | undefined;
  const channel = child.stdio[3] as NodeJS.ReadableStream | undefined;
  channel?.on('error', () => {});
  channel?.on('data', (chunk: Buffer) => {
    received += chunk.length;
    if (received > reportCap) return stop('report');
    chunks.push(chunk);
    if (cpuAtExit !== undefined) return;
    if (head.length < 32) head += chunk.subarray(0, 32).toString('latin1');
    if (cpuAtStart === undefined && head.startsWith('start\n')) cpuAtStart = meter.cpuMs();
    if (cpuAtStart !== undefined && /^start\nexit \d+\n/.test(head)) cpuAtExit = meter.cpuMs();
  });

  // Once the wrapper is done, whatever is left (in the weak mode, a background child holding
  // stdout) goes, so that the streams close.
  child.on('exit', () => killTree(meter, child.pid));
  const poll = setInterval(() => {
    if (cpuAtStart === undefined || cpuAtExit !== undefined) return;
    if (meter.cpuMs() - cpuAtStart - plan.startupCpuMs > plan.cpuMs) stop('cpu');
  }, POLL_MS);
  const backstop = setTimeout(() => stop('wall'), plan.wallMs);
  let result;
  try {
    result = await child;
  } finally {
    clearInterval(poll);
    clearTimeout(backstop);
  }
  const end = meter.cpuMs();
  x.wallMs = performance.now() - begin;
  x.started = cpuAtStart !== undefined;
  x.measuredCpuMs = cpuAtStart === undefined ? 0 : (cpuAtExit ?? end) - cpuAtStart;
  x.peakMemoryBytes = meter.peakMemoryBytes();
  x.overMemory = meter.overMemory();
  x.jailExit = result.exitCode ?? null;
  if (x.stoppedFor === undefined) {
    const parsed = parseReport(Buffer.concat(chunks));
    if ('problem' in parsed) x.malformed = parsed.problem;
    else x.report = parsed;
  }
  return x;
}

// ---- start-up ----------------------------------------------------------------------------------

export interface Startup {
  /** the runtime's word, e.g. python3 */
  runtime: string;
  mode: SandboxMode;
  /** median CPU ms of a trivial run (from start to exit), not charged to cases */
  cpuMs: number;
  /** median wall ms of a whole trivial run (jail start, wrapper and report included) */
  wallMs: number;
}

const startups = new Map<string, Promise<Startup>>();

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** An empty submission's staged copy for the duration of `use`. */
async function withEmptyFiles<T>(use: (files: StagedFiles) => Promise<T>): Promise<T> {
  const root = await mkdtemp(join(tmpdir(), 'program-empty-'));
  try {
    const files = await stageFiles(root);
    try {
      return await use(files);
    } finally {
      await files.dispose();
    }
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

async function measureStartup(base: Omit<Plan, 'files' | 'inputs' | 'outputs' | 'argv' | 'startupCpuMs'>): Promise<Startup> {
  const argv = base.runtime.startupArgs ?? [];
  return withEmptyFiles(async (files) => {
    const cpu: number[] = [];
    const wall: number[] = [];
    for (let i = 0; i < 3; i++) {
      const x = await execute({ ...base, files, inputs: {}, outputs: [], argv, startupCpuMs: 0, cpuMs: 30_000, wallMs: 60_000 });
      // A runtime that cannot start here starts at no cost: the program's own run will say why.
      cpu.push(x.report?.exitCode === 0 ? x.measuredCpuMs : 0);
      wall.push(x.wallMs);
    }
    return { runtime: base.runtime.word, mode: base.mode, cpuMs: median(cpu), wallMs: median(wall) };
  });
}

/**
 * What a run costs beyond the program itself (jail start, wrapper, copy and read-back): the
 * median wall-clock ms of `n` runs of /bin/true with one input and two outputs, for `mancala bench`.
 */
export async function measureProgramOverhead(n: number, mode: SandboxMode): Promise<{ mode: SandboxMode; msPerRun: number }> {
  const root = await mkdtemp(join(tmpdir(), 'program-bench-'));
  try {
    await writeFile(join(root, 'program.txt'), 'a file to copy in');
    const files = await stageFiles(root);
    try {
      const walls: number[] = [];
      for (let i = 0; i < n; i++) {
        const r = await runInSandbox({ files, argv: ['/bin/true'], inputs: { 'input.txt': 'x' }, outputs: ['next_state.txt', 'traverse_log.txt'], limits: { cpuMs: 1000, memoryBytes: 256 * MB }, mode });
        if (r.status !== 'ok') throw new Error(`internal: the overhead benchmark's run failed: ${r.message}`);
        walls.push(r.wallMs);
      }
      return { mode, msPerRun: median(walls) };
    } finally {
      await files.dispose();
    }
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

/** The start-ups measured so far in this grader process, for a report. */
export async function measuredStartups(): Promise<Startup[]> {
  return Promise.all([...startups.values()]);
}

// ---- the verdict -------------------------------------------------------------------------------

const asMb = (bytes: number) => `${Math.round((bytes / MB) * 10) / 10} MB`;

function signalName(code: number): string | undefined {
  const signo = code - 128;
  return Object.entries(osConstants.signals).find(([, n]) => n === signo)?.[0];
}

/** The last lines of stderr, for a message; the JVM's notice about its options left out. */
function lastWords(stderr: string, count = 5): string {
  const lines = stderr.replace(JAVA_OPTIONS_NOTICE, '').trim().split('\n').filter((l) => l.trim() !== '');
  return lines.length === 0 ? '' : `; its last words on stderr:\n${lines.slice(-count).join('\n')}`;
}

function judge(plan: Plan, x: Execution): Omit<ProgramResult, 'startupMs'> {
  const charged = Math.max(0, Math.round(x.measuredCpuMs - plan.startupCpuMs));
  const exitCode = x.report?.exitCode;
  const signal = exitCode !== undefined && exitCode > 128 ? (signalName(exitCode) ?? null) : null;
  const base = {
    cpuMs: charged,
    wallMs: Math.round(x.wallMs),
    peakMemoryBytes: x.peakMemoryBytes,
    exitCode: exitCode === undefined || signal !== null ? null : exitCode,
    signal,
    stdout: x.stdout.text(),
    stderr: x.stderr.text(),
    files: x.report?.files ?? {},
    notFiles: x.report?.notFiles ?? [],
    left: (x.report?.left ?? []).map(({ name, bytes }) => ({ name, bytes })),
  };
  const said = lastWords(base.stderr);
  const verdict = (status: ProgramStatus, message: string) => ({ ...base, status, message });
  const memoryLimit = `the limit is ${asMb(plan.memoryBytes)}`;

  if (x.stoppedFor === 'output') {
    return verdict('output-limit', `the program wrote more than ${asMb(plan.outputBytes)} to stdout and stderr (${asMb(x.stdout.total + x.stderr.total)} by then) and was stopped: write answers to the files, not the screen`);
  }
  // The kernel's kill leaves no words worth showing (the shell's "Killed").
  if (x.overMemory) return verdict('memory', `the program ran out of memory (${memoryLimit}; it held ${asMb(x.peakMemoryBytes)}) and was killed`);
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
    throw new Error(`internal: the sandbox did not start (exit code ${x.jailExit ?? 'none'}): ${x.stderr.text().trim().slice(-400)}`);
  }
  if (x.report === undefined || !x.report.complete) {
    return verdict('error', `the program stopped the sandbox before it could report (${x.malformed ?? 'no report'}): nothing was read back`);
  }
  const r = x.report;
  const outOfMemoryText = exitCode !== 0 && x.sawOutOfMemory;
  if (outOfMemoryText) return verdict('memory', `the program ran out of memory (${memoryLimit}; it held ${asMb(x.peakMemoryBytes)})${said}`);
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
    return verdict('error', `the program ${how}${said}`);
  }
  return verdict('ok', '');
}

// ---- the entry point ---------------------------------------------------------------------------

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
  const mode = request.mode ?? 'full';
  const m = mode === 'full' ? await sandboxFor('full') : await mechanisms();
  for (const name of [...Object.keys(request.inputs), ...request.outputs]) {
    if (!PLAIN_NAME.test(name)) throw new Error(`internal: ${JSON.stringify(name)} is not a plain file name`);
  }
  const [word, ...rest] = request.argv;
  if (word === undefined) return notRun('the command is empty');
  const runtime = await resolveRuntime(word);
  if ('problem' in runtime) return notRun(`cannot run the command: ${runtime.problem}`);
  const limits = request.limits;
  const base = {
    m,
    mode,
    runtime,
    companions: await companionRuntimes(),
    cpuMs: limits.cpuMs,
    memoryBytes: limits.memoryBytes,
    maxProcesses: limits.maxProcesses ?? DEFAULT_MAX_PROCESSES,
    fileBytes: limits.fileBytes ?? DEFAULT_FILE_BYTES,
    workBytes: limits.workBytes ?? DEFAULT_WORK_BYTES,
    tmpBytes: limits.tmpBytes ?? DEFAULT_TMP_BYTES,
    outputBytes: limits.outputBytes ?? DEFAULT_OUTPUT_BYTES,
    wallMs: 0,
  };
  // A native program starts at the cost of an exec: nothing to measure or to leave out.
  let startup: Promise<Startup> | undefined = Promise.resolve({ runtime: word, mode, cpuMs: 0, wallMs: 0 });
  if (runtime.startupArgs !== undefined) {
    const key = `${runtime.executable}\0${mode}\0${limits.memoryBytes}`;
    startup = startups.get(key);
    if (startup === undefined) {
      startup = measureStartup(base);
      startups.set(key, startup);
    }
  }
  const s = await startup;
  const plan: Plan = {
    ...base,
    files: request.files,
    inputs: request.inputs,
    outputs: request.outputs,
    argv: [runtime.executable, ...rest],
    startupCpuMs: s.cpuMs,
    wallMs: limits.wallMs ?? 3 * limits.cpuMs + s.wallMs + 3000,
  };
  const x = await execute(plan);
  return { ...judge(plan, x), startupMs: Math.round(s.cpuMs) };
}
