/**
 * The arena API's access rules, on a real database file: who may read what. Rows are made through
 * the store (no game is played here: arena.slow.test and testcases/arena.slow.test play them).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Arena } from './arena.ts';
import { createArenaApp, MAX_SUBMISSION_BYTES } from './server.ts';

const dir = mkdtempSync(join(tmpdir(), 'arena-api-'));
let arena: Arena;
let app: FastifyInstance;
let alice: string;
let bob: string;
let instructor: string;
let aliceSub: number;
let aliceGame: number;

beforeAll(async () => {
  arena = Arena.open(dir, { course: 'kalah', uploadsPerHour: 3 });
  const tokens = arena.addStudents([{ id: 'alice' }, { id: 'bob' }]);
  alice = tokens.find((t) => t.id === 'alice')!.token;
  bob = tokens.find((t) => t.id === 'bob')!.token;
  instructor = arena.instructorToken();
  aliceSub = arena.store.addSubmission({ student: 'alice', folder: 'submissions/a/1', contentHash: 'h' });
  arena.store.setSubmissionStatus(aliceSub, 'failed', JSON.stringify({ verdict: 'failed the sanity stage', checks: { text: 'alice private feedback' } }));
  [aliceGame] = arena.store.addGames([{ kind: 'sanity', A: { submission: aliceSub }, B: { anchor: 'random' }, first: 'A', seed: 1, opening: 0 }]);
  arena.store.claimQueued(1);
  arena.store.finishGame(aliceGame!, { winner: 'B', score: [0, 48], forfeit: { side: 'A', reason: 'crash', message: 'Traceback: alice_secret.py line 3' }, record: { moves: [1, 2], openingPlies: 0, moveMs: [0, 3.5], moveSides: 'AB', moveBankMs: [500, 380] } });
  app = await createArenaApp({ arena });
});
afterAll(async () => {
  await app.close();
  arena.close();
  rmSync(dir, { recursive: true, force: true });
});

const get = (url: string, token?: string, headers: Record<string, string> = {}) =>
  app.inject({ method: 'GET', url, headers: { host: '127.0.0.1:8650', ...(token !== undefined ? { authorization: `token ${token}` } : {}), ...headers } });

describe('arena API access', () => {
  it('asks for a token on every request, and a Host naming this server', async () => {
    expect((await get('/api/arena/standings')).statusCode).toBe(401);
    expect((await get('/api/arena/standings', 'x'.repeat(48))).statusCode).toBe(401);
    expect((await get('/api/arena/standings', alice, { host: 'attacker.example' })).statusCode).toBe(403);
    expect((await get('/api/arena/standings', alice)).statusCode).toBe(200);
    // ?token= works too, and sets the cookie later requests carry.
    const queried = await get(`/api/arena/me?token=${bob}`);
    expect(queried.json()).toMatchObject({ role: 'student', student: 'bob' });
    const cookie = String(queried.headers['set-cookie']).split(';')[0]!;
    expect((await get('/api/arena/me', undefined, { cookie })).json()).toMatchObject({ student: 'bob' });
  });

  it("never shows a student another's submission, feedback, game or log", async () => {
    for (const url of [`/api/arena/submissions/${aliceSub}`, `/api/arena/games?submission=${aliceSub}`, `/api/arena/games/${aliceGame}`, `/api/arena/games/${aliceGame}/log`]) {
      const r = await get(url, bob);
      expect(r.statusCode, url).toBe(404);
      expect(r.body, url).not.toContain('alice');
      expect(r.body).not.toContain('secret');
    }
    expect((await get('/api/arena/submissions', bob)).json()).toEqual({ submissions: [] });
    expect((await get('/api/arena/games', bob)).json()).toEqual({ games: [] });
  });

  it('shows a student their own, and the instructor everything', async () => {
    const feedback = await get(`/api/arena/submissions/${aliceSub}`, alice);
    expect(feedback.json()).toMatchObject({ status: 'failed', feedback: { checks: { text: 'alice private feedback' } } });
    const log = (await get(`/api/arena/games/${aliceGame}/log`, alice)).json() as { logs: { side: string; crash: string; moves: unknown[] }[] };
    expect(log.logs).toEqual([{ side: 'A', crash: 'crash: Traceback: alice_secret.py line 3', stderr: '', moves: [{ ply: 0, move: 1, ms: 0, bankLeftMs: 500 }] }]);
    expect((await get(`/api/arena/games/${aliceGame}/log`, instructor)).json()).toMatchObject({ logs: [{ side: 'A' }, { side: 'B' }] });
    expect((await get(`/api/arena/submissions/${aliceSub}`, instructor)).statusCode).toBe(200);
  });

  it('shows the public standings by pseudonym only, and /metrics to the instructor only', async () => {
    const body = (await get('/api/arena/standings', bob)).body;
    expect(body).not.toContain('"student"');
    expect(body).toContain('"anchor":true');
    expect((await get('/metrics', alice)).statusCode).toBe(403);
    const metrics = await get('/metrics', instructor);
    expect(metrics.body).toMatch(/^mancala_arena_games_done_total 1$/m);
    expect(metrics.body).toMatch(/^mancala_arena_submissions\{status="failed"\} 1$/m);
  });

  it('lets a student choose a free pseudonym', async () => {
    const put = (token: string, pseudonym: string) => app.inject({ method: 'PUT', url: '/api/arena/me/pseudonym', headers: { host: '127.0.0.1', authorization: `token ${token}` }, payload: { pseudonym } });
    expect((await put(alice, 'Night Owl')).json()).toEqual({ pseudonym: 'Night Owl' });
    expect((await put(bob, 'night owl')).json()).toEqual({ error: 'pseudonym: night owl is taken' });
    expect((await put(bob, 'greedy')).statusCode).toBe(400);
    expect((await put(bob, '<script>')).statusCode).toBe(400);
  });

  it('refuses uploads that are not zips, too large, from another origin, or beyond the hourly limit', async () => {
    const post = (payload: Buffer, headers: Record<string, string> = {}) =>
      app.inject({ method: 'POST', url: '/api/arena/submissions', headers: { host: '127.0.0.1', authorization: `token ${bob}`, 'content-type': 'application/zip', ...headers }, payload });
    expect((await post(Buffer.from('x'), { 'content-type': 'text/plain' })).statusCode).toBe(415);
    expect((await post(Buffer.alloc(MAX_SUBMISSION_BYTES + 1))).statusCode).toBe(413);
    expect((await post(Buffer.from('PK'), { origin: 'http://attacker.example' })).statusCode).toBe(403);
    // bob has made the hourly limit's uploads already: refused before anything is unpacked.
    for (let k = 0; k < 3; k++) arena.store.addSubmission({ student: 'bob', folder: `f${k}`, contentHash: 'h' });
    const limited = await post(Buffer.from('PK'));
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({ error: 'refused: 3 uploads in the last hour, the most this arena takes; try again later' });
    arena.freeze();
    expect((await post(Buffer.from('PK'))).statusCode).toBe(403);
  });
});
