/**
 * Meters for machines without Linux's /proc: a student's own macOS or Windows laptop, where a
 * student kit (framework/kit) checks their own code without the OS sandbox. The instructors'
 * grading runs on Linux with cgroups or /proc (cgroup-meter.ts, polling-meter.ts); these exist so the kit's
 * `npm run check` runs at all there, with coarser figures, said so at the start of the run.
 *
 *  - `PsMeter` (macOS, and Linux when forced, which is how it is tested): every PS_POLL_MS the
 *    tree under the root (pidtree: `ps -A -o ppid,pid`) and each process's CPU time and resident
 *    memory (pidusage: `ps -o …,time,rss`) are read in the background; the meter answers from
 *    the latest reading. ps gives TIME in centiseconds on macOS but in whole seconds (truncated)
 *    on Linux, so the forced Linux path counts in seconds. A child that exits between two readings takes its CPU time with it
 *    (ps does not add it to its parent), so the total is a lower bound; the time limit's
 *    wall-clock backstop still stops a program that hides in short-lived children.
 *  - `WallClockMeter` (Windows): no CPU time or memory without native tools; the time since the
 *    tree started stands in for its CPU time, and no memory is measured.
 * Both are `precise: false`: a tree stopped for time is judged `memory` only when it was over its
 * limit, never on a projected trend (allocation-trend.ts), which stale readings fool.
 */
import { spawnSync } from 'node:child_process';
import pidtree from 'pidtree';
import pidusage from 'pidusage';
import { killPids, type MeterLimits, type ResourceMeter } from './resource-meter.ts';

/** ps is a process start each time: a few ms of the grader's CPU; ten readings a second is plenty for a student's check. */
const PS_POLL_MS = 100;

export interface PsMeterOptions {
  /** read through ps even where /proc exists (Linux): how the ps path is tested */
  forcePs?: boolean;
}

export class PsMeter implements ResourceMeter {
  readonly precise = false;
  readonly kernelLimited = false;
  private root: number | undefined;
  private timer: NodeJS.Timeout | undefined;
  private reading: Promise<void> | undefined;
  private alive: number[] = [];
  private cpu = 0;
  private peak = 0;
  private latest = 0;
  private over = false;
  private disposed = false;
  readonly memoryLimitBytes: number;

  constructor(
    private readonly limits: MeterLimits,
    private readonly options: PsMeterOptions = {},
  ) {
    this.memoryLimitBytes = limits.memoryBytes;
  }

  prefix(): string[] {
    return [];
  }

  attach(pid: number): void {
    this.root = pid;
    this.alive = [pid];
    this.poll();
    this.timer = setInterval(() => this.poll(), PS_POLL_MS);
    this.timer.unref();
  }

  /** The next reading, unless one is still running. */
  private poll(): void {
    this.reading ??= this.read().finally(() => {
      this.reading = undefined;
    });
  }

  private async read(): Promise<void> {
    const root = this.root;
    if (root === undefined || this.disposed) return;
    let pids: number[];
    try {
      pids = [root, ...(await pidtree(root))];
    } catch {
      pids = [root]; // the root is gone, or ps failed: read what is left of it
    }
    let stats: Record<string, { ctime: number; memory: number } | undefined>;
    try {
      stats = await pidusage(pids, { usePs: this.options.forcePs === true, maxage: 0 });
    } catch {
      return; // every process exited between the two calls
    }
    let cpu = 0;
    let rss = 0;
    const alive: number[] = [];
    for (const pid of pids) {
      const s = stats[pid];
      if (s === undefined || s === null) continue;
      alive.push(pid);
      cpu += s.ctime;
      rss += s.memory;
    }
    if (this.disposed) return;
    this.alive = alive;
    this.cpu = Math.max(this.cpu, cpu);
    this.peak = Math.max(this.peak, rss);
    this.latest = rss;
    if (rss > this.limits.memoryBytes) {
      this.over = true;
      killPids(alive);
    }
  }

  /** Waits for a reading in flight: tests and the end of a request read settled figures. */
  async settle(): Promise<void> {
    this.poll();
    await this.reading;
  }

  cpuMs(): number {
    return this.cpu;
  }

  peakMemoryBytes(): number {
    return this.peak;
  }

  memoryBytes(): number {
    return this.latest;
  }

  processCount(): number {
    return this.alive.length;
  }

  overMemory(): boolean {
    return this.over;
  }

  reachedMemoryLimit(): boolean {
    return this.over;
  }

  processIds(): number[] {
    return this.alive;
  }

  killAll(): void {
    killPids(this.alive);
  }

  async dispose(): Promise<void> {
    if (this.timer !== undefined) clearInterval(this.timer);
    await this.reading;
    this.disposed = true;
    this.killAll();
    pidusage.clear();
  }
}

export class WallClockMeter implements ResourceMeter {
  readonly precise = false;
  readonly kernelLimited = false;
  private startedAt: number | undefined;
  private root: number | undefined;
  readonly memoryLimitBytes: number;

  constructor(limits: MeterLimits) {
    this.memoryLimitBytes = limits.memoryBytes;
  }

  prefix(): string[] {
    return [];
  }

  attach(pid: number): void {
    this.root = pid;
    this.startedAt = performance.now();
  }

  cpuMs(): number {
    return this.startedAt === undefined ? 0 : performance.now() - this.startedAt;
  }

  peakMemoryBytes(): number {
    return 0;
  }

  memoryBytes(): number {
    return 0;
  }

  processCount(): number {
    return this.root === undefined ? 0 : 1;
  }

  processIds(): number[] {
    return this.root === undefined ? [] : [this.root];
  }

  overMemory(): boolean {
    return false;
  }

  reachedMemoryLimit(): boolean {
    return false;
  }

  killAll(): void {
    if (this.root === undefined) return;
    // Windows kills a tree with taskkill /T; elsewhere (tests) the root's signal is what there is.
    if (process.platform === 'win32') spawnSync('taskkill', ['/pid', String(this.root), '/T', '/F'], { stdio: 'ignore' });
    else killPids([this.root]);
  }

  async dispose(): Promise<void> {
    this.killAll();
  }
}
