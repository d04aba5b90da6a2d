/**
 * The Search explorer's trees against the searches themselves: a tree rebuilt from a real trace
 * has the search's node count, its counts a ply add up, its principal variation ends in a leaf
 * carrying the root's value and starts with the move `mancala search` chooses; every expanded
 * node's value is checked by searching again from that node's own position (a property test over
 * random positions); csci561's traverse log is the reference solution's, line for line, and each
 * line names the node it links to.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { boardToState, parseJsonBoard, writeJson } from '../../games/mancala/board-io/index.ts';
import type { MancalaGame, MancalaState } from '../../games/mancala/engine.ts';
import { mancalaGame } from '../../games/mancala/profile-game.ts';
import { findProfile } from '../../games/mancala/profiles.ts';
import { requireHeuristic } from '../../plugins/agents.ts';
import { solveCsci561 } from '../../plugins/csci561-solver.ts';
import { planSearch, runSearch, type GameSetup } from '../../plugins/reference-search.ts';
import type { SearchNodeDetail, SearchRequestBody } from '../shared/api.ts';
import { HttpError } from './http-error.ts';
import { MAX_EXPLORATIONS, MAX_TREE_NODES, SearchExplorations } from './search-explorations.ts';
import { MalformedTrace, SearchTree } from './search-tree.ts';

const INPUTS = fileURLToPath(new URL('../../../testcases/csci561-public/inputs', import.meta.url));

function setupOf(profileName: string, game: MancalaGame, state: MancalaState): GameSetup {
  const profile = findProfile(profileName)!;
  return { kind: 'mancala', game, state, rules: profile.name, profile, conventions: profile.search, label: profile.name };
}

async function traced(profileName: string, algo: 'minimax' | 'alphabeta', depth: number, pits = 6, seeds = 4) {
  const game = mancalaGame(findProfile(profileName)!, pits, seeds);
  const setup = setupOf(profileName, game, game.initial());
  const report = await runSearch(setup, planSearch({ algo, depth }, setup), true);
  return { report, tree: SearchTree.fromTrace(report.trace!) };
}

/** `mancala search`'s value from a node's position (its JSON board), as the node's `check` says to run it. */
async function searchFrom(profileName: string, d: SearchNodeDetail, heuristic = 'basic'): Promise<number> {
  const board = parseJsonBoard(d.boardJson, 'node.json');
  const game = mancalaGame(findProfile(profileName)!, board.bottom.length, 4);
  const setup = setupOf(profileName, game, boardToState(game, board));
  const report = await runSearch(setup, planSearch({ algo: 'minimax', depth: d.node.depthLeft, heuristic }, setup));
  return report.value!;
}

describe('a tree rebuilt from a real trace', () => {
  for (const [profile, algo, depth] of [
    ['csci561', 'alphabeta', 3],
    ['csci561', 'minimax', 3],
    ['kalah', 'alphabeta', 5],
    ['csc384', 'minimax', 3],
  ] as const) {
    it(`${profile} ${algo} depth ${depth}: the search's nodes, counts a ply, the PV`, async () => {
      const { report, tree } = await traced(profile, algo, depth);
      expect(tree.size).toBe(report.nodes);
      const counts = tree.countsPerDepth();
      expect(counts.reduce((s, c) => s + c.nodes, 0)).toBe(report.nodes);
      expect(counts[0]).toEqual({ ply: 0, nodes: 1, leaves: 0, pruned: 0 });
      // Leaves are the nodes the search did not expand.
      expect(counts.reduce((s, c) => s + c.leaves, 0)).toBe(tree.nodes.filter((n) => n.children.length === 0).length);
      const pruned = tree.nodes.reduce((s, n) => s + n.skipped, 0);
      expect(counts.reduce((s, c) => s + c.pruned, 0)).toBe(pruned);
      if (algo === 'alphabeta') expect(pruned).toBeGreaterThan(0);
      else expect(pruned).toBe(0);

      const pv = tree.principalVariation();
      expect(tree.nodes[pv[1]!]!.name).toBe(report.moveName);
      expect(tree.nodes[0]!.value).toBe(report.value);
      for (const id of pv) expect(tree.nodes[id]!.value).toBe(report.value);
      const end = tree.nodes[pv[pv.length - 1]!]!;
      expect(end.kind === 'depth' || end.kind === 'game-over').toBe(true);
      for (const id of pv) expect(tree.exactness(id)).toBe('exact');

      // Every expanded node took its value from one of its children (fail-soft: never an initial ±∞).
      for (const n of tree.nodes) {
        if (n.kind === 'node') expect(n.children.map((c) => tree.nodes[c]!.value)).toContain(n.value);
        if (n.parent >= 0) expect(n.ply).toBe(tree.nodes[n.parent]!.ply + 1);
      }
    });
  }

  it('refuses a trace that is not a search', () => {
    expect(() => SearchTree.fromTrace([])).toThrow(MalformedTrace);
    expect(() =>
      SearchTree.fromTrace([
        { type: 'enter', name: 'root', level: 0, maximizing: true, value: -Infinity },
        { type: 'update', name: 'B2', level: 1, maximizing: false, value: 3 },
      ]),
    ).toThrow(/'update' of 'B2' at level 1 does not follow a child of that node/);
  });
});

describe('every node against a search from its own position', () => {
  /** A random position: a profile, a board size, some random legal moves from the start. */
  const position = fc.record({
    profile: fc.constantFrom('kalah', 'csci561', 'csc384', 'cpsc4610', 'cs540'),
    pits: fc.integer({ min: 3, max: 6 }),
    seeds: fc.integer({ min: 1, max: 4 }),
    moves: fc.array(fc.nat(), { maxLength: 10 }),
    algo: fc.constantFrom('minimax' as const, 'alphabeta' as const),
    depth: fc.integer({ min: 1, max: 3 }),
  });

  it('a node\'s value is `mancala search`\'s from there (negated at a min node; a bound where alpha-beta cut)', async () => {
    await fc.assert(
      fc.asyncProperty(position, async (c) => {
        const game = mancalaGame(findProfile(c.profile)!, c.pits, c.seeds);
        let state = game.initial();
        for (const k of c.moves) {
          const legal = game.legalMoves(state);
          if (game.isOver(state)) break;
          const next = game.play(state, legal[k % legal.length]!);
          if (game.isOver(next)) break;
          state = next;
        }
        const explorations = new SearchExplorations();
        const body: SearchRequestBody = { profile: c.profile, board: writeJson(game, state), algo: c.algo, depth: c.depth };
        const x = await explorations.create(body);
        const t = x.trees[0]!;
        const setup = setupOf(c.profile, game, state);
        const direct = await runSearch(setup, planSearch({ algo: c.algo, depth: c.depth }, setup));
        expect(t.value).toBe(direct.value);
        expect(t.moveName).toBe(direct.moveName);
        expect(t.nodes).toBe(direct.nodes);
        expect(t.root.value).toBe(direct.value);

        // Down two plies from the root: every expanded node searched again, every leaf valued again.
        const heuristic = requireHeuristic('basic');
        const queue = [0];
        while (queue.length > 0) {
          const d = await explorations.node(x.id, queue.shift()!);
          const n = d.node;
          if (n.kind === 'node') {
            const v = await searchFrom(c.profile, d);
            const check = d.check!;
            expect(check.value).toBe(n.max ? n.value : -n.value || 0);
            if (check.relation === '=') expect(v).toBe(check.value);
            else if (check.relation === '≤') expect(v).toBeLessThanOrEqual(check.value);
            else expect(v).toBeGreaterThanOrEqual(check.value);
            if (c.algo === 'minimax') expect(check.relation).toBe('=');
            expect(d.children.length + d.prunedMoves.length).toBe(game.legalMoves(boardState(game, d)).length);
            if (n.ply < 2) queue.push(...d.children.map((ch) => ch.id));
          } else {
            const s = boardState(game, d);
            const root = x.board.toMove === 'bottom' ? 0 : 1;
            const expected = n.kind === 'game-over' && x.terminal === 'score' ? game.score(s, root) : heuristic.evaluate(s, root, game);
            expect(n.value).toBe(expected);
            expect(d.check).toBeUndefined();
          }
        }
      }),
      { numRuns: 40, seed: 16 },
    );
  });
});

function boardState(game: MancalaGame, d: SearchNodeDetail): MancalaState {
  return boardToState(game, parseJsonBoard(d.boardJson, 'node.json'));
}

describe('the csci561 traverse log', () => {
  const inputs = readdirSync(INPUTS).filter((f) => /^(minimax|alphabeta)-d[23]-/.test(f));

  it('is the reference solution\'s log, line for line, each line linked to the node it names', async () => {
    expect(inputs.length).toBeGreaterThan(4);
    const explorations = new SearchExplorations();
    for (const file of inputs) {
      const text = readFileSync(join(INPUTS, file), 'utf8');
      const [task, , depth] = text.split('\n').map((l) => Number(l.trim()));
      const x = await explorations.create({ profile: 'csci561', board: text, algo: task === 2 ? 'minimax' : 'alphabeta', depth: depth! });
      const t = x.trees[0]!;
      expect(x.csci561).toEqual({ task, depth });
      const all = [...t.log!];
      while (all.length < t.logTotal!) all.push(...explorations.log(x.id, all.length).lines);
      expect(all.map((l) => l.text), file).toEqual(solveCsci561(text, file).traverseLog);
      expect(all[0]!.node).toBe(-1);
      for (const line of all.slice(1)) {
        const d = await explorations.node(x.id, line.node);
        const name = line.text.split(',')[0]!;
        expect(name === 'root' ? d.path.length : d.path[d.path.length - 1]).toBe(name === 'root' ? 0 : name);
      }
    }
  });

  it('is left out, with the reason, when values are not whole numbers (the advanced heuristic)', async () => {
    const x = await new SearchExplorations().create({ profile: 'csci561', algo: 'alphabeta', depth: 2, heuristic: 'advanced' });
    expect(x.trees[0]!.log).toBeUndefined();
    expect(x.trees[0]!.logNote).toMatch(/^no traverse log: traverse log values are integers, got /);
  });
});

describe('the explorations', () => {
  it('run iterative deepening as alpha-beta at each depth, one tree an iteration', async () => {
    const explorations = new SearchExplorations();
    const x = await explorations.create({ profile: 'kalah', algo: 'ids', depth: 4 });
    expect(x.trees.map((t) => t.depth)).toEqual([1, 2, 3, 4]);
    const game = mancalaGame(findProfile('kalah')!, 6, 4);
    for (const t of x.trees) {
      const setup = setupOf('kalah', game, game.initial());
      const r = await runSearch(setup, planSearch({ algo: 'alphabeta', depth: t.depth }, setup));
      expect([t.moveName, t.value, t.nodes]).toEqual([r.moveName, r.value, r.nodes]);
      expect((await explorations.node(x.id, 0, t.depth)).node.depthLeft).toBe(t.depth);
    }
    await expect(explorations.node(x.id, 0, 5)).rejects.toThrow(/no iteration 5: this search deepened from 1 to 4/);
  });

  it('refuse a tree past the limit, naming the field, and keep the most recently used', async () => {
    const explorations = new SearchExplorations();
    const big = explorations.create({ profile: 'kalah', algo: 'minimax', depth: 12 });
    await expect(big).rejects.toThrow(HttpError);
    await expect(explorations.create({ profile: 'kalah', algo: 'minimax', depth: 12 })).rejects.toThrow(
      `body field "depth": the tree has more than ${MAX_TREE_NODES.toLocaleString('en-US')} nodes: lower the depth`,
    );
    const first = await explorations.create({ profile: 'kalah', algo: 'minimax', depth: 1 });
    const second = await explorations.create({ profile: 'kalah', algo: 'minimax', depth: 1 });
    for (let k = 0; k < MAX_EXPLORATIONS - 2; k++) await explorations.create({ profile: 'kalah', algo: 'minimax', depth: 1 });
    await explorations.node(first.id, 0); // used: now the most recent
    await explorations.create({ profile: 'kalah', algo: 'minimax', depth: 1 });
    expect(explorations.size).toBe(MAX_EXPLORATIONS);
    expect((await explorations.node(first.id, 0)).node.id).toBe(0);
    await expect(explorations.node(second.id, 0)).rejects.toThrow(/^no search ".*": the server keeps the last 8 searches/);
  });
});
