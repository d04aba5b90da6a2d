import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { benchEndgame, benchEndgameStones, solveFresh, solveLine } from './solve-bench.ts';

const dir = mkdtempSync(join(tmpdir(), 'solve-bench-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the bench solves’ endgame databases', () => {
  it('are the largest within the budget, and none for a small start', () => {
    expect(benchEndgameStones({ rules: 'kalah', pits: 6, seeds: 4 })).toBe(20);
    expect(benchEndgameStones({ rules: 'kalah', pits: 5, seeds: 5 })).toBe(25);
    expect(benchEndgameStones({ rules: 'kalah', pits: 6, seeds: 3 })).toBe(0);
    expect(benchEndgameStones({ rules: 'kalah', pits: 4, seeds: 6 })).toBe(0);
    // C(14, 10) = 1001 positions hold at most 4 stones on 5 pits a side; C(15, 10) = 3003 would not fit.
    expect(benchEndgameStones({ rules: 'kalah', pits: 5, seeds: 5 }, 1500)).toBe(4);
  });

  it('are built once, reused from the cache, and give the solves their values', () => {
    const big = { rules: 'kalah-empty-capture', pits: 5, seeds: 5 };
    const built = benchEndgame(big, dir, 1500)!;
    expect(built.error).toBeUndefined();
    expect(built.buildMs).toBeGreaterThan(0);
    expect(statSync(built.file).size).toBe(built.bytes);
    const again = benchEndgame(big, dir, 1500)!;
    expect(again).toEqual({ file: built.file, stones: 4, bytes: built.bytes });
    // A case's own stones (mancala bench --endgame-stones) outrank the budget; the name carries the file format's version.
    const own = benchEndgame({ ...big, endgameStones: 3 }, dir, 1500)!;
    expect([own.stones, own.file.endsWith('kalah-empty-capture-5-3-v2.db'), own.error]).toEqual([3, true, undefined]);
    // The same rules and pits from a smaller start: the database answers its endgames, the value is Irving et al.'s.
    const small = { rules: 'kalah-empty-capture', pits: 5, seeds: 2 };
    const withDb = solveFresh(small, 60, ['--endgame', built.file]);
    const without = solveFresh(small, 60, ['--endgame-stones', '0']);
    expect([withDb.proven, withDb.value, withDb.error]).toEqual([true, 0, undefined]);
    expect([without.value, without.bestMoves]).toEqual([withDb.value, withDb.bestMoves]);
    expect(solveLine({ ...withDb, endgame: again })).toMatch(/4-stone endgame database \(0 MB, built by an earlier run\)$/);
    expect(withDb.endgameLoadMs).toBeGreaterThanOrEqual(0);
    expect(solveLine({ ...withDb, ms: 40_000, cpuMs: 39_000, endgameLoadMs: 35_500 })).toMatch(/nodes in 40\.0 s \(39\.0 s of CPU, of which 35\.5 s reading the database\)/);
  });

  it('that cannot be built say why, and the solve goes on without one', () => {
    const blocker = join(dir, 'a-file');
    writeFileSync(blocker, '');
    const d = benchEndgame({ rules: 'kalah', pits: 5, seeds: 5 }, join(blocker, 'cache'), 1500)!;
    expect(d.error).toMatch(/^cannot make .*a-file\/cache: ENOTDIR$/);
  });
});
