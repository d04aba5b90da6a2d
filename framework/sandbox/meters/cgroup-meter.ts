/**
 * The meter of cgroup v1 (`CgroupMeter`): a fresh group in the memory, cpuacct and pids controllers
 * for each process tree. The kernel counts the CPU time of every process that ever ran in it
 * (threads, children, GC and JIT threads alike), keeps the peak of its resident memory (page cache
 * and tmpfs pages included), kills it when it goes over the memory limit (and counts that kill),
 * and refuses forks past the pid limit. The process joins the group before it execs anything:
 * `prefix()` is a two-line shell that writes its own pid into cgroup.procs, then `exec`s.
 */
import { existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { THREAD_TAG } from '../../thread-tag.ts';
import { killPids, type MeterLimits, type ResourceMeter } from './resource-meter.ts';

export interface CgroupRoots {
  memory: string;
  cpuacct: string;
  /** the pids controller, when there is one */
  pids?: string;
}

let counter = 0;

function readNumber(file: string): number {
  try {
    return Number(readFileSync(file, 'utf8').trim()) || 0;
  } catch {
    return 0;
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
  /** the group's OOM kills before this run (beginRun) */
  private oomKillsBefore = 0;
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

  processIds(): number[] {
    return pidsIn(this.memory);
  }

  beginRun(): void {
    // cgroup v1 resets both counters on a write of 0; the OOM kills cannot be reset, only counted from.
    writeFileSync(join(this.memory, 'memory.max_usage_in_bytes'), '0');
    writeFileSync(join(this.memory, 'memory.failcnt'), '0');
    this.oomKillsBefore = this.oomKills() ?? 0;
  }

  private oomKills(): number | undefined {
    try {
      const m = /oom_kill (\d+)/.exec(readFileSync(join(this.memory, 'memory.oom_control'), 'utf8'));
      if (m !== null) return Number(m[1]);
    } catch {
      // no such file
    }
    return undefined;
  }

  reachedMemoryLimit(): boolean {
    // failcnt: how many times a charge hit the limit.
    return readNumber(join(this.memory, 'memory.failcnt')) > 0 || this.overMemory();
  }

  overMemory(): boolean {
    const kills = this.oomKills();
    if (kills !== undefined) return kills > this.oomKillsBefore;
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
