/// <reference lib="dom" />
// page.evaluate runs these functions in the browser. framework/ is type-checked without the DOM (typecheck:framework, tsconfig.web.json).
/**
 * The Tournaments page in a real browser: Debian's chromium driven by playwright-core, against the
 * built `mancala serve` (dist/), at 1280×800 and at a 390-px phone width. A finished tournament's
 * standings (as the CLI wrote them), its ratings plot and its crosstable heat map, a cell's games
 * and one of them opened on the Replays page; and a tournament RUNNING while the page watches,
 * whose count of games played rises on the page, without a reload, to the total. Throughout, no
 * console error and no request that leaves 127.0.0.1.
 *
 * Screenshots go to tmp/web-screenshots/ (git-ignored); with UPDATE_SCREENSHOTS=1 the README's
 * are written to framework/web/screenshots/ too. Without chromium this file says so and skips, but fails under CI.
 * The harness (the server, the browser, the recording, the screenshots): testcases/fixtures/web-browser.ts.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StandingsJson } from '../framework/tournaments/crosstable.ts';
import { chromiumOrNotice, closeRecorded, MANCALA, screenshot, ServedApp, VIEWPORTS, type Recorded } from './fixtures/web-browser.ts';

const work = mkdtempSync(join(tmpdir(), 'web-tournaments-e2e-'));
const app = new ServedApp(work, 'none');
const chromium = chromiumOrNotice('the web app\'s browser tests');

const tournaments: ChildProcess[] = [];
/** the finished tournament's standings, as the CLI wrote them (--json) */
let cli: StandingsJson;

beforeAll(async () => {
  if (chromium === undefined) return;
  execFileSync(
    process.execPath,
    [MANCALA, 'tournament', 'random', 'greedy', 'alphabeta:depth=2', 'alphabeta:depth=4', '--pits', '4', '--seeds', '3', '--games-per-pair', '2', '--seed', '3', '--out', 't1', '--json', 't1.json', '--no-progress'],
    { cwd: work, stdio: 'pipe' },
  );
  cli = JSON.parse(readFileSync(join(work, 't1.json'), 'utf8')) as StandingsJson;

  await app.start();
}, 120_000);

afterAll(async () => {
  await app.stop();
  for (const t of tournaments) if (t.exitCode === null) t.kill('SIGINT');
  rmSync(work, { recursive: true, force: true });
});

/** A new context at width×height, recorded: no refusal is set apart, every console error is an error. */
const open = (width: number, height: number): Promise<Recorded> => app.open(width, height);

/** The README's screenshot, at 0.6 scale: the whole page, the standings, the plot and the heat map together (about 770×710). */
const shot = (page: Page, name: string, readme?: string) => screenshot(page, name, readme, true);

/** The page must fit the width: no sideways scrolling of the page (a wide table scrolls in its own box). */
async function fits(page: Page, width: number): Promise<void> {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
}

const sizes = VIEWPORTS;

describe.skipIf(chromium === undefined)('the Tournaments page in chromium', () => {
  for (const size of sizes) {
    describe(`at ${size.width}×${size.height}`, () => {
      it('a finished tournament: standings, the ratings plot, the heat map; a cell’s game opens its replay', async () => {
        const r = await open(size.width, size.height);
        const { page } = r;
        await page.goto(`${app.origin}/#/tournaments`);
        await page.locator('#t-files a[data-folder="t1"]').click();
        await page.locator('#t-files a[data-file="results.jsonl"]').click();
        await page.locator('#t-standings tbody tr').first().waitFor();
        expect(page.url()).toContain('#/tournaments?dir=t1&path=t1%2Fresults.jsonl');
        expect(await page.locator('#t-title').textContent()).toBe('t1');
        expect(await page.locator('#t-played').textContent()).toBe(`${cli.games} of ${cli.games} games played`);
        expect(await page.locator('#t-live').textContent()).toBe('finished');
        expect(await page.locator('#t-progress').evaluate((e) => [(e as HTMLProgressElement).value, (e as HTMLProgressElement).max])).toEqual([cli.games, cli.games]);

        // The standings: the CLI's, in its order.
        const rows = await page.locator('#t-standings tbody tr').evaluateAll((trs) => trs.map((tr) => Array.from(tr.children, (c) => (c.classList.contains('rating') ? c.firstChild!.textContent : c.textContent) ?? '')));
        expect(rows).toEqual(
          cli.standings.map((s, k) => [String(k + 1), s.agent, s.rating.toFixed(1), `${s.ci[0].toFixed(1)} – ${s.ci[1].toFixed(1)}`, String(s.wins), String(s.draws), String(s.losses), String(s.points), String(s.forfeits)]),
        );

        // The plot: a row an agent, its dot inside its interval, best first from the top, ordered by rating along the axis.
        const plot = await page.locator('#t-plot svg .plot-row').evaluateAll((gs) =>
          gs.map((g) => {
            const dot = g.querySelector('circle')!;
            const line = g.querySelector('line.plot-interval')!;
            return { agent: g.getAttribute('data-agent'), cx: Number(dot.getAttribute('cx')), cy: Number(dot.getAttribute('cy')), x1: Number(line.getAttribute('x1')), x2: Number(line.getAttribute('x2')) };
          }),
        );
        expect(plot.map((p) => p.agent)).toEqual(cli.standings.map((s) => s.agent));
        for (const p of plot) {
          expect(p.cx).toBeGreaterThan(p.x1);
          expect(p.cx).toBeLessThan(p.x2);
        }
        for (let k = 1; k < plot.length; k++) {
          expect(plot[k]!.cy).toBeGreaterThan(plot[k - 1]!.cy);
          expect(plot[k]!.cx).toBeLessThanOrEqual(plot[k - 1]!.cx);
        }
        const svgWidth = await page.locator('#t-plot svg').evaluate((s) => s.getBoundingClientRect().width);
        expect(svgWidth).toBeGreaterThan(size.width * 0.6);
        expect(await page.locator('#t-plot svg .plot-axis text').count()).toBeGreaterThan(3);

        // The heat map: every pairing played, its points written in it and its colour from their share.
        const n = cli.standings.length;
        const cells = await page.locator('#t-crosstable td.heat').evaluateAll((tds) =>
          tds.map((td) => ({ text: td.textContent ?? '', colour: (td as HTMLElement).style.backgroundColor, row: td.querySelector('button')!.dataset['row'], col: td.querySelector('button')!.dataset['col'] })),
        );
        expect(cells.length).toBe(n * (n - 1));
        for (const c of cells) expect(c.text).toMatch(/^(0|1|2|0\.5|1\.5)\/2$/);
        expect(new Set(cells.map((c) => c.colour)).size).toBeGreaterThan(1);
        // A row's points against everyone are its standing's points.
        for (let row = 1; row <= n; row++) {
          const points = cells.filter((c) => c.row === String(row)).reduce((sum, c) => sum + Number(c.text.split('/')[0]), 0);
          expect(points).toBe(cli.standings[row - 1]!.points);
        }
        expect(await page.locator('#t-legend .legend-bar').evaluate((e) => (e as HTMLElement).style.backgroundImage)).toMatch(/^linear-gradient/);
        await fits(page, size.width);

        // A cell: its games; one of them: the Replays page on that game.
        await page.locator('#t-crosstable button[data-row="1"][data-col="2"]').click();
        await page.locator('#t-pairing:not([hidden])').waitFor();
        expect(await page.locator('#t-pairing h3').textContent()).toBe(`${cli.standings[0]!.agent} against ${cli.standings[1]!.agent}`);
        const links = page.locator('#t-pairing a[data-game]');
        expect(await links.count()).toBe(2);
        expect(page.url()).toContain(`row=${encodeURIComponent(cli.standings[0]!.agent)}`);
        await shot(page, `tournaments-${size.name}`, size.name === '1280' ? 'tournaments' : undefined);
        const game = (await links.last().getAttribute('data-game'))!;
        expect(await links.last().getAttribute('href')).toBe(`#/replays?path=t1%2Fresults.jsonl&game=${game}`);
        await links.last().click();
        await expect.poll(() => page.locator('.replay-title').textContent()).toMatch(new RegExp(`^Game ${game}: .+ \\(A\\) vs .+ \\(B\\)$`));
        const title = (await page.locator('.replay-title').textContent())!;
        expect(title).toContain(cli.standings[0]!.agent);
        expect(title).toContain(cli.standings[1]!.agent);
        await page.locator('#board .pit').first().waitFor();
        // Back: the tournament again, its pairing still open.
        await page.goBack();
        await page.locator('#t-pairing:not([hidden])').waitFor();
        await closeRecorded(r);
      });

      it('a running tournament: the games played rise on the page, live, to the total', async () => {
        const out = `live-${size.name}`;
        // Time-limited agents: every game takes a while, whatever the machine.
        const t = spawn(process.execPath, [MANCALA, 'tournament', 'strong:ms=80', 'strong:ms=50', 'alphabeta:depth=4', '--games-per-pair', '3', '--seed', '5', '--out', out, '--no-progress'], {
          cwd: work,
          stdio: 'ignore',
        });
        tournaments.push(t);
        const file = join(work, out, 'results.jsonl');
        await expect.poll(() => existsSync(file) && readFileSync(file, 'utf8').includes('\n'), { timeout: 10_000, interval: 50 }).toBe(true);

        const r = await open(size.width, size.height);
        const { page } = r;
        await page.goto(`${app.origin}/#/tournaments?path=${out}/results.jsonl`);
        await page.locator('#t-played').waitFor();
        // Everything the page shows of the count and the badge, as it changes; and a mark a reload would wipe.
        await page.evaluate(() => {
          const w = window as unknown as { seen: string[]; badges: string[]; notReloaded: boolean };
          w.seen = [document.getElementById('t-played')!.textContent ?? ''];
          w.badges = [document.getElementById('t-live')!.textContent ?? ''];
          w.notReloaded = true;
          const note = () => {
            const played = document.getElementById('t-played')!.textContent ?? '';
            const badge = document.getElementById('t-live')!.textContent ?? '';
            if (played !== w.seen[w.seen.length - 1]) w.seen.push(played);
            if (badge !== w.badges[w.badges.length - 1]) w.badges.push(badge);
          };
          new MutationObserver(note).observe(document.getElementById('outlet')!, { subtree: true, childList: true, characterData: true });
        });
        await page.locator('#t-live.live').waitFor({ timeout: 10_000 });
        await shot(page, `tournaments-live-${size.name}`);
        await page.locator('#t-live.finished').waitFor({ timeout: 60_000 });
        const seen = await page.evaluate(() => (window as unknown as { seen: string[] }).seen);
        const badges = await page.evaluate(() => (window as unknown as { badges: string[] }).badges);
        expect(await page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);
        const counts = seen.map((s) => Number(/^(\d+) of 9 games played$/.exec(s)?.[1]));
        expect(counts.every(Number.isInteger), seen.join(' | ')).toBe(true);
        expect(new Set(counts).size, seen.join(' | ')).toBeGreaterThanOrEqual(2);
        expect(counts).toEqual([...counts].sort((a, b) => a - b));
        expect(counts[counts.length - 1]).toBe(9);
        expect(badges).toContain('live');
        expect(badges[badges.length - 1]).toBe('finished');
        expect(await page.locator('#t-crosstable td.partial').count()).toBe(0);
        await fits(page, size.width);
        await new Promise<void>((done) => (t.exitCode !== null ? done() : t.once('exit', () => done())));
        expect(t.exitCode).toBe(0);
        await closeRecorded(r);
      });
    });
  }
});
