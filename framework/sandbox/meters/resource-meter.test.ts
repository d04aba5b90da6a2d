/**
 * The resource meters against real processes: the CPU time they count agrees with what an honest
 * process says it used, and a process over the memory limit is stopped and recognised — by the
 * kernel's cgroup where this machine has one, and by the /proc poller that other machines fall
 * back to (tested here too, so the fallback is not dead code).
 */
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { mechanisms } from '../jail/mechanisms.ts';
import { runJobs } from '../../workers/pool.ts';
import { barrier, METER_JOB, type MeterMade } from '../../../testcases/fixtures/pool-jobs.ts';
import { AllocationTrend, memoryProjectionExceeds } from './allocation-trend.ts';
import { CgroupMeter } from './cgroup-meter.ts';
import { PollingMeter } from './polling-meter.ts';
import type { MeterLimits, ResourceMeter } from './resource-meter.ts';

const LIMITS: MeterLimits = { memoryBytes: 96 * 1024 * 1024, maxProcesses: 64 };
const m = await mechanisms();

const kinds: [string, () => ResourceMeter][] = [['polling', () => new PollingMeter(LIMITS)]];
if (m.cgroups !== undefined) kinds.push(['cgroup', () => new CgroupMeter(m.cgroups!, LIMITS)]);

/** Starts `node -e code` inside the meter; the child runs on. */
function startMetered(meter: ResourceMeter, code: string) {
  const words = [...meter.prefix(), process.execPath, '-e', code];
  const child = execa(words[0]!, words.slice(1), { reject: false });
  meter.attach(child.pid!);
  return child;
}

/** Runs `node -e code` inside the meter and returns what it printed. */
async function runMetered(meter: ResourceMeter, code: string) {
  return await startMetered(meter, code);
}

/** Until the child has printed `word`. */
function printed(child: ReturnType<typeof startMetered>, word: string): Promise<void> {
  return new Promise<void>((done) => child.stdout!.on('data', (d: Buffer) => d.toString().includes(word) && done()));
}

describe.each(kinds)('the %s meter', (_kind, make) => {
  it('counts the CPU time of the process and of the children it waited for', async () => {
    const meter = make();
    try {
      // Spins for about 300 ms of its own CPU, then in a child for 200 ms more, and says what it used.
      const spin = (ms: number) => `const s = process.cpuUsage(); while (process.cpuUsage(s).user < ${ms * 1000}) {}`;
      const r = await runMetered(meter, `${spin(300)}; require('child_process').execFileSync(process.execPath, ['-e', ${JSON.stringify(spin(200))}]); const u = process.cpuUsage(); console.log((u.user + u.system) / 1000)`);
      expect(r.exitCode, r.stderr).toBe(0);
      const ownMs = Number(r.stdout);
      const counted = meter.cpuMs();
      expect(counted).toBeGreaterThanOrEqual(ownMs + 200 - 60);
      // Node's start-up is counted too, but not seconds of it.
      expect(counted).toBeLessThan(ownMs + 200 + 1500);
    } finally {
      await meter.dispose();
    }
  });

  it('sees no leak in a tree that took memory in a burst and then waited, when the wall clock stopped it', async () => {
    const meter = make();
    try {
      // Start-up and 24 MB filled at once cost far more CPU than the trend's window (a 40 ms
      // limit's 10 ms): judged as a rate, it would look like a flood. A session's agent doing
      // this was called out of memory on a loaded machine; stopped by the wall clock, it was waiting.
      const child = startMetered(meter, 'globalThis.held = Buffer.alloc(24 * 1024 * 1024, 1); console.log("held"); setTimeout(() => {}, 60000)');
      const trend = new AllocationTrend(meter, 40);
      await printed(child, 'held');
      await new Promise((r) => setTimeout(r, 200));
      // What made it look like a flood: more CPU than the window, and 24 MB more held.
      expect(meter.cpuMs()).toBeGreaterThan(10);
      expect(meter.memoryBytes()).toBeGreaterThan(24 * 1024 * 1024);
      expect(trend.headingOverMemory('wall')).toBe(false);
      meter.killAll();
      await child;
    } finally {
      await meter.dispose();
    }
  });

  it('stops a tree over its memory limit and says so, with the peak', async () => {
    const meter = make();
    try {
      const r = await runMetered(meter, 'const keep = []; for (let i = 0; i < 40; i++) { keep.push(Buffer.alloc(16 * 1024 * 1024, 1)); } console.log("survived")');
      expect(r.stdout).not.toContain('survived');
      expect(r.signal ?? String(r.exitCode)).toMatch(/SIGKILL|137/);
      expect(meter.overMemory()).toBe(true);
      expect(meter.peakMemoryBytes()).toBeGreaterThan(LIMITS.memoryBytes * 0.8);
    } finally {
      await meter.dispose();
    }
  });

  it('reads the memory a live tree holds now', async () => {
    const meter = make();
    try {
      const child = startMetered(meter, 'const b = Buffer.alloc(48 * 1024 * 1024, 1); console.log("held"); setTimeout(() => console.log(b.length), 60_000)');
      await printed(child, 'held');
      expect(meter.memoryBytes()).toBeGreaterThan(48 * 1024 * 1024);
      expect(meter.memoryBytes()).toBeLessThan(LIMITS.memoryBytes);
      expect(meter.memoryLimitBytes).toBe(LIMITS.memoryBytes);
      expect(meter.processCount()).toBeGreaterThanOrEqual(1);
      meter.killAll();
      await child;
    } finally {
      await meter.dispose();
    }
  });

  it('leaves a process under its limit alone', async () => {
    const meter = make();
    try {
      const r = await runMetered(meter, 'const b = Buffer.alloc(8 * 1024 * 1024, 1); console.log(b.length)');
      expect(r.stdout).toBe(String(8 * 1024 * 1024));
      expect(meter.overMemory()).toBe(false);
    } finally {
      await meter.dispose();
    }
  });
});

describe('the memory projection made when a time limit stops a tree', () => {
  const MB = 1024 * 1024;
  const at = (cpuMs: number, mb: number, processes = 1) => ({ cpuMs, memoryBytes: mb * MB, processes });
  const limitBytes = 128 * MB;

  it('sees a tree that keeps allocating reach its limit within the horizon', () => {
    // 40 MB in 50 ms of CPU: at that rate, 200 ms more would add 160 MB
    expect(memoryProjectionExceeds({ since: at(0, 40), now: at(50, 80), limitBytes, horizonCpuMs: 200 })).toBe(true);
  });

  it('does not see a leak in a tree whose memory stands still or shrinks', () => {
    expect(memoryProjectionExceeds({ since: at(0, 120), now: at(500, 120), limitBytes, horizonCpuMs: 2000 })).toBe(false);
    expect(memoryProjectionExceeds({ since: at(0, 120), now: at(500, 100), limitBytes, horizonCpuMs: 2000 })).toBe(false);
  });

  it('does not see a leak in slow growth that would stay under the limit', () => {
    // 1 MB per 100 ms of CPU, 2 s more: 20 MB, to 70 of 128
    expect(memoryProjectionExceeds({ since: at(0, 49), now: at(100, 50), limitBytes, horizonCpuMs: 2000 })).toBe(false);
  });

  it('does not project memory that grew with the number of processes (the process limit bounds it)', () => {
    expect(memoryProjectionExceeds({ since: at(0, 40, 10), now: at(50, 80, 30), limitBytes, horizonCpuMs: 200 })).toBe(false);
  });

  it('makes nothing of a reading with no CPU time between', () => {
    expect(memoryProjectionExceeds({ since: at(10, 40), now: at(10, 120), limitBytes, horizonCpuMs: 2000 })).toBe(false);
  });
});

describe('meters made in several threads of one process at once', () => {
  it.runIf(m.cgroups !== undefined)('each get a cgroup of their own (the threads share a pid; a clash fell back to polling /proc)', async () => {
    // Three jobs: this thread and two fresh pool threads, whose counters of meters both start at 1.
    const made: MeterMade[] = [];
    await runJobs({ kind: METER_JOB, setup: { barrier: barrier(3) }, items: [1, 2, 3, 4, 5, 6], jobs: 3, onResult: (r) => made.push(r) });
    expect(new Set(made.map((x) => x.threadId)).size).toBe(3);
    expect(made.map((x) => x.kind)).toEqual(Array(6).fill('cgroup'));
  });
});
