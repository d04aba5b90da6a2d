/**
 * The reference's work on a real suite (kalah-basics), as the default time budget reads it: the
 * nodes its search visits on each case, the same as `suite bless` stored where a case checks them,
 * the same on every run, and none for the cases the reference plays no part in (playoffs).
 */
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadSuite } from '../suites/load.ts';
import { defaultBudgetMs } from './early-stop.ts';
import { referenceWork } from './reference-work.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

describe('referenceWork', () => {
  it("kalah-basics: the reference's nodes on each case it searches, as expected.json has them; no figure for playoffs", async () => {
    const suite = await loadSuite(join(ROOT, 'testcases/kalah-basics'));
    const work = await referenceWork(suite, suite.cases);
    const playoffs = suite.cases.filter((c) => c.checks.playoff !== undefined).map((c) => c.id);
    expect(playoffs.length).toBeGreaterThan(0);
    for (const id of playoffs) expect(work.has(id)).toBe(false);
    const counted = suite.cases.filter((c) => c.checks.nodes !== undefined);
    expect(counted.length).toBeGreaterThan(0);
    for (const c of counted) expect(work.get(c.id), c.id).toBe(suite.expected[c.id]!.nodes);
    // A count, not a time: a second run gives the same figures, and so the same budget.
    const again = await referenceWork(suite, suite.cases);
    expect([...again]).toEqual([...work]);
    expect(defaultBudgetMs(suite.cases, again)).toBe(defaultBudgetMs(suite.cases, work));
  });
});
