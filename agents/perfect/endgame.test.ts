import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import type { Player } from '../../framework/contracts/game.ts';
import { mancalaGame } from '../../framework/games/mancala/profile-game.ts';
import { PROFILE_NAMES, PROFILES } from '../../framework/games/mancala/profiles.ts';
import { buildEndgameDbInParallel } from './endgame-build.ts';
import { buildEndgameDb, endgameSizeProblem } from './endgame-db.ts';
import { loadEndgameDb, saveEndgameDb } from './endgame-file.ts';
import { binomial, EndgameIndex, layerSize, nextInLayer } from './endgame-index.ts';
import { plainSolve } from './plain-solve.ts';

const dir = mkdtempSync(join(tmpdir(), 'endgame-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Engine cells of 2N pits (the mover's row first) with `mover` to move. */
function cellsOf(pits: Int32Array, mover: Player): Int32Array {
  const n = pits.length / 2;
  const c = new Int32Array(2 * n + 4);
  const a = mover === 0 ? 0 : n + 1;
  const b = mover === 0 ? n + 1 : 0;
  for (let k = 0; k < n; k++) {
    c[a + k] = pits[k]!;
    c[b + k] = pits[n + k]!;
  }
  return c;
}

describe('EndgameIndex', () => {
  it('numbers each layer 0 .. C(k+2N-1, 2N-1) - 1, each position once, the same for its mirror; unrank and nextInLayer agree with rank', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 3 }), fc.integer({ min: 0, max: 7 }), fc.constantFrom<Player>(0, 1), (n, maxStones, mover) => {
        const index = new EndgameIndex(n, maxStones);
        expect(index.count).toBe(binomial(maxStones + 2 * n, 2 * n));
        expect(index.layerSizes.reduce((a, b) => a + b, 0)).toBe(index.count);
        for (let k = 0; k <= maxStones; k++) {
          const size = layerSize(n, k);
          const pits = new Int32Array(2 * n);
          index.unrank(k, 0, pits);
          const seen: string[] = [];
          const before = new Int32Array(2 * n);
          for (let r = 0; r < size; r++) {
            if (r > 0) {
              before.set(pits);
              expect(nextInLayer(pits)).toBe(true);
              // Lexicographic order: the first pit that differs holds more than before.
              const j = pits.findIndex((x, i) => x !== before[i]);
              expect(pits[j]).toBeGreaterThan(before[j]!);
            }
            expect(pits.reduce((a, b) => a + b, 0)).toBe(k);
            expect(index.rank(cellsOf(pits, mover), mover, k)).toBe(r);
            const back = new Int32Array(2 * n);
            index.unrank(k, r, back);
            expect([...back]).toEqual([...pits]);
            seen.push(pits.join(','));
          }
          expect(nextInLayer(pits)).toBe(false);
          expect(new Set(seen).size).toBe(size);
        }
      }),
      { numRuns: 40, seed: 24 },
    );
  });
});

describe('endgame databases', () => {
  for (const profile of PROFILE_NAMES) {
    it(`hold the plain solver's future margins under ${profile}`, () => {
      const game = mancalaGame(PROFILES[profile]!, 3, 1);
      const db = buildEndgameDb(game, 6);
      fc.assert(
        fc.property(fc.array(fc.integer({ min: 0, max: 5 }), { maxLength: 6 }), fc.constantFrom<Player>(0, 1), (stones, mover) => {
          const rows = [0, 0, 0, 0, 0, 0];
          for (const k of stones) rows[k]!++;
          const s = game.fromRows(rows.slice(0, 3), rows.slice(3), 0, 0, mover);
          expect(db.probe(s.cells, mover, stones.length)).toBe(plainSolve(game, s).value);
        }),
        { numRuns: 80, seed: 24 },
      );
    });
  }

  it('built on two threads are the same, byte for byte, as built on one', async () => {
    for (const profile of ['kalah-empty-capture', 'csc384'] as const) {
      const game = mancalaGame(PROFILES[profile]!, 4, 1);
      const one = buildEndgameDb(game, 11);
      let last = 0;
      // Every layer of more than 100 positions shared out, in slices, on the worker pool.
      const two = await buildEndgameDbInParallel(game, 11, 2, (done) => (last = done), 100);
      expect(last).toBe(one.positions);
      expect(two.layers.map((l) => Buffer.from(l.buffer, l.byteOffset, l.length).toString('base64'))).toEqual(
        one.layers.map((l) => Buffer.from(l.buffer, l.byteOffset, l.length).toString('base64')),
      );
    }
  });

  it('are refused when a layer would not fit an array or the whole not fit in memory', () => {
    expect(endgameSizeProblem(6, 32)).toMatch(/its 32-stone layer alone holds 5\.\d+e\+9 positions, more than an array can \(6 pits\)/);
    expect(endgameSizeProblem(6, 28, 4 * 2 ** 30)).toMatch(/5\.\d+e\+9 positions \(6 pits, 28 stones\) take 5\.2 GB, more than 75% of this machine's memory/);
    expect(endgameSizeProblem(6, 20, 4 * 2 ** 30)).toBeUndefined();
  });

  it('are saved and loaded intact, and a damaged file is one clear error', () => {
    const game = mancalaGame(PROFILES['kalah-empty-capture']!, 3, 1);
    const db = buildEndgameDb(game, 5);
    const file = join(dir, 'ec3.egdb');
    saveEndgameDb(db, file);
    const back = loadEndgameDb(file);
    expect(back.layers.map((l) => [...l])).toEqual(db.layers.map((l) => [...l]));
    expect(back.fits(game.rules)).toBe(true);
    expect(back.fits(mancalaGame(PROFILES.kalah!, 3, 1).rules)).toBe(false);

    const bytes = readFileSync(file);
    const text = bytes.toString('latin1');
    const damage = (name: string, change: (t: string) => string) => {
      const f = join(dir, name);
      writeFileSync(f, Buffer.from(change(text), 'latin1'));
      return () => loadEndgameDb(f);
    };
    expect(damage('magic', (t) => t.replace('mancala-endgame 2', 'mancala-endgame 9'))).toThrow(/magic: not a usable endgame database .*line 1: expected "mancala-endgame 2" \(this is a version 9 file, which this version does not read: build it again\)/);
    expect(damage('other', (t) => 'hello\n' + t)).toThrow(/line 1: expected "mancala-endgame 2"$/);
    expect(damage('pits', (t) => t.replace('"pits":3', '"pits":4'))).toThrow(/line 2: field "positions": expected 1287 for 4 pits and 5 stones/);
    expect(damage('rules', (t) => t.replace('"capture":"last-and-opposite"', '"capture":"sideways"'))).toThrow(/line 2: field "capture": expected one of/);
    expect(damage('short', (t) => t.slice(0, -10))).toThrow(/expected 462 bytes of values after the header, found 452/);
    expect(damage('flip', (t) => t.slice(0, -1) + String.fromCharCode(t.charCodeAt(t.length - 1) ^ 2))).toThrow(/do not match the header's sha256/);
    expect(damage('json', (t) => t.replace('{"pits"', '{pits'))).toThrow(/line 2: the header is not JSON/);
  });
});
