/**
 * What a submission's process tree uses — CPU time and memory — measured from outside it, and
 * its memory limit enforced from outside it. Nothing inside the submission's processes takes part:
 * a student can replace every clock and counter of their own process and it changes nothing here.
 *
 * Two ways, chosen by what the machine allows (jail/mechanisms.ts):
 *  - cgroup v1 (`CgroupMeter`): a fresh group in the memory, cpuacct and pids controllers for each
 *    process tree. The kernel counts the CPU time of every process that ever ran in it (threads,
 *    children, GC and JIT threads alike), keeps the peak of its resident memory (page cache and
 *    tmpfs pages included), kills it when it goes over the memory limit (and counts that kill),
 *    and refuses forks past the pid limit. The process joins the group before it execs anything:
 *    `prefix()` is a two-line shell that writes its own pid into cgroup.procs, then `exec`s.
 *  - polling (`PollingMeter`), where cgroups cannot be made: every POLL_MS the tree under the
 *    process (found through /proc's parent links) is read: utime+stime (with reaped children's
 *    cutime+cstime) and the sum of resident set sizes; over the limit, the tree is killed here.
 *    Coarser (10 ms CPU ticks, a process living less than a poll can slip by) and said so at start.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { THREAD_TAG } from '../../thread-tag.ts';

export interface MeterLimits {
  /** resident memory of the whole tree, bytes */
  memoryBytes: number;
  /** processes (and threads) at once; a fork bomb stops here */
  maxProcesses: number;
}

export interface ResourceMeter {
  /** words to put before the command so that it runs inside the meter (empty when polling) */
  prefix(): string[];
  /** the tree's root process was started: polling meters begin watching it */
  attach(pid: number): void;
  /** CPU time (user + system) of everything that ran in the tree so far, ms */
  cpuMs(): number;
  /** the most resident memory the tree has held, bytes */
  peakMemoryBytes(): number;
  /** the resident memory the tree holds now, bytes */
  memoryBytes(): number;
  /** the processes in the tree now */
  processCount(): number;
  /** the tree's memory limit, bytes */
  readonly memoryLimitBytes: number;
  /**
   * its readings are current and fine enough to project a trend from (cgroups, /proc); false for
   * the coarse meters of other machines (portable-meters.ts: ps every 0.1 s, the wall clock)
   */
  readonly precise: boolean;
  /**
   * the kernel holds the tree to its memory limit (a cgroup); false: the limit is the meter's
   * poll, and the jail adds a per-process backstop (memory-backstop.ts)
   */
  readonly kernelLimited: boolean;
  /** true once the tree was stopped for going over its memory limit */
  overMemory(): boolean;
  /**
   * true once the tree's memory reached its limit, stopped for it or not yet: the kernel then
   * reclaims and retries before it kills, and on a busy machine a CPU-time limit could end the
   * request first. A request that ends so is judged by its memory, not by that race.
   */
  reachedMemoryLimit(): boolean;
  /** SIGKILL for every process of the tree */
  killAll(): void;
  /** kills what is left, stops watching, removes the group */
  dispose(): Promise<void>;
}

export interface CgroupRoots {
  memory: string;
  cpuacct: string;
  /** the pids controller, when there is one */
  pids?: string;
}

const POLL_MS = 20;
const CLOCK_TICKS_PER_SECOND = 100;

let counter = 0;

function readNumber(file: string): number {
  try {
    return Number(readFileSync(file, 'utf8').trim()) || 0;
  } catch {
    return 0;
  }
}

function killPids(pids: Iterable<number>): void {
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone already
    }
  }
}

function pidsIn(group: string): number[] {
  try {
    return readFileSync(join(group, 'cgroup.procs'), 'utf8')
      .split('\n')
      .filter((l) => l !== '')
      .map(Number);
  } catch {
    return [];
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export class CgroupMeter implements ResourceMeter {
  readonly precise = true;
  readonly kernelLimited = true;
  private readonly memory: string;
  private readonly cpu: string;
  private readonly pids: string | undefined;
  private disposed = false;
  readonly memoryLimitBytes: number;

  constructor(roots: CgroupRoots, limits: MeterLimits) {
    this.memoryLimitBytes = limits.memoryBytes;
    const name = `mancala-${THREAD_TAG}-${++counter}`;
    this.memory = join(roots.memory, name);
    this.cpu = join(roots.cpuacct, name);
    this.pids = roots.pids === undefined ? undefined : join(roots.pids, name);
    for (const dir of [this.memory, this.cpu, this.pids]) if (dir !== undefined) mkdirSync(dir);
    writeFileSync(join(this.memory, 'memory.limit_in_bytes'), String(limits.memoryBytes));
    // No swap to hide in: where memsw exists, it gets the same limit.
    if (existsSync(join(this.memory, 'memory.memsw.limit_in_bytes'))) {
      try {
        writeFileSync(join(this.memory, 'memory.memsw.limit_in_bytes'), String(limits.memoryBytes));
      } catch {
        // swap accounting off: nothing to cap
      }
    }
    if (this.pids !== undefined) writeFileSync(join(this.pids, 'pids.max'), String(limits.maxProcesses));
  }

  prefix(): string[] {
    const files = [this.memory, this.cpu, this.pids].filter((d): d is string => d !== undefined).map((d) => join(d, 'cgroup.procs'));
    // $$ is the shell itself, which then becomes the command (exec): everything it starts inherits the groups.
    const script = `${files.map((f) => `echo $$ > '${f}' || exit 126`).join('; ')}; exec "$@"`;
    return ['/bin/sh', '-c', script, 'sh'];
  }

  attach(): void {}

  cpuMs(): number {
    return readNumber(join(this.cpu, 'cpuacct.usage')) / 1e6;
  }

  peakMemoryBytes(): number {
    return readNumber(join(this.memory, 'memory.max_usage_in_bytes'));
  }

  memoryBytes(): number {
    return readNumber(join(this.memory, 'memory.usage_in_bytes'));
  }

  processCount(): number {
    return pidsIn(this.memory).length;
  }

  reachedMemoryLimit(): boolean {
    // failcnt: how many times a charge hit the limit.
    return readNumber(join(this.memory, 'memory.failcnt')) > 0 || this.overMemory();
  }

  overMemory(): boolean {
    try {
      const m = /oom_kill (\d+)/.exec(readFileSync(join(this.memory, 'memory.oom_control'), 'utf8'));
      if (m !== null) return Number(m[1]) > 0;
    } catch {
      // fall through
    }
    return readNumber(join(this.memory, 'memory.failcnt')) > 0 && this.peakMemoryBytes() >= readNumber(join(this.memory, 'memory.limit_in_bytes')) * 0.98;
  }

  killAll(): void {
    killPids(pidsIn(this.memory));
  }

  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    for (let i = 0; i < 100; i++) {
      const left = pidsIn(this.memory);
      if (left.length === 0) break;
      killPids(left);
      await sleep(10);
    }
    for (const dir of [this.memory, this.cpu, this.pids]) {
      if (dir === undefined) continue;
      for (let i = 0; i < 50; i++) {
        try {
          rmdirSync(dir);
          break;
        } catch (e) {
          // EBUSY while the last process is being reaped
          if ((e as NodeJS.ErrnoException).code === 'ENOENT') break;
          await sleep(10);
        }
      }
    }
  }
}

interface ProcStat {
  pid: number;
  ppid: number;
  /** utime + stime + cutime + cstime, ticks */
  ticks: number;
  rssBytes: number;
}

const PAGE_BYTES = 4096;

function readStat(pid: number): ProcStat | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name is in parentheses and may hold spaces: fields start after the last ')'.
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    const n = (i: number) => Number(fields[i - 3]);
    return { pid, ppid: n(4), ticks: n(14) + n(15) + n(16) + n(17), rssBytes: n(24) * PAGE_BYTES };
  } catch {
    return undefined;
  }
}

/** The process and all its descendants, as /proc shows them now. */
function tree(root: number): ProcStat[] {
  const all = new Map<number, ProcStat>();
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid)) continue;
    const s = readStat(pid);
    if (s === undefined) continue;
    all.set(pid, s);
    const list = children.get(s.ppid) ?? [];
    list.push(pid);
    children.set(s.ppid, list);
  }
  const out: ProcStat[] = [];
  const unvisited = [root];
  while (unvisited.length > 0) {
    const pid = unvisited.pop()!;
    const s = all.get(pid);
    if (s === undefined) continue;
    out.push(s);
    unvisited.push(...(children.get(pid) ?? []));
  }
  return out;
}

export class PollingMeter implements ResourceMeter {
  readonly precise = true;
  readonly kernelLimited = false;
  private root: number | undefined;
  private timer: NodeJS.Timeout | undefined;
  /** the highest CPU total seen (a reaped child's ticks move into its parent's cutime/cstime) */
  private cpuTicks = 0;
  private peak = 0;
  private latest = 0;
  private processes = 0;
  private over = false;
  readonly memoryLimitBytes: number;

  constructor(private readonly limits: MeterLimits) {
    this.memoryLimitBytes = limits.memoryBytes;
  }

  prefix(): string[] {
    return [];
  }

  attach(pid: number): void {
    this.root = pid;
    this.sample();
    this.timer = setInterval(() => this.sample(), POLL_MS);
    this.timer.unref();
  }

  private sample(): void {
    if (this.root === undefined) return;
    const procs = tree(this.root);
    let ticks = 0;
    let rss = 0;
    for (const p of procs) {
      ticks += p.ticks;
      rss += p.rssBytes;
    }
    this.cpuTicks = Math.max(this.cpuTicks, ticks);
    this.peak = Math.max(this.peak, rss);
    this.latest = rss;
    this.processes = procs.length;
    if (rss > this.limits.memoryBytes) {
      this.over = true;
      killPids(procs.map((p) => p.pid));
    }
  }

  cpuMs(): number {
    this.sample();
    return (this.cpuTicks * 1000) / CLOCK_TICKS_PER_SECOND;
  }

  peakMemoryBytes(): number {
    return this.peak;
  }

  memoryBytes(): number {
    this.sample();
    return this.latest;
  }

  processCount(): number {
    return this.processes;
  }

  overMemory(): boolean {
    return this.over;
  }

  reachedMemoryLimit(): boolean {
    return this.over;
  }

  killAll(): void {
    if (this.root !== undefined) killPids(tree(this.root).map((p) => p.pid));
  }

  async dispose(): Promise<void> {
    if (this.timer !== undefined) clearInterval(this.timer);
    this.killAll();
  }
}

/** What a meter read at one moment. */
export interface MeterReading {
  memoryBytes: number;
  cpuMs: number;
  processes: number;
}

export function readMeter(meter: ResourceMeter): MeterReading {
  return { memoryBytes: meter.memoryBytes(), cpuMs: meter.cpuMs(), processes: meter.processCount() };
}

/**
 * How much more CPU time, in time limits, a tree stopped by its time limit is imagined to run on
 * when its memory is projected: a program that allocates without end gets there in far less.
 */
export const MEMORY_PROJECTION_LIMITS = 4;

/**
 * How fast a tree has been allocating lately, to tell, when a time limit stops it, whether it was
 * on its way over its memory limit. Why: allocating is slow work itself (every new page is a
 * fault, dearer on a loaded or virtual machine), so a program that allocates without end can meet
 * its time limit first; its student must hear about the memory, whatever the machine's speed.
 * Only the recent rate counts (the last one to two quarters of the limit), so the memory a
 * runtime takes as it starts (a JVM's heap) does not make a slow program look like a leak, and
 * only over a quarter of the limit's CPU time at least, so a waiting one's few MB do not either.
 */
export class AllocationTrend {
  private older: MeterReading;
  private newer: MeterReading;
  private readonly windowCpuMs: number;

  constructor(
    private readonly meter: ResourceMeter,
    private readonly limitCpuMs: number,
  ) {
    this.windowCpuMs = limitCpuMs / 4;
    this.older = this.newer = readMeter(meter);
  }

  /** Called as the CPU time is polled; reads the memory only once a window has passed. */
  note(cpuMs: number): void {
    if (cpuMs - this.newer.cpuMs < this.windowCpuMs) return;
    this.older = this.newer;
    this.newer = { cpuMs, memoryBytes: this.meter.memoryBytes(), processes: this.meter.processCount() };
  }

  /** Read before the tree is killed: it reached its memory limit, or was allocating fast enough to reach it soon. */
  headingOverMemory(): boolean {
    if (this.meter.reachedMemoryLimit()) return true;
    // A stale reading (ps's, taken up to 0.1 s before) can show a start-up's growth as a leak.
    if (!this.meter.precise) return false;
    const now = readMeter(this.meter);
    // A tree that was waiting (stopped by the wall-clock backstop) has no rate worth projecting:
    // a few MB over a few ms of CPU time would look like a flood.
    if (now.cpuMs - this.older.cpuMs < this.windowCpuMs) return false;
    return memoryProjectionExceeds({
      since: this.older,
      now,
      limitBytes: this.meter.memoryLimitBytes,
      horizonCpuMs: MEMORY_PROJECTION_LIMITS * this.limitCpuMs,
    });
  }
}

/**
 * The projection on plain numbers: memory now, plus its growth rate since `since` times the
 * horizon, reaches the limit. Memory that grew with the number of processes is not projected:
 * the process limit bounds it (a fork bomb is held there, and stopped for time).
 */
export function memoryProjectionExceeds(p: { since: MeterReading; now: MeterReading; limitBytes: number; horizonCpuMs: number }): boolean {
  if (p.now.processes > p.since.processes) return false;
  const grown = p.now.memoryBytes - p.since.memoryBytes;
  const spent = p.now.cpuMs - p.since.cpuMs;
  if (grown <= 0 || spent <= 0) return false;
  return p.now.memoryBytes + (grown / spent) * p.horizonCpuMs >= p.limitBytes;
}
