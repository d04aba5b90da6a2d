import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { boardToState, parseCsci561Input, writeCsci561NextState } from '../framework/games/mancala/board-io/index.ts';
import type { Agent, AgentContext, AgentOptions } from '../framework/contracts/agent.ts';
import type { Game, Player } from '../framework/contracts/game.ts';
import { countingHeuristic, type Heuristic } from '../framework/contracts/heuristic.ts';
import { collectTrace } from '../framework/contracts/search-trace.ts';
import { MancalaGame, type MancalaState } from '../framework/games/mancala/engine.ts';
import { PROFILES } from '../framework/games/mancala/profiles.ts';
import { TicTacToeGame } from '../framework/games/tictactoe/game.ts';
import { createRandom, randomInt } from '../framework/random.ts';
import { runAgent } from '../framework/search/run-agent.ts';
import alphabetaAgent from './alphabeta.ts';
import greedy from './greedy.ts';
import advanced from './heuristics/advanced.ts';
import basic from './heuristics/basic.ts';
import ids from './ids.ts';
import minimaxAgent from './minimax.ts';
import random from './random.ts';
import { alphaBeta } from './reference/alphabeta.ts';
import { iterativeDeepening } from './reference/iterative-deepening.ts';
import { minimax } from './reference/minimax.ts';
import strong from './strong.ts';
import { CSCI561_OFFICIAL_DIR } from '../testcases/shared-data.ts';

function mancala(profile: string, pits: number, seeds: number): MancalaGame {
  return new MancalaGame({ ...PROFILES[profile]!.rules, pits, seeds }, `${profile}(${pits},${seeds})`);
}

/** `count` positions still in play, reached by 0..maxPlies random moves from the start (seeded). */
function randomPositions<S>(game: Game<S>, count: number, seed: number, maxPlies = 30): S[] {
  const rand = createRandom(seed);
  const out: S[] = [];
  while (out.length < count) {
    let s = game.initial();
    const plies = randomInt(rand, maxPlies + 1);
    for (let k = 0; k < plies && !game.isOver(s); k++) {
      const moves = game.legalMoves(s);
      s = game.play(s, moves[randomInt(rand, moves.length)]!);
    }
    if (!game.isOver(s)) out.push(s);
  }
  return out;
}

function run<S>(agent: Agent, game: Game<S>, state: S, options: AgentOptions, extra: { heuristic?: Heuristic; seed?: number; timeLimitMs?: number } = {}) {
  return runAgent(agent, {
    game,
    state,
    heuristic: extra.heuristic ?? basic,
    options,
    random: createRandom(extra.seed ?? 1),
    ...(extra.timeLimitMs === undefined ? {} : { timeLimitMs: extra.timeLimitMs }),
  });
}

/** Plays one game from `state`, each side's agent through runAgent; returns the score for player 0. */
async function playOut(game: MancalaGame, state: MancalaState, sides: [Agent, Agent], options: [AgentOptions, AgentOptions], heuristics: [Heuristic, Heuristic]) {
  let s = state;
  while (!game.isOver(s)) {
    const p = game.toMove(s);
    const out = await run(sides[p], game, s, options[p], { heuristic: heuristics[p] });
    s = game.play(s, out.choice.move);
  }
  return game.score(s, 0);
}

/** A start position after `plies` random moves (seeded): varied openings for matches. */
function opening(game: MancalaGame, plies: number, seed: number): MancalaState {
  const rand = createRandom(seed);
  let s = game.initial();
  for (let k = 0; k < plies && !game.isOver(s); k++) {
    const moves = game.legalMoves(s);
    s = game.play(s, moves[randomInt(rand, moves.length)]!);
  }
  return s;
}

const GAMES: { label: string; game: Game<any> }[] = [
  { label: 'kalah(6,4)', game: mancala('kalah', 6, 4) },
  { label: 'kalah-empty-capture(3,2)', game: mancala('kalah-empty-capture', 3, 2) },
  { label: 'csci561(5,3)', game: mancala('csci561', 5, 3) },
  { label: 'csc384(4,4)', game: mancala('csc384', 4, 4) },
  { label: 'cs540(6,5)', game: mancala('cs540', 6, 5) },
  { label: 'tictactoe', game: new TicTacToeGame() },
];

const AGENTS: { agent: Agent; options: AgentOptions }[] = [
  { agent: random, options: {} },
  { agent: greedy, options: { unit: 'turn' } },
  { agent: minimaxAgent, options: { depth: 3, unit: 'move', terminal: 'score' } },
  { agent: alphabetaAgent, options: { depth: 4, unit: 'turn', terminal: 'heuristic', caching: true } },
  { agent: ids, options: { ms: 10, unit: 'move' } },
  { agent: strong, options: { ms: 10 } },
];

describe('every reference agent', () => {
  for (const { label, game } of GAMES) {
    it(`returns a legal move on random positions of ${label}`, async () => {
      for (const [k, state] of randomPositions(game, 4, label.length).entries()) {
        for (const { agent, options } of AGENTS) {
          const out = await run(agent, game, state, options, { heuristic: k % 2 === 0 ? basic : advanced, seed: k });
          expect(game.isLegal(state, out.choice.move), `${agent.name} on ${game.render(state)}`).toBe(true);
          if (out.reported) expect(game.isLegal(state, out.reported.move)).toBe(true);
        }
      }
    });
  }

  it('returns -1 (no move) on a finished game', async () => {
    const game = mancala('kalah', 3, 1);
    const over = game.fromRows([0, 0, 0], [1, 0, 0], 2, 3, 0);
    expect(game.isOver(over)).toBe(true);
    for (const { agent, options } of AGENTS) expect((await run(agent, game, over, options)).choice.move).toBe(-1);
  });
});

describe('random', () => {
  const game = mancala('kalah', 6, 4);
  const positions = randomPositions(game, 20, 5);
  const choices = async (seed: number) => {
    const rand = createRandom(seed);
    const out: number[] = [];
    for (const state of positions) out.push((await runAgent(random, { game, state, heuristic: basic, random: rand })).choice.move);
    return out;
  };

  it('is deterministic for a seed and differs between seeds', async () => {
    expect(await choices(11)).toEqual(await choices(11));
    expect(await choices(11)).not.toEqual(await choices(12));
  });

  it('plays every legal move of a position', async () => {
    const state = game.initial();
    const rand = createRandom(3);
    const seen = new Set<number>();
    for (let k = 0; k < 200; k++) seen.add((await runAgent(random, { game, state, heuristic: basic, random: rand })).choice.move);
    expect([...seen].sort()).toEqual(game.legalMoves(state).sort());
  });
});

describe('greedy', () => {
  it('picks the first move with the best value one move ahead (unit move)', async () => {
    for (const profile of ['kalah', 'csc384']) {
      const game = mancala(profile, 6, 4);
      for (const state of randomPositions(game, 15, 8)) {
        const mover = game.toMove(state);
        let best = -Infinity;
        let bestMove = -1;
        for (const m of game.legalMoves(state)) {
          const child = game.play(state, m);
          const v = game.isOver(child) ? game.score(child, mover) : basic.evaluate(child, mover, game);
          if (v > best) [best, bestMove] = [v, m];
        }
        const out = await run(greedy, game, state, { unit: 'move', terminal: 'score', depth: 7 });
        expect(out.choice).toEqual({ move: bestMove, value: best });
      }
    }
  });

  it('looks through free-turn chains in unit turn', async () => {
    const game = mancala('csci561', 6, 4);
    /** The best value over every whole turn from s, by brute force: the turn ends when the side changes or the game ends. */
    const bestTurn = (s: MancalaState, mover: Player): number => {
      let best = -Infinity;
      for (const m of game.legalMoves(s)) {
        const child = game.play(s, m);
        const v = game.isOver(child) ? game.score(child, mover) : game.toMove(child) === mover ? bestTurn(child, mover) : basic.evaluate(child, mover, game);
        best = Math.max(best, v);
      }
      return best;
    };
    for (const state of randomPositions(game, 15, 9)) {
      const out = await run(greedy, game, state, { unit: 'turn', terminal: 'score' });
      expect(out.choice.value).toBe(bestTurn(state, game.toMove(state)));
    }
  });

  // Seed 000's official graded Greedy cases, read in place from ../shared (never copied into the
  // repo): the greedy agent plus the rest of its free-turn chain must give next_state_K.txt.
  const officialDir = CSCI561_OFFICIAL_DIR + '/';
  const greedyCases = [1, 4, 9, 12, 15, 20, 23, 26, 29, 30];
  if (!existsSync(officialDir)) it.skip(`seed 000's official cases not found at ${officialDir}: skipped`, () => {});
  else
    for (const k of greedyCases) {
      it(`matches seed 000's official greedy case ${k}`, async () => {
        const file = `testInput_${k}.txt`;
        const board = parseCsci561Input(readFileSync(officialDir + file, 'utf8'), file);
        const game = mancala('csci561', board.bottom.length, 0);
        let s = boardToState(game, board);
        const me = game.toMove(s);
        do {
          const out = await run(greedy, game, s, { unit: 'turn', terminal: 'score' });
          s = game.play(s, out.choice.move);
        } while (!game.isOver(s) && game.toMove(s) === me);
        const expected = readFileSync(officialDir + `next_state_${k}.txt`, 'utf8');
        expect(writeCsci561NextState(game, s).trim().split(/\r?\n/).map((l) => l.trim())).toEqual(expected.trim().split(/\r?\n/).map((l) => l.trim()));
      });
    }
});

describe('minimax and alphabeta agents', () => {
  const game = mancala('kalah', 6, 4);
  const optionSets: AgentOptions[] = [
    { depth: 3, unit: 'move', terminal: 'score' },
    { depth: 2, unit: 'turn', terminal: 'heuristic', caching: true },
  ];
  for (const [agent, search] of [
    [minimaxAgent, minimax],
    [alphabetaAgent, alphaBeta],
  ] as const) {
    it(`${agent.name} returns the reference search's move and value and counts its nodes`, async () => {
      for (const state of randomPositions(game, 6, 21)) {
        for (const options of optionSets) {
          const expected = search({ game: game.fork(), heuristic: advanced, depth: options.depth, unit: options.unit!, terminal: options.terminal!, caching: options.caching }, state);
          const out = await run(agent, game, state, options, { heuristic: advanced });
          expect(out.choice).toEqual({ move: expected.move, value: expected.value });
          expect(out.nodes).toBe(expected.nodes);
        }
      }
    });

    it(`${agent.name} passes the trace through`, async () => {
      const { events, sink } = collectTrace();
      await runAgent(agent, { game, state: game.initial(), heuristic: basic, options: { depth: 2 }, random: createRandom(1), trace: sink });
      expect(events[0]).toMatchObject({ type: 'enter', name: 'root', level: 0 });
      expect(events.filter((e) => e.type === 'leaf').length).toBeGreaterThan(0);
    });
  }

  it('search to the end of the game when no depth is given', async () => {
    const small = mancala('kalah', 3, 2);
    const state = small.initial();
    const exact = alphaBeta({ game: small, heuristic: basic, depth: null, unit: 'move', terminal: 'score' }, state);
    expect(exact.cutoff).toBe(false);
    expect((await run(alphabetaAgent, small, state, {})).choice.value).toBe(exact.value);
    expect((await run(minimaxAgent, small, state, { depth: -1 })).choice.value).toBe(exact.value);
  });
});

describe('iterative deepening', () => {
  const game = mancala('kalah', 6, 4);

  it('completes each depth in turn, each iteration equal to alpha-beta at that depth', () => {
    const state = randomPositions(game, 1, 31)[0]!;
    const seen: { depth: number; move: number; value: number }[] = [];
    const result = iterativeDeepening(
      { game, heuristic: basic, unit: 'move', terminal: 'score', maxDepth: 5, deadline: Infinity, onIteration: (it) => seen.push(it) },
      state,
    );
    expect(seen.map((it) => it.depth)).toEqual([1, 2, 3, 4, 5]);
    for (const it of seen) {
      const r = alphaBeta({ game, heuristic: basic, depth: it.depth, unit: 'move', terminal: 'score' }, state);
      expect({ move: it.move, value: it.value }).toEqual({ move: r.move, value: r.value });
    }
    expect(result).toMatchObject({ depth: 5, move: seen[4]!.move, value: seen[4]!.value, complete: false });
  });

  it('stops early once a depth reaches every game end', () => {
    const small = mancala('kalah', 3, 1);
    const state = small.initial();
    const exact = alphaBeta({ game: small, heuristic: basic, depth: null, unit: 'move', terminal: 'score' }, state);
    const result = iterativeDeepening({ game: small, heuristic: basic, unit: 'move', terminal: 'score', deadline: Infinity }, state);
    expect(result.complete).toBe(true);
    expect(result.value).toBe(exact.value);
    expect(result.depth).toBeLessThan(20);
    // One depth less was not enough, or it would have stopped there.
    expect(alphaBeta({ game: small, heuristic: basic, depth: result.depth - 1, unit: 'move', terminal: 'score' }, state).cutoff).toBe(true);
  });

  it('reports its best move and returns soon after a short deadline', async () => {
    const reports: number[] = [];
    const ctxGame = game.fork();
    const start = performance.now();
    const ctx: AgentContext = {
      game: ctxGame,
      state: game.initial(),
      player: 0,
      options: { unit: 'move', terminal: 'score' },
      heuristic: countingHeuristic(basic, ctxGame),
      deadline: start + 50,
      timeLeft: () => start + 50 - performance.now(),
      report: (move) => reports.push(move),
      random: createRandom(1),
    };
    const choice = (await ids.chooseMove(ctx)) as { move: number; depth: number };
    expect(performance.now() - start).toBeLessThan(2000);
    expect(reports.length).toBe(choice.depth); // one report per completed depth
    expect(reports.at(-1)).toBe(choice.move);
    expect(choice.depth).toBeGreaterThanOrEqual(1);
  });

  it('always completes depth 1, even with no time at all', async () => {
    const state = game.initial();
    const out = await run(ids, game, state, { ms: 0, unit: 'move' }, { timeLimitMs: 0 });
    const depth1 = alphaBeta({ game, heuristic: basic, depth: 1, unit: 'move', terminal: 'score' }, state);
    expect(out.choice).toEqual({ move: depth1.move, value: depth1.value, depth: 1 });
    expect(out.reported).toEqual({ move: depth1.move, value: depth1.value });
  });

  it('honours options.depth as the deepest iteration', async () => {
    const out = await run(ids, game, game.initial(), { depth: 4, unit: 'move' });
    expect(out.choice.depth).toBe(4);
  });
});

describe('strong', () => {
  it('finds the exact value of small games (checked against alpha-beta to the end)', async () => {
    for (const profile of ['kalah', 'csc384', 'csci561']) {
      const game = mancala(profile, 3, 3);
      for (const state of randomPositions(game, 4, 41, 4)) {
        const exact = alphaBeta({ game, heuristic: basic, depth: null, unit: 'move', terminal: 'score' }, state);
        const out = await run(strong, game, state, { ms: 60_000 });
        expect(out.choice.value).toBe(exact.value);
        const after = game.play(state, out.choice.move); // the move it chose keeps that value
        const rest = game.isOver(after) ? game.score(after, game.toMove(state)) : alphaBeta({ game, heuristic: basic, depth: null, unit: 'move', terminal: 'score' }, after).value;
        expect((game.isOver(after) || game.toMove(after) === game.toMove(state) ? rest : -rest) + 0).toBe(exact.value + 0); // + 0: -0 and 0 alike
      }
    }
  });

  it('reports as it deepens and keeps to a short budget', async () => {
    const game = mancala('kalah', 6, 4);
    const out = await run(strong, game, game.initial(), { ms: 30 });
    expect(out.ms).toBeLessThan(2000);
    expect(out.reported?.move).toBe(out.choice.move);
    expect(out.choice.depth).toBeGreaterThanOrEqual(2);
  });

  // Fixed depth 10 (a generous ms never binds) keeps the match deterministic (it wins 9 of 10 as
  // written); timed matches are measured outside the test suite.
  it('beats alpha-beta depth 2 with the basic heuristic in most of 10 seeded games', async () => {
    const game = mancala('kalah', 6, 4);
    let wins = 0;
    for (let g = 0; g < 10; g++) {
      const start = opening(game, 2 + (g % 3), 100 + (g >> 1));
      const strongFirst = g % 2 === 0;
      const sides: [Agent, Agent] = strongFirst ? [strong, alphabetaAgent] : [alphabetaAgent, strong];
      const strongOptions = { depth: 10, ms: 60_000 };
      const abOptions = { depth: 2, unit: 'move' as const, terminal: 'score' as const };
      const score = await playOut(game, start, sides, strongFirst ? [strongOptions, abOptions] : [abOptions, strongOptions], [basic, basic]);
      if ((strongFirst ? score : -score) > 0) wins++;
    }
    expect(wins).toBeGreaterThanOrEqual(8);
  });
});

describe('the advanced heuristic', () => {
  // Both sides reference alpha-beta at depth 3 (unit move, Kalah(6,4)); 15 openings of 2-4 random
  // moves, each played twice with colours swapped. Larger measurements are in docs/agents.md.
  it('beats basic in a small seeded match', async () => {
    const game = mancala('kalah', 6, 4);
    let advancedWins = 0;
    let basicWins = 0;
    for (let g = 0; g < 30; g++) {
      const start = opening(game, 2 + ((g >> 1) % 3), 200 + (g >> 1));
      const advancedFirst = g % 2 === 0;
      const options: AgentOptions = { depth: 3, unit: 'move', terminal: 'score' };
      const score = await playOut(game, start, [alphabetaAgent, alphabetaAgent], [options, options], advancedFirst ? [advanced, basic] : [basic, advanced]);
      const forAdvanced = advancedFirst ? score : -score;
      if (forAdvanced > 0) advancedWins++;
      else if (forAdvanced < 0) basicWins++;
    }
    expect(advancedWins).toBeGreaterThanOrEqual(16);
    expect(advancedWins).toBeGreaterThan(basicWins);
  });

  it('is antisymmetric between the players and exact on finished games', () => {
    const game = mancala('kalah', 6, 4);
    for (const s of randomPositions(game, 30, 51)) expect(advanced.evaluate(s, 0, game) + advanced.evaluate(s, 1, game)).toBe(0);
    const over = game.fromRows([0, 0, 0, 0, 0, 0], [1, 2, 0, 0, 0, 3], 20, 22, 0);
    expect(advanced.evaluate(over, 0, game)).toBe(game.score(over, 0));
  });

  it('values a free turn and a capture the side to move has', () => {
    const game = mancala('kalah', 3, 2);
    // Same stores and stones a side; bottom's last stone either ends in its store (pit 2 holds 1)
    // or not (pit 1 holds 1 and lands in pit 2, facing an empty pit: no capture in kalah).
    const freeTurn = game.fromRows([0, 0, 1], [0, 2, 2], 0, 0, 0);
    const none = game.fromRows([0, 1, 0], [0, 2, 2], 0, 0, 0);
    expect(advanced.evaluate(freeTurn, 0, game)).toBeGreaterThan(advanced.evaluate(none, 0, game));
    // Bottom's pit 0 (1 stone) lands in its empty pit 1, facing top's pit 1: 3 stones there, or none.
    const capture = game.fromRows([1, 0, 2], [2, 3, 0], 0, 0, 0);
    const noCapture = game.fromRows([1, 0, 2], [2, 0, 3], 0, 0, 0);
    expect(advanced.evaluate(capture, 0, game)).toBeGreaterThan(advanced.evaluate(noCapture, 0, game));
  });

  it('falls back to the score on Tic-Tac-Toe', () => {
    const game = new TicTacToeGame();
    let s = game.initial();
    for (const m of [0, 3, 1, 4, 2]) s = game.play(s, m);
    expect(advanced.evaluate(s, 0, game)).toBe(1);
    expect(advanced.evaluate(game.initial(), 0, game)).toBe(0);
  });
});
