/// <reference lib="dom" />
// page.evaluate runs these functions in the browser. framework/ is type-checked without the DOM (typecheck:framework, tsconfig.web.json).
/**
 * The web app's Reports page in a real browser: Debian's chromium driven by playwright-core,
 * against the built `mancala serve` (dist/), at 1280×800 and at a 390-px phone width. In its
 * folder the real `mancala grade --json` has graded alice, bob and carol on kalah-basics (carol
 * fails most cases). The report is opened from the folder; the class page shows the histogram
 * and each case's pass rate; carol is reached from the table, and her failing case read: its
 * board, expected against got and the reproduce command as the JSON report says them; the
 * address keeps the submission, and opening that address shows it again. A malformed report and
 * a submission the report does not have are messages on the page naming the file and the field.
 * Throughout, no console error (but the refusals asked for) and no request that leaves 127.0.0.1.
 *
 * Screenshots go to tmp/web-screenshots/ (git-ignored); with UPDATE_SCREENSHOTS=1 the README's
 * are written to framework/web/screenshots/ too. Without chromium this file says so and skips, but fails under CI.
 * The harness (the server, the browser, the recording, the screenshots): testcases/fixtures/web-browser.ts.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FrameLocator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GradeReport } from '../framework/grading/report.ts';
import { caseDetails } from '../framework/grading/reporters/case-details.ts';
import { parseReport } from '../framework/grading/reporters/json.ts';
import { chromiumOrNotice, closeRecorded, MANCALA, ROOT, screenshot, ServedApp, VIEWPORTS, type Recorded } from './fixtures/web-browser.ts';

const work = mkdtempSync(join(tmpdir(), 'web-reports-e2e-'));
const app = new ServedApp(work, 'anywhere');
const chromium = chromiumOrNotice('the Reports page\'s browser tests');

let report: GradeReport;

beforeAll(async () => {
  if (chromium === undefined) return;
  mkdirSync(join(work, 'grades'));
  const examples = ['alice', 'bob', 'carol'].map((n) => join(ROOT, 'agents/examples', n));
  const graded = spawnSync(process.execPath, [MANCALA, 'grade', ...examples, '--suite', join(ROOT, 'testcases/kalah-basics'), '--json', 'grades/grade.json'], { cwd: work, encoding: 'utf8' });
  expect(graded.stderr).toContain('wrote grades/grade.json');
  const text = readFileSync(join(work, 'grades/grade.json'), 'utf8');
  report = parseReport(text, 'grade.json');
  const wrong = JSON.parse(text) as GradeReport;
  (wrong.submissions[1]!.cases[0] as { status: string }).status = 'flaky';
  writeFileSync(join(work, 'grades/wrong.json'), JSON.stringify(wrong, null, 2));

  await app.start();
}, 120_000);

afterAll(async () => {
  await app.stop();
  rmSync(work, { recursive: true, force: true });
});

/** A new context at width×height, recorded: a refusal from anywhere on the server is set apart, not only the API's (the frame's page, /reports/view, is refused too). */
const open = (width: number, height: number): Promise<Recorded> => app.open(width, height);

/** Nothing wider than its window: the app's page, and the report's page in its frame. */
async function fits(page: Page, width: number): Promise<void> {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
  const frame = (await (await page.$('#report-frame'))!.contentFrame())!;
  expect(await frame.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
}

const hashParams = (page: Page) => Object.fromEntries(new URLSearchParams(new URL(page.url()).hash.replace(/^#\/reports\??/, '')));

const sizes = [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
] as const;

describe.skipIf(chromium === undefined)('the Reports page in chromium', () => {
  for (const size of sizes) {
    describe(`at ${size.width}×${size.height}`, () => {
      it('opens a report from the folder, reaches a failing submission from the table and reads its failing case', async () => {
        const r = await open(size.width, size.height);
        const { page } = r;
        await page.goto(`${app.origin}/#/reports`);
        await page.locator('#report-files a[data-folder="grades"]').click();
        await page.locator('#report-files a[data-file="grade.json"]').click();
        const frame: FrameLocator = page.frameLocator('#report-frame');
        // The class page: the histogram, each case's pass rate, the table (sorted and filtered by its script, which runs under the page's policy).
        await frame.locator('svg.hist').waitFor();
        expect(await page.locator('#report-title').textContent()).toBe('Suite Kalah basics');
        expect(await page.locator('#report-meta').textContent()).toMatch(/^grades\/grade\.json · 3 submissions · mean [\d.]+ \/ 100 · 1 with every case passed$/);
        expect(await frame.locator('svg.hist g.hbin').count()).toBe(11);
        const counts = await frame.locator('svg.hist g.hbin').evaluateAll((gs) => gs.map((g) => Number(g.getAttribute('data-count'))));
        expect(counts.reduce((t, c) => t + c, 0)).toBe(3);
        const caseIds = new Set(report.submissions.flatMap((s) => s.cases.map((c) => c.id)));
        expect(await frame.locator('table.case-rates tbody tr').count()).toBe(caseIds.size);
        await frame.locator('.filters:not([hidden])').waitFor();
        expect(hashParams(page)).toEqual({ dir: 'grades', path: 'grades/grade.json' });
        await screenshot(page, `reports-class-${size.width}`, size.width === 1280 ? 'reports' : undefined);
        await fits(page, size.width);

        // carol, from the table.
        const k = report.submissions.findIndex((s) => s.id === 'carol');
        const carol = report.submissions[k]!;
        await frame.locator('table.subs-table a', { hasText: 'carol' }).click();
        await frame.locator('section.sub h2', { hasText: 'carol' }).waitFor();
        await expect.poll(() => hashParams(page)).toEqual({ dir: 'grades', path: 'grades/grade.json', submission: String(k + 1) });
        expect(await page.locator('#report-jump').inputValue()).toBe(String(k + 1));
        // Her first failing case with a position and a move compared: the board, expected against got, the command.
        const c = carol.cases.find((x) => x.status === 'failed' && caseDetails(x).position !== undefined && caseDetails(x).reproduce?.command !== undefined && caseDetails(x).comparisons.some((m) => m.what === 'move'))!;
        const details = caseDetails(c);
        const article = frame.locator(`#r1-s${k + 1}-c${carol.cases.indexOf(c) + 1}`);
        await article.scrollIntoViewIfNeeded();
        expect(await article.isVisible()).toBe(true);
        expect(await article.locator('table.mb-board').isVisible()).toBe(true);
        expect(await article.locator('td.mb-expected').count()).toBe(1);
        expect(await article.locator('table.cmp td.exp').allTextContents()).toEqual(details.comparisons.map((m) => m.expected));
        expect(await article.locator('table.cmp td.got').allTextContents()).toEqual(details.comparisons.map((m) => m.got));
        expect(await article.locator('.repro code').textContent()).toBe(details.reproduce!.command);
        expect(await article.locator('.repro code').isVisible()).toBe(true);
        await article.locator('button.copy').click();
        await expect.poll(() => article.locator('button.copy').textContent()).toMatch(/^(Copied|Selected: press Ctrl\+C)$/);
        await screenshot(page, `reports-submission-${size.width}`, size.width === 1280 ? 'reports-case' : undefined);
        await fits(page, size.width);

        // Back to the table from her page, then to bob by the address alone.
        await frame.locator('nav.subnav a', { hasText: 'All submissions' }).click();
        await frame.locator('table.subs-table').waitFor();
        await expect.poll(() => hashParams(page)).toEqual({ dir: 'grades', path: 'grades/grade.json' });
        await page.goto(`${app.origin}/#/reports?path=grades/grade.json&submission=2`);
        await page.reload();
        await frame.locator('section.sub h2', { hasText: 'bob' }).waitFor();
        expect(await page.locator('#report-jump').inputValue()).toBe('2');
        // And by the menu: the class summary.
        await page.selectOption('#report-jump', '');
        await frame.locator('svg.hist').waitFor();
        await closeRecorded(r);
      });

      it('names the file and the field of a malformed report, and a submission the report does not have', async () => {
        const r = await open(size.width, size.height);
        const { page } = r;
        await page.goto(`${app.origin}/#/reports?path=grades/wrong.json`);
        const message = page.locator('#report-error:not([hidden])');
        await message.waitFor();
        expect(await message.textContent()).toBe(
          'Could not open grades/wrong.json: grades/wrong.json: field "submissions[1].cases[0].status": expected one of passed, failed, error, timeout, memory, output-limit, got (text not shown)',
        );
        expect(await page.locator('.report-view').isHidden()).toBe(true);
        await screenshot(page, `reports-malformed-${size.width}`);
        await page.goto(`${app.origin}/#/reports?path=grades/grade.json&submission=9`);
        await page.reload();
        await expect.poll(() => message.textContent()).toBe('Could not show submission 9: grades/grade.json: no submission 9: it has 3 (submission=1 to 3)');
        expect(await page.locator('#report-frame').isHidden()).toBe(true);
        // The menu still leads back to the report.
        await page.selectOption('#report-jump', '3');
        await page.frameLocator('#report-frame').locator('section.sub h2', { hasText: 'carol' }).waitFor();
        expect(await page.locator('#report-error').isHidden()).toBe(true);
        // (The page and its summary are asked for at once: both are refused.)
        await closeRecorded(r, [/status of 422 .*\/api\/report\?path=grades%2Fwrong\.json$/, /status of 422 .*\/reports\/view\?path=grades%2Fwrong\.json$/, /status of 404 .*\/reports\/view\?path=grades%2Fgrade\.json&submission=9$/]);
      });
    });
  }
});
