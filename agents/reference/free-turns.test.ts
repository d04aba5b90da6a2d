/**
 * The free-turn convention of the reference searches (SearchParams.freeTurns, AgentOptions
 * `freeTurns`, spec `alphabeta:freeTurns=ignore`): `ignore` is seed 002's provided minimax, in
 * which players simply alternate every move. Checked against a plain alternating minimax written
 * here on the value layer, which passes the turn by rebuilding each child with the other player
 * to move (`fromRows`), so it shares nothing with how the reference does it (a twin game without
 * free turns, framework/contracts/search-conventions.ts).
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { other, type Player } from '../../framework/contracts/game.ts';
import { countingHeuristic } from '../../framework/contracts/heuristic.ts';
import { gameForSearch, type FreeTurns } from '../../framework/contracts/search-conventions.ts';
import { MancalaGame, type MancalaState } from '../../framework/games/mancala/engine.ts';
import { PROFILES } from '../../framework/games/mancala/profiles.ts';
import { TicTacToeGame } from '../../framework/games/tictactoe/game.ts';
import { createRandom } from '../../framework/random.ts';
import { runAgent } from '../../framework/search/run-agent.ts';
import basic from '../heuristics/basic.ts';
import { parseAgentSpec } from '../index.ts';
import { alphaBeta } from './alphabeta.ts';
import { minimax } from './minimax.ts';
import type { SearchParams } from './search-stack.ts';

const fcRuns = (numRuns: number) => ({ seed: 4610, numRuns });

interface Position {
  pits: number;
  bottom: number[];
  top: number[];
  stores: [number, number];
  toMove: Player;
  depth: number;
}

/** Small boards with few stones: free turns, captures and game ends all come up. */
const positionArb: fc.Arbitrary<Position> = fc.integer({ min: 3, max: 5 }).chain((pits) => {
  const pit = fc.oneof({ weight: 2, arbitrary: fc.constant(0) }, { weight: 3, arbitrary: fc.integer({ min: 1, max: 4 }) });
  const row = fc.array(pit, { minLength: pits, maxLength: pits });
  return fc.record({
    pits: fc.constant(pits),
    bottom: row,
    top: row,
    stores: fc.tuple(fc.integer({ min: 0, max: 10 }), fc.integer({ min: 0, max: 10 })),
    toMove: fc.constantFrom<Player>(0, 1),
    depth: fc.integer({ min: 1, max: 5 }),
  });
});

function gameFor(profile: string, pits: number, freeTurn?: boolean): MancalaGame {
  const rules = PROFILES[profile]!.rules;
  return new MancalaGame({ ...rules, pits, ...(freeTurn === undefined ? {} : { freeTurn }) });
}

function stateOf(game: MancalaGame, p: Position): MancalaState {
  return game.fromRows(p.bottom, p.top, p.stores[0], p.stores[1], p.toMove);
}

/**
 * Seed 002's provided minimax, plainly: the root player maximises at even plies and the other
 * player minimises at odd ones, each ply one move of the player whose ply it is, whatever the
 * last stone did. A finished game is worth its score (after the sweep), a cut-off position the
 * basic heuristic (store difference), both from the root player's side; ties go to the first
 * best move. Nodes: 1 + positions played, as the instrumented game counts them.
 */
function alternatingMinimax(game: MancalaGame, root: MancalaState, depth: number): { move: number; value: number; nodes: number } {
  const me = game.toMove(root);
  let nodes = 1;
  const value = (s: MancalaState, left: number, mover: Player): number => {
    if (game.isOver(s)) return game.score(s, me);
    if (left === 0) return game.store(s, me) - game.store(s, other(me));
    const values = game.legalMoves(s).map((m) => {
      nodes++;
      const played = game.play(s, m);
      // Whatever the last stone did, the other player moves next.
      const next = game.fromRows(game.row(played, 0), game.row(played, 1), game.store(played, 0), game.store(played, 1), other(mover));
      return value(next, left - 1, other(mover));
    });
    return mover === me ? Math.max(...values) : Math.min(...values);
  };
  let best = { move: -1, value: -Infinity };
  for (const m of game.legalMoves(root)) {
    nodes++;
    const played = game.play(root, m);
    const next = game.fromRows(game.row(played, 0), game.row(played, 1), game.store(played, 0), game.store(played, 1), other(me));
    const v = value(next, depth - 1, other(me));
    if (v > best.value) best = { move: m, value: v };
  }
  return { ...best, nodes };
}

function params(game: MancalaGame, depth: number, freeTurns: FreeTurns): SearchParams<MancalaState> {
  return { game, heuristic: basic, depth, unit: 'move', terminal: 'score', freeTurns };
}

describe('free turns ignored (seed 002) or honoured', () => {
  it('agree, move, value and node count, when the rules have no free turns', () => {
    fc.assert(
      fc.property(positionArb, fc.constantFrom('csc384', 'cpsc4610'), (p, profile) => {
        const game = gameFor(profile, p.pits, false);
        const s = stateOf(game, p);
        fc.pre(!game.isOver(s));
        for (const search of [minimax, alphaBeta]) {
          const honour = search(params(game, p.depth, 'honour'), s);
          const ignore = search(params(game, p.depth, 'ignore'), s);
          expect(ignore).toEqual(honour);
        }
      }),
      fcRuns(150),
    );
  });

  it("with free turns on, 'ignore' is a plain alternating minimax (alpha-beta: the same move and value)", () => {
    let differs = 0;
    fc.assert(
      fc.property(positionArb, (p) => {
        const game = gameFor('cpsc4610', p.pits);
        const s = stateOf(game, p);
        fc.pre(!game.isOver(s));
        const plain = alternatingMinimax(game, s, p.depth);
        const mm = minimax(params(game, p.depth, 'ignore'), s);
        expect({ move: mm.move, value: mm.value, nodes: mm.nodes }).toEqual(plain);
        const ab = alphaBeta(params(game, p.depth, 'ignore'), s);
        expect({ move: ab.move, value: ab.value }).toEqual({ move: plain.move, value: plain.value });
        expect(ab.nodes).toBeLessThanOrEqual(plain.nodes);
        const honour = minimax(params(game, p.depth, 'honour'), s);
        if (honour.value !== mm.value || honour.nodes !== mm.nodes) differs++;
      }),
      fcRuns(200),
    );
    // The convention matters: on many of these positions honouring free turns searches another tree.
    expect(differs).toBeGreaterThan(20);
  });

  it('Kalah(6,4) from the start: the free turn of B2 is where the two differ', () => {
    const game = gameFor('cpsc4610', 6);
    const s = game.initial();
    const ignore = alphaBeta(params(game, 5, 'ignore'), s);
    const plain = alternatingMinimax(game, s, 5);
    expect({ move: ignore.move, value: ignore.value }).toEqual({ move: plain.move, value: plain.value });
    const honour = alphaBeta(params(game, 5, 'honour'), s);
    expect(honour.nodes).not.toBe(ignore.nodes);
  });

  it('Tic-Tac-Toe has no free turns: both conventions are the same search', () => {
    const game = new TicTacToeGame();
    const s = game.fromString('XX_/_O_/___');
    expect(gameForSearch(game, 'ignore')).toBe(game);
    const a = alphaBeta({ game, heuristic: basic, depth: null, unit: 'move', terminal: 'score', freeTurns: 'ignore' }, s);
    const b = alphaBeta({ game, heuristic: basic, depth: null, unit: 'move', terminal: 'score' }, s);
    expect(a).toEqual(b);
  });

  it("the twin game counts on the instrumented game's counters: runAgent reports the search's nodes", async () => {
    const game = gameFor('cpsc4610', 6);
    const state = game.fromRows([0, 3, 2, 1, 4, 0], [2, 0, 5, 1, 0, 3], 6, 4, 0);
    const spec = parseAgentSpec('alphabeta:depth=5,freeTurns=ignore');
    expect(spec.options).toEqual({ depth: 5, freeTurns: 'ignore' });
    const outcome = await runAgent(spec.agent, { game, state, heuristic: basic, options: { ...spec.options, unit: 'move', terminal: 'score' }, random: createRandom(1) });
    const counted = game.fork();
    const direct = alphaBeta({ ...params(counted, 5, 'ignore'), heuristic: countingHeuristic(basic, counted) }, state);
    expect(outcome.nodes).toBe(direct.nodes);
    expect(counted.counters.nodes).toBe(direct.nodes);
    expect(outcome.evaluations).toBe(counted.counters.evaluations);
    expect(outcome.evaluations).toBeGreaterThan(0);
    expect(outcome.choice).toEqual({ move: direct.move, value: direct.value });
    expect(game.counters.plays).toBe(0); // runAgent forks: the caller's game is untouched
  });

  it('the spec option is checked', () => {
    expect(() => parseAgentSpec('alphabeta:freeTurns=skip')).toThrow(/option "freeTurns" expects honour or ignore/);
    expect(() => parseAgentSpec('greedy:freeTurns=ignore')).toThrow(/unknown option "freeTurns" for greedy/);
  });
});
