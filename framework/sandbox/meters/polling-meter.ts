/**
 * The meter where cgroups cannot be made (`PollingMeter`): every POLL_MS the tree under the
 * process (found through /proc's parent links) is read: utime+stime (with reaped children's
 * cutime+cstime) and the sum of resident set sizes; over the limit, the tree is killed here.
 * Coarser than a cgroup (10 ms CPU ticks, a process living less than a poll can slip by) and said
 * so at start (jail/mechanisms.ts).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { killPids, type MeterLimits, type ResourceMeter } from './resource-meter.ts';

const POLL_MS = 20;
const CLOCK_TICKS_PER_SECOND = 100;

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
  private processes: number[] = [];
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
    this.processes = procs.map((p) => p.pid);
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
    return this.processes.length;
  }

  processIds(): number[] {
    return this.processes;
  }

  beginRun(): void {
    this.peak = this.latest;
    this.over = false;
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
