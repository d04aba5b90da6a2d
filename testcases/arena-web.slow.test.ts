/// <reference lib="dom" />
// page.evaluate runs a function in the browser.
/**
 * The arena's page in a real browser (Debian's chromium through playwright-core, as the web app's
 * browser tests), against `mancala arena start` as a real process on a real database file:
 *
 *  - the instructor starts an arena from a roster and opens the printed URL;
 *  - alice uploads a Python agent from her page (its folder picked: the page zips it), bob a Java agent
 *    with `mancala submit`, carol one that cannot play (the sanity stage fails it): carol's page
 *    says why (the forfeit's message);
 *  - alice's open page shows her placement games arrive in the standings without a reload (the
 *    server's event stream): her games count grows while a marker set on the page stays;
 *  - alice opens one of her games: its moves, the time of each of her moves, her stderr, and the
 *    web app's replay viewer on it;
 *  - carol tries alice's game, submission and log: by the API, by their URLs, and by the page's own
 *    game view: nothing of alice's;
 *  - the server is killed and started again on the same folder and port: the page's stream
 *    reconnects and everything is still there.
 *
 * Screenshots go to tmp/web-screenshots/; with UPDATE_SCREENSHOTS=1 also to
 * framework/web/screenshots/arena-*.png, which docs/arena.md shows.
 */
import { spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { zipFolder } from '../framework/arena/submit.ts';
import { arenaTokens, startArena } from './fixtures/arena-cli.ts';
import { BROWSER_WAIT_MS, chromiumOrNotice, launchBrowser, MANCALA, ROOT, screenshot } from './fixtures/web-browser.ts';

const chromium = chromiumOrNotice('the arena page tests');
const dir = mkdtempSync(join(tmpdir(), 'arena-web-'));
const arenaDir = join(dir, 'term');
const servers: ChildProcess[] = [];
let browser: Browser | undefined;

afterAll(async () => {
  await browser?.close();
  for (const s of servers) if (s.exitCode === null && s.signalCode === null) s.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

/** `mancala arena start` on arenaDir; resolves with its origin once it prints its URL. */
const startServer = (args: string[]) => startArena({ cwd: dir, arenaDir, args: ['--time-per-move', '300', '--jobs', '2', ...args], servers });

interface Opened {
  context: BrowserContext;
  page: Page;
  errors: string[];
}

/** A browser context opened at `origin/?token=…` as a student or the instructor opens their link. */
async function open(origin: string, token: string, width = 1280, height = 900): Promise<Opened> {
  const scale = process.env['UPDATE_SCREENSHOTS'] === '1' && width === 1280 ? 0.6 : 1;
  const context = await browser!.newContext({ viewport: { width, height }, deviceScaleFactor: scale });
  context.setDefaultTimeout(BROWSER_WAIT_MS);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(`uncaught: ${e.message}`));
  page.on('console', (m) => {
    // A refusal the test asks for (a 404 of another's game) is the server's; anything else is an error.
    if (m.type() === 'error' && !/status of 404/.test(m.text()) && !/ERR_CONNECTION_REFUSED|ERR_EMPTY_RESPONSE|net::/.test(m.text())) errors.push(m.text());
  });
  await page.goto(`${origin}/?token=${token}`);
  expect(new URL(page.url()).search, 'the token left in the address').toBe('');
  await page.locator('#arena-live.on').waitFor();
  return { context, page, errors };
}

/** The games count of `pseudonym`'s row in the page's standings, or -1 without a row. */
async function gamesOf(page: Page, pseudonym: string): Promise<number> {
  return page.evaluate((p) => {
    for (const tr of Array.from(document.querySelectorAll('#standings-table tbody tr'))) if ((tr as HTMLElement).dataset['pseudonym'] === p) return Number(tr.querySelector('.arena-games')!.textContent);
    return -1;
  }, pseudonym);
}

async function waitFor(what: string, f: () => Promise<boolean> | boolean, ms = 300_000): Promise<void> {
  const until = Date.now() + ms;
  while (!(await f())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

describe.skipIf(chromium === undefined)('the arena page in chromium', () => {
  beforeAll(async () => {
    browser = await launchBrowser();
  });

  it('runs a term in the browser: uploads, a failed sanity stage, live standings, private logs, a restart', async () => {
    writeFileSync(join(dir, 'roster.csv'), 'id,name,email\nalice,Alice Py,alice@example.edu\nbob,Bob Java,bob@example.edu\ncarol,Carol Bad,carol@example.edu\n');
    let arena = await startServer(['--roster', join(dir, 'roster.csv'), '--course', 'kalah', '--port', '0']);
    const port = new URL(arena.origin).port;
    const instructorToken = readFileSync(join(arenaDir, 'instructor.token'), 'utf8').trim();
    const tokens = arenaTokens(arenaDir);

    // alice's page, open from the start: set her pseudonym, then upload a zip of a Python agent.
    const alice = await open(arena.origin, tokens.get('alice')!);
    await alice.page.locator('#pseudonym').fill('Pebble Python');
    await alice.page.locator('#pseudonym-form button').click();
    await alice.page.locator('#arena-who strong', { hasText: 'Pebble Python' }).waitFor();
    await alice.page.evaluate(() => ((window as unknown as { stillTheSamePage: boolean }).stillTheSamePage = true));
    expect(await gamesOf(alice.page, 'Pebble Python')).toBe(-1);
    // The folder picker: the page zips the folder itself.
    await alice.page.locator('#upload-folder').setInputFiles(join(ROOT, 'agents/examples/python-greedy'));
    await alice.page.locator('#my-submissions tr[data-submission="1"]').waitFor();
    const sent = readdirSync(join(arenaDir, 'submissions'), { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => e.name).sort();
    const own = readdirSync(join(ROOT, 'agents/examples/python-greedy'), { recursive: true, withFileTypes: true }).filter((e) => e.isFile() && !/__pycache__/.test(e.parentPath)).map((e) => e.name).sort();
    expect(sent, 'the folder as the page zipped it').toEqual(own);

    // bob submits Java from the command line; carol one that cannot play, from her page (a zip).
    const bob = spawnSync(process.execPath, [MANCALA, 'submit', '--arena', `${arena.origin}/`, '--token', tokens.get('bob')!, join(ROOT, 'agents/examples/java-greedy')], { encoding: 'utf8', timeout: 120_000 });
    expect(bob.status, bob.stderr).toBe(0);
    const carol = await open(arena.origin, tokens.get('carol')!);
    await carol.page.locator('#upload-zip').setInputFiles({ name: 'illegal-mover.zip', mimeType: 'application/zip', buffer: await zipFolder(join(ROOT, 'testcases/fixtures/arena/illegal-mover')) });

    // carol's page turns to failed by itself (the stream) and says why.
    const failed = carol.page.locator('#my-submissions tr[data-status="failed"]');
    await failed.waitFor({ timeout: 300_000 });
    await expect.poll(() => failed.locator('.verdict').textContent()).toMatch(/failed the sanity stage: won 0 of \d+ games against random .*illegal-move: .*99, not a legal move/);
    await failed.locator('.feedback-button').click();
    await carol.page.locator('#arena-feedback .forfeits li').first().waitFor();
    expect(await carol.page.locator('#arena-feedback').textContent()).toMatch(/Sanity stage: won 0 of \d+ games against random/);
    await screenshot(carol.page, 'arena-failed-1280', 'arena-failed');

    // alice's placement games come into her open page's standings, live.
    await waitFor('alice on the ladder with rated games', async () => (await gamesOf(alice.page, 'Pebble Python')) > 0);
    const early = await gamesOf(alice.page, 'Pebble Python');
    await waitFor('more of alice’s games shown live', async () => (await gamesOf(alice.page, 'Pebble Python')) > early);
    expect(await alice.page.evaluate(() => (window as unknown as { stillTheSamePage?: boolean }).stillTheSamePage), 'the page was not reloaded').toBe(true);
    await alice.page.locator('#my-submissions tr[data-submission="1"][data-status="ladder"]').waitFor();
    const row = alice.page.locator('#standings-table tr[data-pseudonym="Pebble Python"]');
    expect(await row.locator('svg.sparkline polyline').count()).toBe(1);
    expect(await row.textContent()).toMatch(/% of \d+/);

    // alice opens one of her finished games: moves, her time per move, her stderr.
    const games = (await alice.page.evaluate(async () => (await (await fetch('/api/arena/games')).json()) as { games: { id: number; status: string; kind: string }[] })).games;
    const aliceGame = games.find((g) => g.status === 'done' && g.kind === 'placement')!;
    expect(aliceGame).toBeDefined();
    await alice.page.locator(`#arena-games tr[data-game="${aliceGame.id}"] a.game-link`).click();
    await alice.page.locator('#arena-game .side-log').first().waitFor();
    expect(await alice.page.locator('#arena-game').textContent()).toMatch(/Time per move \(ms\): \d+/);
    expect(await alice.page.locator('#replay-download').getAttribute('href')).toBe(`/api/arena/games/${aliceGame.id}/replay`);
    expect(await alice.page.evaluate(() => (window as unknown as { stillTheSamePage?: boolean }).stillTheSamePage)).toBe(true);
    await screenshot(alice.page, 'arena-game-1280', 'arena-game');

    // The web app's replay viewer, on the board: its Replays page reads the game from the arena.
    await alice.page.locator('#replay-link').click();
    await alice.page.locator('#board .board').waitFor();
    const plies = Number(await alice.page.locator('#ply-slider').getAttribute('max'));
    expect(plies).toBeGreaterThan(4);
    await alice.page.locator('#last').click();
    await alice.page.locator('#result', { hasText: /^Result: \S/ }).waitFor();
    await expect.poll(() => alice.page.locator('#ply-slider').inputValue()).toBe(String(plies));
    expect(await alice.page.locator('#replay-error').isHidden()).toBe(true);
    await screenshot(alice.page, 'arena-replay-1280', 'arena-replay');
    expect(await alice.page.evaluate(() => (window as unknown as { stillTheSamePage?: boolean }).stillTheSamePage)).toBe(true);

    await alice.page.locator('.replays-side a', { hasText: 'the Arena page' }).click();
    await alice.page.locator('#arena-live.on').waitFor();

    // A scrim against an anchor, from the page: two unranked games of hers, listed with her games.
    await alice.page.locator('#scrim-opponent').fill('greedy');
    await alice.page.locator('#scrim-form button').click();
    await alice.page.locator('#scrim-note', { hasText: /scrim games \d+, \d+ queued/ }).waitFor();
    await waitFor('the scrim listed', async () => (await alice.page.locator('#arena-games td', { hasText: 'scrim' }).count()) === 2);
    await alice.page.goto(`${arena.origin}/#/`);
    await alice.page.locator('#arena-live.on').waitFor();
    await alice.page.locator('#standings-table').waitFor();
    await screenshot(alice.page, 'arena-student-1280', 'arena-student');

    // carol tries alice's game, log and submission: the API, the URLs, the page.
    const others = [`/api/arena/games/${aliceGame.id}`, `/api/arena/games/${aliceGame.id}/log`, `/api/arena/games/${aliceGame.id}/replay`, `/api/arena/games/${aliceGame.id}/view`, '/api/arena/submissions/1', '/api/arena/games?submission=1'];
    for (const path of others) {
      const status = await carol.page.evaluate(async (p) => (await fetch(p)).status, path);
      expect(status, path).toBe(404);
    }
    // Opened as addresses (a JSON document's policy allows it no fetch: the page's own calls are above).
    for (const path of others) {
      const direct = await carol.page.goto(`${arena.origin}${path}`);
      expect(direct!.status(), path).toBe(404);
      expect(await direct!.text()).not.toMatch(/stderr|moves|Pebble/);
    }
    await carol.page.goto(`${arena.origin}/#/?game=${aliceGame.id}`);
    await carol.page.locator('#arena-error', { hasText: `no game ${aliceGame.id} of yours` }).waitFor();
    expect(await carol.page.locator('#arena-game').isHidden()).toBe(true);
    await carol.page.goto(`${arena.origin}/#/replays?arena-game=${aliceGame.id}`);
    await carol.page.locator('#replay-error', { hasText: `no game ${aliceGame.id} of yours` }).waitFor();
    expect(await carol.page.locator('#board .board').count()).toBe(0);
    await carol.page.goto(`${arena.origin}/#/`);
    await carol.page.locator('#arena-games').waitFor();
    expect(await carol.page.locator('#arena-games').textContent()).not.toContain('Pebble Python (A)');
    // The standings are public, by pseudonym only: no student id.
    const standingsText = await carol.page.locator('#standings-table').textContent();
    expect(standingsText).toContain('Pebble Python');
    expect(standingsText).not.toMatch(/alice|bob\b/);

    // The instructor sees every student's submissions.
    const instructor = await open(arena.origin, instructorToken);
    await instructor.page.locator('#all-submissions tr[data-submission="3"]').waitFor();
    expect(await instructor.page.locator('#all-submissions').textContent()).toMatch(/alice[\s\S]*bob[\s\S]*carol/);
    await waitFor('bob on the ladder', async () => (await instructor.page.locator('#all-submissions tr[data-submission="2"][data-status="ladder"]').count()) === 1);
    await instructor.page.locator('#standings-table td', { hasText: 'bob' }).waitFor();
    await screenshot(instructor.page, 'arena-instructor-1280', 'arena-instructor');

    // A restart on the same folder and port: the open page reconnects; everything is there.
    const before = await gamesOf(alice.page, 'Pebble Python');
    arena.child.kill('SIGKILL');
    await new Promise((r) => arena.child.once('exit', r));
    await alice.page.locator('#arena-live:not(.on)').waitFor();
    arena = await startServer(['--port', port]);
    await alice.page.locator('#arena-live.on').waitFor();
    await alice.page.reload();
    await alice.page.locator('#arena-live.on').waitFor();
    await alice.page.locator('#my-submissions tr[data-submission="1"][data-status="ladder"]').waitFor();
    await expect.poll(() => gamesOf(alice.page, 'Pebble Python')).toBeGreaterThanOrEqual(before);
    await carol.page.goto(`${arena.origin}/`);
    await expect.poll(() => carol.page.locator('#my-submissions tr[data-status="failed"] .verdict').textContent()).toMatch(/failed the sanity stage/);

    // A phone's width: the standings scroll inside their card, the page does not.
    const phone = await open(arena.origin, tokens.get('alice')!, 390, 844);
    await phone.page.locator('#standings-table tr[data-pseudonym="Pebble Python"]').waitFor();
    expect(await phone.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await screenshot(phone.page, 'arena-student-390');

    for (const o of [alice, carol, instructor, phone]) {
      await o.context.close();
      expect(o.errors, 'console errors').toEqual([]);
    }
    arena.child.kill('SIGTERM');
    await new Promise((r) => arena.child.once('exit', r));
  });
});
