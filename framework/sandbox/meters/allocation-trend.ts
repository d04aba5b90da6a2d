/**
 * Where a tree's memory is heading, from its meter's readings: when a time limit stops a tree,
 * was it on its way over its memory limit?
 */
import type { ResourceMeter } from './resource-meter.ts';

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

  /**
   * Read before the tree is killed: it reached its memory limit, or was allocating fast enough to
   * reach it soon. `stoppedBy` is the limit that stopped it: a tree stopped by the wall-clock
   * backstop was waiting (it used less CPU than its limit in several times that much wall-clock
   * time), so its memory is heading nowhere. Its growth came in a burst (24 MB at once, then a
   * wait): measured as a rate over the CPU it spent, on a loaded machine where that burst costs
   * 150 ms of CPU, it looked like a flood and a waiting agent was judged out of memory.
   */
  headingOverMemory(stoppedBy: 'cpu' | 'wall'): boolean {
    if (this.meter.reachedMemoryLimit()) return true;
    if (stoppedBy === 'wall') return false;
    // A stale reading (ps's, taken up to 0.1 s before) can show a start-up's growth as a leak.
    if (!this.meter.precise) return false;
    const now = readMeter(this.meter);
    // Too little CPU time since the older reading for a rate worth projecting.
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
