import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { extractZip } from '../files/archive.ts';
import { submitToArena, zipFolder } from './submit.ts';

const dir = mkdtempSync(join(tmpdir(), 'arena-submit-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('mancala submit', () => {
  it('zips a folder\'s regular files, leaving out links, .git and node_modules', async () => {
    const src = join(dir, 'src');
    mkdirSync(join(src, 'lib'), { recursive: true });
    mkdirSync(join(src, '.git'));
    mkdirSync(join(src, 'node_modules'));
    writeFileSync(join(src, 'agent.py'), 'print(1)\n');
    writeFileSync(join(src, 'lib', 'helper.py'), 'x = 2\n');
    writeFileSync(join(src, '.git', 'HEAD'), 'ref\n');
    writeFileSync(join(src, 'node_modules', 'big.js'), '//\n');
    symlinkSync('/etc/passwd', join(src, 'passwd'));
    const zip = await zipFolder(src);
    writeFileSync(join(dir, 'up.zip'), zip);
    const out = join(dir, 'out');
    mkdirSync(out);
    const r = await extractZip(join(dir, 'up.zip'), out);
    expect(r.notes).toEqual([]);
    expect(readdirSync(out, { recursive: true }).map(String).sort()).toEqual(['agent.py', 'lib', 'lib/helper.py']);
    expect(readFileSync(join(out, 'lib', 'helper.py'), 'utf8')).toBe('x = 2\n');
  });

  it('says in one line what is wrong with its arguments or the arena', async () => {
    await expect(submitToArena(join(dir, 'nothing'), 'http://127.0.0.1:1', 't', { wait: false })).rejects.toThrow(/nothing: no such file or folder$/);
    writeFileSync(join(dir, 'notes.txt'), 'hi');
    await expect(submitToArena(join(dir, 'notes.txt'), 'http://127.0.0.1:1', 't', { wait: false })).rejects.toThrow(/expected your submission's folder, or a zip of it$/);
    await expect(submitToArena(join(dir, 'src'), 'lab-server', 't', { wait: false })).rejects.toThrow(/^--arena lab-server: expected/);
    // A port nothing listens on: one a server had, closed.
    const server = createServer();
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as AddressInfo).port;
    await new Promise((r) => server.close(r));
    await expect(submitToArena(join(dir, 'src'), `http://127.0.0.1:${port}`, 't', { wait: false })).rejects.toThrow(new RegExp(`^--arena http://127.0.0.1:${port}: cannot reach it \\(ECONNREFUSED\\)$`));
  });

  it("prints the arena's answer with no control character or bidi override of it: what a submission printed reaches the answer", async () => {
    // ESC ] 0 (a window title), BEL, CSI clear-screen, C1 CSI, a right-to-left override, OSC 52 (the clipboard).
    const hostile = 'a\x1b]0;owned\x07b\x1b[2Jc\u009bd\u202ee\x1b]52;c;aGk=\x07';
    const server = createHttpServer((req, res) => {
      req.resume();
      res.setHeader('content-type', 'application/json');
      if (req.method === 'POST') {
        res.statusCode = 201;
        res.end(JSON.stringify({ id: 7, status: `checking${hostile}`, contentHash: `${hostile}0123456789abcdef` }));
      } else res.end(JSON.stringify({ id: 7, status: `rejected${hostile}`, feedback: { checks: { text: `line one${hostile}\nline two${hostile}\n` }, verdict: `crashed${hostile}` } }));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const out = await submitToArena(join(dir, 'src'), url, 't', { wait: true });
      expect(out).toMatch(/^submission 7: checkinga\\x1b\]0;owned\\x07b/);
      expect(out).toContain('line two');
      expect(out).toMatch(/submission 7: rejected.*: crashed/);
      expect(out).not.toMatch(/[\x00-\x09\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/);
      server.removeAllListeners('request');
      server.on('request', (req, res) => {
        req.resume();
        res.statusCode = 400;
        res.end(JSON.stringify({ error: `too big${hostile}` }));
      });
      const refused = await submitToArena(join(dir, 'src'), url, 't', { wait: false }).catch((e: Error) => e.message);
      expect(refused).toMatch(/^the arena refused the upload \(400\): too big/);
      expect(refused).not.toMatch(/[\x00-\x1f\x7f-\x9f\u202e]/);
    } finally {
      await new Promise((r) => server.close(r));
    }
  }, 20_000);
});
