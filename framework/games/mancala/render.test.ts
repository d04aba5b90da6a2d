import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Player } from '../../contracts/game.ts';
import { MancalaGame, type MancalaState } from './engine.ts';
import { findProfile } from './profiles.ts';

function gameFor(profile: string, pits = 6, seeds = 4): MancalaGame {
  return new MancalaGame({ ...findProfile(profile)!.rules, pits, seeds });
}

/** A position from rows given left to right as the bottom player sees them. */
function position(game: MancalaGame, top: number[], bottom: number[], topStore: number, bottomStore: number, toMove: Player): MancalaState {
  return game.fromRows(bottom, [...top].reverse(), bottomStore, topStore, toMove);
}

describe('pitName and moveName', () => {
  it("name seed 000's pits A2..A7 and B2..B7, left to right", () => {
    // Seed 000: "Blocks B2-B7 are Player-1's pits, blocks A2-A7 are Player-2's pits, B8 is Player-1's
    // Mancala and A1 is Player-2's Mancala", A1 on the left. The top player sows right to left, so its
    // sowing index 0 (furthest from its store) is the rightmost pit, A7.
    const game = gameFor('csci561');
    expect([0, 1, 2, 3, 4, 5].map((i) => game.pitName(0, i))).toEqual(['B2', 'B3', 'B4', 'B5', 'B6', 'B7']);
    expect([0, 1, 2, 3, 4, 5].map((i) => game.pitName(1, i))).toEqual(['A7', 'A6', 'A5', 'A4', 'A3', 'A2']);
  });

  it("names seed 001's pockets B0..B5 and T0..T5 from each owner's left, as the seed's figures do", () => {
    // "took the four stones in B0 ... captured the six stones in T1": T1 sits opposite B4, so the
    // top row is counted from the top player's left, which is its sowing order.
    const game = gameFor('csc384');
    expect([0, 1, 2, 3, 4, 5].map((i) => game.pitName(0, i))).toEqual(['B0', 'B1', 'B2', 'B3', 'B4', 'B5']);
    expect([0, 1, 2, 3, 4, 5].map((i) => game.pitName(1, i))).toEqual(['T0', 'T1', 'T2', 'T3', 'T4', 'T5']);
  });

  it("numbers seed 002's cups 1..6 on each side in sowing order, as its MancalaBoard's P1Cups and P2Cups", () => {
    // P1Cups[0] is player 1's (bottom's) cup 1, the leftmost; P2Cups[0] is player 2's (top's) cup 1,
    // the rightmost as the bottom player sees the board: each side's cups run toward its own store.
    const game = gameFor('cpsc4610');
    expect([0, 1, 2, 3, 4, 5].map((i) => game.pitName(0, i))).toEqual(['1', '2', '3', '4', '5', '6']);
    expect([0, 1, 2, 3, 4, 5].map((i) => game.pitName(1, i))).toEqual(['1', '2', '3', '4', '5', '6']);
    // Where either side's cup may be meant, pitLabel says whose.
    expect(game.pitLabel(0, 2)).toBe('bottom cup 3');
    expect(game.pitLabel(1, 5)).toBe('top cup 6');
    // Every other naming is unique on the board already: pitLabel is pitName.
    for (const profile of ['csci561', 'csc384', 'kalah']) {
      const other = gameFor(profile);
      for (const p of [0, 1] as const) for (let i = 0; i < 6; i++) expect(other.pitLabel(p, i)).toBe(other.pitName(p, i));
    }
  });

  it('moveName names the pit of the player to move', () => {
    const game = gameFor('csci561', 3);
    const bottom = position(game, [1, 1, 1], [1, 1, 1], 0, 0, 0);
    const top = position(game, [1, 1, 1], [1, 1, 1], 0, 0, 1);
    expect(game.moveName(bottom, 0)).toBe('B2');
    expect(game.moveName(top, 0)).toBe('A4');
  });
});

describe('parseMove', () => {
  it("reads the mover's pit names in any case and with spaces around", () => {
    const game = gameFor('csci561');
    const s = position(game, [1, 1, 1, 1, 1, 1], [1, 1, 1, 1, 1, 1], 0, 0, 1);
    expect(game.parseMove(s, 'A7')).toBe(0);
    expect(game.parseMove(s, ' a2 ')).toBe(5);
    expect(game.parseMove(s, 'B2')).toBeUndefined(); // the other player's pit
    expect(game.parseMove(s, 'A1')).toBeUndefined(); // the top player's store
    expect(game.parseMove(s, 'A8')).toBeUndefined();
    expect(game.parseMove(s, 'x')).toBeUndefined();
  });

  it("reads a bare number as the number in the pit's name", () => {
    const a = gameFor('csci561');
    const top = position(a, [1, 1, 1, 1, 1, 1], [1, 1, 1, 1, 1, 1], 0, 0, 1);
    expect(a.parseMove(top, '2')).toBe(5); // A2, the leftmost: the top player's last pit in sowing order
    expect(a.parseMove(top, '1')).toBeUndefined();
    expect(a.parseMove(top, '8')).toBeUndefined();
    const b = gameFor('csc384');
    const bottom = b.initial();
    expect(b.parseMove(bottom, '0')).toBe(0);
    expect(b.parseMove(bottom, '5')).toBe(5);
    expect(b.parseMove(bottom, '6')).toBeUndefined();
    expect(b.parseMove(bottom, '-1')).toBeUndefined();
    const bTop = position(b, [1, 1, 1, 1, 1, 1], [1, 1, 1, 1, 1, 1], 0, 0, 1);
    expect(b.parseMove(bTop, '1')).toBe(1); // T1: the top player's sowing index 1
  });

  it('reads back every name moveName gives, for both players, every naming and board size', () => {
    fc.assert(
      fc.property(fc.constantFrom('csci561', 'csc384', 'kalah'), fc.integer({ min: 1, max: 20 }), fc.constantFrom<Player>(0, 1), (profile, n, p) => {
        const game = gameFor(profile, n);
        const s = position(game, Array(n).fill(1), Array(n).fill(1), 0, 0, p);
        for (let i = 0; i < n; i++) {
          const name = game.moveName(s, i);
          expect(game.parseMove(s, name)).toBe(i);
          expect(game.parseMove(s, name.toLowerCase())).toBe(i);
          // The bare-number form is the name's number.
          expect(game.parseMove(s, name.slice(1))).toBe(i);
        }
      }),
      { numRuns: 100, seed: 42 },
    );
  });
});

describe('parseMove under cups (cpsc4610)', () => {
  it("reads the mover's cup number, 1 to N, alone or as \"cup 3\" or its pitLabel; never the other side's", () => {
    const game = gameFor('cpsc4610');
    const bottom = game.initial();
    const top = position(game, [1, 1, 1, 1, 1, 1], [1, 1, 1, 1, 1, 1], 0, 0, 1);
    expect(game.parseMove(bottom, '1')).toBe(0);
    expect(game.parseMove(bottom, ' 6 ')).toBe(5);
    expect(game.parseMove(bottom, 'cup 3')).toBe(2);
    expect(game.parseMove(bottom, 'Cup3')).toBe(2);
    expect(game.parseMove(bottom, 'bottom cup 4')).toBe(3);
    expect(game.parseMove(bottom, 'top cup 4')).toBeUndefined(); // the opponent's cup
    expect(game.parseMove(top, 'top  cup 4')).toBe(3);
    expect(game.parseMove(top, '1')).toBe(0); // top's cup 1: its first cup in sowing order, the rightmost on the board
    for (const text of ['0', '7', '-1', '03', 'B2', 'T1', 'cup', '3.0', '']) expect(game.parseMove(bottom, text)).toBeUndefined();
  });

  it('reads back the name and the label of every cup, for both players and every board size (fast-check)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 20 }), fc.constantFrom<Player>(0, 1), (n, p) => {
        const game = gameFor('cpsc4610', n);
        const s = position(game, Array(n).fill(1), Array(n).fill(1), 0, 0, p);
        const names = new Set<string>();
        const labels = new Set<string>();
        for (let i = 0; i < n; i++) {
          const name = game.moveName(s, i);
          expect(name).toBe(String(i + 1));
          expect(game.parseMove(s, name)).toBe(i);
          expect(game.parseMove(s, `cup ${name}`)).toBe(i);
          expect(game.parseMove(s, game.pitLabel(p, i))).toBe(i);
          expect(game.parseMove(s, game.pitLabel(p, i).toUpperCase())).toBe(i);
          // The opponent's label names no cup of the mover's.
          expect(game.parseMove(s, game.pitLabel(p === 0 ? 1 : 0, i))).toBeUndefined();
          names.add(name);
          labels.add(game.pitLabel(0, i)).add(game.pitLabel(1, i));
        }
        expect(names.size).toBe(n);
        expect(labels.size).toBe(2 * n); // labels are unique on the whole board
      }),
      { numRuns: 100, seed: 4610 },
    );
  });
});

describe('describe', () => {
  it('prints both rows left to right as the bottom player sees them', () => {
    const game = gameFor('kalah', 3);
    const s = position(game, [1, 2, 3], [4, 5, 6], 7, 8, 1);
    expect(game.describe(s)).toBe('top [1 2 3] store 7, bottom [4 5 6] store 8, top to move');
  });
});

/** The parts of a rendering, read back from its text. */
function readRendering(text: string) {
  const lines = text.split('\n');
  const cells = (line: string) =>
    line
      .split('|')
      .slice(1, -1)
      .map((c) => c.trim());
  return {
    lines,
    topNames: lines[0]!.trim().split(/\s+/),
    top: cells(lines[2]!).map(Number),
    middle: lines[3]!,
    bottom: cells(lines[4]!).map(Number),
    bottomNames: lines[6]!.trim().split(/\s+/),
    status: lines[7]!,
  };
}

describe('render', () => {
  it("draws seed 000's start position with its pit names", () => {
    // The layout worked by hand: names above and below their cells, the top store (A1) left of the
    // middle rule, the bottom store (B8) right of it, then a status line.
    const game = gameFor('csci561');
    expect(game.render(game.initial())).toBe(
      [
        '       A2    A3    A4    A5    A6    A7',
        '    +-----+-----+-----+-----+-----+-----+',
        '    |  4  |  4  |  4  |  4  |  4  |  4  |',
        '  0 +-----+-----+-----+-----+-----+-----+ 0',
        '    |  4  |  4  |  4  |  4  |  4  |  4  |',
        '    +-----+-----+-----+-----+-----+-----+',
        '       B2    B3    B4    B5    B6    B7',
        'stores: top 0 (left), bottom 0 (right); bottom to move',
      ].join('\n'),
    );
  });

  it("labels both rows of seed 002's board with cups 1 to 6, each toward its owner's store, as the course's GUI", () => {
    const game = gameFor('cpsc4610');
    expect(game.render(game.initial())).toBe(
      [
        '       6     5     4     3     2     1',
        '    +-----+-----+-----+-----+-----+-----+',
        '    |  4  |  4  |  4  |  4  |  4  |  4  |',
        '  0 +-----+-----+-----+-----+-----+-----+ 0',
        '    |  4  |  4  |  4  |  4  |  4  |  4  |',
        '    +-----+-----+-----+-----+-----+-----+',
        '       1     2     3     4     5     6',
        'stores: top 0 (left), bottom 0 (right); bottom to move',
      ].join('\n'),
    );
  });

  it('says when the game is over and what the sweep gives each player', () => {
    // The bottom row is empty: over. Sweep: top 7 + (1 + 2 + 3) = 13, bottom keeps 8.
    const game = gameFor('kalah', 3);
    const s = position(game, [1, 2, 3], [0, 0, 0], 7, 8, 0);
    expect(readRendering(game.render(s)).status).toBe('stores: top 7 (left), bottom 8 (right); game over: after the sweep bottom 8, top 13');
  });

  const arbitraryPosition = fc.integer({ min: 1, max: 20 }).chain((n) =>
    fc.record({
      profile: fc.constantFrom('csci561', 'csc384', 'cpsc4610'),
      top: fc.array(fc.integer({ min: 0, max: 1000 }), { minLength: n, maxLength: n }),
      bottom: fc.array(fc.integer({ min: 0, max: 1000 }), { minLength: n, maxLength: n }),
      topStore: fc.integer({ min: 0, max: 99999 }),
      bottomStore: fc.integer({ min: 0, max: 99999 }),
      toMove: fc.constantFrom<Player>(0, 1),
      // Often enough a finished game, whose status line differs.
      emptyRow: fc.constantFrom('none', 'none', 'top', 'bottom'),
    }),
  ).map(({ emptyRow, ...b }) => ({
    ...b,
    top: emptyRow === 'top' ? b.top.map(() => 0) : b.top,
    bottom: emptyRow === 'bottom' ? b.bottom.map(() => 0) : b.bottom,
  }));

  it('shows every count in its place, names over their cells, and aligned boxes (fast-check)', () => {
    fc.assert(
      fc.property(arbitraryPosition, (b) => {
        const n = b.top.length;
        const game = gameFor(b.profile, n);
        // fromRows limits a board's total; keep within it by capping the stores.
        const room = Math.max(0, 40_000 - [...b.top, ...b.bottom].reduce((x, y) => x + y, 0));
        const topStore = Math.min(b.topStore, Math.floor(room / 2));
        const bottomStore = Math.min(b.bottomStore, Math.floor(room / 2));
        const s = position(game, b.top, b.bottom, topStore, bottomStore, b.toMove);
        const r = readRendering(game.render(s));

        expect(r.top).toEqual(b.top);
        expect(r.bottom).toEqual(b.bottom);
        expect(r.topNames).toEqual(Array.from({ length: n }, (_, pos) => game.pitName(1, n - 1 - pos)));
        expect(r.bottomNames).toEqual(Array.from({ length: n }, (_, pos) => game.pitName(0, pos)));
        expect(r.middle.trim().split(/\s+/)[0]).toBe(String(topStore));
        expect(r.middle.trim().split(/\s+/).at(-1)).toBe(String(bottomStore));

        // Box lines share their borders: every '|' and '+' of the rows and rules at the same columns.
        const borders = (line: string) => [...line].flatMap((ch, i) => (ch === '|' || ch === '+' ? [i] : []));
        const columns = borders(r.lines[1]!);
        expect(columns).toHaveLength(n + 1);
        for (const k of [2, 4, 5]) expect(borders(r.lines[k]!)).toEqual(columns);
        expect(borders(r.middle)).toEqual(columns);
        // Each name sits inside its cell's columns.
        for (const [lineIndex, names] of [
          [0, r.topNames],
          [6, r.bottomNames],
        ] as const) {
          let from = 0;
          names.forEach((name, pos) => {
            const at = r.lines[lineIndex]!.indexOf(name, from);
            expect(at).toBeGreaterThan(columns[pos]!);
            expect(at + name.length).toBeLessThanOrEqual(columns[pos + 1]!);
            from = at + name.length;
          });
        }

        const mover = b.toMove === 0 ? 'bottom' : 'top';
        expect(r.status).toBe(
          game.isOver(s)
            ? `stores: top ${topStore} (left), bottom ${bottomStore} (right); game over: after the sweep bottom ${game.finalStore(s, 0)}, top ${game.finalStore(s, 1)}`
            : `stores: top ${topStore} (left), bottom ${bottomStore} (right); ${mover} to move`,
        );
        expect(r.lines).toHaveLength(8);
      }),
      { numRuns: 200, seed: 2024 },
    );
  });
});
