/**
 * The `perfect` agent: on boards the solver proves it plays the first best move with its proven
 * value (checked against each move's value by the plain specification); where the solver answers
 * "not proven" (the contract's answer when it runs out of its deadline) it says so and plays the
 * strong search's move in the time left; its options parse from a spec.
 */
import { describe, expect, it } from 'vitest';
import { mancalaGame } from '../../framework/games/mancala/profile-game.ts';
import { PROFILES } from '../../framework/games/mancala/profiles.ts';
import type { MancalaGame, MancalaState } from '../../framework/games/mancala/engine.ts';
import type { SolveOptions, Solver } from '../../framework/plugins/perfect-solver.ts';
import { createRandom } from '../../framework/random.ts';
import { runAgent } from '../../framework/search/run-agent.ts';
import { findHeuristic, parseAgentSpec } from '../index.ts';
import perfect, { perfectAgent } from './agent.ts';
import { plainValue } from './plain-solve.ts';
import { solve } from './index.ts';

const basic = findHeuristic('basic')!;

/** Positions of a seeded random game of Kalah(pits, seeds): every position before a move. */
function positions(profile: string, pits: number, seeds: number, seed: number): { game: MancalaGame; states: MancalaState[] } {
  const game = mancalaGame(PROFILES[profile]!, pits, seeds);
  const random = createRandom(seed);
  const states: MancalaState[] = [];
  for (let s = game.initial(); !game.isOver(s); ) {
    states.push(s);
    const moves = game.legalMoves(s);
    s = game.play(s, moves[Math.floor(random() * moves.length)]!);
  }
  return { game, states };
}

/** A move's value for the mover by the plain specification (a free turn keeps the mover). */
function moveValue(game: MancalaGame, s: MancalaState, move: number): number {
  const child = game.play(s, move);
  const v = plainValue(game, child);
  return (game.toMove(child) === game.toMove(s) ? v : -v) + 0; // no -0
}

describe('perfect', () => {
  it.each([
    ['kalah-empty-capture', 4, 1, 1],
    ['kalah', 3, 2, 2],
    ['csci561', 3, 1, 3],
  ])('%s(%i,%i): a best move with its proven value at every position of a game', async (profile, pits, seeds, seed) => {
    const { game, states } = positions(profile, pits, seeds, seed);
    for (const s of states) {
      const run = await runAgent(perfect, { game, state: s, heuristic: basic, timeLimitMs: 60_000, random: createRandom(1) });
      const values = game.legalMoves(s).map((m) => moveValue(game, s, m));
      const best = Math.max(...values);
      expect(run.choice.note).toBeUndefined();
      expect(run.choice.value).toBe(best);
      // the first best move in search order
      expect(run.choice.move).toBe(game.legalMoves(s)[values.indexOf(best)]);
      expect(run.reported).toEqual({ move: run.choice.move, value: best });
    }
  });

  it("hands the solver its options and a share of the context's deadline", async () => {
    const { game, states } = positions('kalah', 4, 1, 5);
    const seen: SolveOptions[] = [];
    // eg.bin is only a name here: the real solve runs without it.
    const recording: Solver = (g, s, o) => (seen.push(o ?? {}), solve(g, s, { ...o, endgameFile: undefined }));
    await runAgent(perfectAgent(recording), { game, state: states[0]!, heuristic: basic, options: { ttMb: 64, endgame: 'eg.bin' }, timeLimitMs: 1000, random: createRandom(1) });
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ ttMb: 64, endgameFile: 'eg.bin' });
    expect(seen[0]!.deadlineMs).toBeGreaterThan(0);
    expect(seen[0]!.deadlineMs).toBeLessThanOrEqual(1000);
  });

  it("where the solver proves no value in its budget, says so and plays the strong search's move", async () => {
    // The contract's answer of a solver that ran out of its deadline (framework/plugins/perfect-solver.ts).
    const outOfTime: Solver = (_g, _s, o) => ({ value: undefined, bestMoves: [], proven: false, nodes: 123_456, ms: o?.deadlineMs ?? 0 });
    const game = mancalaGame(PROFILES.kalah!, 6, 4);
    const state = game.initial();
    const run = await runAgent(perfectAgent(outOfTime), { game, state, heuristic: basic, options: { ms: 300 }, timeLimitMs: 1000, random: createRandom(1) });
    expect(run.choice.note).toMatch(/^perfect: no value proven within \d+ ms \(123,456 positions\); played the strong search's move$/);
    expect(game.isLegal(state, run.choice.move)).toBe(true);
    expect(run.choice.depth).toBeGreaterThanOrEqual(1); // the strong search's answer
  });

  it('with the real solver on Kalah(6,6), where 300 ms proves nothing, says so and still plays a legal move in time', async () => {
    const game = mancalaGame(PROFILES['kalah-empty-capture']!, 6, 6);
    const state = game.initial();
    const run = await runAgent(perfect, { game, state, heuristic: basic, options: { ms: 300 }, timeLimitMs: 5000, random: createRandom(1) });
    expect(run.choice.note).toMatch(/^perfect: no value proven within \d+ ms \([\d,]+ positions\); played the strong search's move$/);
    expect(game.isLegal(state, run.choice.move)).toBe(true);
  });

  it('reads ms, ttMb and endgame from a spec, and refuses what it does not read', () => {
    expect(parseAgentSpec('perfect:ms=500,ttMb=256,endgame=endgame-20.bin').options).toEqual({ ms: 500, ttMb: 256, endgame: 'endgame-20.bin' });
    expect(() => parseAgentSpec('perfect:ttMb=0')).toThrow('agent spec "perfect:ttMb=0": option "ttMb" expects a whole number of MB > 0');
    expect(() => parseAgentSpec('perfect:depth=3')).toThrow('unknown option "depth" for perfect: expected one of ms, ttMb, endgame');
  });
});
