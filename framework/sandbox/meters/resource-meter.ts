/**
 * What a submission's process tree uses — CPU time and memory — measured from outside it, and
 * its memory limit enforced from outside it. Nothing inside the submission's processes takes part:
 * a student can replace every clock and counter of their own process and it changes nothing here.
 *
 * This module is the contract every meter keeps; the meters, chosen by what the machine allows
 * (jail/mechanisms.ts):
 *  - cgroup v1 (cgroup-meter.ts): the kernel counts, holds the limit and kills;
 *  - polling /proc (polling-meter.ts), where cgroups cannot be made;
 *  - ps or the wall clock (portable-meters.ts), on a student's own macOS or Windows machine.
 * What a tree's readings say about where its memory is heading: allocation-trend.ts.
 */
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
  /** their pids, as last read (runtime-clock.ts finds the JVMs among them) */
  processIds(): number[];
  /**
   * a request with `cpuLimitMs` of CPU time begins (WatchedTree.request): a meter that leaves a
   * runtime's own work out of a request's time (runtime-clock.ts) caps what it leaves out per request
   */
  beginRequest?(cpuLimitMs: number): void;
  /**
   * another run begins in the same tree (a jail session's next case, programs/jail-session.ts):
   * from now on the peak and the memory-limit events are this run's alone. CPU time stays a running
   * total (a run's is the difference of two readings). Meters without it serve one run a tree.
   */
  beginRun?(): void;
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

/** SIGKILL for each of `pids`; those already gone are skipped. */
export function killPids(pids: Iterable<number>): void {
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone already
    }
  }
}
