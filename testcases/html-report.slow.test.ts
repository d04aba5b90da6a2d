/// <reference lib="dom" />
// page.evaluate runs these functions in the browser. framework/ is type-checked without the DOM (typecheck:framework, tsconfig.web.json).
/**
 * The HTML report (`--html`) in a real browser: Debian's chromium driven by playwright-core,
 * the page opened from disk (file://) as an instructor opens it. Real grading (alice, bob and
 * carol on kalah-basics) and a synthetic class of 200: no console error, no request but the file
 * itself, a submission reached from the table by mouse and by keyboard, a failing case read (its
 * board, expected against got, its whole message), the copy button, sorting and filtering, and
 * the same page at 1280×800 and at a 390-px phone width. Screenshots go to .scratch/html-report/
 * (looked at when the page changes). Skips, saying why, without chromium or playwright-core.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GradeReport } from '../framework/grading/report.ts';
import { syntheticClassReport } from '../framework/grading/reporters/html-bench.ts';
import { renderHtmlReport } from '../framework/grading/reporters/html.ts';
import { parseReport, toJson } from '../framework/grading/reporters/json.ts';
import { gradeSubmissions } from '../framework/grading/runner.ts';
import { loadSuite } from '../framework/suites/load.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SHOTS = join(ROOT, '.scratch', 'html-report');
const CHROMIUM = '/usr/bin/chromium';

/** Why the browser cannot run here, or undefined. */
async function missing(): Promise<string | undefined> {
  if (!existsSync(CHROMIUM)) return `${CHROMIUM} is not installed (apt-get install chromium)`;
  try {
    await import('playwright-core');
    return undefined;
  } catch {
    return 'playwright-core is not installed';
  }
}

const why = await missing();
if (why !== undefined) console.log(`html-report.slow.test.ts: skipped: ${why}`);

describe.skipIf(why !== undefined)('the HTML report in chromium, from disk', () => {
  let browser: Browser;
  let report: GradeReport;
  let file: string;
  let classFile: string;
  const timings: string[] = [];

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    const suite = await loadSuite(join(ROOT, 'testcases/kalah-basics'));
    const graded = await gradeSubmissions({ suite, submissions: ['alice', 'bob', 'carol'].map((n) => join(ROOT, 'agents/examples', n)), visibility: 'all', jobs: 2 });
    report = parseReport(toJson(graded), 'report.json');
    file = join(SHOTS, 'kalah-basics.html');
    writeFileSync(file, renderHtmlReport(report));
    classFile = join(SHOTS, 'class-of-200.html');
    writeFileSync(classFile, renderHtmlReport(syntheticClassReport(200, 30)));
    const { chromium } = await import('playwright-core');
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] });
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    if (timings.length > 0) console.log(`html report in chromium:\n  ${timings.join('\n  ')}`);
  });

  /** A page that records console errors, page errors and every request that is not the file itself. */
  async function open(url: string, viewport: { width: number; height: number }): Promise<{ page: Page; problems: string[] }> {
    const page = await browser.newPage({ viewport });
    const problems: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error' || m.type() === 'warning') problems.push(`console ${m.type()}: ${m.text()}`);
    });
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    page.on('request', (r) => {
      if (r.url().split('#')[0] !== url.split('#')[0]) problems.push(`request: ${r.url()}`);
    });
    await page.goto(url, { waitUntil: 'load' });
    return { page, problems };
  }

  it('opens on the class summary and the table at 1280×800: histogram, pass rates, every submission; nothing fetched, no error', async () => {
    const { page, problems } = await open(pathToFileURL(file).href, { width: 1280, height: 800 });
    await page.locator('#r1-summary').waitFor({ state: 'visible' });
    expect(await page.locator('g.hbin').count()).toBe(11);
    expect(await page.locator('.subs-table tbody tr').count()).toBe(3);
    expect(await page.locator('.sub:visible').count()).toBe(0);
    // The script ran: the filters are shown and count the rows.
    expect(await page.locator('.f-count').textContent()).toBe('Showing 3 of 3 submissions');
    await page.screenshot({ path: join(SHOTS, 'summary-1280.png'), fullPage: true });
    expect(problems).toEqual([]);
    await page.close();
  });

  it('a click on a submission shows it alone; into a failing case: its board, expected against got, the whole message, the copy button', async () => {
    const { page, problems } = await open(pathToFileURL(file).href, { width: 1280, height: 800 });
    const carol = report.submissions.findIndex((s) => s.id === 'carol');
    await page.getByRole('link', { name: 'carol', exact: true }).click();
    await expect.poll(() => page.url()).toMatch(new RegExp(`#r1-s${carol + 1}$`));
    await page.locator(`#r1-s${carol + 1}`).waitFor({ state: 'visible' });
    expect(await page.locator('#r1-summary').isHidden()).toBe(true);
    expect(await page.locator('.sub:visible').count()).toBe(1);
    const kase = page.locator('article.case', { hasText: 'free-turn-next-state' });
    await kase.scrollIntoViewIfNeeded();
    expect(await kase.locator('table.cmp').textContent()).toContain('T5 (index 5)');
    expect(await kase.locator('table.mb-board').isVisible()).toBe(true);
    expect(await kase.locator('td.mb-expected').textContent()).toBe('1');
    expect(await kase.locator('td.mb-got').textContent()).toBe('2');
    await kase.getByText('Whole message').click();
    await kase.locator('details pre').waitFor({ state: 'visible' });
    expect(await kase.locator('details pre').textContent()).toContain('expected board:');
    await kase.getByRole('button', { name: 'Copy' }).click();
    await expect.poll(() => kase.locator('button.copy').textContent()).toMatch(/^(Copied|Selected: press Ctrl\+C)$/);
    await kase.screenshot({ path: join(SHOTS, 'failing-case-1280.png') });
    await page.screenshot({ path: join(SHOTS, 'submission-1280.png') });
    // Back to the table.
    await page.getByRole('link', { name: '← All submissions' }).first().click();
    await page.locator('#r1-subs').waitFor({ state: 'visible' });
    expect(problems).toEqual([]);
    await page.close();
  });

  it('by keyboard: the skip link, then a submission link, Enter opens it', async () => {
    const { page, problems } = await open(pathToFileURL(file).href, { width: 1280, height: 800 });
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.className)).toBe('skip');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.url()).toMatch(/#r1-subs$/);
    // From the table's section, Tab walks its controls and reaches the first submission's link.
    let reached = false;
    for (let k = 0; k < 30 && !reached; k++) {
      await page.keyboard.press('Tab');
      reached = await page.evaluate(() => document.activeElement?.textContent === 'alice' && document.activeElement.tagName === 'A');
    }
    expect(reached).toBe(true);
    await page.keyboard.press('Enter');
    await expect.poll(() => page.url()).toMatch(/#r1-s1$/);
    await page.locator('#r1-s1').waitFor({ state: 'visible' });
    expect(problems).toEqual([]);
    await page.close();
  });

  it('sorts by score and filters by failing category and by name', async () => {
    const { page, problems } = await open(pathToFileURL(file).href, { width: 1280, height: 800 });
    const names = () => page.locator('.subs-table tbody tr:visible td:nth-child(2)').allTextContents();
    await page.getByRole('button', { name: 'score', exact: true }).click();
    expect(await names()).toEqual(['carol', 'bob', 'alice']);
    expect(await page.locator('th[aria-sort=ascending]').count()).toBe(1);
    await page.getByRole('button', { name: 'score', exact: true }).click();
    expect(await names()).toEqual(['alice', 'bob', 'carol']);
    await page.getByLabel('Failing category').selectOption({ label: 'heuristic' });
    expect(await names()).toEqual(['bob', 'carol']);
    await page.getByLabel('Failing category').selectOption({ label: 'any' });
    await page.getByLabel('Name').fill('CAR');
    expect(await names()).toEqual(['carol']);
    expect(await page.locator('.f-count').textContent()).toBe('Showing 1 of 3 submissions');
    expect(problems).toEqual([]);
    await page.close();
  });

  it('at a 390-px phone width: the page is no wider than the screen (tables scroll in their own boxes)', async () => {
    for (const hash of ['', '#r1-s3']) {
      const { page, problems } = await open(pathToFileURL(file).href + hash, { width: 390, height: 844 });
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      expect(width, hash).toBeLessThanOrEqual(390);
      await page.screenshot({ path: join(SHOTS, `phone-390${hash === '' ? '' : '-submission'}.png`), fullPage: hash === '' });
      expect(problems).toEqual([]);
      await page.close();
    }
  });

  it('a class of 200: first paint, and a submission opened from the table', async () => {
    const { page, problems } = await open(pathToFileURL(classFile).href, { width: 1280, height: 800 });
    const paint = await page.evaluate(() => performance.getEntriesByType('paint').find((e) => e.name === 'first-contentful-paint')?.startTime ?? -1);
    const load = await page.evaluate(() => performance.getEntriesByType('navigation')[0]!.duration);
    expect(await page.locator('.subs-table tbody tr').count()).toBe(200);
    // The link clicked in the page, timed there from the click to the frame after it is drawn.
    const opened = await page.evaluate(
      () =>
        new Promise<number>((done) => {
          const t0 = performance.now();
          (document.querySelector('.subs-table a[href="#r1-s150"]') as HTMLElement).click();
          requestAnimationFrame(() => setTimeout(() => done(performance.now() - t0), 0));
        }),
    );
    await page.locator('#r1-s150').waitFor({ state: 'visible' });
    expect(await page.locator('#r1-summary').isHidden()).toBe(true);
    timings.push(`class of 200: first contentful paint ${paint.toFixed(0)} ms, loaded ${load.toFixed(0)} ms, a submission opened from the table in ${opened.toFixed(0)} ms`);
    expect(paint).toBeGreaterThan(0);
    expect(paint).toBeLessThan(5000);
    expect(problems).toEqual([]);
    await page.close();
  });
});
