import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { UserError } from '../errors.ts';
import { MancalaGame, type MancalaState } from '../games/mancala/engine.ts';
import { findProfile } from '../games/mancala/profiles.ts';
import { deriveSeed } from '../random.ts';
import { playMatch } from './match.ts';
import { matchJson, type MatchResult } from './match-results.ts';
import { playGame, timeGraceMs } from './play-game.ts';
import { readReplay } from './replay.ts';
import type { GameRecord, MatchPlayer, MoveAttempt } from './types.ts';

const ZOO = 'testcases/fixtures/hostile-agents';
const kalah = findProfile('kalah')!;
const game = new MancalaGame(kalah.rules, 'kalah(6,4)');
const dir = mkdtempSync(join(tmpdir(), 'match-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The invariants every match keeps, whoever plays. */
function checkTally(r: MatchResult): void {
  const { A, B } = r.summary;
  expect(A.wins).toBe(B.losses);
  expect(A.losses).toBe(B.wins);
  expect(A.draws).toBe(B.draws);
  expect(A.wins + A.draws + A.losses).toBe(r.games.length);
  r.games.forEach((g, k) => {
    expect(g.index).toBe(k + 1);
    // Colours alternate: A moves first in games 1, 3, 5, …
    expect(g.first).toBe(k % 2 === 0 ? 'A' : 'B');
  });
  expect(r.stats.A.storeMargin + r.stats.B.storeMargin).toBe(0);
}

describe('playMatch between reference agents', () => {
  it('alpha-beta at depth 4 beats random in at least 19 of 20 games', async () => {
    const r = await playMatch({ A: 'alphabeta:depth=4', B: 'random', games: 20 });
    checkTally(r);
    expect(r.summary.A.wins).toBeGreaterThanOrEqual(19);
    for (const g of r.games) {
      expect(g.forfeit).toBeNull();
      expect(g.openingPlies).toBe(2);
      expect(g.score[0] + g.score[1]).toBe(48); // every stone ends in a store
    }
    expect(r.stats.A.decisions).toBeGreaterThan(0);
  });

  it('two identical deterministic agents play at least 10 different games in 20 seeded games', async () => {
    const r = await playMatch({ A: 'alphabeta:depth=4', B: 'alphabeta:depth=4', games: 20, seed: 5 });
    checkTally(r);
    const distinct = new Set(r.games.map((g) => g.moves.join(',')));
    expect(distinct.size).toBeGreaterThanOrEqual(10);
    // Each opening is played from both seats: with identical agents the pair's games are the same game.
    for (let g = 0; g < 20; g += 2) expect(r.games[g + 1]!.moves).toEqual(r.games[g]!.moves);
  });

  it('gives the same JSON for the same seed, another for another seed', async () => {
    const run = (seed: number) => playMatch({ A: 'greedy', B: 'random', games: 6, seed }).then(matchJson);
    const [a, b, c] = await Promise.all([run(3), run(3), run(4)]);
    expect(b).toBe(a);
    expect(c).not.toBe(a);
    expect(a).not.toMatch(/"time"|"ms"/);
    const parsed = JSON.parse(a);
    expect(Object.keys(parsed)).toEqual(['match', 'games', 'summary']);
    expect(Object.keys(parsed.games[0])).toEqual(['index', 'first', 'winner', 'score', 'moves', 'openingPlies', 'forfeit']);
  });

  it('plays the same games with two jobs (worker threads) as with one, and writes readable replays', async () => {
    const options = { A: 'alphabeta:depth=3', B: 'greedy', games: 6, seed: 11 };
    const replays = join(dir, 'jobs2');
    const one = await playMatch(options);
    const done: number[] = [];
    const two = await playMatch({ ...options, jobs: 2, replays, onGame: (_r, n) => done.push(n) });
    expect(matchJson(two)).toBe(matchJson(one));
    expect(done).toEqual([1, 2, 3, 4, 5, 6]);
    expect(readdirSync(replays).sort()).toEqual(['game-001.jsonl', 'game-002.jsonl', 'game-003.jsonl', 'game-004.jsonl', 'game-005.jsonl', 'game-006.jsonl']);
    for (const g of two.games) {
      const r = readReplay(join(replays, `game-00${g.index}.jsonl`)); // checks every board against the rules
      expect(r.moves.map((l) => l.move)).toEqual(g.moves);
      expect(r.end).toMatchObject({ winner: g.winner, score: g.score });
    }
  });

  it('starts from the positions of an openings file, each from both seats', async () => {
    const file = join(dir, 'positions.jsonl');
    writeFileSync(
      file,
      '{"top":[1,0,2,0,3,0],"bottom":[0,5,0,1,0,2],"stores":{"top":20,"bottom":14},"toMove":"top"}\n' +
        '{"top":[3,3,3,3,0,0],"bottom":[3,3,3,3,0,0],"stores":{"top":12,"bottom":12}}\n',
    );
    const replays = join(dir, 'file');
    const r = await playMatch({ A: 'greedy', B: 'alphabeta:depth=2', games: 4, openings: { kind: 'file', file }, replays });
    checkTally(r);
    expect(r.games.map((g) => g.startPosition)).toEqual([1, 1, 2, 2]);
    expect(r.games.map((g) => g.openingPlies)).toEqual([0, 0, 0, 0]);
    for (const g of r.games) expect(g.score[0] + g.score[1]).toBe(48);
    for (const g of r.games) readReplay(join(replays, `game-00${g.index}.jsonl`));
  });

  it('refuses bad input before playing: an unknown agent, a bad option, a missing path', async () => {
    await expect(playMatch({ A: 'alphabta', B: 'random' })).rejects.toThrow(UserError);
    await expect(playMatch({ A: 'random', B: 'alphabeta:depth=x' })).rejects.toThrow(/option "depth" expects/);
    await expect(playMatch({ A: join(dir, 'no-such-agent.ts'), B: 'random' })).rejects.toThrow(/no-such-agent\.ts: no such file or folder/);
    await expect(playMatch({ A: 'random', B: 'random', rules: 'oware' })).rejects.toThrow(/rules "oware": expected one of kalah/);
  });
});

describe('forfeits of sandboxed submissions', () => {
  const forfeitsEveryGame = (r: MatchResult, reason: string, message: RegExp) => {
    checkTally(r);
    expect(r.summary.A.losses).toBe(r.games.length);
    for (const g of r.games) {
      expect(g.forfeit).toMatchObject({ side: 'A', reason });
      expect(g.forfeit!.message).toMatch(message);
    }
    expect(r.stats.A.forfeits[reason as 'crash']).toBe(r.games.length);
  };

  it('an agent that crashes, plays illegally or hangs forfeits every game, with the reason', async () => {
    const quick = { B: 'greedy', timePerMoveMs: 300 };
    const [throws, illegal, loops] = await Promise.all([
      playMatch({ ...quick, A: `${ZOO}/throws`, games: 4 }),
      playMatch({ ...quick, A: `${ZOO}/illegal-move`, games: 4 }),
      playMatch({ ...quick, A: `${ZOO}/infinite-loop`, games: 2 }),
    ]);
    forfeitsEveryGame(throws, 'crash', /^at move \d+: .*the zoo agent gave up/);
    forfeitsEveryGame(illegal, 'illegal-move', /^at move \d+: played 99, not a legal move; legal: /);
    forfeitsEveryGame(loops, 'timeout', /^at move \d+: no answer within \d+ ms/);
  });

  it('under random-move, a random legal move is played for the failing side and the game goes on', async () => {
    const r = await playMatch({ A: `${ZOO}/illegal-move`, B: 'random', games: 2, forfeit: 'random-move' });
    checkTally(r);
    for (const g of r.games) {
      expect(g.forfeit).toMatchObject({ side: 'A', reason: 'illegal-move' });
      expect(g.score[0] + g.score[1]).toBe(48); // played to the end
      expect(g.randomMoves![0]).toBeGreaterThan(5);
      expect(g.randomMoves![1]).toBe(0);
      expect(g.winner).toBe(g.score[0] > g.score[1] ? 'A' : g.score[1] > g.score[0] ? 'B' : 'draw');
    }
  });
});

/** A player scripted for the test: plays the first legal move and says it took `ms`. */
function scripted(label: string, ms: (ply: number) => number, move?: (s: MancalaState) => number): MatchPlayer {
  let ply = 0;
  return {
    label,
    async chooseMove(g, s): Promise<MoveAttempt> {
      return { status: 'ok', move: move?.(s) ?? g.legalMoves(s)[0]!, ms: ms(ply++) };
    },
    close: async () => {},
  };
}

describe('playGame', () => {
  const base = { game, start: game.initial(), first: 'A' as const, index: 1, timePerMoveMs: 100, seed: 1 };

  it('counts an answer later than the time per move and its grace as a timeout, and one within the grace as in time', async () => {
    expect(timeGraceMs(100)).toBe(20);
    expect(timeGraceMs(1000)).toBe(100);
    expect(timeGraceMs(60_000)).toBe(250);
    const slow = scripted('slow', (ply) => (ply === 3 ? 121 : 119));
    const r: GameRecord = await playGame({ ...base, players: { A: slow, B: scripted('b', () => 1) }, forfeit: 'loss' });
    expect(r.forfeit).toEqual({ side: 'A', reason: 'timeout', message: expect.stringMatching(/^at move \d+: took 121 ms, the limit is 100 ms a move$/) });
    expect(r.winner).toBe('B');
    expect(r.decisions![0]).toBe(4);
    expect(r.time[0]).toBe(119 * 3 + 121);
    expect(r.maxMoveMs![0]).toBe(121);
  });

  it('plays the given opening, then the agents; a seed replays the game exactly', async () => {
    const players = () => ({ A: scripted('a', () => 0), B: scripted('b', () => 0, (s) => game.legalMoves(s).at(-1)!) });
    const r = await playGame({ ...base, players: players(), forfeit: 'loss', opening: [2, 0] });
    expect(r.moves.slice(0, 2)).toEqual([2, 0]);
    expect(r.openingPlies).toBe(2);
    const seeded = await playGame({ ...base, players: players(), forfeit: 'loss', openingPlies: 3, seed: 42 });
    expect(seeded.openingPlies).toBe(3);
    expect(await playGame({ ...base, players: players(), forfeit: 'loss', openingPlies: 3, seed: 42 })).toMatchObject({ moves: seeded.moves });
  });

  it('derives well-spread seeds', () => {
    const seeds = new Set(Array.from({ length: 1000 }, (_, k) => deriveSeed(1, k)));
    expect(seeds.size).toBe(1000);
    expect(deriveSeed(1, 2)).not.toBe(deriveSeed(2, 1));
    expect([...seeds].every((s) => Number.isInteger(s) && s >= 0 && s < 2 ** 31)).toBe(true);
  });
});
