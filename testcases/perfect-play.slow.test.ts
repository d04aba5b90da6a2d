import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { solve } from '../agents/perfect/index.ts';
import { mancalaGame } from '../framework/games/mancala/profile-game.ts';
import { PROFILES } from '../framework/games/mancala/profiles.ts';
import { KALAH_C } from './shared-data.ts';

// Irving, Donkers & Uiterwijk (2000), Table 9: the entries the solver proves in seconds to a
// minute here (the unit tests have the quickest ones; docs/perfect-play.md the whole table).
describe('the published values of Kalah (empty-capture rules)', () => {
  it.each([
    [4, 3, 8],
    [5, 3, 8],
    [6, 2, 10],
    [6, 3, 2],
  ])('Kalah(%i,%i) is %i', (pits, seeds, published) => {
    const game = mancalaGame(PROFILES['kalah-empty-capture']!, pits, seeds);
    const r = solve(game, game.initial(), { moveValues: 'best' });
    expect(r.proven).toBe(true);
    expect(r.value).toBe(published);
  });
});

// A second, independent method for the rules nobody published: the C engine of ../shared/bench
// (written apart from ours) searching plain alpha-beta to the end of the game, no table, no
// database, no stores left out. Where both finish, the values must agree, under both rule sets.
const C_BUILD = (() => {
  if (!existsSync(KALAH_C)) return `${KALAH_C} is missing`;
  const dir = mkdtempSync(join(tmpdir(), 'kalah-c-'));
  const binary = join(dir, 'kalah_c');
  const build = spawnSync('gcc', ['-O2', '-o', binary, KALAH_C], { encoding: 'utf8' });
  if (build.error !== undefined || build.status !== 0) return `gcc could not build ${KALAH_C}: ${(build.stderr ?? build.error?.message ?? '').trim()}`;
  return { binary, dir };
})();
afterAll(() => {
  if (typeof C_BUILD !== 'string') rmSync(C_BUILD.dir, { recursive: true, force: true });
});

describe('the solver against exhaustive alpha-beta in the C engine', () => {
  const boards = [
    [3, 4],
    [4, 2],
    [4, 3],
    [2, 6],
  ] as const;
  const rules = [
    ['kalah', ['--capture-needs-opposite']],
    ['kalah-empty-capture', []],
  ] as const;
  for (const [profile, flags] of rules) {
    it.each(boards)(`${profile}(%i,%i): the same value`, (pits, seeds) => {
      if (typeof C_BUILD === 'string') throw new Error(C_BUILD);
      // 400 plies is beyond any game on these boards: the search ends only where games do.
      const c = spawnSync(C_BUILD.binary, ['ab', '400', '--mode', 'ply', '--pits', String(pits), '--seeds', String(seeds), ...flags], { encoding: 'utf8' });
      expect(c.status).toBe(0);
      const value = /\bvalue=(-?\d+)/.exec(c.stdout);
      expect(value, c.stdout).not.toBeNull();
      const game = mancalaGame(PROFILES[profile]!, pits, seeds);
      const r = solve(game, game.initial(), { moveValues: 'best' });
      expect([r.proven, r.value]).toEqual([true, Number(value![1])]);
    });
  }
});
