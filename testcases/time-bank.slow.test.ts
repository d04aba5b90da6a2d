/**
 * The time bank (framework/matches/play-game.ts; Kaggle's remainingOverageTime): a real sandboxed
 * Python agent over stdio (testcases/fixtures/time-bank/python-overtime) burns CPU for 1.5 times
 * the clock on its first move, then plays greedy. The same game, same seed: under the plain clock
 * that move is a timeout and the agent forfeits; with a bank of 1000 ms the excess is drawn from
 * the bank, the agent plays on and wins. A bank smaller than the excess does not save it. Times
 * are the program's CPU time measured from outside, as for every clock; the margins are wide
 * (the burn is 600 ms against a 400 + 40 ms limit without a bank and 1440 ms with one).
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { arenaJobSetup, DEFAULT_SETTINGS } from '../framework/arena/settings.ts';
import { playMatch } from '../framework/matches/match.ts';
import { tournamentJob } from '../framework/tournaments/executor.ts';
import type { MatchOptions } from '../framework/matches/match-options.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const OVERTIME = join(ROOT, 'testcases/fixtures/time-bank/python-overtime');
const CLOCK_MS = 400;
const BANK_MS = 1000;
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

const game = (o: Partial<MatchOptions>) => playMatch({ A: OVERTIME, B: 'random', games: 1, seed: 3, timePerMoveMs: CLOCK_MS, ...o });

describe('the time bank', () => {
  it('forfeits the overtime move under the plain clock', async () => {
    const g = (await game({})).games[0]!;
    expect(g.forfeit).toMatchObject({ side: 'A', reason: 'timeout' });
    expect(g.winner).toBe('B');
    expect(g.bankUsed).toBeUndefined();
  }, 60_000);

  it('pays the same move from the bank, tells the agent its bank, and the agent wins', async () => {
    const replays = mkdtempSync(join(tmpdir(), 'time-bank-'));
    dirs.push(replays);
    const r = await game({ timeBankMs: BANK_MS, replays });
    const g = r.games[0]!;
    expect(g.forfeit).toBeNull();
    expect(g.winner).toBe('A');
    expect(r.match.timeBankMs).toBe(BANK_MS);
    expect(g.timeBankMs).toBe(BANK_MS);
    // about half the clock came from the bank (the burn is 1.5 clocks); random, in-process and instant, drew none
    expect(g.bankUsed![0]).toBeGreaterThan(0.3 * CLOCK_MS);
    expect(g.bankUsed![0]).toBeLessThan(BANK_MS);
    expect(g.bankUsed![1]).toBe(0);
    const lines = readFileSync(join(replays, readdirSync(replays)[0]!), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { side?: string; by?: string; value?: number; bankLeftMs?: number });
    const own = lines.filter((l) => l.side === 'A' && l.by === undefined);
    // the first request said the whole bank; the next said what the first move left of it
    expect(own[0]!.value).toBe(BANK_MS);
    expect(own[0]!.bankLeftMs).toBe(BANK_MS - g.bankUsed![0]);
    expect(Math.abs(own[1]!.value! - (BANK_MS - g.bankUsed![0]))).toBeLessThanOrEqual(1);
  }, 60_000);

  it('a bank smaller than the overtime does not save the move', async () => {
    const g = (await game({ timeBankMs: 100 })).games[0]!;
    expect(g.forfeit).toMatchObject({ side: 'A', reason: 'timeout' });
    expect(g.forfeit!.message).toMatch(/time bank had 100 ms left/);
    expect(g.bankUsed![0]).toBe(100);
  }, 60_000);

  it("in the arena: the game record keeps each move's bank left, which a student's log shows", async () => {
    const settings = { ...DEFAULT_SETTINGS, course: 'kalah', rules: 'kalah', pits: 6, seeds: 4, timePerMoveMs: CLOCK_MS, timeBankMs: BANK_MS };
    const job = tournamentJob(arenaJobSetup(settings, {}));
    try {
      const r = await job.run({ index: 1, A: OVERTIME, B: 'random', first: 'A', seed: 3, round: 0 });
      expect(r.forfeit).toBeNull();
      expect(r.bankUsed![0]).toBeGreaterThan(0.3 * CLOCK_MS);
      expect(r.moveBankMs).toHaveLength(r.moves.length);
      const own = [...r.moveSides!].flatMap((side, k) => (side === 'A' && k >= r.openingPlies ? [r.moveBankMs![k]!] : []));
      expect(own[0]).toBe(BANK_MS - r.bankUsed![0]);
      expect(own.at(-1)).toBe(BANK_MS - r.bankUsed![0]);
    } finally {
      await job.close();
    }
  }, 60_000);
});
