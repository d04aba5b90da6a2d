/**
 * The class bench of `mancala bench` (class-bench.ts) on one case a program, one round: it runs the
 * real programs both ways (every case right, bare and sandboxed), it counts every program and case,
 * and its breakdown accounts for the sandboxed cases' time (the phases, timed in the grader, add up
 * to no more than the pass took). No figure is judged: speed is the bench's to show.
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { CASE_PHASES } from '../../sandbox/programs/case-phases.ts';
import { measureClassPrograms } from './class-bench.ts';

const tools = ['javac', 'g++', 'bwrap'].every((t) => spawnSync(t, ['--version']).error === undefined);

describe.runIf(tools)('the class bench, one case a program', () => {
  it('grades every program right both ways, and its phases account for the sandboxed time', async () => {
    const c = await measureClassPrograms({ mode: 'full', cases: 1, rounds: 1 });
    if ('skipped' in c) throw new Error(c.skipped);
    expect(c.problems).toEqual([]);
    expect(c.allPassed).toBe(true);
    // Python 2.7 may be missing on a machine: then it is left out, and says why.
    expect(c.programs.length + c.leftOut.length).toBe(7);
    expect(c.programs.map((p) => p.language)).toEqual(expect.arrayContaining(['Java', 'C++', 'Python 3']));
    expect(c.phaseCases).toBe(c.programs.length);
    const [round] = c.rounds;
    const phases = CASE_PHASES.filter((p) => p !== 'polling').reduce((a, p) => a + c.phases[p], 0);
    expect(c.phases.program).toBeGreaterThan(0);
    expect(phases).toBeLessThanOrEqual(round!.sandboxedJobs1);
    for (const l of new Set(c.programs.map((p) => p.language))) {
      expect(round!.bareByLanguage[l], l).toBeGreaterThan(0);
      expect(round!.sandboxedByLanguage[l], l).toBeGreaterThan(0);
    }
  });
});
