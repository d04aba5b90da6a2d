/**
 * `mancala bench`: the web app's time to first render — the Play page loaded into a fresh
 * browser (no cache), from navigation until its board is drawn (the page marks it:
 * `mancala:board`, after the game it starts on load is answered), and its first paint. The server
 * runs in this process; the browser is chromium through playwright-core (browser.ts), and the
 * line says why it is skipped where either is missing.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { syntheticClassReport } from '../grading/reporters/html-bench.ts';
import { toJson } from '../grading/reporters/json.ts';
import { launchChromium } from './browser.ts';
import { createWebApp } from './server/app.ts';
import { loadAssets } from './server/assets.ts';

export type FirstRender =
  | {
      page: string;
      /** median ms from navigation to the board drawn */
      boardMs: number;
      /** median ms to the first contentful paint */
      paintMs: number;
      runs: number;
      browser: string;
      /** what the page loads: the script and the style sheet, bytes */
      scriptBytes: number;
      styleBytes: number;
    }
  | { page: string; skipped: string };

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export async function measurePlayPageRender(runs: number): Promise<FirstRender> {
  const page = 'play';
  const browser = await launchChromium();
  if ('missing' in browser) return { page, skipped: browser.missing };
  const root = mkdtempSync(join(tmpdir(), 'web-bench-'));
  const { files } = await loadAssets();
  const app = await createWebApp({ root, sandbox: 'weak', host: '127.0.0.1', token: null, assets: files }); // a benchmark's own server, on loopback for its run
  try {
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    const url = `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}/#/play`;
    const boards: number[] = [];
    const paints: number[] = [];
    // One run first, not counted: chromium's own start-up (its first tab) is not the page's.
    for (let k = 0; k <= runs; k++) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      const tab = await context.newPage();
      await tab.goto(url);
      await tab.waitForSelector('#board .pit');
      const t = await tab.evaluate(() => ({
        board: performance.getEntriesByName('mancala:board')[0]?.startTime ?? NaN,
        paint: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN,
      }));
      await context.close();
      if (k === 0) continue;
      boards.push(t.board);
      paints.push(t.paint);
    }
    const bytes = (ending: string) => [...files.entries()].find(([name]) => name.endsWith(ending))?.[1].body.length ?? 0;
    return { page, boardMs: median(boards), paintMs: median(paints), runs, browser: `chromium ${browser.version()}`, scriptBytes: bytes('.js'), styleBytes: bytes('.css') };
  } finally {
    await browser.close();
    await app.close();
    rmSync(root, { recursive: true, force: true });
  }
}

export function firstRenderLine(r: FirstRender): string {
  if ('skipped' in r) return `web       ${r.page} page, time to first render: skipped (${r.skipped})`;
  return (
    `web       ${r.page} page, time to first render: board drawn ${r.boardMs.toFixed(0)} ms after navigation, first paint ${r.paintMs.toFixed(0)} ms ` +
    `(median of ${r.runs} fresh browser contexts, ${r.browser}; app.js ${(r.scriptBytes / 1024).toFixed(1)} KB, app.css ${(r.styleBytes / 1024).toFixed(1)} KB)`
  );
}

export type ReportPageRender =
  | {
      page: string;
      submissions: number;
      cases: number;
      /** the server: the class page's first request (the file read, parsed and checked, the page rendered), and a later one (kept) */
      serverFirstMs: number;
      serverCachedMs: number;
      /** the server: a submission's page (rendered at each request) */
      serverSubmissionMs: number;
      /** the class page, UTF-8 bytes, and its file's */
      pageBytes: number;
      fileBytes: number;
      /** median ms from navigation to the class page's first contentful paint, and to its load event (its style sheet and script in) */
      paintMs: number;
      loadMs: number;
      /** median ms from navigating to the app's Reports page (#/reports?path=…) until the class page paints in its frame */
      inAppMs: number;
      runs: number;
      browser: string;
    }
  | { page: string; skipped: string };

/**
 * The Reports page's time to first render (server/report-pages.ts): a class of `submissions`
 * (html-bench.ts's synthetic class: 200 × 30 cases, a third failing, each drawn out) written as
 * its JSON report into a fresh root, the class page loaded into a fresh browser context on its
 * own and in the app's frame. The server's times are in this process, through Fastify's
 * injection: the first request reads and parses the file, later ones find it kept.
 */
export async function measureReportPageRender(runs: number, submissions = 200, cases = 30): Promise<ReportPageRender> {
  const page = 'reports';
  const browser = await launchChromium();
  if ('missing' in browser) return { page, skipped: browser.missing };
  const root = mkdtempSync(join(tmpdir(), 'web-bench-'));
  const json = toJson(syntheticClassReport(submissions, cases));
  writeFileSync(join(root, 'class.json'), json);
  const { files } = await loadAssets();
  const app = await createWebApp({ root, sandbox: 'weak', host: '127.0.0.1', token: null, assets: files }); // a benchmark's own server, on loopback for its run
  try {
    const timed = async (url: string) => {
      const t0 = performance.now();
      const r = await app.inject({ method: 'GET', url });
      const ms = performance.now() - t0;
      if (r.statusCode !== 200) throw new Error(`${url}: ${r.statusCode} ${r.body.slice(0, 200)}`);
      return { ms, bytes: r.rawPayload.length };
    };
    const view = '/reports/view?path=class.json';
    const first = await timed(view);
    const cached: number[] = [];
    const submission: number[] = [];
    for (let k = 0; k < Math.max(3, runs); k++) {
      cached.push((await timed(view)).ms);
      submission.push((await timed(`${view}&submission=${1 + ((k * 37) % submissions)}`)).ms);
    }
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    const origin = `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}`;
    const paints: number[] = [];
    const loads: number[] = [];
    const inApp: number[] = [];
    // One run first, not counted: chromium's own start-up (its first tab) is not the page's.
    for (let k = 0; k <= runs; k++) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      const tab = await context.newPage();
      await tab.goto(`${origin}${view}`, { waitUntil: 'load' });
      await tab.waitForFunction(() => performance.getEntriesByName('first-contentful-paint').length > 0);
      const t = await tab.evaluate(() => ({
        paint: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN,
        // (framework/ is type-checked without the DOM's types: the navigation entry is found by its type's name)
        load: (performance.getEntries().find((e) => String(e.entryType) === 'navigation') as unknown as { loadEventEnd: number } | undefined)?.loadEventEnd ?? NaN,
      }));
      // In the app: from its navigation to the frame's first paint, on one clock (each document's timeOrigin).
      const app2 = await context.newPage();
      await app2.goto(`${origin}/#/reports?path=class.json`);
      const frame = app2.frameLocator('#report-frame');
      await frame.locator('svg.hist').waitFor();
      const frameHandle = await (await app2.$('#report-frame'))!.contentFrame();
      await frameHandle!.waitForFunction(() => performance.getEntriesByName('first-contentful-paint').length > 0);
      const framePaint = await frameHandle!.evaluate(() => performance.timeOrigin + performance.getEntriesByName('first-contentful-paint')[0]!.startTime);
      const appOrigin = await app2.evaluate(() => performance.timeOrigin);
      await context.close();
      if (k === 0) continue;
      paints.push(t.paint);
      loads.push(t.load);
      inApp.push(framePaint - appOrigin);
    }
    return {
      page,
      submissions,
      cases,
      serverFirstMs: first.ms,
      serverCachedMs: median(cached),
      serverSubmissionMs: median(submission),
      pageBytes: first.bytes,
      fileBytes: Buffer.byteLength(json, 'utf8'),
      paintMs: median(paints),
      loadMs: median(loads),
      inAppMs: median(inApp),
      runs,
      browser: `chromium ${browser.version()}`,
    };
  } finally {
    await browser.close();
    await app.close();
    rmSync(root, { recursive: true, force: true });
  }
}

export function reportPageLine(r: ReportPageRender): string {
  if ('skipped' in r) return `web       ${r.page} page, time to first render: skipped (${r.skipped})`;
  return (
    `web       ${r.page} page of a class of ${r.submissions} (× ${r.cases} cases), time to first render: first paint ${r.paintMs.toFixed(0)} ms, loaded ${r.loadMs.toFixed(0)} ms, ` +
    `in the app's frame ${r.inAppMs.toFixed(0)} ms (median of ${r.runs} fresh browser contexts, ${r.browser}); server: first request ${r.serverFirstMs.toFixed(0)} ms ` +
    `(${(r.fileBytes / 1024 / 1024).toFixed(1)} MB read and checked), then ${r.serverCachedMs.toFixed(1)} ms, a submission's page ${r.serverSubmissionMs.toFixed(1)} ms; page ${(r.pageBytes / 1024).toFixed(0)} KB`
  );
}
