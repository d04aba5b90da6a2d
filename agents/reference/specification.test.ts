/**
 * The fast reference searches (minimax.ts, alphabeta.ts) against the readable specification in
 * framework/search/specification.ts: on random positions of every rule profile, at depths 1-5,
 * in both depth units and under both terminal conventions, they must return the same move,
 * value, node count and evaluation count. With caching only the node count may change (a cache
 * hit skips a subtree and its evaluations), so there move and value must agree.
 *
 * Two heuristics: `basic`, for which alpha-beta values leaves through Game.playLeaf without
 * building them (its fast path), and `advanced`, which goes through the general path.
 * Then Tic-Tac-Toe through the same specification. Every random choice comes from fast-check
 * under a fixed seed.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { Game } from '../../framework/contracts/game.ts';
import { countingHeuristic, type Heuristic } from '../../framework/contracts/heuristic.ts';
import { FREE_TURNS, gameForSearch, type DepthUnit, type FreeTurns, type TerminalEvaluation } from '../../framework/contracts/search-conventions.ts';
import { MancalaGame } from '../../framework/games/mancala/engine.ts';
import { PROFILE_NAMES, PROFILES } from '../../framework/games/mancala/profiles.ts';
import { TicTacToeGame } from '../../framework/games/tictactoe/game.ts';
import {
  INF as SPECIFICATION_INF,
  specificationAlphaBeta,
  specificationMinimax,
  type SpecificationOptions,
  type SpecificationResult,
} from '../../framework/search/specification.ts';
import advanced from '../heuristics/advanced.ts';
import basic from '../heuristics/basic.ts';
import { alphaBeta } from './alphabeta.ts';
import { minimax } from './minimax.ts';
import { INF, type SearchParams, type SearchResult } from './search-stack.ts';

const FC_SEED = 561_540;
const UNITS: DepthUnit[] = ['move', 'turn'];
const TERMINALS: TerminalEvaluation[] = ['score', 'heuristic'];
const HEURISTICS = { basic, advanced } as const;

type FastSearch<S> = (params: SearchParams<S>, state: S) => SearchResult;
type Specification<S> = (game: Game<S>, heuristic: Heuristic<S>, root: S, options: SpecificationOptions) => SpecificationResult;

interface Case {
  options: SpecificationOptions;
  freeTurns: FreeTurns;
  heuristic: keyof typeof HEURISTICS;
}

/** A fast search on a fresh fork of the game, so the counters see this search alone; evaluations as the instrumented game counted them. */
function runFast<S>(search: FastSearch<S>, game: Game<S>, state: S, c: Case, caching: boolean) {
  const g = game.fork();
  const heuristic = countingHeuristic(HEURISTICS[c.heuristic] as Heuristic<S>, g);
  const r = search({ game: g, heuristic, ...c.options, freeTurns: c.freeTurns, caching }, state);
  return { move: r.move, value: r.value, nodes: r.nodes, evaluations: g.counters.evaluations };
}

function runSpecification<S>(specification: Specification<S>, game: Game<S>, state: S, c: Case) {
  // `ignore` means searching the same rules without free turns, which is what gameForSearch hands out.
  return specification(gameForSearch(game.fork(), c.freeTurns), HEURISTICS[c.heuristic] as Heuristic<S>, state, c.options);
}

/** Each fast search against its specification: all four numbers uncached, move and value cached. */
function expectAgreement<S>(game: Game<S>, state: S, c: Case): void {
  const pairs: [string, FastSearch<S>, Specification<S>][] = [
    ['minimax', minimax, specificationMinimax],
    ['alpha-beta', alphaBeta, specificationAlphaBeta],
  ];
  for (const [name, fast, specification] of pairs) {
    const expected = runSpecification(specification, game, state, c);
    expect({ search: name, ...runFast(fast, game, state, c, false) }).toEqual({ search: name, ...expected });
    const cached = runFast(fast, game, state, c, true);
    expect({ search: name, cached: true, move: cached.move, value: cached.value }).toEqual({ search: name, cached: true, move: expected.move, value: expected.value });
  }
}

// ---- random Mancala positions -----------------------------------------------------------------

/**
 * A position reached by random play from the start of a random profile's game, on a board of
 * 2-6 pits a side with 1-4 stones a pit (3-5 for cs540, whose course allows only those).
 */
const mancalaArb = fc
  .record({ profile: fc.constantFrom(...PROFILE_NAMES), pits: fc.integer({ min: 2, max: 6 }), seedsOffset: fc.nat({ max: 3 }), choices: fc.array(fc.nat({ max: 99 }), { maxLength: 30 }) })
  .map(({ profile, pits, seedsOffset, choices }) => {
    const seeds = profile === 'cs540' ? 3 + (seedsOffset % 3) : 1 + seedsOffset;
    const game = new MancalaGame({ ...PROFILES[profile]!.rules, pits, seeds }, profile);
    let state = game.initial();
    for (const choice of choices) {
      const legal = game.legalMoves(state);
      if (legal.length === 0) break;
      state = game.play(state, legal[choice % legal.length]!);
    }
    return { game, state, label: `${profile} ${pits}x${seeds}: ${game.key(state)}` };
  });

const caseArb: fc.Arbitrary<Case> = fc.record({
  options: fc.record({ depth: fc.integer({ min: 1, max: 5 }), unit: fc.constantFrom(...UNITS), terminal: fc.constantFrom(...TERMINALS) }),
  freeTurns: fc.constantFrom(...FREE_TURNS),
  heuristic: fc.constantFrom<Case['heuristic']>('basic', 'advanced'),
});

describe('the fast reference searches equal the specification', () => {
  it('uses the same ±INF as the fast searches', () => {
    expect(SPECIFICATION_INF).toBe(INF);
  });

  it('on random Mancala positions of every profile: move, value, nodes and evaluations (caching: move and value)', () => {
    const profilesSeen = new Set<string>();
    let pruned = 0;
    fc.assert(
      fc.property(mancalaArb, caseArb, ({ game, state }, c) => {
        profilesSeen.add(game.name);
        expectAgreement(game, state, c);
        const mm = runSpecification(specificationMinimax, game, state, c);
        const ab = runSpecification(specificationAlphaBeta, game, state, c);
        if (ab.nodes < mm.nodes) pruned++;
      }),
      { seed: FC_SEED, numRuns: 2000 },
    );
    expect([...profilesSeen].sort()).toEqual([...PROFILE_NAMES].sort());
    expect(pruned).toBeGreaterThan(100); // the alpha-beta cases were not all trivial
  });
});

// ---- Tic-Tac-Toe ------------------------------------------------------------------------------

describe('Tic-Tac-Toe through the same specification', () => {
  const game = new TicTacToeGame();
  const toTheEnd: SpecificationOptions = { depth: null, unit: 'move', terminal: 'score' };

  it('full minimax from the empty board visits 549,946 positions and values the game a draw', () => {
    const r = specificationMinimax(game, basic, game.initial(), toTheEnd);
    expect({ nodes: r.nodes, value: r.value, move: r.move }).toEqual({ nodes: 549_946, value: 0, move: 0 });
    expect(runFast(minimax, game, game.initial(), { options: toTheEnd, freeTurns: 'honour', heuristic: 'basic' }, false)).toEqual(r);
  });

  it("full alpha-beta from the empty board gives minimax's move and value from under a tenth of its positions", () => {
    const ab = specificationAlphaBeta(game, basic, game.initial(), toTheEnd);
    expect({ move: ab.move, value: ab.value }).toEqual({ move: 0, value: 0 });
    expect(ab.nodes).toBeLessThan(549_946 / 10);
    expect(runFast(alphaBeta, game, game.initial(), { options: toTheEnd, freeTurns: 'honour', heuristic: 'basic' }, false)).toEqual(ab);
  });

  it('on random positions reached by play, at every depth, the fast searches equal the specification', () => {
    // Two moves played at least: a search to the end from fewer is the 0.5M-position one above.
    const positionArb = fc.array(fc.nat({ max: 8 }), { minLength: 2, maxLength: 8 }).map((choices) => {
      let state = game.initial();
      for (const choice of choices) {
        const legal = game.legalMoves(state);
        if (legal.length === 0) break;
        state = game.play(state, legal[choice % legal.length]!);
      }
      return state;
    });
    const ticTacToeCaseArb: fc.Arbitrary<Case> = fc.record({
      options: fc.record({ depth: fc.oneof(fc.constant(null), fc.integer({ min: 1, max: 5 })), unit: fc.constantFrom(...UNITS), terminal: fc.constantFrom(...TERMINALS) }),
      freeTurns: fc.constant('honour'),
      heuristic: fc.constantFrom<Case['heuristic']>('basic', 'advanced'),
    });
    fc.assert(
      fc.property(positionArb, ticTacToeCaseArb, (state, c) => expectAgreement(game, state, c)),
      { seed: FC_SEED, numRuns: 300 },
    );
  });
});
