/**
 * The bench's line against the C baseline: the real compare.sh, where the workspace has it, at a
 * shallow depth (three fresh `mancala search` processes and a gcc build: seconds, so the slow suite).
 */
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { COMPARE_SCRIPT, compareWithC, nativeCompareLine } from './native-compare.ts';

describe('the bench against the C baseline', () => {
  it.skipIf(!existsSync(COMPARE_SCRIPT))('runs compare.sh: three rounds in which C and ours agree on move, value and nodes', () => {
    const c = compareWithC(8);
    if ('skipped' in c) throw new Error(c.skipped);
    expect(c.rounds).toHaveLength(3);
    expect(c.best).toBe(Math.min(...c.rounds));
    expect(c.nodes).toBeGreaterThan(0);
    expect(nativeCompareLine(c)).toMatch(/C is \d+\.\d\dx faster \(best of 3 rounds; median \d+\.\d\d; rounds .*\); both move \d, value -?\d+, \d+ nodes$/);
  }, 120_000);
});
