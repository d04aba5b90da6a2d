/**
 * The resource meters against real processes: the CPU time they count agrees with what an honest
 * process says it used, and a process over the memory limit is stopped and recognised — by the
 * kernel's cgroup where this machine has one, and by the /proc poller that other machines fall
 * back to (tested here too, so the fallback is not dead code).
 */
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { mechanisms } from './mechanisms.ts';
import { CgroupMeter, PollingMeter, type MeterLimits, type ResourceMeter } from './resource-meter.ts';

const LIMITS: MeterLimits = { memoryBytes: 96 * 1024 * 1024, maxProcesses: 64 };
const m = await mechanisms();

const kinds: [string, () => ResourceMeter][] = [['polling', () => new PollingMeter(LIMITS)]];
if (m.cgroups !== undefined) kinds.push(['cgroup', () => new CgroupMeter(m.cgroups!, LIMITS)]);

/** Runs `node -e code` inside the meter and returns what it printed. */
async function runMetered(meter: ResourceMeter, code: string) {
  const words = [...meter.prefix(), process.execPath, '-e', code];
  const child = execa(words[0]!, words.slice(1), { reject: false });
  meter.attach(child.pid!);
  return child;
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
