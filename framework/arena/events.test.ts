/**
 * The arena page's server side, on a real database file and a real socket: the event stream says
 * `change` when a game finishes or a submission's status moves (and not otherwise), the standings
 * carry each player's win rate against each anchor and its rating history, and a page opened with
 * ?token= is sent on without it. Rows are made through the store: no game is played here.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Arena } from './arena.ts';
import { rateGame } from './ladder.ts';
import { createArenaApp } from './server.ts';

const dir = mkdtempSync(join(tmpdir(), 'arena-events-'));
let arena: Arena;
let app: FastifyInstance;
let origin: string;
let alice: string;
let sub: number;

beforeAll(async () => {
  arena = Arena.open(dir, { course: 'kalah' });
  alice = arena.addStudents([{ id: 'alice' }])[0]!.token;
  sub = arena.store.addSubmission({ student: 'alice', folder: 'submissions/alice/1', contentHash: 'h' });
  arena.store.promoteToLadder(sub, 25, 25 / 3);
  app = await createArenaApp({ arena });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  origin = `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}`;
});
afterAll(async () => {
  await app.close();
  arena.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A finished rated game of alice's against `anchor`, as the arena records one. */
function play(anchor: string, winner: 'A' | 'B' | 'draw'): void {
  const [id] = arena.store.addGames([{ kind: 'placement', A: { submission: sub }, B: { anchor }, first: 'A', seed: 1, opening: 0 }]);
  arena.store.claimQueued(1);
  arena.store.finishGame(id!, { winner, score: [24, 24], forfeit: null, record: { moves: [], openingPlies: 0 } }, (g) => rateGame(arena.store, g, winner));
}

/** The stream's text as it comes, read in the background; `next` waits for `pattern` in what came since the last match. */
function collect(reader: ReadableStreamDefaultReader<Uint8Array>) {
  let text = '';
  let from = 0;
  void (async () => {
    for (;;) {
      const c = await reader.read().catch(() => ({ done: true as const, value: undefined }));
      if (c.done) return;
      text += new TextDecoder().decode(c.value);
    }
  })();
  return async (pattern: RegExp, ms: number): Promise<boolean> => {
    const until = Date.now() + ms;
    while (Date.now() < until) {
      const m = pattern.exec(text.slice(from));
      if (m !== null) {
        from += m.index + m[0].length;
        return true;
      }
      await new Promise((r) => setTimeout(r, 20));
    }
    return false;
  };
}

describe('the arena event stream', () => {
  it('says change when a game finishes or a submission moves, and closes with its client', async () => {
    const r = await fetch(`${origin}/api/arena/events`, { headers: { authorization: `token ${alice}` } });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const reader = r.body!.getReader();
    const next = collect(reader);
    expect(await next(/retry: \d+/, 5000)).toBe(true);
    // Nothing changed: no event (a poll that always said change would reload every page twice a second).
    expect(await next(/event: change/, 1500)).toBe(false);
    play('greedy', 'A');
    expect(await next(/event: change/, 5000)).toBe(true);
    arena.store.setSubmissionStatus(sub, 'retired');
    expect(await next(/event: change/, 5000)).toBe(true);
    arena.store.setSubmissionStatus(sub, 'ladder');
    await reader.cancel();
    // The server lets go of the stream once its client is gone.
    const until = Date.now() + 5000;
    while (Date.now() < until && streamsOpen() > 0) await new Promise((res) => setTimeout(res, 50));
    expect(streamsOpen()).toBe(0);
  });

  it('refuses a stream without a token', async () => {
    expect((await fetch(`${origin}/api/arena/events`)).status).toBe(401);
  });
});

/** The event streams the server holds open (events.ts). */
function streamsOpen(): number {
  return (app as unknown as { arenaEvents?: { open: number } }).arenaEvents?.open ?? -1;
}

describe('the standings for the page', () => {
  it("carry each player's win rate against each anchor and its rating history", async () => {
    play('greedy', 'draw');
    play('random', 'A');
    const r = await fetch(`${origin}/api/arena/standings`, { headers: { authorization: `token ${alice}` } });
    const body = (await r.json()) as { anchors: string[]; standings: { pseudonym: string; anchor: boolean; versusAnchors: Record<string, unknown>; history: number[]; games: number }[] };
    expect(body.anchors).toEqual(arena.settings.anchors.map((a) => a.spec));
    const mine = body.standings.find((s) => !s.anchor)!;
    // The first test's game (a win against greedy), then a draw with greedy and a win against random.
    expect(mine.versusAnchors).toEqual({ greedy: { games: 2, wins: 1, draws: 1 }, random: { games: 1, wins: 1, draws: 0 } });
    expect(mine.history).toHaveLength(3);
    expect(mine.history).toEqual(arena.store.ratingHistory(`sub:${sub}`).map((h) => Math.round(h.mu * 100) / 100));
    expect(body.standings.filter((s) => s.anchor).every((s) => s.history.length === 0 && Object.keys(s.versusAnchors).length === 0)).toBe(true);
  });
});

describe('the page', () => {
  it('is the web app’s bundle, opened with ?token= and sent on without it, under the pages’ policy', async () => {
    const r = await fetch(`${origin}/?token=${alice}`, { redirect: 'manual' });
    expect(r.status).toBe(302);
    expect(r.headers.get('location')).toBe('/');
    expect(r.headers.get('set-cookie')).toMatch(/; Max-Age=\d+; HttpOnly; SameSite=Strict$/);
    const cookie = r.headers.get('set-cookie')!.split(';')[0]!;
    // Without it, a browser is told how to get in; a script is told in JSON.
    const none = await fetch(`${origin}/`, { headers: { accept: 'text/html' } });
    expect(none.status).toBe(401);
    expect(await none.text()).toContain('Open the link your instructor sent you');
    expect(((await (await fetch(`${origin}/`)).json()) as { error: string }).error).toMatch(/^refused: no token/);
    const page = await fetch(`${origin}/`, { headers: { cookie } });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    const html = await page.text();
    const script = /\/assets\/(app-[\w]+\.js)/.exec(html)![1]!;
    expect((await fetch(`${origin}/assets/${script}`, { headers: { cookie } })).status).toBe(200);
    expect((await fetch(`${origin}/assets/${script}`)).status).toBe(401);
    expect(await (await fetch(`${origin}/api/health`, { headers: { cookie } })).json()).toMatchObject({ arena: true });
  });
});
