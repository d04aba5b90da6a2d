/**
 * `mancala grade --feedback DIR` on hidden suites, as the command line runs it: every feedback
 * file is scanned for the expected answers of every case its student may not see (hashes, node
 * and evaluation counts, moves, values, traverse-log lines, case ids), each needle derived from
 * the suite's expected.json, and a visible case that failed shows expected against got. Real
 * submissions in the real sandbox (the weak one where this machine has no bubblewrap).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { parseReport } from '../../grading/reporters/json.ts';
import { loadSuite } from '../../suites/load.ts';
import type { Suite } from '../../suites/types.ts';
import { runMain } from '../../../testcases/fixtures/run-main.ts';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const example = (name: string): string => join(root, 'agents/examples', name);
const work = mkdtempSync(join(tmpdir(), 'grade-feedback-test-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

// The project's tests run in bubblewrap; a machine without it grades in the weak sandbox (the same graders, the same feedback).
const SANDBOX = spawnSync('bwrap', ['--version']).status === 0 ? [] : ['--weak-sandbox'];

interface Entry {
  hash: string;
  moveName?: string;
  value?: number;
  nodes?: number;
  evaluations?: number;
  heuristicValue?: number;
  trace?: unknown[];
}

const count = (n: number) => n.toLocaleString('en-US');

/** What in a message would give a case's answer away: each needle long or in its context, never a bare short number. */
function needles(id: string, e: Entry): string[] {
  const out = [e.hash, id];
  for (const n of [e.nodes, e.evaluations]) {
    if (n === undefined) continue;
    out.push(`expected exactly ${count(n)}`, `the reference ${count(n)}`, `the reference's ${count(n)}`, `${count(n)} nodes`);
    if (n >= 1000) out.push(count(n));
  }
  if (e.moveName !== undefined) out.push(`expected ${e.moveName} (index`);
  if (e.value !== undefined) out.push(`value: expected ${e.value},`);
  if (e.heuristicValue !== undefined) out.push(`expected ${e.heuristicValue},`);
  for (const line of e.trace ?? []) if (typeof line === 'string' && line.length >= 15) out.push(line);
  return out;
}

/** Needles of the cases not shown, less any that a shown case's own answer also holds. */
function secretNeedles(suite: Suite, shown: (c: Suite['cases'][number]) => boolean): { needle: string; id: string }[] {
  const expected = JSON.parse(readFileSync(join(suite.manifest.dir, 'expected.json'), 'utf8')) as Record<string, Entry>;
  const open = new Set(suite.cases.filter(shown).flatMap((c) => needles(c.id, expected[c.id]!)));
  const secret = suite.cases.filter((c) => !shown(c)).flatMap((c) => needles(c.id, expected[c.id]!).map((needle) => ({ needle, id: c.id })));
  return secret.filter((s) => ![...open].some((o) => o.includes(s.needle)));
}

function scan(dir: string, secrets: readonly { needle: string; id: string }[]): string[] {
  const found: string[] = [];
  for (const file of readdirSync(dir)) {
    const text = readFileSync(join(dir, file), 'utf8');
    for (const s of secrets) if (text.includes(s.needle)) found.push(`${file}: ${JSON.stringify(s.needle)} (case ${s.id})`);
  }
  return found;
}

describe('feedback on hidden suites holds no hidden answer', () => {
  it('hidden-example: every case hidden (no --due, so after_due_date is hidden too); the files name the suite path nowhere', async () => {
    const suiteDir = join(root, 'testcases/hidden-example');
    const suite = await loadSuite(suiteDir);
    const dir = join(work, 'hidden-example');
    const json = join(work, 'hidden-example.json');
    const r = await runMain(['grade', example('bob'), example('carol'), '--suite', suiteDir, '--feedback', dir, '--json', json, '--no-progress', '--no-color', ...SANDBOX]);
    expect(r.code, r.err).toBe(0);
    expect(r.err).toContain(`wrote feedback for 2 students in ${dir} (<id>.html and <id>.md)\n`);
    expect(readdirSync(dir).sort()).toEqual(['bob.html', 'bob.md', 'carol.html', 'carol.md']);
    // The instructors' JSON has the answers the feedback must not: the scan looks for something that is there to find.
    const report = parseReport(readFileSync(json, 'utf8'), json);
    const secrets = secretNeedles(suite, (c) => c.visibility === 'visible');
    expect(secrets.length).toBeGreaterThan(40);
    const inInstructorReport = secrets.filter((s) => readFileSync(json, 'utf8').includes(s.needle));
    expect(inInstructorReport.length).toBeGreaterThan(5);
    expect(scan(dir, secrets)).toEqual([]);
    for (const file of readdirSync(dir)) expect(readFileSync(join(dir, file), 'utf8')).not.toContain(suiteDir);
    // What a student does see: their score, and the hidden cases' points by category.
    const bob = report.submissions.find((s) => s.id === 'bob')!;
    const md = readFileSync(join(dir, 'bob.md'), 'utf8');
    expect(md).toContain(`**Score: ${Math.round(bob.score * 100) / 100} / 100**`);
    expect(md).toContain(`Cases not shown: ${suite.cases.length} cases`);
  });

  it('csc384-hidden with node counts graded: the visible cases that fail show expected against got, the hidden ones nothing', async () => {
    const suiteDir = join(root, 'testcases/csc384-hidden');
    const suite = await loadSuite(suiteDir);
    const dir = join(work, 'csc384');
    const json = join(work, 'csc384.json');
    const r = await runMain(['grade', example('csc384-no-caching'), '--suite', suiteDir, '--node-counts', 'graded', '--feedback', dir, '--json', json, '--jobs', '1', '--no-progress', '--no-color', ...SANDBOX]);
    expect(r.code, r.err).toBe(0);
    const report = parseReport(readFileSync(json, 'utf8'), json);
    const sub = report.submissions[0]!;
    const failedHidden = sub.cases.filter((c) => c.visibility !== 'visible' && c.status !== 'passed');
    expect(failedHidden.length).toBeGreaterThan(5);
    const secrets = secretNeedles(suite, (c) => c.visibility === 'visible');
    expect(scan(dir, secrets)).toEqual([]);
    for (const id of failedHidden.map((c) => c.id)) expect(readFileSync(join(dir, 'csc384-no-caching.md'), 'utf8')).not.toContain(id);

    // A visible case that failed: its expected node count (from expected.json) against the one the submission gave.
    const expected = JSON.parse(readFileSync(join(suiteDir, 'expected.json'), 'utf8')) as Record<string, Entry>;
    const visible = sub.cases.find((c) => c.visibility === 'visible' && c.status === 'failed' && expected[c.id]?.nodes !== undefined)!;
    expect(visible, 'a visible case failed on its node count').toBeDefined();
    const md = readFileSync(join(dir, 'csc384-no-caching.md'), 'utf8');
    const html = readFileSync(join(dir, 'csc384-no-caching.html'), 'utf8');
    expect(md).toContain(`### ✗ ${visible.id} [`);
    expect(md).toMatch(new RegExp(`\\| nodes \\| [^|]*${count(expected[visible.id]!.nodes!)}[^|]* \\| [^|]*${count(visible.nodes!)}[^|]* \\|`));
    expect(html).toMatch(new RegExp(`<td class="exp">[^<]*${count(expected[visible.id]!.nodes!)}[^<]*</td><td class="got">[^<]*${count(visible.nodes!)}`));
  });
});
