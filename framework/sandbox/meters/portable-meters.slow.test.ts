/**
 * The meters of machines without /proc (a student kit's check on macOS or Windows), run here on
 * Linux: PsMeter reading through ps as it does on macOS (pidusage's usePs), WallClockMeter as on
 * Windows. And the whole weak-mode path with them: a student's agents graded with the meter forced
 * (MANCALA_POLLING_METER), the loop and the heap bomb getting the verdicts the kit relies on.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { pollingMeterKind } from '../jail/mechanisms.ts';
import { PsMeter, WallClockMeter } from './portable-meters.ts';
import type { MeterLimits } from './resource-meter.ts';
import { ZOO_SUITE } from '../../../testcases/fixtures/hostile-agents/zoo-suite.ts';

// Which limit a leak meets first, and what a coarse poll saw, hang on how fast this VM faults pages in:
// measured to vary run to run on the 2-core machine (the unchanged code too), so these few retry.
const LIMIT_RETRY = { retry: 3 };

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const LIMITS: MeterLimits = { memoryBytes: 96 * 1024 * 1024, maxProcesses: 64 };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('the ps meter (macOS), read through ps here', () => {
  it('counts the CPU time of a tree: a process and the child it keeps alive', LIMIT_RETRY, async () => {
    const meter = new PsMeter(LIMITS, { forcePs: true });
    try {
      // A parent spinning 1.1 s and a child spinning 1.1 s, both then waiting to be read. Linux's ps
      // gives TIME in whole seconds (macOS's in centiseconds), truncated: each spin must pass a whole
      // second to count at all (400 ms spins read as 0 on a busy CI run, all four tries).
      const spin = (ms: number) => `const s = process.cpuUsage(); while (process.cpuUsage(s).user < ${ms * 1000}) {}`;
      const child = execa(process.execPath, ['-e', `const c = require('child_process').spawn(process.execPath, ['-e', ${JSON.stringify(`${spin(1100)}; console.log('spun'); setTimeout(() => {}, 60000)`)}], { stdio: ['ignore', 'inherit', 'inherit'] }); ${spin(1100)}; console.log('spun'); setTimeout(() => {}, 60000)`], { reject: false });
      meter.attach(child.pid!);
      let seen = '';
      await new Promise<void>((done) => child.stdout!.on('data', (d: Buffer) => (seen += d.toString()).split('spun').length > 2 && done()));
      await sleep(300);
      await meter.settle();
      expect(meter.processCount()).toBe(2);
      expect(meter.cpuMs()).toBeGreaterThanOrEqual(2 * 1000);
      expect(meter.memoryBytes()).toBeGreaterThan(10 * 1024 * 1024);
      meter.killAll();
      await child;
      expect(child.killed || child.exitCode !== 0).toBe(true);
    } finally {
      await meter.dispose();
    }
  });

  it('stops a tree over its memory limit and says so', async () => {
    const meter = new PsMeter(LIMITS, { forcePs: true });
    try {
      const child = execa(process.execPath, ['-e', 'const keep = []; const t = setInterval(() => { keep.push(Buffer.alloc(16 * 1024 * 1024, 1)); if (keep.length > 40) { clearInterval(t); console.log("survived"); } }, 50)'], { reject: false });
      meter.attach(child.pid!);
      const r = await child;
      expect(r.stdout).not.toContain('survived');
      expect(r.signal).toBe('SIGKILL');
      expect(meter.overMemory()).toBe(true);
      expect(meter.peakMemoryBytes()).toBeGreaterThan(LIMITS.memoryBytes);
    } finally {
      await meter.dispose();
    }
  });
});

describe('the wall-clock meter (Windows)', () => {
  it('counts the time since the tree started as its CPU time, measures no memory, and kills the root', async () => {
    const meter = new WallClockMeter(LIMITS);
    const child = execa(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { reject: false });
    meter.attach(child.pid!);
    await sleep(200);
    expect(meter.cpuMs()).toBeGreaterThanOrEqual(190);
    expect(meter.memoryBytes()).toBe(0);
    expect(meter.overMemory()).toBe(false);
    meter.killAll();
    expect((await child).signal).toBe('SIGKILL');
    await meter.dispose();
  });
});

describe('which meter a machine without cgroups gets', () => {
  it('/proc on Linux, ps on macOS and other Unixes, the wall clock on Windows', () => {
    expect(pollingMeterKind('linux')).toBe('proc');
    expect(pollingMeterKind('darwin')).toBe('ps');
    expect(pollingMeterKind('freebsd')).toBe('ps');
    expect(pollingMeterKind('win32')).toBe('wall-clock');
  });
});

describe("a student's check with the ps meter, as on macOS (the weak sandbox; cgroups set aside)", () => {
  it('alice passes; the hostile loop is a timeout and the heap bomb a memory verdict', { ...LIMIT_RETRY, timeout: 300_000 }, () => {
    const work = mkdtempSync(join(tmpdir(), 'ps-meter-'));
    try {
      const suite = join(work, 'zoo-suite');
      for (const [file, text] of Object.entries(ZOO_SUITE)) {
        mkdirSync(dirname(join(suite, file)), { recursive: true });
        writeFileSync(join(suite, file), text);
      }
      const mancala = (args: string[]) =>
        spawnSync(process.execPath, [join(ROOT, 'bin/mancala.js'), ...args], { encoding: 'utf8', timeout: 240_000, env: { ...process.env, MANCALA_POLLING_METER: 'ps' } });
      expect(mancala(['suite', 'bless', suite]).status).toBe(0);
      const zoo = join(ROOT, 'testcases/fixtures/hostile-agents');
      const json = join(work, 'report.json');
      const r = mancala(['grade', join(ROOT, 'agents/examples/alice'), join(zoo, 'infinite-loop'), join(zoo, 'heap-bomb'), '--suite', suite, '--weak-sandbox', '--json', json, '--no-progress']);
      expect(r.stderr).toMatch(/CPU time and memory polled with ps/);
      expect(r.status, r.stderr).toBe(0);
      const report = JSON.parse(readFileSync(json, 'utf8')) as { submissions: { id: string; cases: { status: string }[] }[] };
      const statuses = Object.fromEntries(report.submissions.map((sub) => [sub.id, [...new Set(sub.cases.map((c) => c.status))]]));
      expect(statuses).toEqual({ alice: ['passed'], 'infinite-loop': ['timeout'], 'heap-bomb': ['memory'] });
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });
});
