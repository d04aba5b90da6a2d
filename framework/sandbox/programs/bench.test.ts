/**
 * The file-program benchmark (bench.ts) returns sane figures for each language: its
 * structure only, never a speed (speed is `mancala bench`'s business).
 */
import { describe, expect, it } from 'vitest';
import { findExecutable } from '../jail/mechanisms.ts';
import { BENCH_LANGUAGES, benchMode, measureLanguageOverheads } from './bench.ts';

const present: Record<string, boolean> = {
  'C++': findExecutable('g++') !== undefined,
  Java: findExecutable('javac') !== undefined && findExecutable('java') !== undefined,
  Python: findExecutable('python3') !== undefined,
};

describe('measureLanguageOverheads', () => {
  it('measures C++, Java and Python in that order, or says why a language was skipped', async () => {
    const mode = await benchMode();
    const costs = await measureLanguageOverheads(2);
    expect(costs.map((c) => c.language)).toEqual([...BENCH_LANGUAGES]);
    for (const c of costs) {
      expect(c.mode).toBe(mode);
      if ('skipped' in c) {
        expect(present[c.language]).toBe(false);
        expect(c.skipped).toMatch(/not found/);
        continue;
      }
      expect(c.runs).toBe(2);
      expect(c.overheadMs).toBeGreaterThan(0);
      expect(c.wallMs).toBeGreaterThanOrEqual(c.overheadMs);
      expect(c.cpuMs).toBeGreaterThanOrEqual(0);
      expect(c.startupCpuMs).toBeGreaterThanOrEqual(0);
    }
    // A native program has no runtime start-up to leave out; the JVM and Python do.
    const cpp = costs.find((c) => c.language === 'C++');
    if (cpp !== undefined && !('skipped' in cpp)) expect(cpp.startupCpuMs).toBe(0);
    const java = costs.find((c) => c.language === 'Java');
    if (java !== undefined && !('skipped' in java)) expect(java.startupCpuMs).toBeGreaterThan(0);
  }, 120_000);

  it('runs in the weak mode when asked, and says so', async () => {
    const [cpp] = await measureLanguageOverheads(1, 'weak', ['C++']);
    expect(cpp!.mode).toBe('weak');
    expect('skipped' in cpp!).toBe(!present['C++']);
  }, 60_000);

  it('skips nothing that this machine has', async () => {
    const costs = await measureLanguageOverheads(1, undefined, ['Python']);
    expect(costs).toHaveLength(1);
    expect('skipped' in costs[0]!).toBe(!present['Python']);
  }, 60_000);
});
