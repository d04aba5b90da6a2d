import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UserError } from '../../../errors.ts';
import { MancalaGame } from '../engine.ts';
import { findProfile } from '../profiles.ts';
import { boardToState, stateToBoard } from './board.ts';
import { parseCsci561, parseCsci561Input, parseCsci561NextState, writeCsci561Input, writeCsci561NextState } from './csci561.ts';
import { readBoardFile } from './index.ts';
import { CSCI561_OFFICIAL_DIR } from '../../../../testcases/shared-data.ts';

/** The official graded cases of seed 000 (read in place, never copied into the repo). */
const OFFICIAL = CSCI561_OFFICIAL_DIR;
const haveOfficial = existsSync(OFFICIAL);
const officialFiles = (prefix: string): string[] =>
  haveOfficial ? readdirSync(OFFICIAL).filter((f) => f.startsWith(prefix) && f.endsWith('.txt')) : [];
const caseNumber = (file: string): number => Number(/_(\d+)\.txt$/.exec(file)![1]);

function csci561Game(pits: number): MancalaGame {
  return new MancalaGame({ ...findProfile('csci561')!.rules, pits });
}

/** Lines with surrounding white space removed: one official input has a trailing space. */
const normalized = (text: string): string =>
  text
    .split('\n')
    .map((l) => l.trim())
    .join('\n');

describe('the official csci561 files', () => {
  const skipped = haveOfficial ? '' : ` (skipped: ${OFFICIAL} is missing)`;

  it.skipIf(!haveOfficial)(`every testInput_K.txt parses, with the task the conformance README lists${skipped}`, () => {
    // Task of each case, from the README of the official set: Greedy 1 4 9 12 15 20 23 26 29 30,
    // MiniMax 2 5 7 10 13 16 18 21 24 27, Alpha-Beta the rest.
    const greedy = [1, 4, 9, 12, 15, 20, 23, 26, 29, 30];
    const minimax = [2, 5, 7, 10, 13, 16, 18, 21, 24, 27];
    const inputs = officialFiles('testInput_');
    expect(inputs).toHaveLength(30);
    for (const name of inputs) {
      const path = join(OFFICIAL, name);
      const text = readFileSync(path, 'utf8');
      const board = parseCsci561Input(text, name);
      const k = caseNumber(name);
      expect(board.csci561!.task).toBe(greedy.includes(k) ? 1 : minimax.includes(k) ? 2 : 3);
      // The seed's board sizes: 3 ≤ N ≤ 10.
      expect(board.top.length).toBeGreaterThanOrEqual(3);
      expect(board.top.length).toBeLessThanOrEqual(10);
      // Reading through the file API guesses the same format and gives the same board.
      expect(readBoardFile(path)).toEqual(board);
      // Writing the position back as an input file reproduces the file, line for line.
      const game = csci561Game(board.top.length);
      const state = boardToState(game, board);
      expect(writeCsci561Input(game, state, board.csci561!.task, board.csci561!.depth)).toBe(normalized(text));
    }
  });

  it.skipIf(!haveOfficial)(`every next_state_K.txt is written back byte for byte${skipped}`, () => {
    const outputs = officialFiles('next_state_');
    expect(outputs).toHaveLength(30);
    for (const name of outputs) {
      const text = readFileSync(join(OFFICIAL, name), 'utf8');
      const board = parseCsci561NextState(text, name);
      const game = csci561Game(board.top.length);
      expect(writeCsci561NextState(game, boardToState(game, board))).toBe(text);
    }
  });

  it.skipIf(!haveOfficial)(`the official moves land where the official next_state says (orientation)${skipped}`, () => {
    // Hand-worked from the files: case 10's answer is B6 (370 stones: 28 laps of the 13 cells, then
    // B7, the store and A7..A4); case 1's is B2 (one stone into the empty B3, which captures with the
    // empty A3 opposite, so the stone alone goes to the store).
    for (const [k, move] of [
      [10, 'B6'],
      [1, 'B2'],
    ] as const) {
      const input = parseCsci561Input(readFileSync(join(OFFICIAL, `testInput_${k}.txt`), 'utf8'), `testInput_${k}.txt`);
      const game = csci561Game(input.top.length);
      const state = boardToState(game, input);
      const after = game.play(state, game.parseMove(state, move)!);
      expect(writeCsci561NextState(game, after)).toBe(readFileSync(join(OFFICIAL, `next_state_${k}.txt`), 'utf8'));
    }
  });
});

describe('reading csci561 files', () => {
  it('reads the input form: player 1 is the bottom row, player 2 the top row', () => {
    expect(parseCsci561('2\n1\n2\n1 2 3\n4 5 6\n7\n8\n', 'input.txt')).toEqual({
      top: [1, 2, 3],
      bottom: [4, 5, 6],
      topStore: 7,
      bottomStore: 8,
      toMove: 0,
      csci561: { task: 2, depth: 2 },
    });
    expect(parseCsci561('4\n2\n0\n1 2 3\n4 5 6\n7\n8', 'input.txt').toMove).toBe(1);
  });

  it('reads the next_state form (4 lines), which does not say who moves', () => {
    expect(parseCsci561('1 2 3\n4 5 6\n7\n8\n', 'next_state.txt')).toEqual({ top: [1, 2, 3], bottom: [4, 5, 6], topStore: 7, bottomStore: 8 });
  });

  it('accepts any white space, CRLF, a byte-order mark and blank lines at the end', () => {
    const board = parseCsci561('\uFEFF1\r\n 2 \r\n3\r\n1\t 2   3 \r\n4 5 6\r\n7\r\n8\r\n\r\n  \n', 'input.txt');
    expect(board).toEqual({ top: [1, 2, 3], bottom: [4, 5, 6], topStore: 7, bottomStore: 8, toMove: 1, csci561: { task: 1, depth: 3 } });
  });

  it('accepts 1 to 20 pits a side', () => {
    expect(parseCsci561('0\n0\n5\n3\n', 'n.txt').top).toEqual([0]);
    const twenty = Array(20).fill(1000).join(' ');
    expect(parseCsci561(`${twenty}\n${twenty}\n0\n0\n`, 'n.txt').bottom).toHaveLength(20);
  });

  // Each malformed file and the one line it must produce.
  const valid = ['3', '1', '2', '4 4 4', '4 4 4', '0', '0'];
  const withLine = (k: number, text: string): string => valid.map((l, i) => (i === k - 1 ? text : l)).join('\n') + '\n';
  const cases: [what: string, text: string, message: string][] = [
    ['task out of range', withLine(1, '5'), 'input.txt:1: expected the task: 1 (Greedy), 2 (MiniMax), 3 (Alpha-Beta) or 4 (Competition), got "5"'],
    ['task not a number', withLine(1, 'greedy'), 'input.txt:1: expected the task: 1 (Greedy), 2 (MiniMax), 3 (Alpha-Beta) or 4 (Competition), got "greedy"'],
    ['player not 1 or 2', withLine(2, '0'), 'input.txt:2: expected the player: 1 (bottom row) or 2 (top row), got "0"'],
    ['negative depth', withLine(3, '-1'), 'input.txt:3: expected the cut-off depth as a whole number ≥ 0, got "-1"'],
    ['fractional depth', withLine(3, '2.5'), 'input.txt:3: expected the cut-off depth as a whole number ≥ 0, got "2.5"'],
    ['a word in a row', withLine(4, '4 x 4'), 'input.txt:4: expected the top row (player 2\'s pits) as whole numbers separated by spaces, got "4 x 4"'],
    ['commas in a row', withLine(5, '4,4,4'), 'input.txt:5: expected the bottom row (player 1\'s pits) as whole numbers separated by spaces, got "4,4,4"'],
    ['a blank row', withLine(4, ''), 'input.txt:4: expected the top row (player 2\'s pits) as whole numbers separated by spaces, got ""'],
    ['rows of different lengths', withLine(5, '4 4'), 'input.txt:5: expected 3 pits (as many as the top row on line 4), got 2'],
    ['a negative count', withLine(5, '4 -2 4'), 'input.txt:5: expected stone counts ≥ 0, got -2 (B3)'],
    ['more than 40000 stones a pit', withLine(4, '4 4 40001'), 'input.txt:4: expected at most 40000 stones a pit, got 40001 (A4)'],
    ['more than 20 pits', withLine(4, Array(21).fill('1').join(' ')), 'input.txt:4: expected 1 to 20 pits a row, got 21'],
    ['a store that is not a number', withLine(6, 'x'), 'input.txt:6: expected player 2\'s store as a whole number ≥ 0, got "x"'],
    ['a negative store', withLine(7, '-3'), 'input.txt:7: expected player 1\'s store as a whole number ≥ 0, got "-3"'],
    ['a missing line', valid.slice(0, 6).join('\n'), "input.txt:7: expected player 1's store on line 7, but the file ends after line 6"],
    ['an extra line', [...valid, '', '9'].join('\n'), 'input.txt:9: expected the end of the file after line 7, got "9"'],
    ['an empty file', ' \n\n', 'input.txt: expected a csci561 input file (7 lines) or next_state file (4 lines), but the file is empty'],
    [
      'more stones than the engine holds',
      ['1', '1', '1', Array(20).fill('1000').join(' '), Array(20).fill('1000').join(' '), '0', '1'].join('\n'),
      'input.txt: expected at most 40000 stones on the board, got 40001',
    ],
  ];
  for (const [what, text, message] of cases) {
    it(`reports ${what} on one line`, () => {
      expect(() => parseCsci561(text, 'input.txt')).toThrow(new UserError(message));
      expect(message).not.toContain('\n');
    });
  }

  it('reports mistakes in a next_state file at its own line numbers', () => {
    expect(() => parseCsci561NextState('1 2\n3 4\n5\n6\n7\n', 'next_state.txt')).toThrow(
      new UserError('next_state.txt:5: expected the end of the file after line 4, got "7"'),
    );
    expect(() => parseCsci561('1 2\n3 4 5\n5\n6\n', 'next_state.txt')).toThrow(
      new UserError('next_state.txt:2: expected 2 pits (as many as the top row on line 1), got 3'),
    );
    expect(() => parseCsci561('1 2\n3 4\n5\n', 'next_state.txt')).toThrow(
      new UserError("next_state.txt:4: expected player 1's store on line 4, but the file ends after line 3"),
    );
  });
});

describe('writing csci561 files', () => {
  it('writes the input form with the player to move and the next_state form without it', () => {
    // Hand-made position: top (A2 A3 A4) = 1 2 3, bottom (B2 B3 B4) = 4 5 6, stores 7 (A1) and 8 (B5).
    const game = csci561Game(3);
    const board = { top: [1, 2, 3], bottom: [4, 5, 6], topStore: 7, bottomStore: 8 };
    expect(writeCsci561Input(game, boardToState(game, board, 1), 1, 4)).toBe('1\n2\n4\n1 2 3\n4 5 6\n7\n8\n');
    expect(writeCsci561Input(game, boardToState(game, board, 0), 3, 0)).toBe('3\n1\n0\n1 2 3\n4 5 6\n7\n8\n');
    expect(writeCsci561NextState(game, boardToState(game, board))).toBe('1 2 3\n4 5 6\n7\n8\n');
    expect(() => writeCsci561Input(game, boardToState(game, board), 2, -1)).toThrow(RangeError);
  });

  it('writes a finished game after the sweep, as the homework prints it', () => {
    // B4 holds the bottom row's last stone; it sows into the store (B5) and empties the row: game
    // over, free turn void. The sweep then moves the top row's 6 stones to player 2's store.
    const game = csci561Game(3);
    const state = boardToState(game, { top: [1, 2, 3], bottom: [0, 0, 1], topStore: 7, bottomStore: 8 });
    const after = game.play(state, game.parseMove(state, 'B4')!);
    expect(game.isOver(after)).toBe(true);
    expect(stateToBoard(game, after).top).toEqual([1, 2, 3]); // the state itself is not swept
    expect(writeCsci561NextState(game, after)).toBe('0 0 0\n0 0 0\n13\n9\n');
  });
});
