/**
 * The server never crashes on a malformed request: fast-check sends thousands of requests to every
 * route — random methods, paths (valid, garbled, badly percent-encoded, too long), query strings
 * (unknown, repeated, huge) and bodies (random JSON, near-valid requests, text under every content
 * type), with the token (one request in sixteen without it, and ?token= right or wrong) — and every
 * answer must be below 500, a refusal must be one line of JSON, no answer may show a credential a
 * path can name (a hidden file, a text file), and the server must still answer afterwards.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleReport } from '../../../testcases/fixtures/grade-report.ts';
import { UserError } from '../../errors.ts';
import { toJson } from '../../grading/reporters/json.ts';
import { isPathSpec, openPlayer } from '../../matches/player.ts';
import type { GameView } from '../shared/api.ts';
import { createWebApp } from './app.ts';

/** The token the test's server asks for, sent with every request (a request without it is refused: access.test.ts). */
const TOKEN = 'test-token-0123456789abcdef';
const AUTH = { authorization: `token ${TOKEN}` };

const work = mkdtempSync(join(tmpdir(), 'web-fuzz-test-'));
let app: FastifyInstance;
let gameId: string;
let searchId: string;

const REPLAY = [
  '{"type":"game","version":1,"game":1,"rules":"kalah","pits":1,"seeds":1,"A":"a","B":"b","first":"A","seed":1,"timePerMoveMs":1000,"forfeitPolicy":"loss"}',
  '{"type":"move","game":1,"ply":0,"side":"A","before":{"top":[1],"bottom":[1],"stores":{"top":0,"bottom":0},"toMove":"bottom"},"move":0,"moveName":"B0","ms":0}',
  '{"type":"end","game":1,"winner":"A","score":[1,1],"plies":1,"openingPlies":0,"forfeit":null,"time":[0,0]}',
].join('\n');

beforeAll(async () => {
  mkdirSync(join(work, 'replays'));
  writeFileSync(join(work, 'replays', 'game-001.jsonl'), REPLAY + '\n');
  writeFileSync(join(work, 'replays', 'results.jsonl'), '{"type":"tournament","version":1,"params":{}}\n');
  writeFileSync(join(work, 'replays', 'grade.json'), toJson(sampleReport()));
  // A credential the fuzzer's paths may name: no answer may show it.
  writeFileSync(join(work, '.git-credentials'), 'https://student:fuzz-secret-4cf1@github.com\n');
  writeFileSync(join(work, 'replays', 'creds.txt'), 'https://student:fuzz-secret-4cf1@github.com\n');
  // Reference agents as they are; a path (which would start a sandboxed process) refused, as a missing agent is.
  const open: typeof openPlayer = async (spec, o) => {
    if (isPathSpec(spec)) throw new UserError(`agent ${spec}: no agent found (fuzz test)`);
    return openPlayer(spec, o);
  };
  app = await createWebApp({ root: work, sandbox: 'weak', token: TOKEN, open, assets: new Map([['index.html', { body: Buffer.from('<!doctype html>'), type: 'text/html', etag: '"x"' }]]) });
  const r = await app.inject({ method: 'POST', url: '/api/games', headers: AUTH, payload: { rules: 'kalah', pits: 3, seeds: 2, bottom: 'human', top: 'random' } });
  gameId = (r.json() as GameView).id;
  const search = await app.inject({ method: 'POST', url: '/api/search', headers: AUTH, payload: { profile: 'csci561', pits: 3, seeds: 2, algo: 'alphabeta', depth: 3 } });
  searchId = (search.json() as { id: string }).id;
});
afterAll(async () => {
  await app?.close();
  rmSync(work, { recursive: true, force: true });
});

const ROUTES = [
  '/',
  '/index.html',
  '/favicon.ico',
  '/assets/icon.svg',
  '/assets/',
  '/api/health',
  '/api/catalog',
  '/api/games',
  '/api/games/ID',
  '/api/games/ID/move',
  '/api/games/ID/advance',
  '/api/games/ID/undo',
  '/api/games/ID/hint',
  '/api/files',
  '/api/tournament',
  '/api/standings',
  // refused before it streams (the fuzz's files are no tournament's results): it never holds a request open
  '/api/standings/events',
  '/api/replay',
  '/api/search',
  '/api/search/SID/nodes/0',
  '/api/search/SID/path/5',
  '/api/search/SID/log',
  '/api/report',
  '/reports/view',
  '/reports/report.css',
  '/reports/',
  '/api/',
];

/** A path segment as a client might send it: plain, percent-encoded, or badly encoded. */
const segment = fc.oneof(
  fc.string({ maxLength: 12 }).map(encodeURIComponent),
  fc.constantFrom('..', '.', '%2e%2e', '%2F', '%zz', '%E0%A4%A', '%00', '%', '%%', '~', 'game-001.jsonl', 'replays', '00000000-0000-0000-0000-000000000000'),
  fc.string({ unit: 'binary', maxLength: 8 }).map(encodeURIComponent),
  fc.nat({ max: 5000 }).map((n) => 'a'.repeat(n)),
);

const path = fc.oneof(
  fc.constantFrom(...ROUTES),
  fc.tuple(fc.constantFrom(...ROUTES), segment).map(([r, s]) => `${r}${r.endsWith('/') ? '' : '/'}${s}`),
  fc.array(segment, { minLength: 1, maxLength: 4 }).map((s) => `/${s.join('/')}`),
  fc.tuple(fc.constantFrom(...ROUTES), fc.constantFrom('//', '/./', '/../', '?', '#', ';', '%20')).map(([r, x]) => `${r}${x}`),
);

const queryValue = fc.oneof(
  fc.string({ maxLength: 20 }),
  fc.constantFrom('replays/game-001.jsonl', 'replays/results.jsonl', 'replays/grade.json', 'replays', '../..', '/etc/passwd', '', '0', '-1', '1e9', '99999999999', 'replays/nothing.jsonl', '.git-credentials', 'replays/creds.txt', TOKEN, 'wrong-token'),
  fc.string({ unit: 'binary', maxLength: 10 }),
);
const query = fc.oneof(
  fc.constant(''),
  fc
    .array(fc.tuple(fc.oneof(fc.constantFrom('path', 'dir', 'game', 'ply', 'submission', 'iteration', 'from', 'x', 'token'), fc.string({ maxLength: 6 })), queryValue), { maxLength: 4 })
    .map((pairs) => (pairs.length === 0 ? '' : `?${pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&')}`)),
  fc.constantFrom('?path=%zz', '?path', '?&&&=', '?game=1&game=2&path=replays/results.jsonl', '?dir[]=x', '?__proto__[x]=1', '?constructor=1'),
);

const seatSpec = fc.oneof(fc.constantFrom('human', 'random', 'greedy', 'alphabeta:depth=1', 'alphabeta:depth=x', 'strong:', 'replays', '../', ''), fc.string({ maxLength: 12 }));
const body = fc.oneof(
  fc.constant(undefined),
  fc.jsonValue({ maxDepth: 3 }),
  fc.record(
    {
      rules: fc.oneof(fc.constantFrom('kalah', 'csci561', 'csc384', 'cpsc4610', 'cs540'), fc.string({ maxLength: 10 })),
      pits: fc.oneof(fc.integer({ min: -2, max: 25 }), fc.double(), fc.string({ maxLength: 3 })),
      seeds: fc.oneof(fc.integer({ min: -2, max: 1100 }), fc.constant(null)),
      bottom: seatSpec,
      top: seatSpec,
      timePerMoveMs: fc.integer({ min: -1, max: 20 }),
      move: fc.oneof(fc.integer({ min: -3, max: 25 }), fc.string({ maxLength: 3 })),
      name: fc.string({ maxLength: 10 }),
      // the Search explorer's (the depth kept small: a valid search runs)
      profile: fc.oneof(fc.constantFrom('kalah', 'csci561', 'cs540'), fc.string({ maxLength: 8 })),
      algo: fc.constantFrom('minimax', 'alphabeta', 'ids', 'mcts'),
      depth: fc.oneof(fc.integer({ min: -1, max: 4 }), fc.constant(50)),
      board: fc.oneof(fc.constantFrom('1\n1\n2\n1 2\n2 1\n0\n0', '{"top":[1],"bottom":[1],"stores":{"top":0,"bottom":0}}', '4 4,4 4'), fc.string({ maxLength: 30 })),
      text: fc.oneof(fc.constant(REPLAY), fc.string({ maxLength: 200 }), fc.constant(REPLAY.replace('"ply":0', '"ply":"0"'))),
    },
    { requiredKeys: [] },
  ),
);
const contentType = fc.constantFrom(undefined, 'application/json', 'application/json; charset=utf-8', 'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/xml', '', 'application/json; charset=latin1');
const rawText = fc.oneof(fc.string({ maxLength: 50 }), fc.constantFrom('{', '{"__proto__":{"x":1}}', '{"constructor":{"prototype":{}}}', 'null', '[]', '""', '1e400', '\u0000'));

const request = fc.record({
  method: fc.constantFrom('GET', 'POST', 'DELETE', 'PUT', 'PATCH', 'HEAD', 'OPTIONS'),
  path,
  query,
  json: fc.boolean(),
  body,
  rawText,
  contentType,
  noToken: fc.integer({ min: 0, max: 15 }).map((n) => n === 0),
});

describe('the web server under a fuzzer', () => {
  it('answers every request below 500, each refusal one line, and still answers afterwards', async () => {
    let refusals = 0;
    await fc.assert(
      fc.asyncProperty(request, async (r) => {
        const url = r.path.replaceAll('/SID', `/${searchId}`).replaceAll('/ID', `/${gameId}`) + r.query;
        // One request in sixteen without the token: refused (401) like any other malformed request.
        const headers: Record<string, string> = r.noToken ? {} : { ...AUTH };
        if (r.contentType !== undefined) headers['content-type'] = r.contentType;
        const options: InjectOptions = { method: r.method as InjectOptions['method'], url, headers };
        if (r.method !== 'GET' && r.method !== 'HEAD') {
          if (r.json && r.body !== undefined) options.payload = JSON.stringify(r.body);
          else if (!r.json) options.payload = r.rawText;
        }
        const res = await app.inject(options);
        expect(res.statusCode, `${r.method} ${url} ${String(options.payload ?? '').slice(0, 200)} → ${res.body.slice(0, 300)}`).toBeLessThan(500);
        expect(res.body).not.toContain('fuzz-secret');
        if (res.statusCode >= 400 && r.method !== 'HEAD') {
          refusals++;
          const data = res.json() as { error?: unknown };
          expect(typeof data.error).toBe('string');
          expect(data.error as string).not.toMatch(/\n/);
        }
      }),
      { numRuns: 5000, seed: 20_240_917 },
    );
    expect(refusals).toBeGreaterThan(1000);
    expect((await app.inject({ method: 'GET', url: '/api/health', headers: AUTH })).json()).toEqual({ ok: true, readOnly: false });
    // (the fuzzer may have closed the game: DELETE /api/games/ID)
    expect((await app.inject({ method: 'POST', url: '/api/games', headers: AUTH, payload: { rules: 'kalah', bottom: 'human', top: 'random' } })).statusCode).toBe(201);
  });

  it('plays random legal and illegal moves in a game without ever failing', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.oneof(fc.integer({ min: -1, max: 7 }).map((m) => ({ move: m })), fc.constantFrom('advance', 'undo', 'hint')), { maxLength: 30 }), async (steps) => {
        const created = await app.inject({ method: 'POST', url: '/api/games', headers: AUTH, payload: { rules: 'cs540', pits: 3, seeds: 2, bottom: 'human', top: 'greedy' } });
        const id = (created.json() as GameView).id;
        for (const step of steps) {
          const res =
            typeof step === 'string'
              ? await app.inject({ method: 'POST', url: `/api/games/${id}/${step}`, headers: AUTH, payload: {} })
              : await app.inject({ method: 'POST', url: `/api/games/${id}/move`, headers: AUTH, payload: step });
          expect(res.statusCode, res.body).toBeLessThan(500);
        }
        await app.inject({ method: 'DELETE', url: `/api/games/${id}`, headers: AUTH });
      }),
      { numRuns: 150, seed: 7 },
    );
  });
});
