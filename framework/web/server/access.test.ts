/**
 * Who the web app answers (access.ts), through Fastify's injection: no token → 401 (loopback
 * included, the page's own files too); the token as ?token= (a page is then sent on without it,
 * with the cookie), as an Authorization header, or as that cookie → 200; bound to 0.0.0.0, a
 * foreign Host is refused even with the token, and the machine's own addresses and --allow-host
 * names are answered; --read-only refuses a game start, a search and an upload, and still serves
 * what it shows.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cookieName, hostName, sameToken } from './access.ts';
import { createWebApp } from './app.ts';

const TOKEN = 'access-test-token-5f1c2d9e8b7a';
const work = mkdtempSync(join(tmpdir(), 'web-access-test-'));
const assets = new Map([
  ['index.html', { body: Buffer.from('<!doctype html><title>t</title><script src="/assets/app.js"></script>'), type: 'text/html; charset=utf-8', etag: '"x"' }],
  ['app.js', { body: Buffer.from('void 0;'), type: 'text/javascript', etag: '"y"' }],
]);
let local: FastifyInstance;
let wide: FastifyInstance;
let readOnly: FastifyInstance;

beforeAll(async () => {
  local = await createWebApp({ root: work, sandbox: 'weak', token: TOKEN, host: '127.0.0.1', assets });
  wide = await createWebApp({ root: work, sandbox: 'weak', token: TOKEN, host: '0.0.0.0', allowHosts: ['lab-server.example.edu'], assets });
  readOnly = await createWebApp({ root: work, sandbox: 'weak', token: TOKEN, host: '127.0.0.1', readOnly: true, assets });
});
afterAll(async () => {
  await Promise.all([local?.close(), wide?.close(), readOnly?.close()]);
  rmSync(work, { recursive: true, force: true });
});

const AUTH = { authorization: `token ${TOKEN}` };

describe('the token', () => {
  it('refuses every request without it, loopback included: the API, the page and its files', async () => {
    for (const url of ['/api/health', '/api/catalog', '/api/files', '/', '/assets/app.js', '/reports/report.css', '/api/standings?path=x']) {
      const r = await local.inject({ method: 'GET', url, headers: { host: '127.0.0.1:8080' } });
      expect(r.statusCode, url).toBe(401);
      expect(r.body).not.toContain('void 0');
    }
    const post = await local.inject({ method: 'POST', url: '/api/games', headers: { host: 'localhost:8080' }, payload: { rules: 'kalah', bottom: 'human', top: 'random' } });
    expect(post.statusCode).toBe(401);
    expect(post.json().error).toMatch(/^refused: no token: open the URL mancala serve printed/);
    // A browser is shown a page saying what to do, with nothing of the app in it.
    const page = await local.inject({ method: 'GET', url: '/', headers: { accept: 'text/html,*/*' } });
    expect(page.statusCode).toBe(401);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.body).toContain('needs its token');
    expect(page.body).not.toContain('/assets/app.js');
  });

  it('refuses a wrong token, in any of the three places', async () => {
    const wrong = 'access-test-token-5f1c2d9e8b7b';
    for (const r of [
      await local.inject({ method: 'GET', url: `/api/health?token=${wrong}` }),
      await local.inject({ method: 'GET', url: '/api/health', headers: { authorization: `token ${wrong}` } }),
      await local.inject({ method: 'GET', url: '/api/health', headers: { cookie: `${cookieName(TOKEN)}=${wrong}` } }),
    ]) {
      expect(r.statusCode).toBe(401);
      expect(r.json().error).toMatch(/^refused: a wrong token/);
    }
    // The token under another server's cookie name is not this server's cookie.
    expect((await local.inject({ method: 'GET', url: '/api/health', headers: { cookie: `${cookieName(wrong)}=${TOKEN}` } })).statusCode).toBe(401);
  });

  it('accepts it as ?token=, as an Authorization header, and as the cookie opening the URL sets', async () => {
    const query = await local.inject({ method: 'GET', url: `/api/health?token=${TOKEN}` });
    expect(query.statusCode).toBe(200);
    expect(query.json()).toEqual({ ok: true, readOnly: false });
    // ?token= on a route with a strict query: the token is not one of its fields.
    expect((await local.inject({ method: 'GET', url: `/api/files?dir=&token=${TOKEN}` })).statusCode).toBe(200);
    const header = await local.inject({ method: 'GET', url: '/api/catalog', headers: AUTH });
    expect(header.statusCode).toBe(200);
    expect(header.json().readOnly).toBe(false);

    // Opening the printed URL: the cookie (HttpOnly, SameSite=Strict), and the same page without the token.
    const opened = await local.inject({ method: 'GET', url: `/?token=${TOKEN}` });
    expect(opened.statusCode).toBe(302);
    expect(opened.headers.location).toBe('/');
    const setCookie = String(opened.headers['set-cookie']);
    expect(setCookie).toMatch(new RegExp(`^${cookieName(TOKEN)}=${TOKEN}; Path=/; HttpOnly; SameSite=Strict$`));
    const kept = await local.inject({ method: 'GET', url: '/reports/view?path=a.json&token=' + TOKEN });
    expect(kept.headers.location).toBe('/reports/view?path=a.json');
    // The redirect stays on this server, whatever the path.
    for (const path of ['//evil.example/x', '/\\evil.example/x', '/%2F%2Fevil.example']) {
      const sent = await local.inject({ method: 'GET', url: `${path}?token=${TOKEN}` });
      // (injection may read "/\\host" as a request to that host: refused, 403)
      expect([302, 403], path).toContain(sent.statusCode);
      if (sent.statusCode === 302) expect(String(sent.headers.location), path).toMatch(/^\/[^/\\]/);
    }
    const cookie = setCookie.split(';')[0]!;
    const page = await local.inject({ method: 'GET', url: '/', headers: { cookie: `other=1; ${cookie}` } });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('/assets/app.js');
    expect((await local.inject({ method: 'GET', url: '/assets/app.js', headers: { cookie } })).body).toBe('void 0;');
    expect((await local.inject({ method: 'POST', url: '/api/games', headers: { cookie }, payload: { rules: 'kalah', bottom: 'human', top: 'random' } })).statusCode).toBe(201);
  });

  it('compares in constant time, whatever the lengths', () => {
    expect(sameToken(TOKEN, TOKEN)).toBe(true);
    expect(sameToken(`${TOKEN}x`, TOKEN)).toBe(false);
    expect(sameToken('', TOKEN)).toBe(false);
    expect(sameToken(undefined, TOKEN)).toBe(false);
  });

  it('asks for none with token: null (--no-token, which the command allows on loopback only)', async () => {
    const open = await createWebApp({ root: work, sandbox: 'weak', token: null, host: '127.0.0.1', assets });
    try {
      expect((await open.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
      expect((await open.inject({ method: 'GET', url: '/api/health', headers: { host: 'evil.example' } })).statusCode).toBe(403);
    } finally {
      await open.close();
    }
  });
});

describe('the Host allow-list, bound to 0.0.0.0', () => {
  it('refuses a foreign Host even with the token (DNS rebinding)', async () => {
    for (const host of ['evil.example', 'evil.example:8080', '127.0.0.1.evil.example', 'localhost.evil.example:80']) {
      const r = await wide.inject({ method: 'GET', url: '/api/health', headers: { ...AUTH, host } });
      expect(r.statusCode, host).toBe(403);
      expect(r.json().error).toMatch(/^refused: this server answers requests addressed to it/);
    }
    const withQuery = await wide.inject({ method: 'GET', url: `/?token=${TOKEN}`, headers: { host: 'evil.example' } });
    expect(withQuery.statusCode).toBe(403);
    expect(withQuery.headers['set-cookie']).toBeUndefined();
  });

  it('answers loopback names, the machine\'s own addresses and --allow-host names', async () => {
    const own = Object.values(networkInterfaces())
      .flatMap((l) => l ?? [])
      .map((a) => (a.family === 'IPv6' ? `[${a.address.replace(/%.*$/, '')}]:8080` : `${a.address}:8080`));
    for (const host of ['127.0.0.1:8080', 'localhost', '[::1]:8080', 'LAB-SERVER.example.edu:8080', ...own]) {
      expect((await wide.inject({ method: 'GET', url: '/api/health', headers: { ...AUTH, host } })).statusCode, host).toBe(200);
    }
    // …and the token is still asked for there.
    expect((await wide.inject({ method: 'GET', url: '/api/health', headers: { host: 'lab-server.example.edu' } })).statusCode).toBe(401);
  });

  it('refuses a state-changing request from another origin', async () => {
    const r = await wide.inject({ method: 'POST', url: '/api/games', headers: { ...AUTH, host: 'lab-server.example.edu:8080', origin: 'http://evil.example' }, payload: {} });
    expect(r.statusCode).toBe(403);
    expect(r.json().error).toMatch(/another origin/);
  });

  it('reads Host names as the browser writes them', () => {
    expect(hostName('Example.EDU:8080')).toBe('example.edu');
    expect(hostName('[::1]:80')).toBe('[::1]');
    expect(hostName('::1')).toBe('[::1]');
    expect(hostName('10.0.0.5')).toBe('10.0.0.5');
  });
});

describe('--read-only', () => {
  it('refuses a game start, a search and an upload (403, saying why), and serves what it shows', async () => {
    const refusals = [
      await readOnly.inject({ method: 'POST', url: '/api/games', headers: AUTH, payload: { rules: 'kalah', bottom: 'human', top: 'random' } }),
      await readOnly.inject({ method: 'POST', url: '/api/search', headers: AUTH, payload: { profile: 'kalah', algo: 'alphabeta', depth: 2 } }),
      await readOnly.inject({ method: 'POST', url: '/api/replay', headers: AUTH, payload: { name: 'a.jsonl', text: '' } }),
      await readOnly.inject({ method: 'DELETE', url: '/api/games/00000000-0000-0000-0000-000000000000', headers: AUTH }),
    ];
    for (const r of refusals) {
      expect(r.statusCode).toBe(403);
      expect(r.json().error).toBe('refused: this server is read-only (mancala serve --read-only): it shows standings, replays and reports, and starts no game, no search and no upload');
    }
    expect((await readOnly.inject({ method: 'GET', url: '/api/health', headers: AUTH })).json()).toEqual({ ok: true, readOnly: true });
    expect((await readOnly.inject({ method: 'GET', url: '/api/catalog', headers: AUTH })).json().readOnly).toBe(true);
    expect((await readOnly.inject({ method: 'GET', url: '/api/files', headers: AUTH })).statusCode).toBe(200);
    expect((await readOnly.inject({ method: 'GET', url: '/', headers: AUTH })).statusCode).toBe(200);
    // Without the token it is refused like any server.
    expect((await readOnly.inject({ method: 'GET', url: '/api/files' })).statusCode).toBe(401);
  });
});
