/**
 * The Reports page's server side, through Fastify's request injection: a grade report written by
 * really grading (`mancala grade` on alice, bob and carol against kalah-basics, run in-process),
 * listed in its folder, checked (/api/report) and served as pages (/reports/view): the class page
 * with the histogram and each case's pass rate, each row linking to its submission's page; the
 * page of a failing submission with each failing case's board, expected against got and
 * reproduce command — the command run, and answering what the page says was expected. The pages
 * load nothing but their style sheet and script, carry no inline style or script, and have a
 * policy of their own. Refusals: outside the root, missing, a folder, malformed JSON (the line),
 * a malformed report (the field), another kind of report, a submission the report does not have.
 * The cache: one parse while the file stays the same, a new one when it changes, a few kept.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runMain } from '../../../testcases/fixtures/run-main.ts';
import { byId, elements, find, hasClass, parsePage, text, type Element } from '../../../testcases/fixtures/html-page.ts';
import type { GradeReport } from '../../grading/report.ts';
import { caseDetails } from '../../grading/reporters/case-details.ts';
import { REPORT_CSS, REPORT_SCRIPT } from '../../grading/reporters/html-assets.ts';
import { casePassRates, scoreHistogram } from '../../grading/reporters/class-figures.ts';
import { parseReport } from '../../grading/reporters/json.ts';
import { shardRecord, withShardField } from '../../shards/record.ts';
import type { FolderListing, ReportSummary } from '../shared/api.ts';
import { createWebApp } from './app.ts';
import { ReportFiles } from './report-files.ts';
import { REPORT_PAGE_CSP } from './report-pages.ts';

/** The token the test's server asks for, sent with every request (a request without it is refused: access.test.ts). */
const TOKEN = 'test-token-0123456789abcdef';
const AUTH = { authorization: `token ${TOKEN}` };

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'web-reports-test-'));
const root = join(work, 'root');
let app: FastifyInstance;
let report: GradeReport;
let gradeText: string;

beforeAll(async () => {
  mkdirSync(join(root, 'grades'), { recursive: true });
  const graded = await runMain([
    'grade',
    ...['alice', 'bob', 'carol'].map((n) => join(ROOT, 'agents/examples', n)),
    '--suite',
    join(ROOT, 'testcases/kalah-basics'),
    '--json',
    join(root, 'grades/grade.json'),
  ]);
  expect(graded.err).toContain('grade.json');
  gradeText = readFileSync(join(root, 'grades/grade.json'), 'utf8');
  report = parseReport(gradeText, 'grade.json');
  // Malformed files, each wrong in one place.
  const lines = gradeText.split('\n');
  lines[2] = lines[2]!.replace(/,$/, '');
  writeFileSync(join(root, 'grades/broken.json'), lines.join('\n'));
  const wrong = JSON.parse(gradeText) as GradeReport;
  (wrong.submissions[1]!.cases[0] as { status: string }).status = 'flaky';
  writeFileSync(join(root, 'grades/wrong.json'), JSON.stringify(wrong, null, 2));
  writeFileSync(join(root, 'grades/check.json'), JSON.stringify({ version: 1, reports: [JSON.parse(gradeText)] }, null, 2));
  writeFileSync(join(root, 'grades/package.json'), '{"name": "not a report"}\n');
  writeFileSync(join(root, 'grades/shard.json'), withShardField(gradeText, shardRecord('grade', { index: 1, count: 2 }, { suite: 'Kalah basics' }, ['alice'])));
  writeFileSync(join(work, 'outside.json'), gradeText);
  app = await createWebApp({ root, sandbox: 'weak', token: TOKEN, assets: new Map([['index.html', { body: Buffer.from('<!doctype html><title>t</title>'), type: 'text/html; charset=utf-8', etag: '"x"' }]]) });
}, 120_000);

afterAll(async () => {
  await app?.close();
  rmSync(work, { recursive: true, force: true });
});

async function get(url: string) {
  return app.inject({ method: 'GET', url, headers: AUTH });
}

/** A page, checked for what every report page must be, parsed. */
async function page(url: string): Promise<Element> {
  const r = await get(url);
  expect(r.statusCode, r.body.slice(0, 300)).toBe(200);
  expect(r.headers['content-type']).toBe('text/html; charset=utf-8');
  expect(r.headers['content-security-policy']).toBe(REPORT_PAGE_CSP);
  const html = parsePage(r.body);
  for (const e of elements(html)) {
    // No inline style or script: the policy would refuse them, and the page would look or work otherwise.
    expect(e.attrs.style, `${e.tag} style`).toBeUndefined();
    expect(Object.keys(e.attrs).filter((a) => /^on/i.test(a)), e.tag).toEqual([]);
    expect(e.tag).not.toBe('style');
    if (e.tag === 'script') expect(e.attrs.src).toBe('/reports/report.js');
    if (e.tag === 'link') expect(e.attrs.href).toBe('/reports/report.css');
    expect(['img', 'iframe', 'object', 'embed', 'base', 'form'], e.tag).not.toContain(e.tag);
    if (e.attrs.href !== undefined) expect(e.attrs.href, 'a link of the report').toMatch(/^(#[\w-]+|\/reports\/)/);
  }
  return html;
}

const links = (root: Element) => find(root, 'a').map((a) => a.attrs.href!);
const submissionUrl = (k: number) => `/reports/view?path=grades%2Fgrade.json&submission=${k}`;

async function refused(url: string): Promise<{ status: number; error: string }> {
  const r = await get(url);
  expect(r.statusCode, r.body).toBeGreaterThanOrEqual(400);
  expect(r.statusCode).toBeLessThan(500);
  // A page's refusal shows in the app's frame, where the page reads it: its policy lets the app frame it.
  if (url.startsWith('/reports/')) expect(r.headers['content-security-policy']).toBe(REPORT_PAGE_CSP);
  const error = (r.json() as { error: string }).error;
  expect(error).not.toMatch(/\n/);
  return { status: r.statusCode, error };
}

describe('the Reports page: a real grading run', () => {
  it('grades three submissions of which two fail cases', () => {
    expect(report.submissions.map((s) => s.id)).toEqual(['alice', 'bob', 'carol']);
    const failing = report.submissions.map((s) => s.cases.filter((c) => c.status !== 'passed').length);
    expect(failing[0]).toBe(0);
    expect(failing[2]).toBeGreaterThan(0);
  });

  it('lists the grade reports of a folder, beside its folders, and not other JSON', async () => {
    const listing = (await get('/api/files?dir=grades')).json() as FolderListing;
    // The run wrote its journal beside its report: JSON lines, but neither a replay nor a tournament's results.
    expect(existsSync(join(root, 'grades/grade.journal.jsonl'))).toBe(true);
    expect(listing.files).toEqual([]);
    expect(listing.reports.map((f) => f.name)).toEqual(['broken.json', 'grade.json', 'shard.json', 'wrong.json']);
    expect(listing.reports.find((f) => f.name === 'grade.json')).toEqual({ name: 'grade.json', bytes: gradeText.length, suite: 'Kalah basics' });
    // A shard's suite comes after its record, past what the listing reads.
    expect(listing.reports.find((f) => f.name === 'shard.json')!.suite).toBeUndefined();
    expect(((await get('/api/files')).json() as FolderListing).folders).toEqual(['grades']);
  });

  it('checks a report and sums it up for the page', async () => {
    const s = (await get('/api/report?path=grades/grade.json')).json() as ReportSummary;
    expect(s.file).toBe('grades/grade.json');
    expect(s.suite).toBe('Kalah basics');
    expect(s.view).toBe('/reports/view?path=grades%2Fgrade.json');
    expect(s.submissions).toEqual(
      report.submissions.map((x) => ({ id: x.id, score: x.score, maxScore: x.maxScore, cases: x.cases.length, passed: x.cases.filter((c) => c.status === 'passed').length })),
    );
    // A shard's report is the grade report it holds.
    const shard = (await get('/api/report?path=grades/shard.json')).json() as ReportSummary;
    expect(shard.submissions).toEqual(s.submissions);
  });

  it('serves the class page: the histogram of scores, each case\'s pass rate, and the table linking to each submission', async () => {
    const html = await page('/reports/view?path=grades/grade.json');
    expect(text(find(html, 'h1')[0]!)).toBe('Grade report: Kalah basics');
    const bins = find(html, 'g', 'hbin');
    expect(bins.map((b) => Number(b.attrs['data-count']))).toEqual(scoreHistogram(report.submissions).map((b) => b.count));
    expect(bins.reduce((t, b) => t + Number(b.attrs['data-count']), 0)).toBe(3);
    const rates = find(html, 'table', 'case-rates')[0]!;
    const rows = find(rates, 'tr').slice(1);
    const expected = casePassRates(report);
    expect(rows.map((r) => text(r.children[0]!).trim())).toEqual(expected.map((r) => r.id));
    expected.forEach((r, k) => expect(text(rows[k]!.children[2]!)).toBe(`${r.passed} / ${r.graded}`));
    // The pass rate's bar is an SVG whose rect is as wide as the share (out of 100).
    const bar = find(rows[0]!, 'svg', 'rate')[0]!;
    expect(Number(find(bar, 'rect')[0]!.attrs.width)).toBeCloseTo((100 * expected[0]!.passed) / expected[0]!.graded, 1);
    // Each row of the table links to its submission's page; the table offers every submission on one page.
    const table = find(html, 'table', 'subs-table')[0]!;
    expect(links(table)).toEqual([1, 2, 3].map(submissionUrl));
    expect(links(html)).toContain('/reports/view?path=grades%2Fgrade.json&submission=all');
    // The run's isolation, as the self-contained report says it.
    expect(text(html)).toMatch(/network/);
  });

  it("serves a failing submission's page: each failing case with its board, expected against got, and a reproduce command that answers what was expected", async () => {
    const k = report.submissions.findIndex((s) => s.id === 'carol');
    const carol = report.submissions[k]!;
    const html = await page(submissionUrl(k + 1));
    expect(text(find(html, 'h2')[0]!)).toMatch(/^carol /);
    const failing = carol.cases.filter((c) => c.status !== 'passed');
    const articles = elements(html).filter((e) => e.tag === 'article' && hasClass(e, 'case'));
    expect(articles.map((a) => a.attrs['aria-label'])).toEqual(failing.map((c) => `${c.status} ${c.id}`));
    let boards = 0;
    let ran = 0;
    for (const c of failing) {
      const j = carol.cases.indexOf(c);
      const article = byId(html, `r1-s${k + 1}-c${j + 1}`)!;
      const details = caseDetails(c);
      const cmp = find(article, 'table', 'cmp')[0];
      const shown = cmp === undefined ? [] : find(cmp, 'tr').slice(1).map((r) => r.children.map((cell) => text(cell)));
      expect(shown).toEqual(details.comparisons.map((x) => [x.what, x.expected, x.got]));
      if (details.position !== undefined) {
        boards++;
        expect(find(article, 'table', 'mb-board')).toHaveLength(1);
      }
      const repro = find(article, 'div', 'repro')[0];
      expect(repro === undefined).toBe(details.reproduce === undefined);
      if (repro === undefined || details.reproduce?.command === undefined) continue;
      const command = text(find(repro, 'code')[0]!);
      expect(command).toBe(details.reproduce.command);
      // The command as the page shows it, run: the reference's answer is what the case expected.
      const move = details.comparisons.find((x) => x.what === 'move');
      const m = /^npx mancala (search .*--json)$/.exec(command);
      if (move === undefined || m === null || ran > 0) continue;
      const out = await runMain(m[1]!.split(' '));
      expect(out.code, out.err).toBe(0);
      expect(move.expected).toMatch(new RegExp(`^${(JSON.parse(out.out) as { moveName: string }).moveName} `));
      ran++;
    }
    expect(boards).toBeGreaterThan(3);
    expect(ran).toBe(1);
    // Its links: back to the table, to the submission before; none after the last.
    expect(links(find(html, 'nav', 'subnav')[0]!)).toEqual(['/reports/view?path=grades%2Fgrade.json#r1-subs', submissionUrl(k)]);
  });

  it('every link of every page leads to a page', async () => {
    const seen = new Set<string>();
    const queue = ['/reports/view?path=grades/grade.json'];
    while (queue.length > 0) {
      const url = queue.shift()!;
      if (seen.has(url)) continue;
      seen.add(url);
      const html = await page(url);
      for (const href of links(html)) if (!href.startsWith('#')) queue.push(href.split('#')[0]!);
    }
    expect([...seen].sort()).toEqual(['/reports/view?path=grades/grade.json', '/reports/view?path=grades%2Fgrade.json', ...[1, 2, 3].map(submissionUrl), submissionUrl(1).replace('=1', '=all')].sort());
    const all = await page('/reports/view?path=grades/grade.json&submission=all');
    expect(find(all, 'section', 'sub').map((s) => s.attrs.id)).toEqual(['r1-s1', 'r1-s2', 'r1-s3']);
  });

  it("serves the pages' style sheet and script, the self-contained report's", async () => {
    const css = await get('/reports/report.css');
    expect(css.statusCode).toBe(200);
    expect(css.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(css.body).toBe(REPORT_CSS);
    const js = await get('/reports/report.js');
    expect(js.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(js.body).toBe(REPORT_SCRIPT);
    expect((await app.inject({ method: 'GET', url: '/reports/report.css', headers: { ...AUTH, 'if-none-match': css.headers.etag as string } })).statusCode).toBe(304);
    // The app's own page keeps its policy, which lets it frame the reports and nobody frame it.
    const index = await get('/');
    expect(index.headers['content-security-policy']).toMatch(/frame-src 'self'.*frame-ancestors 'none'/);
    expect(REPORT_PAGE_CSP).toMatch(/^default-src 'none';.*frame-ancestors 'self'$/);
    expect(REPORT_PAGE_CSP).not.toMatch(/unsafe/);
  });
});

describe('the Reports page: refusals, one line each', () => {
  for (const base of ['/api/report', '/reports/view']) {
    it(`${base}: outside the root, missing, a folder, no path`, async () => {
      expect(await refused(`${base}?path=../outside.json`)).toEqual({ status: 403, error: expect.stringMatching(/^\.\.\/outside\.json: outside the folder this server reads/) });
      expect((await refused(`${base}?path=/etc/passwd`)).status).toBe(403);
      expect(await refused(`${base}?path=grades/nothing.json`)).toEqual({ status: 404, error: expect.stringMatching(/^grades\/nothing\.json: no such file or folder under /) });
      expect(await refused(`${base}?path=grades`)).toEqual({ status: 400, error: 'grades: a folder, not a grade report file' });
      expect(await refused(base)).toEqual({ status: 400, error: 'query field "path": expected a grade report\'s path under the server\'s folder, but it is missing' });
    });

    it(`${base}: a malformed file names the file and the line or the field`, async () => {
      const broken = await refused(`${base}?path=grades/broken.json`);
      expect(broken.status).toBe(422);
      // The comma missing at the end of line 3 is missed where the next field starts.
      expect(broken.error).toBe("grades/broken.json:4: expected a JSON grade report (Expected ',' or '}' after property value)");
      expect(await refused(`${base}?path=grades/wrong.json`)).toEqual({
        status: 422,
        error: 'grades/wrong.json: field "submissions[1].cases[0].status": expected one of passed, failed, error, timeout, memory, output-limit, got (text not shown)',
      });
      expect(await refused(`${base}?path=grades/check.json`)).toEqual({ status: 422, error: expect.stringMatching(/^grades\/check\.json: field "reports": a report per suite \(mancala check --json\)/) });
      expect(await refused(`${base}?path=grades/package.json`)).toEqual({ status: 422, error: expect.stringMatching(/^grades\/package\.json: field "name": unknown field|^grades\/package\.json: field "version"/) });
    });
  }

  it('a submission the report does not have', async () => {
    expect(await refused('/reports/view?path=grades/grade.json&submission=4')).toEqual({ status: 404, error: 'grades/grade.json: no submission 4: it has 3 (submission=1 to 3)' });
    for (const bad of ['0', '-1', 'x', '1.5', '']) {
      expect(await refused(`/reports/view?path=grades/grade.json&submission=${bad}`)).toEqual({ status: 400, error: expect.stringMatching(/^query field "submission": expected a submission number ≥ 1, or all, got /) });
    }
    expect((await refused('/reports/view?path=grades/grade.json&x=1')).error).toBe('query field "x": unknown field');
  });
});

describe('the Reports page: the cache', () => {
  it('parses a file once while it stays the same, again when it changes, and keeps a few', () => {
    const dir = join(work, 'cache');
    mkdirSync(dir);
    const files = new ReportFiles(dir);
    writeFileSync(join(dir, 'a.json'), gradeText);
    const first = files.open('a.json');
    expect(files.open('a.json')).toBe(first);
    expect(first.report.submissions).toHaveLength(3);
    // Rewritten (another size): read again.
    const one = JSON.parse(gradeText) as GradeReport;
    one.submissions = one.submissions.slice(0, 1);
    writeFileSync(join(dir, 'a.json'), JSON.stringify(one, null, 2));
    const second = files.open('a.json');
    expect(second).not.toBe(first);
    expect(second.report.submissions).toHaveLength(1);
    // Six more files: the least recently used (a.json) is dropped, the others kept.
    for (let k = 0; k < 6; k++) writeFileSync(join(dir, `b${k}.json`), gradeText);
    const kept = Array.from({ length: 6 }, (_, k) => files.open(`b${k}.json`));
    expect(files.open('b5.json')).toBe(kept[5]);
    expect(files.open('a.json')).not.toBe(second);
    expect(files.open('b0.json')).not.toBe(kept[0]);
  });
});
