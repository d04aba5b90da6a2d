/**
 * What the web app reads under --root, tried as a classmate would (through Fastify's injection,
 * with the token): a hidden file (.git-credentials) is refused by every route that reads files,
 * through a link too; a file that is not what the route reads, or a results file, replay or report
 * holding a secret in a field, is refused in one line quoting none of its text; an openings file
 * named by a results header is read under the root only; and an agent's bare name resolves as a
 * reference name or under the root, never in the server's working folder (`node_modules` is there).
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWebApp } from './app.ts';
import { withoutFileText } from './file-problem.ts';

const TOKEN = 'hostile-files-test-token-77aa';
const AUTH = { authorization: `token ${TOKEN}` };
const SECRET = 'ghp_Zq81SecretTokenNotToBeShown';
/** A file of characters no message of the server's holds: any one of them in a reply is the file's. */
const ODD = 'ЖЮЯ№¤';
const work = mkdtempSync(join(tmpdir(), 'web-hostile-files-'));
const outside = mkdtempSync(join(tmpdir(), 'web-hostile-outside-'));
let app: FastifyInstance;

const REPLAY_HEADER = '{"type":"game","version":1,"game":1,"rules":"kalah","pits":1,"seeds":1,"A":"a","B":"b","first":"A","seed":1,"timePerMoveMs":1000,"forfeitPolicy":"loss"}';
const params = (extra: object = {}) => ({ format: 'round-robin', agents: ['a', 'b'], vs: [], gamesPerPair: 2, seed: 1, rules: 'kalah', pits: 6, seeds: 4, timePerMoveMs: 1000, openings: 'random:0', openingsSha256: null, forfeit: 'loss', ...extra });

beforeAll(async () => {
  writeFileSync(join(work, '.git-credentials'), `https://student:${SECRET}@github.com\n`);
  mkdirSync(join(work, '.hidden'));
  writeFileSync(join(work, '.hidden', 'results.jsonl'), `${JSON.stringify({ type: 'tournament', version: 1, params: params() })}\n`);
  symlinkSync(join(work, '.git-credentials'), join(work, 'innocent.jsonl'));
  writeFileSync(join(work, 'creds.txt'), `https://student:${SECRET}@github.com\n`);
  writeFileSync(join(work, 'creds.json'), JSON.stringify({ token: SECRET }));
  writeFileSync(join(work, 'odd.txt'), `${ODD}\n`);
  writeFileSync(join(work, 'odd.json'), `{"a": 1${ODD}}`);
  mkdirSync(join(work, 't'));
  const game = { type: 'game', index: 1, A: 'b', B: 'a', first: 'A', winner: SECRET, score: [1, 1], moves: [], openingPlies: 0, forfeit: null, time: [0, 0] };
  writeFileSync(join(work, 't', 'results.jsonl'), `${JSON.stringify({ type: 'tournament', version: 1, params: params() })}\n${JSON.stringify(game)}\n`);
  writeFileSync(join(work, 't', 'replay.jsonl'), `${REPLAY_HEADER.replace('"A":"a"', `"A":"a","x":"${SECRET}"`)}\n`);
  writeFileSync(join(work, 't', 'replay2.jsonl'), `${REPLAY_HEADER}\n{"type":"move","game":1,"ply":0,"side":"A","before":"${SECRET}"}\n`);
  // A results header naming an openings file outside the root, and its game starting from it.
  writeFileSync(join(outside, 'openings.jsonl'), `${SECRET}\n`);
  mkdirSync(join(work, 'o'));
  const opened = { type: 'game', index: 1, A: 'a', B: 'b', first: 'A', winner: 'A', score: [1, 1], moves: [], openingPlies: 0, forfeit: null, time: [0, 0], startPosition: 1 };
  writeFileSync(join(work, 'o', 'results.jsonl'), `${JSON.stringify({ type: 'tournament', version: 1, params: params({ openings: join(outside, 'openings.jsonl'), openingsSha256: 'x' }) })}\n${JSON.stringify(opened)}\n`);
  app = await createWebApp({ root: work, sandbox: 'weak', token: TOKEN, assets: new Map([['index.html', { body: Buffer.from('<!doctype html>'), type: 'text/html', etag: '"x"' }]]) });
});
afterAll(async () => {
  await app?.close();
  rmSync(work, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});

/** Every route that reads a file, for `path`. */
const readers = (path: string) => {
  const p = encodeURIComponent(path);
  return [`/api/standings?path=${p}`, `/api/standings/events?path=${p}`, `/api/tournament?path=${p}`, `/api/replay?path=${p}`, `/api/replay?path=${p}&game=1`, `/api/report?path=${p}`, `/reports/view?path=${p}`];
};

async function refusal(url: string): Promise<{ status: number; error: string }> {
  const r = await app.inject({ method: 'GET', url, headers: AUTH });
  expect(r.statusCode, `${url}: ${r.body}`).toBeGreaterThanOrEqual(400);
  expect(r.statusCode).toBeLessThan(500);
  // Nothing of the secret, not even its start.
  expect(r.body, url).not.toContain(SECRET.slice(0, 6));
  expect(r.body, url).not.toContain('student:');
  // Not one character of it, nor V8's quote of the bad one (`Unexpected token 'h'`).
  for (const ch of ODD) expect(r.body, url).not.toContain(ch);
  const error = (r.json() as { error: string }).error;
  expect(error.replace(/(?<=\b(?:Expected|or) )'[,:{}[\]]'/g, ''), url).not.toMatch(/'[^'\n]*'/);
  return { status: r.statusCode, error: (r.json() as { error: string }).error };
}

describe('hostile files under --root', () => {
  it('reads no hidden file or folder, by its name or through a link', async () => {
    for (const path of ['.git-credentials', '.hidden/results.jsonl', 'innocent.jsonl', `${work}/.git-credentials`]) {
      for (const url of readers(path)) {
        const r = await refusal(url);
        expect(r.status, url).toBe(403);
        expect(r.error).toMatch(/a hidden file or folder \(its name starts with a dot\): this server reads none$/);
      }
    }
    expect((await app.inject({ method: 'GET', url: '/api/files?dir=.hidden', headers: AUTH })).statusCode).toBe(403);
  });

  it('quotes none of a file that is not what the route reads', async () => {
    for (const path of ['creds.txt', 'creds.json', 'odd.txt', 'odd.json']) for (const url of readers(path)) await refusal(url);
    expect((await refusal('/api/report?path=creds.txt')).error).toBe('creds.txt: expected a JSON grade report (Unexpected character)');
    expect((await refusal('/api/standings?path=creds.txt')).error).toMatch(/^creds\.txt:1: not a JSON line \(expected a header line \{"type":"tournament","version":1,"params":\{…\}\}\): \(text not shown\)$/);
  });

  it('takes every quoted excerpt out of a reader\'s message, V8\'s quote of a bad character too, keeping its own words', () => {
    expect(withoutFileText("creds.txt:1: expected a JSON grade report (Unexpected token 'h')")).toBe('creds.txt:1: expected a JSON grade report (Unexpected token (text not shown))');
    expect(withoutFileText("r.json: expected a JSON grade report: Unexpected token 'h'")).not.toContain("'h'");
    expect(withoutFileText("r.json:4: expected a JSON grade report (Expected ',' or '}' after property value)")).toBe("r.json:4: expected a JSON grade report (Expected ',' or '}' after property value)");
    expect(withoutFileText('f:1: not a JSON line (expected a header line {"type":"tournament"}): "https://student:tok…')).toBe('f:1: not a JSON line (expected a header line {"type":"tournament"}): (text not shown)');
  });

  it("quotes none of a secret in a results file's, a replay's field", async () => {
    for (const url of [...readers('t/results.jsonl'), ...readers('t/replay.jsonl'), ...readers('t/replay2.jsonl')]) await refusal(url);
    expect((await refusal('/api/standings?path=t/results.jsonl')).error).toMatch(/^t\/results\.jsonl:2: field "winner": /);
  });

  it('reads the openings file a results header names under the root only, and quotes none of it', async () => {
    const r = await refusal('/api/replay?path=o/results.jsonl&game=1');
    expect(r.status).toBe(422);
    expect(r.error).toMatch(/starts from position 1 of the openings file .*, which cannot be read here: .*outside the folder this server reads/);
  });

  it("resolves a bare agent name as a reference name, never in the server's working folder", async () => {
    // node_modules is in the working folder the tests run in; it is not under the root.
    const r = await app.inject({ method: 'POST', url: '/api/games', headers: AUTH, payload: { rules: 'kalah', bottom: 'human', top: 'node_modules' } });
    expect(r.statusCode).toBe(400);
    expect(r.json().error).toMatch(/^top: .*node_modules/);
    expect(r.json().error).not.toMatch(/sandbox|submission/);
    const hidden = await app.inject({ method: 'POST', url: '/api/games', headers: AUTH, payload: { rules: 'kalah', bottom: 'human', top: '.hidden/agent.ts' } });
    expect(hidden.statusCode).toBe(400);
    const dotted = await app.inject({ method: 'POST', url: '/api/games', headers: AUTH, payload: { rules: 'kalah', bottom: 'human', top: '.hidden' } });
    expect(dotted.statusCode).toBe(403);
    expect(dotted.json().error).toBe('agent .hidden: a hidden file or folder (its name starts with a dot): this server runs none');
  });
});
