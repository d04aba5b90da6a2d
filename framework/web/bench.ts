/**
 * `mancala bench`: the web app's time to first render — the Play page loaded into a fresh
 * browser (no cache), from navigation until its board is drawn (the page marks it:
 * `mancala:board`, after the game it starts on load is answered), and its first paint. The server
 * runs in this process; the browser is chromium through playwright-core (browser.ts), and the
 * line says why it is skipped where either is missing.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
  const app = await createWebApp({ root, sandbox: 'weak', host: '127.0.0.1', assets: files });
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
