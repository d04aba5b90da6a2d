/**
 * The Search explorer's API through Fastify's request injection: a search's root and move are
 * `mancala search --json`'s (the built CLI, run here), a node answers its children and its
 * position, the path to a node, iterative deepening's iterations, csci561's log in chunks; and the
 * refusals, each a 4xx of one line naming the field: an unknown profile, heuristic or algorithm, a
 * depth out of range or a tree too large, a malformed board (the board reader's message), an
 * unknown search or node.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SearchExploration, SearchNodeDetail, SearchOptionsView } from '../shared/api.ts';
import { createWebApp } from './app.ts';
import { plainSolve } from '../../../agents/perfect/plain-solve.ts';
import { boardToState, parseBoard } from '../../games/mancala/board-io/index.ts';
import { mancalaGame } from '../../games/mancala/profile-game.ts';
import { PROFILES } from '../../games/mancala/profiles.ts';
import { LOG_CHUNK, MAX_TREE_NODES } from './search-explorations.ts';
import { EXPLORER_SOLVE_MAX_STONES } from './solved-values.ts';

/** The token the test's server asks for, sent with every request (a request without it is refused: access.test.ts). */
const TOKEN = 'test-token-0123456789abcdef';
const AUTH = { authorization: `token ${TOKEN}` };

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const INPUT = join(ROOT, 'testcases/csci561-public/inputs/alphabeta-d3-1.txt');
const work = mkdtempSync(join(tmpdir(), 'web-search-test-'));
let app: FastifyInstance;

beforeAll(async () => {
  app = await createWebApp({ root: work, sandbox: 'weak', token: TOKEN, assets: new Map([['index.html', { body: Buffer.from('<!doctype html>'), type: 'text/html', etag: '"x"' }]]) });
});
afterAll(async () => {
  await app?.close();
  rmSync(work, { recursive: true, force: true });
});

async function call<T>(method: 'GET' | 'POST', url: string, body?: unknown): Promise<{ status: number; data: T }> {
  const r = await app.inject({ method, url, headers: AUTH, ...(body === undefined ? {} : { payload: body as object }) });
  return { status: r.statusCode, data: r.json() as T };
}

/** `mancala search … --json` as a user runs it (dist/, which the tests' global setup builds). */
function cliSearch(...args: string[]): { move: number; moveName: string; value: number; nodes: number } {
  return JSON.parse(execFileSync(process.execPath, [join(ROOT, 'bin/mancala.js'), 'search', ...args, '--json'], { cwd: work, encoding: 'utf8' }));
}

describe('the Search explorer API', () => {
  it('offers the algorithms, the heuristics and the limits', async () => {
    const { status, data } = await call<SearchOptionsView>('GET', '/api/search');
    expect(status).toBe(200);
    expect(data.algos).toEqual(['minimax', 'alphabeta', 'ids']);
    expect(data.heuristics).toContain('basic');
    expect(data.maxNodes).toBe(MAX_TREE_NODES);
  });

  it('searches the start position as `mancala search` does, and answers a node\'s children and position', async () => {
    const { status, data: x } = await call<SearchExploration>('POST', '/api/search', { profile: 'kalah', pits: 5, seeds: 3, algo: 'alphabeta', depth: 5 });
    expect(status).toBe(201);
    const t = x.trees[0]!;
    const cli = cliSearch('--rules', 'kalah', '--pits', '5', '--seeds', '3', '--algo', 'alphabeta', '--depth', '5');
    expect({ move: t.move, moveName: t.moveName, value: t.value, nodes: t.nodes }).toEqual({ move: cli.move, moveName: cli.moveName, value: cli.value, nodes: cli.nodes });
    expect(t.command).toBe('mancala search --rules kalah --pits 5 --seeds 3 --algo alphabeta --depth 5 --json');
    expect(t.pv[0]!.id).toBe(0);
    expect(t.pv[1]!.move).toBe(cli.moveName);
    expect(t.log).toBeUndefined();

    const root = await call<SearchNodeDetail>('GET', `/api/search/${x.id}/nodes/0`);
    expect(root.status).toBe(200);
    expect(root.data.path).toEqual([]);
    expect(root.data.children.map((c) => c.move)).toEqual(['B0', 'B1', 'B2', 'B3', 'B4'].slice(0, root.data.children.length));
    expect(root.data.children.length + root.data.prunedMoves.length).toBe(5);
    expect(root.data.board.bottom.map((q) => q.stones)).toEqual([3, 3, 3, 3, 3]);
    // A child: its own children, never its grandchildren; its position is the root's with its move played.
    const child = root.data.children.find((c) => c.kind === 'node')!;
    const d = (await call<SearchNodeDetail>('GET', `/api/search/${x.id}/nodes/${child.id}`)).data;
    expect(d.node).toEqual(child);
    expect(d.path).toEqual([child.move]);
    expect(d.children.every((c) => c.ply === 2)).toBe(true);
    expect(d.children.every((c) => typeof c.children === 'number')).toBe(true);
    // The check the page offers, run: `mancala search` from the child's position at the depth left.
    writeFileSync(join(work, 'node.json'), d.boardJson);
    expect(d.check!.command).toBe(`mancala search --rules kalah --board node.json --algo minimax --depth ${d.node.depthLeft} --json`);
    const checked = cliSearch('--rules', 'kalah', '--board', 'node.json', '--algo', 'minimax', '--depth', String(d.node.depthLeft));
    if (d.check!.relation === '=') expect(checked.value).toBe(d.check!.value);

    const path = await call<SearchNodeDetail[]>('GET', `/api/search/${x.id}/path/${d.children[0]!.id}`);
    expect(path.data.map((p) => p.node.id)).toEqual([0, child.id, d.children[0]!.id]);
  });

  it('shows the solved value of a small position and of each searched child, beside the search\'s', async () => {
    const { data: x } = await call<SearchExploration>('POST', '/api/search', { profile: 'kalah-empty-capture', pits: 3, seeds: 2, algo: 'alphabeta', depth: 3 });
    const root = (await call<SearchNodeDetail>('GET', `/api/search/${x.id}/nodes/0`)).data;
    const game = mancalaGame(PROFILES['kalah-empty-capture']!, 3, 2);
    const truth = plainSolve(game, game.initial());
    expect(root.solved.value).toBe(truth.value);
    expect(root.solved.note).toBeUndefined();
    expect(root.solved.children).toEqual(root.children.map((c) => truth.moveValues!.get(game.legalMoves(game.initial()).find((m) => game.moveName(game.initial(), m) === c.move)!)));
    // A min node's children, from the root player's side: the opponent's values negated.
    const min = root.children.find((c) => c.kind === 'node' && !c.max);
    if (min !== undefined) {
      const d = (await call<SearchNodeDetail>('GET', `/api/search/${x.id}/nodes/${min.id}`)).data;
      const s = boardToState(game, parseBoard(d.boardJson, 'json', 'node.json'));
      const mine = plainSolve(game, s);
      expect(d.solved.value).toBe(-mine.value! || 0);
    }
  });

  it('solves no board bigger than the explorer\'s bound, and says why', async () => {
    const { data: x } = await call<SearchExploration>('POST', '/api/search', { profile: 'kalah', pits: 6, seeds: 4, algo: 'alphabeta', depth: 2 });
    const root = (await call<SearchNodeDetail>('GET', `/api/search/${x.id}/nodes/0`)).data;
    expect(root.solved).toEqual({ note: `not solved: 48 stones in the pits, more than the ${EXPLORER_SOLVE_MAX_STONES} the explorer solves` });
  });

  it('reads a csci561 input.txt: the file\'s own task and depth, and its traverse log in chunks linked to nodes', async () => {
    const text = readFileSync(INPUT, 'utf8');
    const { status, data: x } = await call<SearchExploration>('POST', '/api/search', { profile: 'csci561', board: text, algo: 'alphabeta', depth: 3 });
    expect(status).toBe(201);
    expect(x.csci561).toEqual({ task: 3, depth: 3 });
    const t = x.trees[0]!;
    const cli = cliSearch('--rules', 'csci561', '--board', INPUT, '--board-format', 'csci561');
    expect([t.moveName, t.value, t.nodes]).toEqual([cli.moveName, cli.value, cli.nodes]);
    expect(t.command).toBe('mancala search --rules csci561 --board position.json --algo alphabeta --depth 3 --json');
    expect(t.log![0]).toEqual({ text: 'Node,Depth,Value,Alpha,Beta', node: -1 });
    expect(t.log!.length).toBe(Math.min(LOG_CHUNK, t.logTotal!));
    const rest = await call<{ from: number; total: number; lines: { text: string; node: number }[] }>('GET', `/api/search/${x.id}/log?from=1`);
    expect(rest.data.total).toBe(t.logTotal);
    expect(rest.data.lines[0]).toEqual(t.log![1]);
    // position.json is the root: the same search from it agrees.
    writeFileSync(join(work, 'position.json'), x.boardJson);
    expect(cliSearch('--rules', 'csci561', '--board', 'position.json', '--algo', 'alphabeta', '--depth', '3').value).toBe(t.value);
  });

  it('deepens iteratively: one tree a depth, each node route taking the iteration', async () => {
    const { data: x } = await call<SearchExploration>('POST', '/api/search', { profile: 'csci561', algo: 'ids', depth: 3 });
    expect(x.trees.map((t) => t.depth)).toEqual([1, 2, 3]);
    expect(x.trees[2]!.value).toBe(cliSearch('--rules', 'csci561', '--algo', 'alphabeta', '--depth', '3').value);
    const one = await call<SearchNodeDetail>('GET', `/api/search/${x.id}/nodes/1?iteration=1`);
    expect(one.data.node.kind).toBe('depth');
    const three = await call<SearchNodeDetail>('GET', `/api/search/${x.id}/nodes/1?iteration=3`);
    expect(three.data.node.kind).toBe('node');
    expect((await call<{ error: string }>('GET', `/api/search/${x.id}/nodes/1?iteration=4`)).data.error).toBe('no iteration 4: this search deepened from 1 to 3');
  });

  const refusals: [string, unknown, number, string | RegExp][] = [
    ['an unknown profile', { profile: 'oware', algo: 'minimax', depth: 2 }, 400, /^body field "profile": expected one of kalah, /],
    ['an unknown heuristic', { profile: 'kalah', algo: 'minimax', depth: 2, heuristic: 'clever' }, 400, /^body field "heuristic": unknown heuristic "clever": expected one of basic, /],
    ['an unknown algorithm', { profile: 'kalah', algo: 'mcts', depth: 2 }, 400, 'body field "algo": expected one of minimax, alphabeta, ids, got "mcts"'],
    ['a depth of 0', { profile: 'kalah', algo: 'minimax', depth: 0 }, 400, 'body field "depth": expected a depth from 1 to 20, got 0'],
    ['no depth', { profile: 'kalah', algo: 'minimax' }, 400, /^body field "depth": expected a depth from 1 to 20, but it is missing$/],
    ['a tree too large', { profile: 'kalah', algo: 'minimax', depth: 9 }, 422, `body field "depth": the tree has more than ${MAX_TREE_NODES.toLocaleString('en-US')} nodes: lower the depth`],
    ['iterations too large together', { profile: 'kalah', algo: 'ids', depth: 14 }, 422, /^body field "depth": the tree has more than [\d,]+ nodes: lower the depth \(iterations 1 to \d+ together\)$/],
    ['a malformed board', { profile: 'csci561', board: '3\n1\n2\n4 4 x\n4 4 4\n0\n0', algo: 'minimax', depth: 2 }, 400, 'board:4: expected the top row (player 2\'s pits) as whole numbers separated by spaces, got "4 4 x"'],
    ['a malformed JSON board', { profile: 'kalah', board: '{"top": [1], "bottom": [1]}', algo: 'minimax', depth: 2 }, 400, 'board: field "stores": expected an object {"top": …, "bottom": …}, but it is missing'],
    ['a board with a size', { profile: 'kalah', board: '{"top": [1], "bottom": [1], "stores": {"top": 0, "bottom": 0}}', pits: 3, algo: 'minimax', depth: 2 }, 400, 'body field "pits": a board has its own size: leave "pits" out'],
    ['a finished game', { profile: 'kalah', board: '{"top": [0, 0], "bottom": [1, 0], "stores": {"top": 5, "bottom": 2}}', algo: 'minimax', depth: 2 }, 400, 'body field "board": the game is over in this position: there is no move to search for'],
    ['an unknown field', { profile: 'kalah', algo: 'minimax', depth: 2, caching: true }, 400, 'body field "caching": unknown field'],
  ];
  for (const [what, body, status, error] of refusals) {
    it(`refuses ${what}: ${status}, one line`, async () => {
      const r = await call<{ error: string }>('POST', '/api/search', body);
      expect(r.status).toBe(status);
      if (typeof error === 'string') expect(r.data.error).toBe(error);
      else expect(r.data.error).toMatch(error);
    });
  }

  it('refuses an unknown search, node or iteration', async () => {
    const missing = await call<{ error: string }>('GET', '/api/search/00000000-0000-0000-0000-000000000000/nodes/0');
    expect(missing.status).toBe(404);
    expect(missing.data.error).toMatch(/^no search "00000000-0000-0000-0000-000000000000": the server keeps the last \d+ searches, or it restarted; run the search again$/);
    const { data: x } = await call<SearchExploration>('POST', '/api/search', { profile: 'kalah', algo: 'minimax', depth: 1 });
    expect((await call<{ error: string }>('GET', `/api/search/${x.id}/nodes/7`)).data.error).toBe('no node 7 in this tree: it has nodes 0 to 6');
    expect((await call<{ error: string }>('GET', `/api/search/${x.id}/nodes/x`)).data.error).toBe('path field "node": expected a node number, got "x"');
    expect((await call<{ error: string }>('GET', `/api/search/${x.id}/nodes/0?iteration=1`)).data.error).toBe('no iteration 1: only iterative deepening has iterations');
    expect((await call<{ error: string }>('GET', `/api/search/${x.id}/log`)).data.error).toBe('this search has no traverse log (the csci561 profile\'s searches have one)');
  });
});
