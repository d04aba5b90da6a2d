import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import type { Player } from '../../../contracts/game.ts';
import { UserError } from '../../../errors.ts';
import { MAX_TOTAL_STONES, MancalaGame } from '../engine.ts';
import { findProfile } from '../profiles.ts';
import { LIMITS } from '../rules.ts';
import {
  boardToState,
  formatBoard,
  guessBoardFormat,
  parseBoard,
  parseCsci561,
  readBoardFile,
  stateToBoard,
  writeCsci561Input,
  type BoardFormat,
  type BoardSpec,
} from './index.ts';

function gameFor(profile: string, pits: number): MancalaGame {
  return new MancalaGame({ ...findProfile(profile)!.rules, pits, seeds: 4 });
}

/** Any board the formats must carry: 1..20 pits a side, 0..1000 stones a pit, within the engine's total. */
const arbitraryBoard: fc.Arbitrary<BoardSpec & { toMove: Player }> = fc
  .integer({ min: LIMITS.minPits, max: LIMITS.maxPits })
  .chain((n) =>
    fc.record({
      top: fc.array(fc.integer({ min: 0, max: LIMITS.maxSeeds }), { minLength: n, maxLength: n }),
      bottom: fc.array(fc.integer({ min: 0, max: LIMITS.maxSeeds }), { minLength: n, maxLength: n }),
      topStore: fc.integer({ min: 0, max: 2000 }),
      bottomStore: fc.integer({ min: 0, max: 2000 }),
      toMove: fc.constantFrom<Player>(0, 1),
      // Often enough a finished game, which csci561 writes after the sweep.
      emptyRow: fc.constantFrom('none', 'none', 'top', 'bottom'),
    }),
  )
  .map(({ emptyRow, ...b }) => ({
    ...b,
    top: emptyRow === 'top' ? b.top.map(() => 0) : b.top,
    bottom: emptyRow === 'bottom' ? b.bottom.map(() => 0) : b.bottom,
  }))
  .filter((b) => [...b.top, ...b.bottom, b.topStore, b.bottomStore].reduce((x, y) => x + y, 0) <= MAX_TOTAL_STONES);

const PROPERTY_RUNS = { numRuns: 300, seed: 561384 };

const withoutToMove = ({ toMove: _toMove, ...rest }: BoardSpec): BoardSpec => rest;

describe('boardToState / stateToBoard', () => {
  it('keep the bottom row as it is and reverse the top row into sowing order', () => {
    const game = gameFor('kalah', 3);
    const state = boardToState(game, { top: [1, 2, 3], bottom: [4, 5, 6], topStore: 7, bottomStore: 8 });
    // The top player's sowing index 0 is its pit furthest from its store (on the left): the rightmost.
    expect(game.row(state, 1)).toEqual([3, 2, 1]);
    expect(game.row(state, 0)).toEqual([4, 5, 6]);
    expect(game.store(state, 1)).toBe(7);
    expect(game.store(state, 0)).toBe(8);
    expect(game.describe(state)).toBe('top [1 2 3] store 7, bottom [4 5 6] store 8, bottom to move');
    expect(stateToBoard(game, state)).toEqual({ top: [1, 2, 3], bottom: [4, 5, 6], topStore: 7, bottomStore: 8, toMove: 0 });
  });

  it("take who moves from the explicit argument, then the board, then default to bottom", () => {
    const game = gameFor('kalah', 2);
    const board: BoardSpec = { top: [1, 1], bottom: [1, 1], topStore: 0, bottomStore: 0 };
    expect(game.toMove(boardToState(game, board))).toBe(0);
    expect(game.toMove(boardToState(game, { ...board, toMove: 1 }))).toBe(1);
    expect(game.toMove(boardToState(game, { ...board, toMove: 1 }, 0))).toBe(0);
    expect(game.toMove(boardToState(game, board, 1))).toBe(1);
  });

  it('reject a board of the wrong size for the game, naming the file', () => {
    const game = gameFor('kalah', 6);
    const board: BoardSpec = { top: [1, 1], bottom: [1, 1], topStore: 0, bottomStore: 0 };
    expect(() => boardToState(game, board, undefined, 'b.txt')).toThrow(new UserError("b.txt: expected 6 pits a side (the game's size), got 2"));
    expect(() => boardToState(game, { ...board, bottom: [1, 1, 1] })).toThrow(
      new UserError("board: expected 6 pits a side (the game's size), got 2 (top) and 3 (bottom)"),
    );
  });

  it("turn the engine's complaint about a hand-made board into a UserError", () => {
    const game = gameFor('kalah', 1);
    expect(() => boardToState(game, { top: [-1], bottom: [1], topStore: 0, bottomStore: 0 }, undefined, 'x.json')).toThrow(
      new UserError('x.json: stone counts must be whole numbers ≥ 0, got -1'),
    );
  });
});

describe('round trips through every format (fast-check, 1..20 pits, 0..1000 stones)', () => {
  const formats: BoardFormat[] = ['json', 'csc384', 'csci561'];
  for (const format of formats) {
    it(`${format}: parse(format(state)) gives the board back`, () => {
      fc.assert(
        fc.property(arbitraryBoard, (board) => {
          const game = gameFor(format === 'csci561' ? 'csci561' : 'csc384', board.top.length);
          const state = boardToState(game, board);
          const text = formatBoard(game, state, format);
          const back = parseBoard(text, format, `board.${format}`);
          if (format === 'json') {
            expect(back).toEqual(board);
          } else if (format === 'csc384') {
            expect(back).toEqual(withoutToMove(board)); // the format does not say who moves
          } else {
            // next_state: who moves is not written, and a finished game is written after the sweep.
            const expected = game.isOver(state) ? stateToBoard(game, game.swept(state)) : board;
            expect(back).toEqual(withoutToMove(expected));
          }
          // ... and the state it describes is the same position (who moves supplied where the format omits it).
          expect(game.key(boardToState(game, back, board.toMove))).toBe(game.key(format === 'csci561' ? game.swept(state) : state));
        }),
        PROPERTY_RUNS,
      );
    });
  }

  it('csci561 input form: task, player and depth survive too', () => {
    fc.assert(
      fc.property(arbitraryBoard, fc.constantFrom<1 | 2 | 3 | 4>(1, 2, 3, 4), fc.nat({ max: 30 }), (board, task, depth) => {
        const game = gameFor('csci561', board.top.length);
        const text = writeCsci561Input(game, boardToState(game, board), task, depth);
        expect(parseCsci561(text, 'input.txt')).toEqual({ ...board, csci561: { task, depth } });
      }),
      PROPERTY_RUNS,
    );
  });
});

describe('readBoardFile', () => {
  const dir = mkdtempSync(join(tmpdir(), 'board-io-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const file = (name: string, text: string): string => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };

  it('guesses the format: .json is JSON, commas are csc384, anything else csci561', () => {
    expect(guessBoardFormat('b.JSON', '{}')).toBe('json');
    expect(guessBoardFormat('b.txt', '1,2\n3,4\n0\n0\n')).toBe('csc384');
    expect(guessBoardFormat('b.txt', '1 2\n3 4\n0\n0\n')).toBe('csci561');

    const json = file('b.json', '{"top":[1,2],"bottom":[3,4],"stores":{"top":5,"bottom":6},"toMove":"top"}');
    expect(readBoardFile(json)).toEqual({ top: [1, 2], bottom: [3, 4], topStore: 5, bottomStore: 6, toMove: 1 });
    // what `mancala search --board x.json --board-format json` reads: a case file's board form works too
    const caseForm = file('case-form.json', '{"top":[1,2],"bottom":[3,4],"top_store":5,"bottom_store":6,"to_move":"top"}');
    expect(readBoardFile(caseForm, 'json')).toEqual({ top: [1, 2], bottom: [3, 4], topStore: 5, bottomStore: 6, toMove: 1 });
    const csc = file('board1.txt', '1,2\n3,4\n5\n6\n');
    expect(readBoardFile(csc)).toEqual({ top: [1, 2], bottom: [3, 4], topStore: 5, bottomStore: 6 });
    const input = file('input.txt', '2\n2\n3\n1 2\n3 4\n5\n6\n');
    expect(readBoardFile(input)).toEqual({ top: [1, 2], bottom: [3, 4], topStore: 5, bottomStore: 6, toMove: 1, csci561: { task: 2, depth: 3 } });
  });

  it('an explicit format wins over the guess, and errors name the path as given', () => {
    const csc = file('looks-like-csc.txt', '1,2\n3,4\n5\n6\n');
    expect(() => readBoardFile(csc, 'csci561')).toThrow(
      new UserError(`${csc}:1: expected the top row (player 2's pits) as whole numbers separated by spaces, got "1,2"`),
    );
  });

  it('a missing or unreadable file is a UserError naming the path', () => {
    const missing = join(dir, 'nope.txt');
    expect(() => readBoardFile(missing)).toThrow(new UserError(`${missing}: cannot read the board file: no such file`));
    const folder = join(dir, 'a-folder');
    mkdirSync(folder);
    expect(() => readBoardFile(folder)).toThrow(new UserError(`${folder}: cannot read the board file: it is a folder, not a file`));
  });
});

describe('formatBoard', () => {
  // A board worked by hand: top [1 2 3] store 7, bottom [4 5 6] store 8, top to move.
  const game = gameFor('csci561', 3);
  const state = boardToState(game, { top: [1, 2, 3], bottom: [4, 5, 6], topStore: 7, bottomStore: 8, toMove: 1 });

  it('writes each format as its course writes it', () => {
    expect(formatBoard(game, state, 'csc384')).toBe('1,2,3\n4,5,6\n7\n8\n');
    expect(formatBoard(game, state, 'csci561')).toBe('1 2 3\n4 5 6\n7\n8\n');
    expect(formatBoard(game, state, 'json')).toBe(
      '{\n  "top": [1,2,3],\n  "bottom": [4,5,6],\n  "stores": {"top": 7, "bottom": 8},\n  "toMove": "top"\n}\n',
    );
    expect(writeCsci561Input(game, state, 3, 2)).toBe('3\n2\n2\n1 2 3\n4 5 6\n7\n8\n');
  });

  it('csci561 writes a finished game after the sweep; the other formats write the board as it stands', () => {
    // The bottom row is empty, so the game is over; the sweep puts the top row's 6 stones in the top store.
    const over = boardToState(game, { top: [1, 2, 3], bottom: [0, 0, 0], topStore: 7, bottomStore: 8 });
    expect(game.isOver(over)).toBe(true);
    expect(formatBoard(game, over, 'csci561')).toBe('0 0 0\n0 0 0\n13\n8\n');
    expect(formatBoard(game, over, 'csc384')).toBe('1,2,3\n0,0,0\n7\n8\n');
  });
});
