/**
 * The web app's API, through Fastify's own request injection (no socket): the Play page's games
 * (a human against alpha-beta, two agents to the end, undo, hints, the course's pit names), the
 * Replays page's files (a replay, a tournament's game, malformed files named by file and field),
 * and the server's refusals: one line, 4xx, never a crash.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mancalaGame } from '../../games/mancala/profile-game.ts';
import { findProfile } from '../../games/mancala/profiles.ts';
import { playGame } from '../../matches/play-game.ts';
import { openPlayer } from '../../matches/player.ts';
import { replayEnd, replayText, type ReplayHeader } from '../../matches/replay.ts';
import type { ReplayLine } from '../../matches/types.ts';
import type { Catalog, FolderListing, GameView, Hint, ReplayView, TournamentGames } from '../shared/api.ts';
import { createWebApp } from './app.ts';
import { loadAssets } from './assets.ts';
import { traceMove } from './board-view.ts';

/** The token the test's server asks for, sent with every request (a request without it is refused: access.test.ts). */
const TOKEN = 'test-token-0123456789abcdef';
const AUTH = { authorization: `token ${TOKEN}` };

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'web-app-test-'));
const files = join(work, 'files');
let app: FastifyInstance;
let replay: string;

async function writeReplayFile(file: string): Promise<void> {
  const kalah = findProfile('kalah')!;
  const game = mancalaGame(kalah, 6, 4);
  const o = { game: { kind: 'mancala' as const, profile: 'kalah', rules: kalah.rules, name: 'kalah(6,4)' }, conventions: kalah.search, memoryMb: 256 };
  const players = { A: await openPlayer('alphabeta:depth=2', o), B: await openPlayer('random', o) };
  const lines: ReplayLine[] = [];
  const record = await playGame({ game, start: game.initial(), openingPlies: 2, players, first: 'B', index: 1, timePerMoveMs: 1000, forfeit: 'loss', seed: 5, onReplay: (l) => lines.push(l) });
  const header: ReplayHeader = { type: 'game', version: 1, game: 1, rules: 'kalah', pits: 6, seeds: 4, A: 'alphabeta:depth=2', B: 'random', first: 'B', seed: 5, timePerMoveMs: 1000, forfeitPolicy: 'loss' };
  writeFileSync(file, replayText({ header, moves: lines, end: replayEnd(record) }));
}

beforeAll(async () => {
  mkdirSync(join(files, 'replays'), { recursive: true });
  replay = join(files, 'replays', 'game-001.jsonl');
  await writeReplayFile(replay);
  // A tournament's results, as the CLI writes them (dist/ is built by the tests' global setup).
  execFileSync(process.execPath, [join(ROOT, 'bin/mancala.js'), 'tournament', 'random', 'greedy', '--pits', '4', '--seeds', '3', '--games-per-pair', '2', '--seed', '3', '--out', join(files, 't1')], {
    stdio: 'pipe',
  });
  symlinkSync(tmpdir(), join(files, 'escape'));
  app = await createWebApp({ root: files, sandbox: 'weak', token: TOKEN, assets: new Map([['index.html', { body: Buffer.from('<!doctype html><title>t</title>'), type: 'text/html; charset=utf-8', etag: '"x"' }]]) });
});
afterAll(async () => {
  await app?.close();
  rmSync(work, { recursive: true, force: true });
});

async function call<T>(method: 'GET' | 'POST' | 'DELETE', url: string, body?: unknown, headers: Record<string, string> = {}): Promise<{ status: number; data: T }> {
  const r = await app.inject({ method, url, headers: { ...AUTH, ...headers }, ...(body === undefined ? {} : { payload: body as object }) });
  return { status: r.statusCode, data: (r.body === '' ? undefined : r.json()) as T };
}

/** A refusal: 4xx and one line. */
async function refused(method: 'GET' | 'POST' | 'DELETE', url: string, body?: unknown, headers?: Record<string, string>): Promise<{ status: number; error: string }> {
  const r = await call<{ error: string }>(method, url, body, headers);
  expect(r.status, JSON.stringify(r.data)).toBeGreaterThanOrEqual(400);
  expect(r.status).toBeLessThan(500);
  expect(typeof r.data.error).toBe('string');
  expect(r.data.error).not.toContain('\n');
  return { status: r.status, error: r.data.error };
}

describe('the web app: Play', () => {
  it('offers every profile with its pit naming, and the reference agents', async () => {
    const { data } = await call<Catalog>('GET', '/api/catalog');
    expect(data.profiles.map((p) => p.name)).toEqual(expect.arrayContaining(['kalah', 'csci561', 'csc384', 'cpsc4610', 'cs540']));
    expect(data.profiles.find((p) => p.name === 'cpsc4610')!.pitNaming).toBe('cups');
    expect(data.agents.map((a) => a.name)).toEqual(expect.arrayContaining(['alphabeta', 'random', 'strong']));
    expect(data.examples).toContain('alphabeta:depth=6');
  });

  it('offers the perfect agent, which plays its proven values on a small board', async () => {
    const { data } = await call<Catalog>('GET', '/api/catalog');
    expect(data.agents.find((a) => a.name === 'perfect')).toEqual({ name: 'perfect', options: ['ms', 'ttMb', 'endgame'], withheld: false });
    expect(data.examples).toContain('perfect:ms=2000');
    let g = (await call<GameView>('POST', '/api/games', { rules: 'kalah-empty-capture', pits: 3, seeds: 2, bottom: 'perfect', top: 'random', seed: 1 })).data;
    while (g.waitingFor === 'agent') g = (await call<GameView>('POST', `/api/games/${g.id}/advance`, {})).data;
    const mine = g.moves.filter((m) => m.seat === 'bottom');
    expect(mine.length).toBeGreaterThan(0);
    expect(mine.every((m) => m.by === 'perfect' && Number.isInteger(m.value) && m.note === undefined)).toBe(true);
    expect((await call('DELETE', `/api/games/${g.id}`)).status).toBe(204);
  });

  it('plays a human against alpha-beta: moves, agent replies, a hint, undo, refusals', async () => {
    const created = await call<GameView>('POST', '/api/games', { rules: 'kalah', bottom: 'human', top: 'alphabeta:depth=4', seed: 1 });
    expect(created.status).toBe(201);
    let g = created.data;
    expect(g.waitingFor).toBe('human');
    expect(g.board.bottom.map((p) => p.name)).toEqual(['B0', 'B1', 'B2', 'B3', 'B4', 'B5']);
    expect(g.board.top.map((p) => p.name)).toEqual(['T5', 'T4', 'T3', 'T2', 'T1', 'T0']);
    // B2: 4 stones reach the store: a free turn.
    g = (await call<GameView>('POST', `/api/games/${g.id}/move`, { move: 2 })).data;
    expect(g.moves[0]).toMatchObject({ name: 'B2', freeTurn: true, last: { seat: 'bottom', index: -1 } });
    expect(g.waitingFor).toBe('human');
    const hint = (await call<Hint>('POST', `/api/games/${g.id}/hint`, {})).data;
    expect(g.board.bottom.find((p) => p.index === hint.move)!.legal).toBe(true);
    expect(hint.agent).toBe('alphabeta:depth=6');
    expect(typeof hint.value).toBe('number');
    g = (await call<GameView>('POST', `/api/games/${g.id}/move`, { move: hint.move })).data;
    while (g.waitingFor === 'agent') g = (await call<GameView>('POST', `/api/games/${g.id}/advance`, {})).data;
    expect(g.moves.length).toBeGreaterThanOrEqual(3);
    expect(g.moves.slice(2).every((m) => m.seat === 'top' && m.by === 'alphabeta:depth=4' && m.value !== undefined)).toBe(true);
    // Not the agent's turn, an illegal pit, a body that is not a move.
    expect((await refused('POST', `/api/games/${g.id}/advance`, {})).status).toBe(409);
    const empty = g.board.bottom.find((p) => p.stones === 0)!;
    expect((await refused('POST', `/api/games/${g.id}/move`, { move: empty.index })).error).toMatch(/^move \d is not legal here: the bottom player may play B\d/);
    expect((await refused('POST', `/api/games/${g.id}/move`, { move: 'B3' })).error).toBe('body field "move": expected a pit\'s index, got "B3"');
    expect((await refused('POST', `/api/games/${g.id}/move`, { move: 1, extra: 2 })).error).toBe('body field "extra": unknown field');
    // Undo takes back the human's move and every agent move after it.
    const before = g.moves.length;
    g = (await call<GameView>('POST', `/api/games/${g.id}/undo`, {})).data;
    expect(g.moves.length).toBe(1);
    expect(before).toBeGreaterThan(1);
    expect(g.waitingFor).toBe('human');
    g = (await call<GameView>('POST', `/api/games/${g.id}/undo`, {})).data;
    expect(g.moves.length).toBe(0);
    expect(g.canUndo).toBe(false);
    expect((await refused('POST', `/api/games/${g.id}/undo`, {})).status).toBe(409);
    expect((await call('DELETE', `/api/games/${g.id}`)).status).toBe(204);
    expect((await refused('GET', `/api/games/${g.id}`)).status).toBe(404);
  });

  it('plays two agents to the end, with the result', async () => {
    let g = (await call<GameView>('POST', '/api/games', { rules: 'kalah', pits: 4, seeds: 3, bottom: 'greedy', top: 'alphabeta:depth=2' })).data;
    while (g.waitingFor === 'agent') g = (await call<GameView>('POST', `/api/games/${g.id}/advance`, {})).data;
    expect(g.waitingFor).toBe('nobody');
    expect(g.board.over).toBe(true);
    expect(g.result).toMatch(/wins|draw/);
    expect(g.board.final!.bottom + g.board.final!.top).toBe(24);
    expect(g.moves[g.moves.length - 1]!.gameOver).toBe(true);
    await call('DELETE', `/api/games/${g.id}`);
  });

  it("names pits as the course does: cpsc4610's cups 1-6, csci561's B2-B7 and A2-A7", async () => {
    const cups = (await call<GameView>('POST', '/api/games', { rules: 'cpsc4610', bottom: 'human', top: 'human' })).data;
    expect(cups.board.bottom.map((p) => p.name)).toEqual(['1', '2', '3', '4', '5', '6']);
    expect(cups.board.top.map((p) => p.name)).toEqual(['6', '5', '4', '3', '2', '1']);
    expect(cups.board.bottom[2]!.label).toBe('bottom cup 3');
    const csci = (await call<GameView>('POST', '/api/games', { rules: 'csci561', bottom: 'human', top: 'human' })).data;
    expect(csci.board.bottom.map((p) => p.name)).toEqual(['B2', 'B3', 'B4', 'B5', 'B6', 'B7']);
    expect(csci.board.top.map((p) => p.name)).toEqual(['A2', 'A3', 'A4', 'A5', 'A6', 'A7']);
    // Two humans: undo takes back one move.
    let g = (await call<GameView>('POST', `/api/games/${cups.id}/move`, { move: 0 })).data;
    g = (await call<GameView>('POST', `/api/games/${g.id}/move`, { move: 1 })).data;
    expect(g.moves.map((m) => m.name)).toEqual(['1', '2']);
    g = (await call<GameView>('POST', `/api/games/${g.id}/undo`, {})).data;
    expect(g.moves.map((m) => m.name)).toEqual(['1']);
  });

  it('answers an unknown agent, a path outside the folder, a bad profile with one line naming it', async () => {
    expect((await refused('POST', '/api/games', { rules: 'kalah', bottom: 'human', top: 'alphabeta:depht=6' })).error).toBe(
      'top: agent spec "alphabeta:depht=6": unknown option "depht" for alphabeta: expected one of depth, unit, caching, terminal, freeTurns',
    );
    expect((await refused('POST', '/api/games', { rules: 'kalah', bottom: 'deep-blue', top: 'human' })).error).toMatch(/^bottom: agent spec "deep-blue": unknown agent "deep-blue": expected one of random, /);
    expect((await refused('POST', '/api/games', { rules: 'kalah', bottom: 'human', top: 'agents/nobody' })).error).toMatch(/^agent agents\/nobody: no such file or folder under /);
    expect((await refused('POST', '/api/games', { rules: 'kalah', bottom: 'human', top: '/etc/passwd' })).status).toBe(403);
    expect((await refused('POST', '/api/games', { rules: 'kalah', bottom: 'human', top: 'escape' })).status).toBe(403);
    expect((await refused('POST', '/api/games', { rules: 'oware', bottom: 'human', top: 'random' })).error).toMatch(/^unknown rules "oware": expected one of kalah, /);
    expect((await refused('POST', '/api/games', { rules: 'kalah', pits: 30, bottom: 'human', top: 'random' })).error).toBe('body field "pits": expected a number of pits ≤ 20, got 30');
    expect((await refused('POST', '/api/games', { bottom: 'human', top: 'random' })).error).toBe('body field "rules": expected a rules profile, but it is missing');
  });
});

describe('the web app: Replays', () => {
  it('lists the folder, and opens a replay: a board before each move and after the last', async () => {
    const root = (await call<FolderListing>('GET', '/api/files')).data;
    expect(root.folders).toEqual(['replays', 't1']); // a symbolic link is not followed in a listing
    const listing = (await call<FolderListing>('GET', '/api/files?dir=replays')).data;
    expect(listing.files).toEqual([{ name: 'game-001.jsonl', kind: 'replay', bytes: expect.any(Number) }]);
    const r = (await call<ReplayView>('GET', '/api/replay?path=replays/game-001.jsonl')).data;
    expect(r.file).toBe('replays/game-001.jsonl');
    expect(r.frames.length).toBe(r.moves.length + 1);
    expect(r.moves.slice(0, 2).every((m) => m.kind === 'opening')).toBe(true);
    expect(r.first).toBe('B');
    expect(r.moves[0]!.by).toBe('B (random)');
    expect(r.frames[r.frames.length - 1]!.over).toBe(true);
    expect(r.result).toMatch(/wins|draw/);
  });

  it('names the file and the field of a malformed replay', async () => {
    const lines = readFileSync(replay, 'utf8').trimEnd().split('\n');
    const move = JSON.parse(lines[3]!);
    move.before.top[2] = 'x';
    lines[3] = JSON.stringify(move);
    writeFileSync(join(files, 'replays', 'bad.jsonl'), lines.join('\n') + '\n');
    const bad = await refused('GET', '/api/replay?path=replays/bad.jsonl');
    expect(bad.status).toBe(422);
    expect(bad.error).toBe('replays/bad.jsonl:4: field "before.top[2]": expected a whole number ≥ 0, got (text not shown)');
    const uploaded = await refused('POST', '/api/replay', { name: 'mine.jsonl', text: lines.join('\n') });
    expect(uploaded.error).toBe('mine.jsonl:4: field "before.top[2]": expected a whole number ≥ 0, got (text not shown)');
    const ok = await call<ReplayView>('POST', '/api/replay', { name: 'mine.jsonl', text: readFileSync(replay, 'utf8') });
    expect(ok.status).toBe(200);
    expect(ok.data.file).toBe('mine.jsonl');
  });

  it("opens a tournament's results: its games, each as a replay", async () => {
    const t = (await call<TournamentGames>('GET', '/api/tournament?path=t1/results.jsonl')).data;
    expect(t.games.map((g) => g.index)).toEqual([1, 2]);
    expect(t.rules).toBe('kalah');
    const r = (await call<ReplayView>('GET', '/api/replay?path=t1/results.jsonl&game=2')).data;
    expect(r.file).toBe('t1/results.jsonl#2');
    expect(r.moves.length).toBe(t.games[1]!.plies);
    expect(r.score).toEqual(t.games[1]!.score);
    expect((await refused('GET', '/api/replay?path=t1/results.jsonl')).error).toBe('t1/results.jsonl is a tournament\'s results: say which game (game=N)');
    expect((await refused('GET', '/api/replay?path=t1/results.jsonl&game=9')).error).toBe('t1/results.jsonl: no game 9 (it records games 1, 2)');
  });

  it('reads nothing outside its folder', async () => {
    expect((await refused('GET', '/api/replay?path=../../etc/passwd')).status).toBe(403);
    expect((await refused('GET', `/api/replay?path=${encodeURIComponent('/etc/passwd')}`)).status).toBe(403);
    expect((await refused('GET', '/api/files?dir=escape')).status).toBe(403);
    expect((await refused('GET', '/api/replay?path=nothing.jsonl')).status).toBe(404);
    expect((await refused('GET', '/api/replay?path=replays')).error).toBe('replays: a folder, not a file');
  });
});

describe('the web app: the server', () => {
  it('serves the page with a strict Content-Security-Policy, and the built front end', async () => {
    const r = await app.inject({ method: 'GET', url: '/', headers: AUTH });
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-security-policy']).toMatch(/default-src 'self'; script-src 'self'/);
    expect(r.headers['x-content-type-options']).toBe('nosniff');
    const { files: built } = await loadAssets();
    const html = built.get('index.html')!.body.toString();
    const script = /\/assets\/(app-\w+\.js)/.exec(html)![1]!;
    expect(built.get(script)!.body.length).toBeGreaterThan(1000);
    expect(html).not.toMatch(/https?:\/\//);
  });

  it('refuses other hosts, other origins, and bodies that are not JSON', async () => {
    expect((await refused('GET', '/api/catalog', undefined, { host: 'evil.example:8080' })).status).toBe(403);
    expect((await refused('POST', '/api/games', { rules: 'kalah', bottom: 'human', top: 'random' }, { origin: 'http://evil.example' })).status).toBe(403);
    const text = await app.inject({ method: 'POST', url: '/api/games', headers: { ...AUTH, 'content-type': 'text/plain' }, payload: '{}' });
    expect(text.statusCode).toBe(415);
    const broken = await app.inject({ method: 'POST', url: '/api/games', headers: { ...AUTH, 'content-type': 'application/json' }, payload: '{"rules":' });
    expect(broken.statusCode).toBe(400);
    expect(broken.json().error).toMatch(/JSON/);
    expect((await refused('GET', '/x%zz')).status).toBe(400);
    expect((await refused('GET', '/api/nothing')).error).toBe('no such API: GET /api/nothing');
  });
});

describe('what a move did', () => {
  const kalah = findProfile('kalah')!;
  const game = mancalaGame(kalah, 6, 4);

  it('finds a capture and names both pits', () => {
    // Bottom B0 holds 1 stone; B1 is empty; T4 (opposite B1) holds 5.
    const s = game.fromRows([1, 0, 4, 4, 4, 4], [4, 4, 4, 4, 5, 4], 0, 0, 0);
    const after = game.play(s, 0);
    const m = traceMove(game, s, 0, after, 0, 'bottom');
    expect(m.capture).toMatchObject({ stones: 6, from: { seat: 'top', index: 4 }, landed: { seat: 'bottom', index: 1 }, fromStones: 5 });
    expect(m.capture!.text).toBe('capture: the last stone landed in the empty B1 and took 5 stones from T4 (6 to the store with it)');
    expect(m.freeTurn).toBe(false);
  });

  it('follows a lap around the board, skipping the opponent\'s store', () => {
    const s = game.fromRows([0, 0, 0, 0, 0, 20], [1, 1, 1, 1, 1, 1], 0, 0, 0);
    const m = traceMove(game, s, 5, game.play(s, 5), 0, 'bottom');
    expect(m.sown.some((c) => c.seat === 'top' && c.index === -1)).toBe(false);
    expect(m.sown.length).toBe(13);
  });
});
