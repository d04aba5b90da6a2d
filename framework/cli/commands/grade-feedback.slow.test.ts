/**
 * `mancala grade --feedback DIR` on hidden suites, as the command line runs it: every feedback
 * file is scanned for the expected answers of every case its student may not see (hashes, node
 * and evaluation counts, moves, values, traverse-log lines, case ids), each needle derived from
 * the suite's expected.json, and a visible case that failed shows expected against got. Real
 * submissions in the real sandbox (the weak one where this machine has no bubblewrap).
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
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
  for (const file of readdirSync(dir).filter((f) => /\.(html|md)$/.test(f))) {
    const text = readFileSync(join(dir, file), 'utf8');
    for (const s of secrets) if (text.includes(s.needle)) found.push(`${file}: ${JSON.stringify(s.needle)} (case ${s.id})`);
  }
  return found;
}

describe('feedback on hidden suites holds no hidden answer', () => {
  it('hidden-example, handed in late: the files hold the score, the lateness and the hidden points, never an answer; the gradebooks and the console show raw and adjusted', async () => {
    const suiteDir = join(root, 'testcases/hidden-example');
    const suite = await loadSuite(suiteDir);
    // The class as plain folders, handed in (their files written) 30 hours after the due date.
    const due = '2026-10-12T23:59:00-04:00';
    const handedIn = new Date(Date.parse('2026-10-13T03:59:00Z') + 30 * 3_600_000);
    const subs = ['bob', 'carol'].map((name) => {
      const to = join(work, 'class', name);
      cpSync(example(name), to, { recursive: true });
      for (const f of readdirSync(to)) utimesSync(join(to, f), handedIn, handedIn);
      return to;
    });
    const policy = join(work, 'late-policy.yaml');
    writeFileSync(policy, 'penalty: {per: day, percent: 10}\nmax_penalty: {percent: 50}\n');
    const dir = join(work, 'hidden-example');
    const out = (f: string) => join(work, 'out', f);
    const r = await runMain([
      'grade', ...subs, '--suite', suiteDir, '--feedback', dir, '--json', out('report.json'),
      '--due', due, '--late-policy', policy, '--assignment', 'Mancala 1 (12345)',
      '--gradebook', 'canvas', out('canvas.csv'), '--gradebook', 'csv', out('grades.csv'),
      '--no-progress', '--no-color', ...SANDBOX,
    ]);
    expect(r.code, r.err).toBe(0);
    expect(r.err).toContain(`wrote feedback for 2 students in ${dir} (<id>.html and <id>.md)\n`);
    expect(r.err).toContain('late policy: 2 of 2 submissions late\n');
    expect(readdirSync(dir).sort()).toEqual(['bob.html', 'bob.md', 'carol.html', 'carol.md']);

    // 30 h late is 2 started days at 10%: the JSON keeps the raw score and adds the verdict.
    const report = parseReport(readFileSync(out('report.json'), 'utf8'), out('report.json'));
    const bob = report.submissions.find((s) => s.id === 'bob')!;
    expect(bob.late).toMatchObject({ minutesLate: 1800, rawScore: bob.score, submittedAtSource: 'file-times', graceDaysSpent: 0 });
    expect(bob.late!.score).toBeCloseTo(bob.score * 0.8, 5);
    const pts = (x: number) => String(Math.round(x * 100) / 100);
    // The console's one line a submission: the late verdict is its score field, then the cases, the CPU time and the folder as given.
    const passed = bob.cases.filter((c) => c.status === 'passed').length;
    const given = subs[0]!.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    expect(r.out).toMatch(new RegExp(`^bob  ${pts(bob.late!.score)} / 100 \\(raw ${pts(bob.score)}, 1 day 6 h late, −${pts(bob.late!.penalty)}\\)  ${passed} of ${bob.cases.length} cases passed  [\\d.]+ s CPU  ${given}(  |$)`, 'm'));
    // Canvas can match no plain folder: its header and Points Possible row, no row, and the two named once.
    expect(readFileSync(out('canvas.csv'), 'utf8')).toBe('Student,ID,SIS User ID,SIS Login ID,Section,Mancala 1 (12345)\r\n    Points Possible,,,,,100\r\n');
    expect(r.err).toContain('canvas gradebook: left out 2, which canvas could not match: bob (no Canvas user ID), carol (no Canvas user ID)\n');
    const csv = readFileSync(out('grades.csv'), 'utf8').split('\r\n');
    expect(csv[0]).toMatch(/,submitted_at,minutes_late,grace_days_spent,penalty,adjusted_score$/);
    expect(csv.find((l) => l.startsWith('bob,'))!.endsWith(`,2026-10-14T09:59:00Z,1800,0,${bob.late!.penalty},${bob.late!.score}`)).toBe(true);

    // The due date has passed: after_due_date cases are the student's to see; every hidden one is scanned for.
    const shown = (c: Suite['cases'][number]) => c.visibility !== 'hidden';
    const secrets = secretNeedles(suite, shown);
    expect(secrets.length).toBeGreaterThan(40);
    // The instructors' JSON has the answers the feedback must not: the scan looks for something that is there to find.
    expect(secrets.filter((s) => readFileSync(out('report.json'), 'utf8').includes(s.needle)).length).toBeGreaterThan(5);
    expect(scan(dir, secrets)).toEqual([]);
    for (const file of readdirSync(dir)) expect(readFileSync(join(dir, file), 'utf8')).not.toContain(suiteDir);
    // What a student does see: the adjusted score beside the raw one, the late policy's line, the hidden cases' points by category.
    const md = readFileSync(join(dir, 'bob.md'), 'utf8');
    expect(md).toContain(`**Score: ${pts(bob.late!.score)} / 100** (graded: ${pts(bob.score)}, late penalty −${pts(bob.late!.penalty)})`);
    expect(md).toContain('- Late policy: 1 day 6 h after the due date, 2 days charged at 10% a day');
    expect(md).toContain(`Cases not shown: ${suite.cases.filter((c) => c.visibility === 'hidden').length} cases`);
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

  it('csci561-grade --feedback: the same files, and the course\'s case folders beside them; no hidden expected text anywhere', async () => {
    const suiteDir = join(root, 'testcases/csci561-hidden');
    const suite = await loadSuite(suiteDir);
    const dir = join(work, 'csci561');
    const r = await runMain(['csci561-grade', join(root, 'testcases/fixtures/programs/python'), '--suite', suiteDir, '--feedback', dir, '--no-progress', '--no-color', ...SANDBOX]);
    expect(r.code, r.err).toBe(0);
    expect(r.err).toContain(`wrote feedback for 1 student in ${dir} (<id>.html and <id>.md)\n`);
    expect(r.err).toContain(`wrote 1 student report in ${dir} (python/report.txt)\n`);
    expect(readdirSync(dir).sort()).toEqual(['python', 'python.html', 'python.md']);
    const expected = JSON.parse(readFileSync(join(suiteDir, 'expected.json'), 'utf8')) as Record<string, { hash: string; trace?: string[]; nextState?: Record<string, unknown> }>;
    const secrets = suite.cases.flatMap((c) => {
      const e = expected[c.id]!;
      return [e.hash, c.id, ...(e.trace ?? []).filter((l) => l.length >= 15 && !/^Node,Depth,Value/.test(l))].map((needle) => ({ needle, id: c.id }));
    });
    expect(secrets.length).toBeGreaterThan(100);
    expect(scan(dir, secrets)).toEqual([]);
    // No expected file in any case folder of a hidden case.
    for (const c of readdirSync(join(dir, 'python')).filter((f) => f !== 'report.txt')) expect(readdirSync(join(dir, 'python', c)).filter((f) => f.startsWith('expected_'))).toEqual([]);
  });

  it('every mistake in the class flags is one line, exit 2, before anything runs', async () => {
    const basics = join(root, 'testcases/kalah-basics');
    const run = (...extra: string[]) => runMain(['grade', example('alice'), '--suite', basics, ...extra]);
    const policy = join(work, 'bad-policy.yaml');
    writeFileSync(policy, 'penalty: {per: fortnight, percent: 10}\n');
    const graceless = join(work, 'graceless.yaml');
    writeFileSync(graceless, 'grace_days: 2\n');
    const cases: [string[], string][] = [
      [['--due', '2026-10-12 23:59'], '--due: expected a date and time in ISO 8601 with a time zone'],
      [['--late-policy', policy], `--late-policy ${policy}: needs --due`],
      [['--due', '2026-10-12T23:59Z', '--late-policy', policy], `${policy}:1: penalty.per: expected hour or day, got "fortnight"`],
      [['--due', '2026-10-12T23:59Z', '--late-policy', graceless], 'grace_days needs a ledger'],
      [['--gradebook', 'blackboard', join(work, 'bb.csv')], "--gradebook blackboard: needs the Grade Center column's id"],
      [['--gradebook', 'brightspace', join(work, 'd2l.csv')], '--gradebook brightspace: expected one of canvas, moodle, blackboard, csv'],
      [['--gradebook', 'canvas'], '--gradebook canvas: expected the file to write after the kind'],
    ];
    for (const [extra, says] of cases) {
      const r = await run(...extra);
      expect(r.code, `${extra.join(' ')}: ${r.err}`).toBe(2);
      expect(r.out).toBe('');
      expect(r.err).toMatch(/^mancala: [^\n]+\n$/);
      expect(r.err).toContain(says);
    }
  });

  it('grace days across two assignments: the first run spends them and writes the ledger, the second reads it', async () => {
    const basics = join(root, 'testcases/kalah-basics');
    const ada = join(work, 'term', 'ada');
    cpSync(example('alice'), ada, { recursive: true });
    // Handed in once, at this time: 30 hours after the first due date, 10 hours after the second.
    const handedIn = new Date(Date.parse('2026-10-13T03:59:00Z') + 30 * 3_600_000);
    for (const f of readdirSync(ada)) utimesSync(join(ada, f), handedIn, handedIn);
    const policy = join(work, 'term', 'late-policy.yaml');
    writeFileSync(policy, 'penalty: {per: day, percent: 10}\ngrace_days: 2\ngrace_ledger: grace-ledger.json\n');
    const ledger = join(work, 'term', 'grace-ledger.json');
    const json = join(work, 'term', 'report.json');
    const grade = (due: string, assignment: string) => runMain(['grade', ada, '--suite', basics, '--due', due, '--late-policy', policy, '--assignment', assignment, '--json', json, '--no-progress', '--no-color', ...SANDBOX]);

    const first = await grade('2026-10-12T23:59:00-04:00', 'Mancala 1');
    expect(first.code, first.err).toBe(0);
    expect(first.err).toContain(`late policy: 1 of 1 submission late; grace days spent recorded in ${ledger} (as "Mancala 1")\n`);
    expect(JSON.parse(readFileSync(ledger, 'utf8'))).toEqual({ version: 1, grace_days: 2, students: { ada: { spent: { 'Mancala 1': 2 }, left: 0 } } });
    expect(parseReport(readFileSync(json, 'utf8'), json).submissions[0]!.late).toMatchObject({ graceDaysSpent: 2, graceDaysLeft: 0, penalty: 0, score: 100 });

    const second = await grade('2026-10-13T19:59:00-04:00', 'Mancala 2');
    expect(second.code, second.err).toBe(0);
    // No grace day left: the 10 hours are one started day at 10%.
    expect(parseReport(readFileSync(json, 'utf8'), json).submissions[0]!.late).toMatchObject({ minutesLate: 600, graceDaysSpent: 0, graceDaysLeft: 0, penalty: 10, score: 90 });
    // The console's one line: the late verdict in the score field, then the cases, the CPU time and the folder as given.
    expect(second.out.split('\n')).toContainEqual(expect.stringMatching(/^ada  90 \/ 100 \(raw 100, 10 h late, −10\)  all \d+ cases passed  [\d.]+ s CPU  /));
    expect(second.out.split('\n').find((l) => l.startsWith('ada  '))!.endsWith(`  ${ada}`)).toBe(true);
    expect(JSON.parse(readFileSync(ledger, 'utf8')).students.ada).toEqual({ spent: { 'Mancala 1': 2 }, left: 0 });
  });
});
