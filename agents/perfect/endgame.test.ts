import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import type { Player } from '../../framework/contracts/game.ts';
import { mancalaGame } from '../../framework/games/mancala/profile-game.ts';
import { PROFILE_NAMES, PROFILES } from '../../framework/games/mancala/profiles.ts';
import { buildEndgameDb } from './endgame-db.ts';
import { loadEndgameDb, saveEndgameDb } from './endgame-file.ts';
import { binomial, EndgameIndex } from './endgame-index.ts';
import { plainSolve } from './plain-solve.ts';

const dir = mkdtempSync(join(tmpdir(), 'endgame-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('EndgameIndex', () => {
  it('numbers every way to hold at most S stones 0 .. C(S+2N, 2N) - 1, each once', () => {
    const index = new EndgameIndex(2, 5);
    expect(index.count).toBe(binomial(9, 4));
    const seen = new Set<number>();
    const c = new Int32Array(8);
    for (let a = 0; a <= 5; a++)
      for (let b = 0; a + b <= 5; b++)
        for (let x = 0; a + b + x <= 5; x++)
          for (let y = 0; a + b + x + y <= 5; y++) {
            c.set([a, b, 0, x, y, 0]);
            seen.add(index.rank(c, 0));
            // The same pits seen by the other player: its row first.
            c.set([x, y, 0, a, b, 0]);
            expect(index.rank(c, 1)).toBe(index.rank(Int32Array.from([a, b, 0, x, y, 0]), 0));
          }
    expect(seen.size).toBe(index.count);
    expect(Math.min(...seen)).toBe(0);
    expect(Math.max(...seen)).toBe(index.count - 1);
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
          expect(db.probe(s.cells, mover)).toBe(plainSolve(game, s).value);
        }),
        { numRuns: 80, seed: 24 },
      );
    });
  }

  it('are saved and loaded intact, and a damaged file is one clear error', () => {
    const game = mancalaGame(PROFILES['kalah-empty-capture']!, 3, 1);
    const db = buildEndgameDb(game, 5);
    const file = join(dir, 'ec3.egdb');
    saveEndgameDb(db, file);
    const back = loadEndgameDb(file);
    expect([...back.values]).toEqual([...db.values]);
    expect(back.fits(game.rules)).toBe(true);
    expect(back.fits(mancalaGame(PROFILES.kalah!, 3, 1).rules)).toBe(false);

    const bytes = readFileSync(file);
    const text = bytes.toString('latin1');
    const damage = (name: string, change: (t: string) => string) => {
      const f = join(dir, name);
      writeFileSync(f, Buffer.from(change(text), 'latin1'));
      return () => loadEndgameDb(f);
    };
    expect(damage('magic', (t) => t.replace('mancala-endgame 1', 'mancala-endgame 9'))).toThrow(/magic: not a usable endgame database .*line 1: expected "mancala-endgame 1"/);
    expect(damage('pits', (t) => t.replace('"pits":3', '"pits":4'))).toThrow(/line 2: field "positions": expected 1287 for 4 pits and 5 stones/);
    expect(damage('rules', (t) => t.replace('"capture":"last-and-opposite"', '"capture":"sideways"'))).toThrow(/line 2: field "capture": expected one of/);
    expect(damage('short', (t) => t.slice(0, -10))).toThrow(/expected 462 bytes of values after the header, found 452/);
    expect(damage('flip', (t) => t.slice(0, -1) + String.fromCharCode(t.charCodeAt(t.length - 1) ^ 2))).toThrow(/do not match the header's sha256/);
    expect(damage('json', (t) => t.replace('{"pits"', '{pits'))).toThrow(/line 2: the header is not JSON/);
  });
});
