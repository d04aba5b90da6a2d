/**
 * The web app stays up, measured on the built `mancala serve` (a process of its own, so its
 * memory is its own: /proc/PID/status, VmRSS now and VmHWM, the peak):
 *
 *  - a 26 KB results.jsonl whose header declares 3,000 agents × 100,000 games a pair is refused
 *    in one line by every route that reads results, and the server's peak memory grows by less
 *    than 200 MB (it went past 5 GB and died);
 *  - while a reference agent searches alpha-beta to depth 40 for a 6 s move, another route
 *    answers within a second, again and again (the search runs on the worker pool; on the event
 *    loop it held every request for the whole move);
 *  - eight concurrent 60 MB uploads (they took 850 MB) are refused by their length (413), and of
 *    eight of 12 MB, at most two are read at once and the rest refused (429): the peak stays bounded.
 * The figures are printed, for docs/security.md.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_UPLOADS } from './upload-gate.ts';

const MANCALA = fileURLToPath(new URL('../../../bin/mancala.js', import.meta.url));
const TOKEN = 'stays-up-test-token-8d2f6a1c';
const AUTH = { authorization: `token ${TOKEN}` };
const work = mkdtempSync(join(tmpdir(), 'web-stays-up-'));
let server: ChildProcess;
let base = '';

/** The server's resident memory now and at its peak, MB. */
function memory(): { rssMb: number; peakMb: number } {
  const status = readFileSync(`/proc/${server.pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)![1]);
  return { rssMb: Math.round(kb('VmRSS') / 1024), peakMb: Math.round(kb('VmHWM') / 1024) };
}

beforeAll(async () => {
  mkdirSync(join(work, 'huge'));
  // 3,000 agents, 100,000 games a pair: 4.5 × 10^11 scheduled games, declared in 26 KB.
  const agents = Array.from({ length: 3000 }, (_, k) => `a${k}`);
  const params = { format: 'round-robin', agents, vs: [], gamesPerPair: 100_000, seed: 1, rules: 'kalah', pits: 6, seeds: 4, timePerMoveMs: 1000, openings: 'random:0', openingsSha256: null, forfeit: 'loss' };
  const game = { type: 'game', index: 1, A: 'a0', B: 'a1', first: 'A', winner: 'A', score: [30, 18], moves: [2], openingPlies: 0, forfeit: null, time: [1, 1] };
  writeFileSync(join(work, 'huge', 'results.jsonl'), `${JSON.stringify({ type: 'tournament', version: 1, params })}\n${JSON.stringify(game)}\n`);
  // 1,000 agents, 1 game a pair: within the page's bounds (499,500 games), but in a file of one game line.
  mkdirSync(join(work, 'wide'));
  writeFileSync(join(work, 'wide', 'results.jsonl'), `${JSON.stringify({ type: 'tournament', version: 1, params: { ...params, agents: agents.slice(0, 1000), gamesPerPair: 1 } })}\n${JSON.stringify(game)}\n`);
  server = spawn(process.execPath, [MANCALA, 'serve', '--port', '0', '--root', work, '--token', TOKEN, '--weak-sandbox'], { stdio: ['ignore', 'pipe', 'pipe'] });
  base = await new Promise<string>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`no URL in 30 s: ${out}`)), 30_000);
    server.stdout!.on('data', (d) => {
      out += d;
      const m = /^mancala serve: (http:\/\/127\.0\.0\.1:\d+)\//.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
    server.on('exit', (code) => reject(new Error(`mancala serve exited (${code}): ${out}`)));
  });
});
afterAll(async () => {
  if (server !== undefined && server.exitCode === null) {
    server.kill('SIGINT');
    await new Promise((resolve) => server.once('exit', resolve));
  }
  rmSync(work, { recursive: true, force: true });
});

const get = async (path: string) => {
  const r = await fetch(`${base}${path}`, { headers: AUTH });
  return { status: r.status, body: await r.text() };
};

describe('the web app stays up', () => {
  it('refuses a results header declaring 3,000 agents × 100,000 games a pair, and allocates nothing from it', { timeout: 60_000 }, async () => {
    await get('/api/health');
    const before = memory();
    for (const path of ['/api/standings', '/api/standings/events', '/api/tournament', '/api/replay']) {
      const r = await get(`${path}?path=huge/results.jsonl${path === '/api/replay' ? '&game=1' : ''}`);
      expect(r.status, `${path}: ${r.body}`).toBe(422);
      expect(JSON.parse(r.body).error).toBe(
        'huge/results.jsonl:1: the header declares 3,000 agents and 100,000 games a pair (449,850,000,000 games), more than this page shows (1,000 agents, 500,000 games); the file holds 2 lines',
      );
    }
    for (const path of ['/api/standings', '/api/tournament', '/api/replay']) {
      const r = await get(`${path}?path=wide/results.jsonl${path === '/api/replay' ? '&game=1' : ''}`);
      expect(r.status, `${path}: ${r.body}`).toBe(422);
      expect(JSON.parse(r.body).error).toMatch(/^wide\/results\.jsonl:1: the header declares 1,000 agents and 1 game a pair \(499,500 games\), more than its lines hold: .*; the file holds 2 lines$/);
    }
    const after = memory();
    console.log(`oversized results header: RSS ${before.rssMb} MB before, ${after.rssMb} MB after; peak ${before.peakMb} → ${after.peakMb} MB`);
    expect(after.peakMb - before.peakMb).toBeLessThan(200);
    expect((await get('/api/health')).status).toBe(200);
  });

  it('answers another route within a second while an alpha-beta agent searches to depth 40', { timeout: 120_000 }, async () => {
    const post = (path: string, body: unknown) => fetch(`${base}${path}`, { method: 'POST', headers: { ...AUTH, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const created = (await (await post('/api/games', { rules: 'kalah', bottom: 'alphabeta:depth=40', top: 'random', timePerMoveMs: 6000, seed: 1 })).json()) as { id: string };
    const started = performance.now();
    let answered = false;
    const move = post(`/api/games/${created.id}/advance`, {}).then(async (r) => {
      answered = true;
      return { status: r.status, view: (await r.json()) as { moves: { by: string; ms?: number }[] } };
    });
    // Let the move reach its thread (the pool's first thread starts in well under a second), then ask for the files, again and again.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const times: number[] = [];
    while (performance.now() - started < 4000) {
      const t = performance.now();
      expect((await get('/api/files')).status).toBe(200);
      times.push(performance.now() - t);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(answered, 'the 6 s move was still being searched while the files were listed').toBe(false);
    const { status, view } = await move;
    expect(status).toBe(200);
    expect(view.moves[0]!.by).toBe('alphabeta:depth=40');
    expect(view.moves[0]!.ms!).toBeGreaterThan(3000);
    console.log(`during a depth-40 search (a ${view.moves[0]!.ms} ms move): /api/files answered ${times.length} times, in ${Math.round(Math.min(...times))}–${Math.round(Math.max(...times))} ms`);
    expect(Math.max(...times)).toBeLessThan(1000);
  });

  const header = '{"type":"game","version":1,"game":1,"rules":"kalah","pits":1,"seeds":1,"A":"a","B":"b","first":"A","seed":1,"timePerMoveMs":1000,"forfeitPolicy":"loss"}';
  /** The JSON of an upload whose text is the header and `mb` MB of a line that is not JSON. */
  const uploadBody = (mb: number) => Buffer.concat([Buffer.from(`{"name":"big.jsonl","text":${JSON.stringify(`${header}\n`).slice(0, -1)}`), Buffer.alloc(mb * 1024 * 1024, 'x'), Buffer.from('"}')]);
  /** An upload's answer; status 0: the server closed the connection while the body was being sent (it read none of the rest). */
  const upload = (body: Buffer, headersFirst = false) =>
    new Promise<{ status: number; error: string }>((resolve, reject) => {
      const url = new URL(`${base}/api/replay`);
      let status = 0;
      let text = '';
      const done = () => resolve({ status, error: text === '' ? '' : (JSON.parse(text) as { error: string }).error });
      const req = request({ host: url.hostname, port: url.port, path: url.pathname, method: 'POST', headers: { ...AUTH, 'content-type': 'application/json', 'content-length': body.length } }, (res) => {
        status = res.statusCode!;
        res.on('data', (d) => (text += d));
        res.on('end', done);
        res.on('error', done);
      });
      // A refused upload is answered and its connection closed before all of it is sent.
      req.on('error', (e) => (['EPIPE', 'ECONNRESET'].includes((e as NodeJS.ErrnoException).code ?? '') ? setTimeout(done, 200) : reject(e)));
      // headersFirst: the length is declared, and the body sent only if no answer came first.
      if (headersFirst) {
        req.flushHeaders();
        setTimeout(() => (status === 0 ? req.end(body) : req.destroy()), 1000);
      } else req.end(body);
    });
  const eight = async (mb: number) => {
    const body = uploadBody(mb);
    const before = memory();
    const answers = await Promise.all(Array.from({ length: 8 }, () => upload(body)));
    const after = memory();
    console.log(`eight concurrent ${mb} MB uploads: ${answers.map((a) => a.status).sort().join(' ')}; RSS ${before.rssMb} MB before, ${after.rssMb} MB after; peak ${before.peakMb} → ${after.peakMb} MB`);
    return { answers, grown: after.peakMb - before.peakMb };
  };

  it('refuses eight concurrent 60 MB uploads by their length, before reading them', { timeout: 120_000 }, async () => {
    const { answers, grown } = await eight(60);
    // Refused as the headers came, the connection closed: the sender hears the 413, or has its connection reset while sending.
    for (const a of answers) expect([0, 413]).toContain(a.status);
    expect(grown).toBeLessThan(200);
    const one = await upload(uploadBody(60), true);
    expect(one).toEqual({ status: 413, error: 'refused: an upload of 60 MB, more than the 17 MB this server reads' });
    expect((await get('/api/health')).status).toBe(200);
  });

  it('reads at most two of eight concurrent 12 MB uploads at once and refuses the rest (429), memory bounded', { timeout: 120_000 }, async () => {
    const { answers, grown } = await eight(12);
    // Read: refused as a malformed replay (its second line is not JSON); the others refused before their bodies are read.
    // (0: refused and its connection closed while it was still sending.)
    for (const a of answers) expect([0, 422, 429]).toContain(a.status);
    expect(answers.filter((a) => a.status === 422).length).toBeGreaterThanOrEqual(1);
    expect(answers.filter((a) => a.status !== 422).length).toBeGreaterThanOrEqual(1);
    expect(grown).toBeLessThan(300);
    // The gate itself: two uploads that have declared their length hold the two places; a third is refused at once.
    const body = uploadBody(12);
    const holding = [upload(body, true), upload(body, true)];
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await upload(body, true)).toEqual({ status: 429, error: `refused: 2 uploads (24 MB) under way, the most this server reads at once is ${MAX_UPLOADS} (34 MB): try again when they are done` });
    expect((await Promise.all(holding)).map((a) => a.status)).toEqual([422, 422]);
    expect((await get('/api/health')).status).toBe(200);
  });
});
