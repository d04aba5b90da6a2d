/// <reference lib="dom" />
// page.evaluate runs these functions in the browser. framework/ is type-checked without the DOM (typecheck:framework, tsconfig.web.json).
/**
 * The Search explorer in a real browser: Debian's chromium driven by playwright-core, against the
 * built `mancala serve` (dist/), at 1280×800 and at a 390-px phone width. Alpha-beta at depth 4
 * from Kalah's start: the root's move and value are those `mancala search --json` prints (run
 * here); a node opened by clicking is checked by running `mancala search` from that node's own
 * position, as the page says to; a pruned branch shows greyed; a node opens from the keyboard. A
 * csci561 input.txt pasted in: its move and value again against the CLI, and a traverse log line
 * clicked opens the tree down to its node and focuses it. A malformed board's message. Throughout,
 * no console error (but the API's deliberate refusals), and no request that leaves 127.0.0.1.
 *
 * Screenshots go to tmp/web-screenshots/ (git-ignored); with UPDATE_SCREENSHOTS=1 the README's is
 * written to framework/web/screenshots/ too. Without chromium this file says so and skips, but fails under CI.
 * The harness (the server, the browser, the recording, the screenshots): testcases/fixtures/web-browser.ts.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { plainSolve } from '../agents/perfect/plain-solve.ts';
import { boardToState, parseBoard } from '../framework/games/mancala/board-io/index.ts';
import { mancalaGame } from '../framework/games/mancala/profile-game.ts';
import { PROFILES } from '../framework/games/mancala/profiles.ts';
import { chromiumOrNotice, closeRecorded, MANCALA, ROOT, screenshot, ServedApp, VIEWPORTS, type Recorded } from './fixtures/web-browser.ts';

const INPUT = join(ROOT, 'testcases/csci561-public/inputs/alphabeta-d3-1.txt');
const work = mkdtempSync(join(tmpdir(), 'web-explorer-e2e-'));
const app = new ServedApp(work);
const chromium = chromiumOrNotice('the web app\'s browser tests');


beforeAll(async () => {
  if (chromium === undefined) return;
  await app.start();
}, 120_000);

afterAll(async () => {
  await app.stop();
  rmSync(work, { recursive: true, force: true });
});

/** `mancala search … --json`, run in the work folder (where the test saves node.json). */
function cliSearch(args: string[]): { move: number; moveName: string; value: number; nodes: number } {
  return JSON.parse(execFileSync(process.execPath, [MANCALA, 'search', ...args, ...(args.includes('--json') ? [] : ['--json'])], { cwd: work, encoding: 'utf8' }));
}

/** A value as the page writes it (+3, −2, 0) as a number. */
const shownValue = (text: string | null) => Number(text!.replace(/^[≤≥]\s*/, '').replace('−', '-').replace('+', ''));

/** A new context at width×height, recorded. */
const open = (width: number, height: number): Promise<Recorded> => app.open(width, height);

/** The page's own `mancala search` check of the selected node, run: its value and the one the page expects. */
async function runPageCheck(page: Page): Promise<{ cli: number; page: number }> {
  writeFileSync(join(work, 'node.json'), (await page.locator('#ex-node-json').textContent())!);
  const command = (await page.locator('#ex-check-command').textContent())!.split(' ');
  expect(command.slice(0, 2)).toEqual(['mancala', 'search']);
  return { cli: cliSearch(command.slice(2)).value, page: shownValue(await page.locator('#ex-check-value').textContent()) };
}

/** The page's search shown, or the page's error as the failure (a bare wait would say only that #ex-move never came). */
async function searched(page: Page): Promise<void> {
  await page.locator('#ex-move, #ex-error:not([hidden])').first().waitFor();
  if (await page.locator('#ex-error:not([hidden])').isVisible()) throw new Error(`the explorer showed an error: ${await page.locator('#ex-error').textContent()}`);
}

const sizes = VIEWPORTS;

describe.skipIf(chromium === undefined)('the Search explorer in chromium', () => {
  for (const size of sizes) {
    describe(`at ${size.width}×${size.height}`, () => {
      it('shows alpha-beta\'s tree from Kalah\'s start, its values those of `mancala search`, opened node by node', async () => {
        const r = await open(size.width, size.height);
        const { page } = r;
        await page.goto(`${app.origin}/#/explorer?profile=kalah&algo=alphabeta&depth=4`);
        await searched(page);
        const cli = cliSearch(['--rules', 'kalah', '--algo', 'alphabeta', '--depth', '4']);
        expect(await page.locator('#ex-move').textContent()).toBe(cli.moveName);
        expect(shownValue(await page.locator('#ex-value').textContent())).toBe(cli.value);
        expect(await page.locator('#ex-counts tfoot th.num').first().textContent()).toBe(cli.nodes.toLocaleString('en'));
        expect(await page.locator('#ex-command').textContent()).toBe('mancala search --rules kalah --pits 6 --seeds 4 --algo alphabeta --depth 4 --json');
        // The root is open: its children, and no grandchild until one is opened.
        const rootKids = page.locator('#tn-kids-0 > li.tnode');
        await rootKids.first().waitFor();
        expect(await rootKids.count()).toBeGreaterThan(1);
        expect(await page.locator('#tn-kids-0 li li').count()).toBe(0);

        // The principal variation's first move, opened by a click: its value against a search from its own position.
        const pvChild = page.locator('#tn-kids-0 > li.tnode.pv');
        expect(await pvChild.locator('> .tn-row .tn-move').textContent()).toBe(cli.moveName);
        await pvChild.locator('> .tn-row .tn-label').click();
        await expect.poll(() => pvChild.locator('> .tn-row .tn-toggle').getAttribute('aria-expanded')).toBe('true');
        await expect.poll(() => page.locator('#ex-node h2').textContent()).toBe(`Node ${cli.moveName}`);
        expect(await pvChild.locator('> .tn-kids > li.tnode').count()).toBeGreaterThan(0);
        const treeValue = shownValue(await pvChild.locator('> .tn-row .tn-value').textContent());
        expect(treeValue).toBe(cli.value);
        const check = await runPageCheck(page);
        expect(check.cli).toBe(check.page);
        // The page's sign convention, checked apart: a min node's value is the mover's negated.
        const isMin = (await pvChild.getAttribute('class'))!.includes(' min');
        expect(check.cli).toBe(isMin ? -treeValue : treeValue);
        // Kalah(6,4) is too big for the explorer's solver: the card says so instead of a value.
        expect(await page.locator('#ex-solved-note').textContent()).toMatch(/^not solved: \d+ stones in the pits, more than the \d+ the explorer solves$/);
        expect(await page.locator('#ex-solved-value').count()).toBe(0);

        // A child that alpha-beta cut: opened from the keyboard, its pruned moves greyed.
        const cut = page.locator('#tn-kids-0 > li.tnode:has(> .tn-row .badge.pruned)').first();
        await cut.locator('> .tn-row .tn-toggle').focus();
        await page.keyboard.press('Enter');
        await expect.poll(() => cut.locator('> .tn-row .tn-toggle').getAttribute('aria-expanded')).toBe('true');
        const pruned = cut.locator('> .tn-kids > li.pruned-move');
        const badge = Number((await cut.locator('> .tn-row .badge.pruned').textContent())!.replace(/\D/g, ''));
        expect(await pruned.count()).toBe(badge);
        const looks = await pruned.first().evaluate((el) => ({ opacity: getComputedStyle(el).opacity, color: getComputedStyle(el).color }));
        expect(Number(looks.opacity)).toBeLessThan(1);
        expect(looks.color).toBe('rgb(165, 154, 138)');
        // Its value is a bound (it failed low or high): the page says which, and a search from it agrees.
        await cut.locator('> .tn-row .tn-label').click();
        await expect.poll(() => page.locator('#ex-check').textContent()).toMatch(/finds (the value|a value [≤≥]) /);
        const relation = /finds (?:the value|a value ([≤≥])) /.exec((await page.locator('#ex-check').textContent())!)![1] ?? '=';
        const bound = await runPageCheck(page);
        if (relation === '=') expect(bound.cli).toBe(bound.page);
        else if (relation === '≤') expect(bound.cli).toBeLessThanOrEqual(bound.page);
        else expect(bound.cli).toBeGreaterThanOrEqual(bound.page);
        expect(page.url()).toMatch(/#\/explorer\?profile=kalah&.*node=\d+/);
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(size.width);
        await screenshot(page, `explorer-kalah-${size.name}`);
        await closeRecorded(r);
      });

      it('reads a csci561 input.txt: its traverse log beside the tree, a line clicked focuses its node', async () => {
        const r = await open(size.width, size.height);
        const { page } = r;
        await page.goto(`${app.origin}/#/explorer`);
        await searched(page);
        await page.selectOption('#ex-profile', 'csci561');
        await page.selectOption('#ex-source', 'board');
        await page.fill('#ex-board', readFileSync(INPUT, 'utf8'));
        await page.selectOption('#ex-algo', 'alphabeta');
        await page.fill('#ex-depth', '3');
        await page.click('#ex-run');
        await expect.poll(() => page.locator('#ex-headline').textContent()).toMatch(/from a csci561 input \(task 3, depth 3\)/);
        const cli = cliSearch(['--rules', 'csci561', '--board', INPUT, '--board-format', 'csci561']);
        expect(await page.locator('#ex-move').textContent()).toBe(cli.moveName);
        expect(shownValue(await page.locator('#ex-value').textContent())).toBe(cli.value);
        const lines = page.locator('#ex-log .log-line');
        await lines.first().waitFor();
        expect(await page.locator('#ex-log li.log-head').textContent()).toBe('Node,Depth,Value,Alpha,Beta');
        // A line deep in the log: at depth 3 below a free turn or two, a node nobody has opened yet.
        const line = lines.nth(Math.min(60, (await lines.count()) - 1));
        const node = (await line.getAttribute('data-node'))!;
        const name = (await line.textContent())!.split(',')[0]!;
        expect(await page.locator(`#ex-tree li.tnode[data-node="${node}"]`).count()).toBe(0);
        await line.click();
        const target = page.locator(`#ex-tree li.tnode[data-node="${node}"]`);
        await expect.poll(() => target.getAttribute('class')).toContain('selected');
        expect(await target.locator('> .tn-row .tn-move').textContent()).toBe(name);
        expect(await page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset['node'])).toBe(node);
        expect(await page.evaluate(() => document.activeElement?.classList.contains('tn-label'))).toBe(true);
        expect(await page.locator(`#ex-log li.of-selected`).first().getAttribute('data-node')).toBe(node);
        expect(await target.isVisible()).toBe(true);
        expect(page.url()).toContain(`node=${node}`);
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(size.width);
        await screenshot(page, `explorer-${size.name}`, size.name === '1280' ? 'explorer' : undefined);

        // A malformed board: the board reader's message, on the page.
        await page.fill('#ex-board', '3\n1\n2\n4 4 x\n4 4 4\n0\n0');
        await page.click('#ex-run');
        await expect.poll(() => page.locator('#ex-error:not([hidden])').textContent()).toBe('board:4: expected the top row (player 2\'s pits) as whole numbers separated by spaces, got "4 4 x"');
        await closeRecorded(r, [/status of 400 .*\/api\/search$/]);
      });

      it('shows the solved value of a small position and of each child beside the search\'s', async () => {
        const r = await open(size.width, size.height);
        const { page } = r;
        const start = JSON.stringify({ top: [2, 2, 2], bottom: [2, 2, 2], stores: { top: 0, bottom: 0 }, toMove: 'bottom' });
        await page.goto(`${app.origin}/#/explorer?profile=kalah-empty-capture&algo=alphabeta&depth=3&board=${encodeURIComponent(start)}`);
        await searched(page);
        const child = page.locator('#tn-kids-0 > li.tnode:has(> .tn-row .tn-toggle)').first();
        const name = (await child.locator('> .tn-row .tn-move').textContent())!;
        await child.locator('> .tn-row .tn-label').click();
        await expect.poll(() => page.locator('#ex-node h2').textContent()).toBe(`Node ${name}`);
        await page.locator('#ex-solved-value').waitFor();
        // The node's position, solved by the plain specification here: the page's value, from the root player's side.
        const game = mancalaGame(PROFILES['kalah-empty-capture']!, 3, 2);
        const s = boardToState(game, parseBoard((await page.locator('#ex-node-json').textContent())!, 'json', 'node.json'));
        const mine = plainSolve(game, s).value!;
        const isMin = (await child.getAttribute('class'))!.includes(' min');
        expect(shownValue(await page.locator('#ex-solved-value').textContent())).toBe(isMin ? -mine || 0 : mine);
        // Beside each searched child: its search value and its solved value.
        const kids = await child.locator('> .tn-kids > li.tnode').count();
        expect(await page.locator('#ex-solved tbody tr').count()).toBe(kids);
        for (const cell of await page.locator('#ex-solved tbody td.solved').allTextContents()) expect(cell).toMatch(/^([+−-]?\d+|0)$/);
        await screenshot(page, `explorer-solved-${size.name}`);
        await closeRecorded(r);
      });

      it('opens from the Play page on the game\'s position', async () => {
        const r = await open(size.width, size.height);
        const { page } = r;
        await page.goto(`${app.origin}/#/play?rules=kalah&top=random&pace=instant`);
        await page.locator('#board .pit.legal').first().click();
        await expect.poll(() => page.locator('#move-log li').count()).toBeGreaterThan(0);
        await page.locator('#status.your-turn').waitFor();
        const stones = await page.locator('#board .pit.bottom .count').allTextContents();
        await page.click('#explore-position');
        await searched(page);
        expect(await page.locator('#ex-source').inputValue()).toBe('board');
        const board = JSON.parse(await page.locator('#ex-board').inputValue());
        expect(board.bottom.map(String)).toEqual(stones);
        writeFileSync(join(work, 'played.json'), JSON.stringify(board));
        const cli = cliSearch(['--rules', 'kalah', '--board', 'played.json', '--algo', 'alphabeta', '--depth', '4']);
        expect(await page.locator('#ex-move').textContent()).toBe(cli.moveName);
        expect(shownValue(await page.locator('#ex-value').textContent())).toBe(cli.value);
        await closeRecorded(r);
      });
    });
  }
});
