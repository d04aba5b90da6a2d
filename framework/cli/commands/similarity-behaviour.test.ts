/**
 * `mancala similarity` with behaviour, end to end: the submissions run in the sandbox and answer
 * the same seeded positions. A greedy agent disguised (other names, a helper class, a reversed
 * loop) plays as its original and ranks first by behaviour, though its source differs; two correct
 * searches (plain minimax in TypeScript, alpha-beta in Python over stdio) agree on every position,
 * and the report says that agreement is expected instead of ranking them as copies.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runMain } from '../../../testcases/fixtures/run-main.ts';
import { parseSimilarityReport } from '../../similarity/report.ts';

const work = mkdtempSync(join(tmpdir(), 'similarity-behaviour-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const PLAIN = 'testcases/fixtures/behaviour/greedy-plain';
const DISGUISED = 'testcases/fixtures/behaviour/greedy-disguised';
const CAROL = 'agents/examples/carol';
const BOB = 'agents/examples/bob';
const PYTHON_ALPHABETA = 'agents/examples/python-alphabeta';

describe('mancala similarity: behaviour', () => {
  it('finds the disguised copy by its play and calls two correct searches expected agreement', async () => {
    const json = join(work, 'class.json');
    const r = await runMain(['similarity', PLAIN, CAROL, DISGUISED, BOB, PYTHON_ALPHABETA, '--positions', '12', '--seed', '7', '--jobs', '2', '--no-progress', '--json', json]);
    expect(r.code, r.err).toBe(0);
    const report = parseSimilarityReport(readFileSync(json, 'utf8'), json);
    const pair = (a: string, b: string) => report.pairs.find((p) => (p.a === a && p.b === b) || (p.a === b && p.b === a))!;

    const copy = pair(PLAIN, DISGUISED);
    expect(copy.behaviour).toBe(1);
    expect(copy.expectedAgreement ?? null).toBeNull();
    expect([report.pairs[0]!.a, report.pairs[0]!.b].sort()).toEqual([DISGUISED, PLAIN].sort());
    expect(pair(PLAIN, CAROL).behaviour!).toBeLessThan(0.9);

    const searches = pair(BOB, PYTHON_ALPHABETA);
    expect(searches.behaviour).toBe(1);
    expect(searches.expectedAgreement).toMatch(/expected/i);
    // Expected agreement does not rank a pair: the copy stays above it.
    expect(report.pairs.indexOf(searches)).toBeGreaterThan(report.pairs.indexOf(copy));
  }, 240_000);
});
