/**
 * `mancala serve` as the built command runs it: it listens on 127.0.0.1 (any free port with
 * --port 0), says where with its token, serves the app only to a request with that token (the
 * cookie opening the URL sets, too), runs read-only when asked, and stops cleanly on Ctrl-C; a port
 * in use, a bad --root, --no-token off loopback or a short --token is one line and exit code 2.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const MANCALA = fileURLToPath(new URL('../../../bin/mancala.js', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'serve-cli-test-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('mancala serve', () => {
  it('serves the app on 127.0.0.1 and stops on SIGINT with exit code 0', async () => {
    const child = spawn(process.execPath, [MANCALA, 'serve', '--port', '0', '--root', work], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stderr.on('data', (d) => (err += d));
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    // Each step bounded: a step that hangs fails saying which, with what the server printed.
    const within = <T,>(step: Promise<T>, what: string): Promise<T> =>
      Promise.race([step, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`${what}: nothing in 20 s; stdout: ${out}; stderr: ${err}`)), 20_000).unref())]);
    try {
      const [url, token] = (await within(
        new Promise<string>((resolve, reject) => {
          child.stdout.on('data', (d) => {
            out += d;
            const m = /^mancala serve: (http:\/\/127\.0\.0\.1:\d+\/)\?token=([0-9a-f]{48}) /.exec(out);
            if (m) resolve(`${m[1]!} ${m[2]!}`);
          });
          void exited.then(() => reject(new Error(`serve exited: ${out} ${err}`)));
        }),
        'the URL',
      )).split(' ') as [string, string];
      expect(out).toContain(`files and agent paths are read under ${work}`);
      // No token: refused, loopback included; the printed one: answered.
      expect(await within(fetch(`${url}api/health`).then((r) => r.status), 'GET /api/health without the token')).toBe(401);
      expect(await within(fetch(`${url}api/health?token=${token}`).then((r) => r.json()), 'GET /api/health')).toEqual({ ok: true, readOnly: false });
      // Opening the printed URL: a cookie, and the page again without the token in its address.
      const opened = await within(fetch(`${url}?token=${token}`, { redirect: 'manual' }), 'GET /?token=');
      expect(opened.status).toBe(302);
      expect(opened.headers.get('location')).toBe('/');
      const cookie = opened.headers.get('set-cookie')!.split(';')[0]!;
      const page = await within(fetch(url, { headers: { cookie } }).then(async (r) => ({ type: r.headers.get('content-type'), text: await r.text() })), 'GET /');
      expect(page.type).toMatch(/^text\/html/);
      expect(page.text).toMatch(/<script type="module" src="\/assets\/app-\w+\.js">/);
      child.kill('SIGINT');
      expect(await within(exited, 'the exit after SIGINT')).toBe(0);
      expect(err).toMatch(/mancala serve: stopping \(SIGINT\)/);
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
  });

  it('takes the token from MANCALA_SERVE_TOKEN, and runs read-only: a game start refused', async () => {
    const token = 'serve-test-token-0123456789';
    const child = spawn(process.execPath, [MANCALA, 'serve', '--port', '0', '--root', work, '--read-only'], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, MANCALA_SERVE_TOKEN: token } });
    let out = '';
    try {
      const url = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no URL in 20 s: ${out}`)), 20_000);
        child.stdout.on('data', (d) => {
          out += d;
          const m = /^mancala serve: (http:\/\/127\.0\.0\.1:\d+\/)\?token=(\S+) .*; read-only\n/.exec(out);
          if (m) {
            clearTimeout(timer);
            expect(m[2]).toBe(token);
            resolve(m[1]!);
          }
        });
      });
      const headers = { authorization: `token ${token}`, 'content-type': 'application/json' };
      const start = await fetch(`${url}api/games`, { method: 'POST', headers, body: JSON.stringify({ rules: 'kalah', bottom: 'human', top: 'random' }) });
      expect(start.status).toBe(403);
      expect(((await start.json()) as { error: string }).error).toMatch(/read-only/);
      expect((await fetch(`${url}api/files`, { headers })).status).toBe(200);
    } finally {
      child.kill('SIGINT');
      await new Promise((resolve) => child.on('exit', resolve));
    }
  });

  it('refuses --no-token off loopback, and a short --token, in one line, exit code 2', () => {
    const wide = spawnSync(process.execPath, [MANCALA, 'serve', '--port', '0', '--root', work, '--host', '0.0.0.0', '--no-token'], { encoding: 'utf8', timeout: 30_000 });
    expect(wide.status).toBe(2);
    expect(wide.stderr).toMatch(/^mancala: --no-token: only with a loopback --host \(127\.0\.0\.1, localhost, ::1\), not 0\.0\.0\.0: .*\n$/);
    const short = spawnSync(process.execPath, [MANCALA, 'serve', '--port', '0', '--root', work, '--token', 'abc'], { encoding: 'utf8', timeout: 30_000 });
    expect(short.status).toBe(2);
    expect(short.stderr).toBe('mancala: --token: expected 16 to 512 printable characters without spaces (e.g. the output of openssl rand -hex 24), got 3 characters\n');
  });

  it('says in one line that the port is in use, exit code 2', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as AddressInfo).port;
    try {
      const r = spawnSync(process.execPath, [MANCALA, 'serve', '--port', String(port), '--root', work], { encoding: 'utf8', timeout: 30_000 });
      expect(r.status).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toBe(`mancala: --port ${port}: 127.0.0.1:${port} is already in use (another mancala serve?): stop it or choose another port with --port\n`);
    } finally {
      blocker.close();
    }
  });

  it('refuses a --root that is not a folder, and a port out of range', () => {
    const root = spawnSync(process.execPath, [MANCALA, 'serve', '--root', join(work, 'nothing')], { encoding: 'utf8', timeout: 30_000 });
    expect(root.status).toBe(2);
    expect(root.stderr).toBe(`mancala: --root ${join(work, 'nothing')}: not a folder\n`);
    const port = spawnSync(process.execPath, [MANCALA, 'serve', '--port', '70000'], { encoding: 'utf8', timeout: 30_000 });
    expect(port.status).toBe(2);
    expect(port.stderr).toMatch(/^mancala: option '--port <n>' argument '70000' is invalid\. Expected a port: a whole number from 0 to 65535\.\n$/);
  });
});
