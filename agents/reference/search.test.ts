/**
 * Properties of the reference searches (minimax.ts, alphabeta.ts) on small random Mancala
 * positions, checked against two deliberately plain searches written here: a depth-limited
 * minimax on the value layer (`naiveSearch`, DESIGN §5's conventions and nothing else) and a
 * negamax to the end of the game (`gameValue`, the true value). Then agreement with the C
 * baseline (../shared/bench/kalah.c) on Kalah(6,4).
 *
 * Every random choice comes from fast-check under a fixed seed.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { Player } from '../../framework/contracts/game.ts';
import { countingHeuristic, type Heuristic } from '../../framework/contracts/heuristic.ts';
import type { DepthUnit, TerminalEvaluation } from '../../framework/contracts/search-conventions.ts';
import { MancalaGame, type MancalaState } from '../../framework/games/mancala/engine.ts';
import { PROFILES } from '../../framework/games/mancala/profiles.ts';
import basic from '../heuristics/basic.ts';
import { alphaBeta } from './alphabeta.ts';
import { minimax } from './minimax.ts';
import type { SearchParams, SearchResult } from './search-stack.ts';
import { KALAH_C } from '../../testcases/shared-data.ts';

const FC_SEED = 384_561;
const fcRuns = (numRuns: number) => ({ seed: FC_SEED, numRuns });

// cpsc4610 has the same rules as cs540, so it adds nothing here.
const PROFILE_NAMES = ['kalah', 'kalah-empty-capture', 'csci561', 'csc384', 'cs540'] as const;
const UNITS: DepthUnit[] = ['move', 'turn'];
const TERMINALS: TerminalEvaluation[] = ['score', 'heuristic'];

// ---- random positions ---------------------------------------------------------------------------

interface Position {
  profile: (typeof PROFILE_NAMES)[number];
  bottom: number[];
  top: number[];
  stores: [number, number];
  toMove: Player;
}

/**
 * Small boards (3..5 pits) with few stones on them (at most `maxStones`), so that a search to
 * the end of the game stays fast; empty pits and empty rows are common (captures, game ends).
 */
function positionArb(maxStones: number): fc.Arbitrary<Position> {
  return fc
    .record({ profile: fc.constantFrom(...PROFILE_NAMES), pits: fc.integer({ min: 3, max: 5 }) })
    .chain(({ profile, pits }) => {
      const pit = fc.oneof({ weight: 3, arbitrary: fc.constant(0) }, { weight: 2, arbitrary: fc.integer({ min: 1, max: 3 }) });
      const row = fc.array(pit, { minLength: pits, maxLength: pits });
      return fc.record({
        profile: fc.constant(profile),
        bottom: row,
        top: row,
        stores: fc.tuple(fc.integer({ min: 0, max: 12 }), fc.integer({ min: 0, max: 12 })),
        toMove: fc.constantFrom<Player>(0, 1),
      });
    })
    .filter((p) => [...p.bottom, ...p.top].reduce((a, x) => a + x, 0) <= maxStones);
}

/** Positions reached by random play from a start position of 3..5 pits and 2..4 stones a pit. */
const midgameArb: fc.Arbitrary<Position> = fc
  .record({
    profile: fc.constantFrom(...PROFILE_NAMES),
    pits: fc.integer({ min: 3, max: 5 }),
    seeds: fc.integer({ min: 2, max: 4 }),
    choices: fc.array(fc.nat({ max: 100 }), { maxLength: 24 }),
  })
  .map(({ profile, pits, seeds, choices }) => {
    const game = new MancalaGame({ ...PROFILES[profile]!.rules, pits, seeds }, profile);
    let s = game.initial();
    for (const c of choices) {
      const legal = game.legalMoves(s);
      if (legal.length === 0) break;
      s = game.play(s, legal[c % legal.length]!);
    }
    return { profile, bottom: game.row(s, 0), top: game.row(s, 1), stores: [game.store(s, 0), game.store(s, 1)] as [number, number], toMove: game.toMove(s) };
  });

function setUp(p: Position): { game: MancalaGame; state: MancalaState } {
  const game = new MancalaGame({ ...PROFILES[p.profile]!.rules, pits: p.bottom.length }, p.profile);
  return { game, state: game.fromRows(p.bottom, p.top, p.stores[0], p.stores[1], p.toMove) };
}

/** null: to the end of the game. */
const depthArb = fc.oneof(fc.constant(null), fc.integer({ min: 0, max: 5 }));

interface Options {
  depth: number | null;
  unit: DepthUnit;
  terminal: TerminalEvaluation;
  caching?: boolean;
  heuristic?: Heuristic<MancalaState>;
}

const optionsArb: fc.Arbitrary<Options> = fc.record({
  depth: depthArb,
  unit: fc.constantFrom(...UNITS),
  terminal: fc.constantFrom(...TERMINALS),
});

type Search = (params: SearchParams<MancalaState>, state: MancalaState) => SearchResult;

/** Runs a search on a fresh fork of the game, so the game's counters see only this search. */
function run(search: Search, game: MancalaGame, state: MancalaState, o: Options) {
  const g = game.fork();
  const heuristic = countingHeuristic(o.heuristic ?? basic, g);
  const result = search({ game: g, heuristic, depth: o.depth, unit: o.unit, terminal: o.terminal, caching: o.caching ?? false }, state);
  return { ...result, plays: g.counters.plays, evaluations: g.counters.evaluations };
}

// ---- the plain searches the reference is checked against ----------------------------------------

/**
 * Minimax as DESIGN §5 states it, on the value layer: the root player maximises, whoever moves
 * decides max or min, a finished game is a leaf (worth the score after the sweep, or the
 * heuristic on the board as it stands), a free turn keeps its depth in unit 'turn', and the move
 * is the first in the game's order with the best value. Counts every position it visits.
 */
function naiveSearch(game: MancalaGame, root: MancalaState, o: Options): { move: number; value: number; nodes: number; childValues: number[] } {
  const me = game.toMove(root);
  const heuristic = o.heuristic ?? basic;
  let nodes = 0;
  const value = (s: MancalaState, depthLeft: number): number => {
    nodes++;
    const over = game.isOver(s);
    if (over && o.terminal === 'score') return game.score(s, me);
    if (over || depthLeft === 0) return heuristic.evaluate(s, me, game);
    const mover = game.toMove(s);
    const values = game.legalMoves(s).map((m) => {
      const child = game.play(s, m);
      const freeTurn = game.toMove(child) === mover && !game.isOver(child);
      return value(child, o.unit === 'turn' && freeTurn ? depthLeft : depthLeft - 1);
    });
    return mover === me ? Math.max(...values) : Math.min(...values);
  };
  const depth = o.depth === null ? Infinity : o.depth;
  nodes++;
  if (game.isOver(root) || depth === 0) {
    const v = game.isOver(root) && o.terminal === 'score' ? game.score(root, me) : heuristic.evaluate(root, me, game);
    return { move: game.legalMoves(root)[0] ?? -1, value: v, nodes, childValues: [] };
  }
  const moves = game.legalMoves(root);
  const childValues = moves.map((m) => {
    const child = game.play(root, m);
    const freeTurn = game.toMove(child) === me && !game.isOver(child);
    return value(child, o.unit === 'turn' && freeTurn ? depth : depth - 1);
  });
  const best = Math.max(...childValues);
  return { move: moves[childValues.indexOf(best)]!, value: best, nodes, childValues };
}

/** The game's true value for the player to move: negamax to the end, free turns included. */
function gameValue(game: MancalaGame, s: MancalaState): number {
  const mover = game.toMove(s);
  let best = -Infinity;
  for (const m of game.legalMoves(s)) {
    const child = game.play(s, m);
    const v = game.isOver(child) ? game.score(child, mover) : game.toMove(child) === mover ? gameValue(game, child) : 0 - gameValue(game, child); // 0 - x: no -0
    if (v > best) best = v;
  }
  return best;
}

// ---- properties ---------------------------------------------------------------------------------

describe('reference searches on random small positions', () => {
  it('minimax equals the plain minimax: move, value and node count, for every profile, unit, depth and terminal rule', () => {
    fc.assert(
      fc.property(positionArb(9), optionsArb, (p, o) => {
        const { game, state } = setUp(p);
        const expected = naiveSearch(game, state, o);
        const got = run(minimax, game, state, o);
        expect({ move: got.move, value: got.value, nodes: got.nodes }).toEqual({ move: expected.move, value: expected.value, nodes: expected.nodes });
      }),
      fcRuns(300),
    );
  });

  it('alpha-beta agrees with minimax on move and value and never visits more nodes', () => {
    let fewer = 0;
    fc.assert(
      fc.property(positionArb(9), optionsArb, (p, o) => {
        const { game, state } = setUp(p);
        const mm = run(minimax, game, state, o);
        const ab = run(alphaBeta, game, state, o);
        expect({ move: ab.move, value: ab.value }).toEqual({ move: mm.move, value: mm.value });
        expect(ab.nodes).toBeLessThanOrEqual(mm.nodes);
        if (ab.nodes < mm.nodes) fewer++;
      }),
      fcRuns(300),
    );
    expect(fewer).toBeGreaterThan(0); // pruning did happen
  });

  it('caching never changes the move or the value (minimax and alpha-beta, both units)', () => {
    let saved = 0;
    // Middle games reached by play from a start position, searched deep: transpositions recur
    // there, and at different depths and windows, which is where a wrong cache would show.
    const searchArb = fc.constantFrom<[string, Search, number]>(['minimax', minimax, 5], ['alpha-beta', alphaBeta, 8]);
    fc.assert(
      fc.property(midgameArb, optionsArb, searchArb, fc.nat(), (p, o, [, search, maxDepth], d) => {
        const { game, state } = setUp(p);
        const depth = 1 + (d % maxDepth);
        const plain = run(search, game, state, { ...o, depth });
        const cached = run(search, game, state, { ...o, depth, caching: true });
        expect({ move: cached.move, value: cached.value }).toEqual({ move: plain.move, value: plain.value });
        if (cached.nodes < plain.nodes) saved++;
      }),
      fcRuns(300),
    );
    expect(saved).toBeGreaterThan(0); // the cache was actually used
  });

  /*
   * Positions where a wrong cache does change the result, found by running mutants of the
   * searches against the real ones on random middle games: a minimax cache keyed without the
   * depth left (A, B), an alpha-beta table that returns bounds as if they were exact values
   * (C, D, E; E is the start of Kalah(4,2)). They need unit 'turn' and deep searches, which the
   * random property above reaches too rarely. Expected results are the uncached searches'.
   */
  const cacheTraps: { label: string; position: Position; depth: number; terminal: TerminalEvaluation }[] = [
    { label: 'A', position: { profile: 'cs540', bottom: [1, 6, 0, 8], top: [4, 0, 0, 0], stores: [2, 3], toMove: 1 }, depth: 6, terminal: 'score' },
    { label: 'B', position: { profile: 'kalah', bottom: [1, 6, 2, 6, 2, 1], top: [0, 8, 6, 6, 0, 6], stores: [3, 1], toMove: 0 }, depth: 5, terminal: 'heuristic' },
    { label: 'C', position: { profile: 'cs540', bottom: [2, 2, 0, 3, 3], top: [2, 2, 2, 2, 2], stores: [0, 0], toMove: 1 }, depth: 5, terminal: 'heuristic' },
    { label: 'D', position: { profile: 'kalah', bottom: [2, 5, 1, 6, 4], top: [4, 3, 0, 1, 0], stores: [1, 3], toMove: 0 }, depth: 9, terminal: 'heuristic' },
    { label: 'E', position: { profile: 'kalah-empty-capture', bottom: [2, 2, 2, 2], top: [2, 2, 2, 2], stores: [0, 0], toMove: 0 }, depth: 8, terminal: 'heuristic' },
  ];
  for (const trap of cacheTraps) {
    it(`caching keeps the move and value where a wrong cache would not (case ${trap.label}, unit turn, depth ${trap.depth})`, () => {
      const { game, state } = setUp(trap.position);
      // Plain minimax at depth 8-9 in unit 'turn' takes seconds: only alpha-beta searches those.
      for (const search of trap.depth <= 6 ? [minimax, alphaBeta] : [alphaBeta]) {
        const o = { depth: trap.depth, unit: 'turn' as const, terminal: trap.terminal };
        const plain = run(search, game, state, o);
        const cached = run(search, game, state, { ...o, caching: true });
        expect({ move: cached.move, value: cached.value }).toEqual({ move: plain.move, value: plain.value });
        expect(cached.nodes).toBeLessThan(plain.nodes);
      }
    });
  }

  it('searched to the end with terminal "score", the value is the true game value', () => {
    fc.assert(
      fc.property(positionArb(9), fc.constantFrom(...UNITS), fc.boolean(), (p, unit, caching) => {
        const { game, state } = setUp(p);
        fc.pre(!game.isOver(state));
        const truth = gameValue(game, state);
        for (const search of [minimax, alphaBeta]) {
          expect(run(search, game, state, { depth: null, unit, terminal: 'score', caching }).value).toBe(truth);
        }
      }),
      fcRuns(200),
    );
  });

  it('nodes = 1 + the plays the instrumented game counted; with terminal "heuristic" every leaf is one counted evaluation', () => {
    fc.assert(
      fc.property(positionArb(12), optionsArb, fc.boolean(), (p, o, caching) => {
        const { game, state } = setUp(p);
        const options = { ...o, depth: o.depth ?? 6, caching };
        for (const search of [minimax, alphaBeta]) {
          const r = run(search, game, state, options);
          expect(r.nodes).toBe(r.plays + 1);
          if (o.terminal === 'heuristic') expect(r.evaluations).toBe(r.leaves);
          else expect(r.evaluations).toBeLessThanOrEqual(r.leaves);
        }
      }),
      fcRuns(200),
    );
  });

  it("ties go to the first best move in the game's order", () => {
    let ties = 0;
    fc.assert(
      fc.property(positionArb(9), optionsArb, (p, o) => {
        const { game, state } = setUp(p);
        fc.pre(o.depth !== 0 && !game.isOver(state)); // the root has children to choose from
        const { childValues, move } = naiveSearch(game, state, o);
        const best = Math.max(...childValues);
        if (childValues.filter((v) => v === best).length > 1) ties++;
        expect(move).toBe(game.legalMoves(state)[childValues.indexOf(best)] ?? -1);
        for (const search of [minimax, alphaBeta]) expect(run(search, game, state, o).move).toBe(move);
      }),
      fcRuns(300),
    );
    expect(ties).toBeGreaterThan(0);
  });

  it('depth 0 evaluates the root and nothing else', () => {
    fc.assert(
      fc.property(positionArb(16), fc.constantFrom(...UNITS), fc.constantFrom(...TERMINALS), (p, unit, terminal) => {
        const { game, state } = setUp(p);
        const over = game.isOver(state);
        const expected = over && terminal === 'score' ? game.score(state, game.toMove(state)) : basic.evaluate(state, game.toMove(state), game);
        for (const search of [minimax, alphaBeta]) {
          const r = run(search, game, state, { depth: 0, unit, terminal });
          expect({ nodes: r.nodes, plays: r.plays, leaves: r.leaves, value: r.value }).toEqual({ nodes: 1, plays: 0, leaves: 1, value: expected });
          expect(r.move).toBe(game.legalMoves(state)[0] ?? -1);
        }
      }),
      fcRuns(200),
    );
  });

  it('terminal "heuristic" and "score" differ exactly on finished positions with stones left on the board', () => {
    let differed = 0;
    fc.assert(
      fc.property(positionArb(16), (p) => {
        const { game, state } = setUp(p);
        const stonesLeft = game.rowSum(state, 0) + game.rowSum(state, 1) > 0;
        for (const search of [minimax, alphaBeta]) {
          const byScore = run(search, game, state, { depth: 0, unit: 'move', terminal: 'score' }).value;
          const byHeuristic = run(search, game, state, { depth: 0, unit: 'move', terminal: 'heuristic' }).value;
          expect(byScore !== byHeuristic).toBe(game.isOver(state) && stonesLeft);
          if (byScore !== byHeuristic) differed++;
        }
      }),
      fcRuns(300),
    );
    expect(differed).toBeGreaterThan(0);
  });
});

describe('hand-built positions', () => {
  it("a constant heuristic makes every move tie: the first legal move in the profile's order wins (top player, left to right)", () => {
    // csc384 lists the top row left to right, which is its sowing order reversed (seed 001).
    const zero: Heuristic<MancalaState> = { name: 'zero', evaluate: () => 0 };
    for (const [profile, first] of [['csc384', 3], ['kalah', 0]] as const) {
      const game = new MancalaGame({ ...PROFILES[profile]!.rules, pits: 4 }, profile);
      const state = game.fromRows([2, 2, 2, 2], [1, 0, 1, 1], 0, 0, 1);
      expect(game.legalMoves(state)[0]).toBe(first);
      for (const search of [minimax, alphaBeta]) {
        const r = run(search, game, state, { depth: 3, unit: 'move', terminal: 'heuristic', heuristic: zero });
        expect(r.move).toBe(first);
        expect(r.value).toBe(0);
      }
    }
  });

  it("unit 'turn' keeps depth across a free turn, which changes the move at depth 1", () => {
    /*
     * Kalah, 4 pits, bottom to move: bottom [1, 0, 5, 1] (sowing order), top [1, 1, 2, 1], stores 0.
     * The top pit across bottom pit 1 is the top's sowing index 4-1-1 = 2, holding 2.
     *  - pit 0: its stone lands in the empty pit 1 and captures 2 + 1: worth 3;
     *  - pit 2: five stones, one in the store, the last on the top row: worth 1;
     *  - pit 3: its stone lands in the store, a free turn: worth 1 as a depth-1 leaf (unit 'move').
     * In unit 'turn' the free turn keeps depth 1, so pit 3 is followed by the bottom's best next
     * move: pit 0 captures 3 more (1 + 3 = 4), pit 2 adds 1 (= 2). Pit 3 is then worth 4 > 3.
     * Nodes: unit 'move' visits the root and its 3 children; unit 'turn' also the 2 moves after pit 3.
     */
    const game = new MancalaGame({ ...PROFILES.kalah!.rules, pits: 4 }, 'kalah');
    const state = game.fromRows([1, 0, 5, 1], [1, 1, 2, 1], 0, 0, 0);
    for (const search of [minimax, alphaBeta]) {
      const byMove = run(search, game, state, { depth: 1, unit: 'move', terminal: 'score' });
      const byTurn = run(search, game, state, { depth: 1, unit: 'turn', terminal: 'score' });
      expect({ move: byMove.move, value: byMove.value, nodes: byMove.nodes }).toEqual({ move: 0, value: 3, nodes: 4 });
      expect({ move: byTurn.move, value: byTurn.value, nodes: byTurn.nodes }).toEqual({ move: 3, value: 4, nodes: 6 });
    }
  });

  it('a negative depth means no limit (seed 001 passes -1)', () => {
    const game = new MancalaGame({ ...PROFILES.csc384!.rules, pits: 3 }, 'csc384');
    const state = game.fromRows([1, 2, 0], [0, 1, 2], 3, 4, 0);
    for (const search of [minimax, alphaBeta]) {
      const unlimited = run(search, game, state, { depth: null, unit: 'move', terminal: 'heuristic' });
      const minusOne = run(search, game, state, { depth: -1, unit: 'move', terminal: 'heuristic' });
      expect(minusOne).toEqual(unlimited);
      expect(unlimited.cutoff).toBe(false);
    }
  });
});

// ---- the C baseline -----------------------------------------------------------------------------

const C_SOURCE = KALAH_C;

/** Builds kalah.c into a private temporary folder; a reason string when that is not possible. */
function buildBaseline(): { binary: string; dir: string } | string {
  if (!existsSync(C_SOURCE)) return `${C_SOURCE} is missing`;
  const probe = spawnSync('gcc', ['--version'], { encoding: 'utf8' });
  if (probe.error !== undefined || probe.status !== 0) return 'gcc is not available';
  const dir = mkdtempSync(join(tmpdir(), 'kalah-c-'));
  const binary = join(dir, 'kalah_c');
  const build = spawnSync('gcc', ['-O2', '-o', binary, C_SOURCE], { encoding: 'utf8' });
  if (build.status !== 0) return `gcc could not build ${C_SOURCE}: ${build.stderr.trim()}`;
  return { binary, dir };
}

const baseline = buildBaseline();
if (typeof baseline === 'string') console.warn(`search.test.ts: skipping the comparison with the C baseline: ${baseline}`);
afterAll(() => {
  if (typeof baseline !== 'string') rmSync(baseline.dir, { recursive: true, force: true });
});

describe('alpha-beta on Kalah(6,4), depth 8, from the start, against the C baseline', () => {
  const cases = [
    { profile: 'kalah-empty-capture', unit: 'move', args: ['--mode', 'ply'] },
    { profile: 'kalah-empty-capture', unit: 'turn', args: ['--mode', 'turn'] },
    { profile: 'kalah', unit: 'move', args: ['--mode', 'ply', '--capture-needs-opposite'] },
    { profile: 'kalah', unit: 'turn', args: ['--mode', 'turn', '--capture-needs-opposite'] },
  ] as const;
  for (const c of cases) {
    it.skipIf(typeof baseline === 'string')(`${c.profile}, unit ${c.unit}: same best move, value and nodes (skipped without gcc or ${C_SOURCE})`, () => {
      if (typeof baseline === 'string') return;
      const out = spawnSync(baseline.binary, ['ab', '8', ...c.args], { encoding: 'utf8' });
      expect(out.status).toBe(0);
      const field = (name: string) => {
        const m = new RegExp(`\\b${name}=(-?\\d+)`).exec(out.stdout);
        if (m === null) throw new Error(`no ${name}= in the C output: ${out.stdout}`);
        return Number(m[1]);
      };
      const game = new MancalaGame(PROFILES[c.profile]!.rules, c.profile);
      const ours = run(alphaBeta, game, game.initial(), { depth: 8, unit: c.unit, terminal: 'score' });
      expect({ best: ours.move, value: ours.value, nodes: ours.nodes }).toEqual({ best: field('best'), value: field('value'), nodes: field('nodes') });
    });
  }
});
