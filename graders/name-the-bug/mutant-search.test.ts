/**
 * The mutant search with no mutation is the reference: on random positions of every profile it
 * agrees exactly with agents/reference/minimax.ts and alphabeta.ts (move, value, nodes,
 * evaluations), both units, both terminal conventions, with and without caching, with either
 * reference heuristic. Then each switch is shown to change something somewhere, so no switch is
 * silently ignored.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { Player } from '../../framework/contracts/game.ts';
import { countingHeuristic, type Heuristic } from '../../framework/contracts/heuristic.ts';
import type { DepthUnit, TerminalEvaluation } from '../../framework/contracts/search-conventions.ts';
import { MancalaGame, type MancalaState } from '../../framework/games/mancala/engine.ts';
import { PROFILES } from '../../framework/games/mancala/profiles.ts';
import { TicTacToeGame } from '../../framework/games/tictactoe/game.ts';
import advanced from '../../agents/heuristics/advanced.ts';
import basic from '../../agents/heuristics/basic.ts';
import { alphaBeta } from '../../agents/reference/alphabeta.ts';
import { minimax } from '../../agents/reference/minimax.ts';
import { mutantSearch, type Algorithm, type MutantSearchConfig } from './mutant-search.ts';

const fcRuns = (numRuns: number) => ({ seed: 20_240_188, numRuns });
const PROFILE_NAMES = ['kalah', 'kalah-empty-capture', 'csci561', 'csc384', 'cs540'] as const;

interface Position {
  game: MancalaGame;
  state: MancalaState;
}

/** Positions reached by random play from a start of 3..5 pits and 1..4 stones a pit (some finished). */
const positionArb: fc.Arbitrary<Position> = fc
  .record({
    profile: fc.constantFrom(...PROFILE_NAMES),
    pits: fc.integer({ min: 3, max: 5 }),
    seeds: fc.integer({ min: 1, max: 4 }),
    choices: fc.array(fc.nat({ max: 100 }), { maxLength: 30 }),
    topFirst: fc.boolean(),
  })
  .map(({ profile, pits, seeds, choices, topFirst }) => {
    const game = new MancalaGame({ ...PROFILES[profile]!.rules, pits, seeds }, `${profile}(${pits},${seeds})`);
    const start = game.initial();
    let s = topFirst ? game.fromRows(game.row(start, 0), game.row(start, 1), 0, 0, 1 as Player) : start;
    for (const c of choices) {
      const legal = game.legalMoves(s);
      if (legal.length === 0) break;
      s = game.play(s, legal[c % legal.length]!);
    }
    return { game, state: s };
  });

interface Settings {
  algorithm: Algorithm;
  depth: number | null;
  unit: DepthUnit;
  terminal: TerminalEvaluation;
  caching: boolean;
  heuristic: Heuristic;
}

const settingsArb: fc.Arbitrary<Settings> = fc.record({
  algorithm: fc.constantFrom<Algorithm>('minimax', 'alphabeta'),
  depth: fc.oneof({ weight: 6, arbitrary: fc.integer({ min: 0, max: 4 }) }, { weight: 1, arbitrary: fc.constant(null) }),
  unit: fc.constantFrom<DepthUnit>('move', 'turn'),
  terminal: fc.constantFrom<TerminalEvaluation>('score', 'heuristic'),
  caching: fc.boolean(),
  heuristic: fc.constantFrom<Heuristic>(basic, advanced),
});

/** The real reference search, counted the way runAgent counts (a fresh fork, a counting heuristic). */
function reference<S>(game: MancalaGame | TicTacToeGame, state: S, o: Settings) {
  const g = game.fork();
  const heuristic = countingHeuristic(o.heuristic, g);
  const search = o.algorithm === 'alphabeta' ? alphaBeta : minimax;
  const r = search({ game: g as never, heuristic, depth: o.depth, unit: o.unit, terminal: o.terminal, caching: o.caching }, state as never);
  return { move: r.move, value: r.value, nodes: g.counters.nodes, evaluations: g.counters.evaluations, searchNodes: r.nodes };
}

function mutant<S>(game: MancalaGame | TicTacToeGame, state: S, o: Settings, extra: Partial<MutantSearchConfig<S>> = {}) {
  return mutantSearch({ game: game as never, heuristic: o.heuristic, algorithm: o.algorithm, depth: o.depth, unit: o.unit, terminal: o.terminal, caching: o.caching, ...extra }, state as never);
}

/** A full search of a nearly finished game: no depth limit only where the tree stays small. */
const small = (p: Position, o: Settings) => o.depth !== null || p.game.rowSum(p.state, 0) + p.game.rowSum(p.state, 1) <= 10;

describe('mutant search without mutations', () => {
  it('agrees exactly with the reference minimax and alpha-beta on random Mancala positions', () => {
    let pruned = 0;
    let cached = 0;
    fc.assert(
      fc.property(positionArb, settingsArb, (p, o) => {
        fc.pre(small(p, o));
        const want = reference(p.game, p.state, o);
        const got = mutant(p.game, p.state, o);
        expect(got).toEqual({ move: want.move, value: want.value, nodes: want.nodes, evaluations: want.evaluations });
        expect(want.searchNodes).toBe(want.nodes); // the search's own count is the game's
        if (o.algorithm === 'alphabeta' && got!.nodes < mutant(p.game, p.state, { ...o, algorithm: 'minimax' })!.nodes) pruned++;
        if (o.caching && got!.nodes < mutant(p.game, p.state, { ...o, caching: false })!.nodes) cached++;
      }),
      fcRuns(600),
    );
    // The properties exercised pruning and cache hits, not just trivial trees.
    expect(pruned).toBeGreaterThan(20);
    expect(cached).toBeGreaterThan(5);
  });

  it('agrees exactly on Tic-Tac-Toe positions (no depth limit)', () => {
    const game = new TicTacToeGame();
    fc.assert(
      fc.property(fc.array(fc.nat({ max: 8 }), { minLength: 1, maxLength: 6 }), settingsArb, (choices, o) => {
        let s = game.initial();
        for (const c of choices) {
          const legal = game.legalMoves(s);
          if (legal.length === 0) break;
          s = game.play(s, legal[c % legal.length]!);
        }
        const settings = { ...o, heuristic: basic };
        const want = reference(game, s, settings);
        expect(mutant(game, s, settings)).toEqual({ move: want.move, value: want.value, nodes: want.nodes, evaluations: want.evaluations });
      }),
      fcRuns(150),
    );
  });

  it('gives up (undefined) past maxNodes', () => {
    const game = new MancalaGame(PROFILES.kalah!.rules, 'kalah');
    const o: Settings = { algorithm: 'minimax', depth: 4, unit: 'move', terminal: 'score', caching: false, heuristic: basic };
    const full = mutant(game, game.initial(), o)!;
    expect(mutant(game, game.initial(), o, { maxNodes: full.nodes })).toEqual(full);
    expect(mutant(game, game.initial(), o, { maxNodes: full.nodes - 1 })).toBeUndefined();
  });
});

describe('each mutation changes the search somewhere', () => {
  const differs = (extra: Partial<MutantSearchConfig<MancalaState>>, settings: Partial<Settings> = {}) => {
    let changed = 0;
    fc.assert(
      fc.property(positionArb, settingsArb, (p, o0) => {
        const o = { ...o0, caching: false, ...settings };
        fc.pre(small(p, o));
        const a = mutant(p.game, p.state, o)!;
        const b = mutant(p.game, p.state, o, extra)!;
        if (a.move !== b.move || a.value !== b.value || a.nodes !== b.nodes) changed++;
      }),
      fcRuns(200),
    );
    return changed;
  };

  it('strict pruning visits more nodes somewhere, never fewer', () => {
    expect(differs({ strictPruning: true }, { algorithm: 'alphabeta' })).toBeGreaterThan(0);
  });
  it('alternating by ply differs where free turns happen', () => {
    expect(differs({ alternateByPly: true }, { unit: 'move' })).toBeGreaterThan(0);
  });
  it('valuing finished positions on the stores as they stand differs from the score', () => {
    expect(differs({ terminal: 'stores-as-they-stand' }, { terminal: 'score', depth: 4 })).toBeGreaterThan(0);
  });
  it('the last best move differs from the first somewhere', () => {
    expect(differs({ lastBestMove: true })).toBeGreaterThan(0);
  });
});
