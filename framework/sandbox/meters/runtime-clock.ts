/**
 * A fair clock (`RuntimeClockMeter`): a move's time is still the CPU time of the submission's
 * process tree, read from outside, less what the JVM spends on itself there — its JIT compilers and
 * its collector. On cgroup v1 and in /proc alike the tree's CPU time counts every thread, so a Java
 * program paid for HotSpot compiling its code (a CS540 player, started afresh each move by its
 * bridge, paid it every move: 50–100 ms of C2 and 10–40 ms of C1 a move, measured) while a C++
 * or Python program pays nothing of the kind.
 *
 * Which threads are the runtime's, and why a submission cannot pass its own work off as theirs:
 *  - only in a process whose executable is the grader's own JVM binary (the same file, by device
 *    and inode, of /proc/PID/exe): a C++ or Python program's threads are never left out, whatever
 *    they are called;
 *  - in that process, per name HotSpot gives its own threads (C1/C2 CompilerThread, VM Thread,
 *    where the serial collector runs, GC Thread#, G1 …), only the thread of that name that started
 *    first (start time, then thread id). The JVM starts these during its own start-up, before it
 *    loads a class of the submission; a thread the submission names "C2 CompilerThread0" (Java
 *    sets the OS name from Thread's name) starts later and is charged;
 *  - what is left out of one request is capped (exemptCapMs: half its CPU limit, at least 250 ms): whatever a
 *    submission might do inside the JVM's own threads (native code, a signal handler run on a
 *    compiler thread) buys it at most that.
 * Readings: utime + stime of /proc/PID/task/TID/stat (10 ms ticks), the exempt threads' only once
 * found; a thread that is gone keeps its last reading.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import type { ResourceMeter } from './resource-meter.ts';

/**
 * The most of the JVM's own work left out of one request: half its CPU limit, and at least 250 ms
 * (what compiling a search costs is work, not a share of the time: 60-200 ms on a cold JVM's first
 * moves, measured on the fair-clock fixtures).
 */
export function exemptCapMs(cpuLimitMs: number): number {
  return Math.max(250, 0.5 * cpuLimitMs);
}

/**
 * HotSpot's names (as /proc shows them: 15 bytes) of the threads whose work is the runtime's: the
 * JIT compilers, the VM thread (the serial collector's safepoints), the parallel and G1 collectors'.
 */
const JVM_OWN = /^(C[12] CompilerThre|VM Thread|GC Thread#\d+|G1 .*)$/;

const CLOCK_TICKS_PER_SECOND = 100;

interface Task {
  tid: number;
  name: string;
  startTicks: number;
  cpuTicks: number;
}

function readTask(pid: number, tid: number): Task | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
    const name = text.slice(text.indexOf('(') + 1, text.lastIndexOf(')'));
    // Fields after the name, numbered as proc(5) numbers them: 14 utime, 15 stime, 22 starttime.
    const f = text.slice(text.lastIndexOf(')') + 2).split(' ');
    const n = (i: number) => Number(f[i - 3]);
    return { tid, name, startTicks: n(22), cpuTicks: n(14) + n(15) };
  } catch {
    return undefined;
  }
}

function tasksOf(pid: number): Task[] {
  let tids: string[];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return [];
  }
  return tids.map((t) => readTask(pid, Number(t))).filter((t): t is Task => t !== undefined);
}

/** The file behind `path`, by device and inode; undefined when it cannot be read. */
function fileId(path: string): string | undefined {
  try {
    const s = statSync(path);
    return `${s.dev}:${s.ino}`;
  } catch {
    return undefined;
  }
}

/**
 * The JVM's own threads of one JVM process, as `tasks` show them: per name, the one that started
 * first. Already chosen threads stay chosen (`chosen`, name → tid); a name is chosen once.
 */
export function ownThreads(tasks: readonly Task[], chosen: Map<string, number>): Map<string, number> {
  const byName = new Map<string, Task>();
  for (const t of tasks) {
    if (!JVM_OWN.test(t.name) || chosen.has(t.name)) continue;
    const seen = byName.get(t.name);
    if (seen === undefined || t.startTicks < seen.startTicks || (t.startTicks === seen.startTicks && t.tid < seen.tid)) byName.set(t.name, t);
  }
  for (const [name, t] of byName) chosen.set(name, t.tid);
  return chosen;
}

/** A meter whose CPU time leaves out the JVM's own threads (see the module comment); all else is the wrapped meter's. */
export class RuntimeClockMeter implements ResourceMeter {
  /** the grader's JVM binaries, by device and inode */
  private readonly jvms: Set<string>;
  /** JVM pid → (name → the exempt thread's tid) */
  private readonly chosen = new Map<number, Map<string, number>>();
  /** `${pid}/${tid}` → the highest CPU ticks read */
  private readonly ticks = new Map<string, number>();
  /** the JVM's own ms when the request in progress began: all of it is left out (outside requests nothing is charged) */
  private requestStart = 0;
  private cap = Infinity;

  constructor(
    private readonly inner: ResourceMeter,
    jvmBinaries: readonly string[],
  ) {
    this.jvms = new Set(jvmBinaries.map(fileId).filter((id): id is string => id !== undefined));
  }

  get precise() {
    return this.inner.precise;
  }

  get kernelLimited() {
    return this.inner.kernelLimited;
  }

  get memoryLimitBytes() {
    return this.inner.memoryLimitBytes;
  }

  prefix(): string[] {
    return this.inner.prefix();
  }

  attach(pid: number): void {
    this.inner.attach(pid);
  }

  beginRequest(cpuLimitMs: number): void {
    this.census();
    // What came before is charged to no move (a start-up, the time between requests): left out whole.
    this.requestStart = this.exemptMs();
    this.cap = exemptCapMs(cpuLimitMs);
    this.inner.beginRequest?.(cpuLimitMs);
  }

  /** CPU ms of the JVM's own threads in the tree so far, uncapped. */
  exemptMs(): number {
    let ticks = 0;
    for (const [pid, names] of this.chosen) {
      for (const tid of names.values()) {
        const key = `${pid}/${tid}`;
        const now = readTask(pid, tid)?.cpuTicks ?? 0;
        const best = Math.max(now, this.ticks.get(key) ?? 0);
        this.ticks.set(key, best);
        ticks += best;
      }
    }
    return (ticks * 1000) / CLOCK_TICKS_PER_SECOND;
  }

  /** The tree's CPU time less the JVM's own work: all of it before this request, this request's up to its cap. */
  cpuMs(): number {
    if (this.jvms.size === 0) return this.inner.cpuMs();
    const total = this.inner.cpuMs();
    const during = Math.min(this.cap, Math.max(0, this.exemptMs() - this.requestStart));
    return Math.max(0, total - this.requestStart - during);
  }

  /** Finds the JVMs of the tree and their own threads (a JVM still starting gets the rest at the next census). */
  private census(): void {
    if (this.jvms.size === 0) return;
    for (const pid of this.inner.processIds()) {
      // Looked at every census: a launcher's shell becomes the JVM when it execs it.
      const id = fileId(`/proc/${pid}/exe`);
      if (id === undefined || !this.jvms.has(id)) continue;
      this.chosen.set(pid, ownThreads(tasksOf(pid), this.chosen.get(pid) ?? new Map()));
    }
  }

  peakMemoryBytes(): number {
    return this.inner.peakMemoryBytes();
  }

  memoryBytes(): number {
    return this.inner.memoryBytes();
  }

  processCount(): number {
    return this.inner.processCount();
  }

  processIds(): number[] {
    return this.inner.processIds();
  }

  overMemory(): boolean {
    return this.inner.overMemory();
  }

  reachedMemoryLimit(): boolean {
    return this.inner.reachedMemoryLimit();
  }

  killAll(): void {
    this.inner.killAll();
  }

  dispose(): Promise<void> {
    return this.inner.dispose();
  }
}
