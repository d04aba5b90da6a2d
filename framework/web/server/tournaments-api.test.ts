/**
 * The Tournaments page's API: GET /api/standings through Fastify's injection, and the live stream
 * GET /api/standings/events over a real socket (a stream is what injection cannot show): a results
 * file grows a game at a time, as a running tournament writes it, and each game arrives as an
 * event, a half-written line is left out until complete, the last game ends it with `done`; a
 * client that leaves frees its place.
 */
import { execFileSync } from 'node:child_process';
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request, type IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TournamentStandings } from '../shared/api.ts';
import { MAX_STREAMS } from './api/tournaments.ts';
import { createWebApp } from './app.ts';
import { resultsFile, tournamentStandings } from './tournament-view.ts';

/** The token the test's server asks for, sent with every request (a request without it is refused: access.test.ts). */
const TOKEN = 'test-token-0123456789abcdef';
const AUTH = { authorization: `token ${TOKEN}` };

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'tournaments-api-test-'));
let app: FastifyInstance;
let base = '';
/** the finished tournament's lines: its header, then its games */
let lines: string[] = [];

beforeAll(async () => {
  execFileSync(process.execPath, [join(ROOT, 'bin/mancala.js'), 'tournament', 'random', 'greedy', 'alphabeta:depth=2', '--pits', '4', '--seeds', '3', '--games-per-pair', '2', '--seed', '3', '--out', join(work, 't1'), '--no-progress'], {
    stdio: 'pipe',
  });
  lines = readFileSync(join(work, 't1', 'results.jsonl'), 'utf8').trimEnd().split('\n');
  mkdirSync(join(work, 'replays'));
  writeFileSync(join(work, 'replays', 'game-001.jsonl'), '{"type":"game","version":1}\n');
  app = await createWebApp({ root: work, sandbox: 'weak', token: TOKEN, assets: new Map([['index.html', { body: Buffer.from('<!doctype html>'), type: 'text/html', etag: '"x"' }]]) });
  base = await app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await app?.close();
  rmSync(work, { recursive: true, force: true });
});

/** A refusal by injection: 4xx, one line. */
async function refused(url: string, method: 'GET' | 'HEAD' = 'GET'): Promise<{ status: number; error: string }> {
  const r = await app.inject({ method, url, headers: AUTH });
  expect(r.statusCode, r.body).toBeGreaterThanOrEqual(400);
  expect(r.statusCode).toBeLessThan(500);
  if (method === 'HEAD') return { status: r.statusCode, error: '' };
  const error = (r.json() as { error: string }).error;
  expect(error).not.toContain('\n');
  return { status: r.statusCode, error };
}

interface SseEvent {
  event: string;
  data: string;
}

/** An open event stream: the events so far, and a way to wait for the next that matches. */
interface Stream {
  response: IncomingMessage;
  events: SseEvent[];
  ended: Promise<void>;
  next(match: (e: SseEvent) => boolean, timeoutMs?: number): Promise<SseEvent>;
  close(): void;
}

function openStream(path: string): Promise<Stream> {
  return new Promise((resolve, reject) => {
    const req = request(`${base}/api/standings/events?path=${encodeURIComponent(path)}`, { headers: { ...AUTH, accept: 'text/event-stream' } }, (response) => {
      const events: SseEvent[] = [];
      // next() reads the events in order: each call starts after the event the last one returned.
      let cursor = 0;
      let waiting: { match: (e: SseEvent) => boolean; done: (e: SseEvent) => void } | undefined;
      const look = () => {
        if (waiting === undefined) return;
        const k = events.findIndex((e, i) => i >= cursor && waiting!.match(e));
        if (k < 0) return;
        cursor = k + 1;
        const w = waiting;
        waiting = undefined;
        w.done(events[k]!);
      };
      let buffer = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        buffer += chunk;
        let cut: number;
        while ((cut = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          const fields = block.split('\n').filter((l) => !l.startsWith(':'));
          const event = fields.find((l) => l.startsWith('event: '))?.slice(7);
          const data = fields.find((l) => l.startsWith('data: '))?.slice(6);
          if (event === undefined || data === undefined) continue;
          events.push({ event, data });
        }
        look();
      });
      const ended = new Promise<void>((done) => response.on('close', done));
      resolve({
        response,
        events,
        ended,
        next: (match, timeoutMs = 5000) =>
          new Promise((done, fail) => {
            const timer = setTimeout(() => fail(new Error(`no such event within ${timeoutMs} ms; had ${events.map((e) => e.event).join(', ')}`)), timeoutMs);
            waiting = { match, done: (e) => (clearTimeout(timer), done(e)) };
            look();
          }),
        close: () => req.destroy(),
      });
    });
    req.on('error', reject);
    req.end();
  });
}

const standings = (e: SseEvent) => JSON.parse(e.data) as TournamentStandings;
const sleep = (ms: number) => new Promise<void>((done) => setTimeout(done, ms));

describe('GET /api/standings', () => {
  it("answers a tournament's view: the one the view module computes", async () => {
    const r = await app.inject({ method: 'GET', url: '/api/standings?path=t1/results.jsonl', headers: AUTH });
    expect(r.statusCode).toBe(200);
    expect(r.headers['cache-control']).toBe('no-store');
    const v = r.json() as TournamentStandings;
    expect(v).toEqual(tournamentStandings(resultsFile(work, 't1/results.jsonl')));
    expect([v.played, v.total, v.file]).toEqual([6, 6, 't1/results.jsonl']);
  });

  it('refuses a bad query, a path outside the root, and a file that is not results, in one line', async () => {
    expect(await refused('/api/standings')).toEqual({ status: 400, error: 'query field "path": expected a path under the server\'s folder, but it is missing' });
    expect((await refused('/api/standings?path=x&y=1')).error).toBe('query field "y": unknown field');
    expect((await refused('/api/standings?path=../../etc/passwd')).status).toBe(403);
    expect((await refused('/api/standings?path=nothing.jsonl')).status).toBe(404);
    const replay = await refused('/api/standings?path=replays/game-001.jsonl');
    expect(replay.status).toBe(422);
    expect(replay.error).toMatch(/^replays\/game-001\.jsonl:1: field "type": /);
  });
});

describe('GET /api/standings/events', () => {
  it('refuses before it streams: a bad query or file is a 4xx, and HEAD opens nothing', async () => {
    expect((await refused('/api/standings/events')).status).toBe(400);
    expect((await refused('/api/standings/events?path=replays/game-001.jsonl')).status).toBe(422);
    expect((await refused('/api/standings/events?path=..%2F..%2Fetc%2Fpasswd')).status).toBe(403);
    expect((await refused('/api/standings/events?path=t1/results.jsonl', 'HEAD')).status).toBe(404);
  });

  it('a finished tournament: its view, then done, and the stream ends', async () => {
    const s = await openStream('t1/results.jsonl');
    expect(s.response.statusCode).toBe(200);
    expect(s.response.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    // The app's hooks apply to the stream as to any answer.
    expect(s.response.headers['x-content-type-options']).toBe('nosniff');
    expect(s.response.headers['cache-control']).toBe('no-store');
    await s.ended;
    expect(s.events.map((e) => e.event)).toEqual(['standings', 'done']);
    expect(standings(s.events[0]!).played).toBe(6);
  });

  it('follows a file as a tournament writes it: an event a game, a half-written line left out, done at the end', async () => {
    mkdirSync(join(work, 'live'));
    const file = join(work, 'live', 'results.jsonl');
    writeFileSync(file, `${lines.slice(0, 3).join('\n')}\n`);
    const s = await openStream('live/results.jsonl');
    const first = await s.next((e) => e.event === 'standings');
    expect([standings(first).played, standings(first).total]).toEqual([2, 6]);

    appendFileSync(file, `${lines[3]}\n`);
    expect(standings(await s.next((e) => e.event === 'standings')).played).toBe(3);

    // Half a line: the view is the same three games (an event may come, with a note), never a failure.
    const half = Math.floor(lines[4]!.length / 2);
    appendFileSync(file, lines[4]!.slice(0, half));
    await sleep(1000);
    expect(s.events.map((e) => (e.event === 'standings' ? standings(e).played : e.event)).every((x) => x === 2 || x === 3)).toBe(true);
    expect(standings(s.events[s.events.length - 1]!).notes).toEqual(['live/results.jsonl:5: left out until complete — a game being written, or cut short if the run was stopped']);
    appendFileSync(file, `${lines[4]!.slice(half)}\n`);
    expect(standings(await s.next((e) => e.event === 'standings' && standings(e).played === 4)).notes).toEqual([]);

    appendFileSync(file, `${lines.slice(5).join('\n')}\n`);
    await s.next((e) => e.event === 'done');
    await s.ended;
    const counts = s.events.filter((e) => e.event === 'standings').map((e) => standings(e).played);
    expect(counts[counts.length - 1]).toBe(6);
    expect(counts).toEqual([...counts].sort((a, b) => a - b));
    // The last view is the finished file's.
    expect(standings(s.events.filter((e) => e.event === 'standings').pop()!).standings).toEqual(tournamentStandings(resultsFile(work, 't1/results.jsonl')).standings);
  });

  it('says so and ends when the file turns malformed', async () => {
    mkdirSync(join(work, 'spoilt'));
    const file = join(work, 'spoilt', 'results.jsonl');
    writeFileSync(file, `${lines.slice(0, 2).join('\n')}\n`);
    const s = await openStream('spoilt/results.jsonl');
    await s.next((e) => e.event === 'standings');
    appendFileSync(file, `${lines[1]}\n`);
    const failure = await s.next((e) => e.event === 'failure');
    expect((JSON.parse(failure.data) as { error: string }).error).toMatch(/^spoilt\/results\.jsonl:3: game \d+ is recorded twice \(also on line 2\)$/);
    await s.ended;
  });

  it(`holds at most ${MAX_STREAMS} streams; one that leaves frees its place`, async () => {
    mkdirSync(join(work, 'busy'));
    writeFileSync(join(work, 'busy', 'results.jsonl'), `${lines[0]}\n`);
    const open: Stream[] = [];
    for (let k = 0; k < MAX_STREAMS; k++) {
      const s = await openStream('busy/results.jsonl');
      await s.next((e) => e.event === 'standings');
      open.push(s);
    }
    const more = await app.inject({ method: 'GET', url: '/api/standings/events?path=busy/results.jsonl', headers: AUTH });
    expect(more.statusCode).toBe(429);
    expect((more.json() as { error: string }).error).toBe(`${MAX_STREAMS} live views are open already: close one (another tab of this page) and reload`);
    open.pop()!.close();
    let again: Stream | undefined;
    for (let tries = 0; again === undefined && tries < 50; tries++) {
      await sleep(50);
      const s = await openStream('busy/results.jsonl');
      if (s.response.statusCode === 200) again = s;
      else s.close();
    }
    expect(again?.response.statusCode).toBe(200);
    for (const s of [...open, again!]) s.close();
  });
});
