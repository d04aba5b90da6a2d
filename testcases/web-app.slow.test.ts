/// <reference lib="dom" />
// page.evaluate runs these functions in the browser. framework/ is type-checked without the DOM (typecheck:framework, tsconfig.web.json).
/**
 * The web app in a real browser: Debian's chromium driven by playwright-core, against the built
 * `mancala serve` (dist/), at 1280×800 and at a 390-px phone width. A whole game against the
 * reference alpha-beta played by clicking (and by the number keys, the arrows and Enter), with a
 * hint and an undo; an unknown agent's message; a replay opened from the folder and stepped; a
 * tournament's game; a malformed replay's message naming the file and the field. Throughout, no
 * console error (but the API's deliberate refusals, which the browser logs), and no request that
 * leaves 127.0.0.1: every request the pages make is recorded.
 *
 * Screenshots go to tmp/web-screenshots/ (git-ignored); with UPDATE_SCREENSHOTS=1 the README's
 * are written to framework/web/screenshots/ too. Without chromium this file says so and skips, but fails under CI.
 * The harness (the server, the browser, the recording, the screenshots): testcases/fixtures/web-browser.ts.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumOrNotice, closeRecorded, MANCALA, screenshot, ServedApp, VIEWPORTS, type Recorded } from './fixtures/web-browser.ts';

const work = mkdtempSync(join(tmpdir(), 'web-e2e-'));
const app = new ServedApp(work);
const chromium = chromiumOrNotice('the web app\'s browser tests');


beforeAll(async () => {
  if (chromium === undefined) return;
  const run = (...args: string[]) => execFileSync(process.execPath, [MANCALA, ...args], { cwd: work, stdio: 'pipe' });
  run('match', 'alphabeta:depth=4', 'random', '--games', '2', '--seed', '3', '--replays', 'replays');
  run('tournament', 'random', 'greedy', '--pits', '4', '--seeds', '3', '--games-per-pair', '2', '--seed', '3', '--out', 't1');
  const lines = readFileSync(join(work, 'replays/game-001.jsonl'), 'utf8').trimEnd().split('\n');
  const move = JSON.parse(lines[3]!);
  move.before.top[2] = 'x';
  lines[3] = JSON.stringify(move);
  mkdirSync(join(work, 'broken'));
  writeFileSync(join(work, 'broken/bad.jsonl'), lines.join('\n') + '\n');

  await app.start();
}, 120_000);

afterAll(async () => {
  await app.stop();
  rmSync(work, { recursive: true, force: true });
});

/** A new context at width×height, recorded. */
const open = (width: number, height: number): Promise<Recorded> => app.open(width, height);

const moveCount = (page: Page) => page.locator('#move-log li').count();

/** Waits until it is the human's turn or the game is over; true when it is over. */
async function humanTurnOrOver(page: Page): Promise<boolean> {
  await page.waitForFunction(() => {
    const s = document.getElementById('status');
    return s !== null && (s.classList.contains('your-turn') || s.classList.contains('over'));
  });
  return (await page.locator('#status.over').count()) > 0;
}

/** One human move, made as `how` says; waits until the server has played it. */
async function humanMove(page: Page, how: 'click' | 'digit' | 'arrows' | 'hint'): Promise<void> {
  const before = await moveCount(page);
  const legal = page.locator('#board .pit.legal');
  if (how === 'digit') {
    const name = (await legal.last().getAttribute('data-name'))!;
    await page.keyboard.press(name.replace(/^\D+/, ''));
  } else if (how === 'arrows') {
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => page.locator('#board .pit.selected').count()).toBe(1);
    await page.keyboard.press('Enter');
  } else if (how === 'hint') {
    await page.click('#hint');
    await page.locator('#hint-line:not([hidden])').waitFor();
    await page.locator('#board .pit.hint').click();
  } else {
    await legal.first().click();
  }
  await expect.poll(() => moveCount(page), { timeout: 30_000 }).toBeGreaterThan(before);
}

const sizes = VIEWPORTS;

describe.skipIf(chromium === undefined)('the web app in chromium', () => {
  for (const size of sizes) {
    describe(`at ${size.width}×${size.height}`, () => {
      it('plays a whole game against alpha-beta by clicking and by keys, with a hint and an undo', async () => {
        const r = await open(size.width, size.height);
        const { page } = r;
        await page.goto(`${app.origin}/#/play?pace=instant`);
        await page.locator('#board .pit').first().waitFor();
        expect(await page.locator('#top').inputValue()).toBe('alphabeta:depth=6');
        expect(await page.locator('#board .pit.bottom').evaluateAll((els) => els.map((e) => e.getAttribute('data-name')))).toEqual(['B0', 'B1', 'B2', 'B3', 'B4', 'B5']);
        await screenshot(page, `play-start-${size.name}`);
        // The page must fit the phone's width: no sideways scrolling.
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(size.width);
        const ways = ['click', 'digit', 'arrows', 'click', 'hint'] as const;
        let moves = 0;
        let undone = false;
        let sawHint = false;
        while (!(await humanTurnOrOver(page))) {
          const how = ways[moves % ways.length]!;
          if (how === 'hint' && !sawHint) {
            await page.click('#hint');
            await page.locator('#hint-line:not([hidden])').waitFor();
            expect(await page.locator('#hint-line').textContent()).toMatch(/^Hint: play B\d — alphabeta:depth=6 values it [+−]?\d+ for the bottom player \(the store difference it foresees\); [\d,]+ positions in [\d.]+ ms\.$/);
            expect(await page.locator('#board .pit.hint').count()).toBe(1);
            await screenshot(page, `play-hint-${size.name}`, size.name === '1280' ? 'play' : undefined);
            sawHint = true;
          }
          await humanMove(page, how);
          moves++;
          if (moves === 4 && !undone) {
            if (await humanTurnOrOver(page)) break;
            const n = await moveCount(page);
            await page.click('#undo');
            await expect.poll(() => moveCount(page)).toBeLessThan(n);
            undone = true;
          }
          expect(moves).toBeLessThan(100);
        }
        expect(undone).toBe(true);
        const status = (await page.locator('#status').textContent())!;
        expect(status).toMatch(/^Game over: (you win|alphabeta:depth=6 \(top\) wins|a draw), bottom (\d+), top (\d+)\.$/);
        const [, b, t] = /bottom (\d+), top (\d+)/.exec(status)!.map(Number) as number[];
        expect(b! + t!).toBe(48);
        expect(await page.locator('#move-log .badge.free, #move-log .badge.capture').count()).toBeGreaterThan(0);
        await screenshot(page, `play-over-${size.name}`);
        await closeRecorded(r);
      });

      it('says what is wrong with an unknown agent, on the page', async () => {
        const r = await open(size.width, size.height);
        const { page } = r;
        await page.goto(`${app.origin}/#/play?top=${encodeURIComponent('alphabeta:depht=6')}`);
        const message = page.locator('.message.error:not([hidden])');
        await message.waitFor();
        expect(await message.textContent()).toBe('top: agent spec "alphabeta:depht=6": unknown option "depht" for alphabeta: expected one of depth, unit, caching, terminal, freeTurns');
        expect(await page.locator('#status').textContent()).toBe('No game: fix the setup and press New game.');
        await page.fill('#top', 'deep-blue');
        await page.click('#new-game');
        await expect.poll(() => message.textContent()).toMatch(/^top: agent spec "deep-blue": unknown agent "deep-blue": expected one of /);
        await screenshot(page, `play-unknown-agent-${size.name}`);
        await closeRecorded(r, [/status of 400 .*\/api\/games$/]);
      });

      it('opens a replay from the folder and steps it: forward, back, to a ply, to the end', async () => {
        const r = await open(size.width, size.height);
        const { page } = r;
        await page.goto(`${app.origin}/#/replays`);
        await page.locator('#files a[data-folder="replays"]').click();
        await page.locator('#files a[data-file="game-001.jsonl"]').click();
        await page.locator('.replay-view:not([hidden]) #board .pit').first().waitFor();
        expect(await page.locator('.replay-title').textContent()).toBe('Game 1: alphabeta:depth=4 (A) vs random (B)');
        const total = Number((await page.locator('#ply-input').getAttribute('max'))!);
        expect(total).toBeGreaterThan(10);
        for (let k = 0; k < 5; k++) await page.click('#forward');
        expect(await page.locator('#ply-input').inputValue()).toBe('5');
        expect(await page.locator('#ply-move').textContent()).toMatch(/^Move 5 of \d+: [AB] \(.*\) played [BT]\d/);
        expect(await page.locator('#board .last').count()).toBe(1);
        expect(await page.locator('#board .from').count()).toBe(1);
        await page.click('#back');
        expect(await page.locator('#ply-input').inputValue()).toBe('4');
        await page.keyboard.press('ArrowRight');
        await page.keyboard.press('ArrowRight');
        expect(await page.locator('#ply-input').inputValue()).toBe('6');
        // Jump to the first capture the replay holds, by its line in the move list.
        const capture = page.locator('#replay-moves li:has(.badge.capture)').first();
        if ((await capture.count()) > 0) {
          await capture.click();
          expect(await page.locator('#board .captured').count()).toBe(1);
          expect(await page.locator('#ply-move').textContent()).toMatch(/capture: the last stone landed in the empty [BT]\d/);
          await screenshot(page, `replay-capture-${size.name}`, size.name === '1280' ? 'replays' : undefined);
        }
        await page.fill('#ply-input', '3');
        await page.locator('#ply-input').press('Enter');
        expect(await page.locator('#replay-moves li.current').getAttribute('data-ply')).toBe('3');
        await page.keyboard.press('End');
        expect(await page.locator('#ply-input').inputValue()).toBe(String(total));
        expect(await page.locator('#ply-move').textContent()).toMatch(/wins|draw/);
        expect(page.url()).toContain(`ply=${total}`);
        await page.keyboard.press('Home');
        expect(await page.locator('#ply-move').textContent()).toMatch(/^The start: \d+ moves follow\.$/);
        await screenshot(page, `replay-${size.name}`);
        // A tournament's game, from its results.
        await page.locator('.crumbs a', { hasText: 'root' }).click();
        await page.locator('#files a[data-folder="t1"]').click();
        await page.locator('#files a[data-file="results.jsonl"]').click();
        await page.locator('#tournament-games a[data-game="2"]').click();
        await expect.poll(() => page.locator('.replay-title').textContent()).toBe('Game 2: random (A) vs greedy (B)');
        await page.keyboard.press('End');
        expect(await page.locator('#result').textContent()).toMatch(/^Result: /);
        await screenshot(page, `replay-tournament-${size.name}`);
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(size.width);
        await closeRecorded(r);
      });

      it('names the file and the field of a malformed replay', async () => {
        const r = await open(size.width, size.height);
        const { page } = r;
        await page.goto(`${app.origin}/#/replays?path=broken/bad.jsonl`);
        const message = page.locator('#replay-error:not([hidden])');
        await message.waitFor();
        expect(await message.textContent()).toBe('Could not open broken/bad.jsonl: broken/bad.jsonl:4: field "before.top[2]": expected a whole number ≥ 0, got (text not shown)');
        expect(await page.locator('.replay-view').isHidden()).toBe(true);
        await screenshot(page, `replay-malformed-${size.name}`);
        await closeRecorded(r, [/status of 422 .*\/api\/replay\?path=broken%2Fbad\.jsonl$/]);
      });
    });
  }
});
