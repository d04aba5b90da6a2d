import { describe, expect, it } from 'vitest';
import { UserError } from '../../../errors.ts';
import { MancalaGame } from '../engine.ts';
import { findProfile } from '../profiles.ts';
import { boardToState, stateToBoard } from './board.ts';
import { parseCsc384, writeCsc384 } from './csc384.ts';

const csc384 = (): MancalaGame => new MancalaGame(findProfile('csc384')!.rules);

/** Plays the bottom player's pocket `name` ("B0".."B5") on a csc384 board file and returns the board after. */
function playBottom(boardFile: string, name: string) {
  const game = csc384();
  const state = boardToState(game, parseCsc384(boardFile, 'board.txt'), 0);
  const after = game.play(state, game.parseMove(state, name)!);
  return { game, after, board: stateToBoard(game, after) };
}

describe('the csc384 board file', () => {
  it("reads seed 001's example file, top row left to right as the bottom player sees it", () => {
    // The example input file of seed 001, and the way its command line prints that board:
    //   4 5 4 4 6 4
    //   2           0
    //   4 4 3 4 4 4
    const board = parseCsc384('4,5,4,4,6,4\n4,4,3,4,4,4\n2\n0\n', 'test_board1.txt');
    expect(board).toEqual({ top: [4, 5, 4, 4, 6, 4], bottom: [4, 4, 3, 4, 4, 4], topStore: 2, bottomStore: 0 });
    expect(board.toMove).toBeUndefined(); // the file does not say who moves
    const game = csc384();
    expect(game.describe(boardToState(game, board))).toBe('top [4 5 4 4 6 4] store 2, bottom [4 4 3 4 4 4] store 0, bottom to move');
    expect(writeCsc384(game, boardToState(game, board))).toBe('4,5,4,4,6,4\n4,4,3,4,4,4\n2\n0\n');
  });

  it('accepts spaces around the numbers (as the course reader does), CRLF and blank lines at the end', () => {
    expect(parseCsc384('4, 5 ,4\r\n 1,2,3\r\n2\r\n0\r\n\r\n', 'b.txt')).toEqual({ top: [4, 5, 4], bottom: [1, 2, 3], topStore: 2, bottomStore: 0 });
  });

  const cases: [what: string, text: string, message: string][] = [
    ['a word in a row', '4,x,4\n4,4,4\n0\n0\n', 'board.txt:1: expected the top pockets as whole numbers separated by commas, got "4,x,4"'],
    ['spaces instead of commas', '4,4,4\n4 4 4\n0\n0\n', 'board.txt:2: expected the bottom pockets as whole numbers separated by commas, got "4 4 4"'],
    ['an empty pocket entry', '4,,4\n4,4,4\n0\n0\n', 'board.txt:1: expected the top pockets as whole numbers separated by commas, got "4,,4"'],
    ['rows of different lengths', '4,4,4,4,4,4\n4,4,4,4,4\n0\n0\n', 'board.txt:2: expected 6 pockets (as many as line 1), got 5'],
    ['a negative count', '4,4,-1\n4,4,4\n0\n0\n', 'board.txt:1: expected stone counts ≥ 0, got -1 (T2)'],
    ['more than 40000 stones a pocket', '4,4,4\n4,40001,4\n0\n0\n', 'board.txt:2: expected at most 40000 stones a pocket, got 40001 (B1)'],
    ['more than 20 pockets', `${Array(21).fill(0).join(',')}\n0\n0\n0\n`, 'board.txt:1: expected 1 to 20 pockets a row, got 21'],
    ['a store that is not a number', '4,4\n4,4\n2.5\n0\n', 'board.txt:3: expected the top store as a whole number ≥ 0, got "2.5"'],
    ['a missing store', '4,4\n4,4\n2\n', 'board.txt:4: expected the bottom store on line 4, but the file ends after line 3'],
    ['an empty file', '', 'board.txt:1: expected the top pockets on line 1, but the file is empty'],
    ['an extra line', '4,4\n4,4\n2\n0\n1\n', 'board.txt:5: expected the end of the file after line 4, got "1"'],
  ];
  for (const [what, text, message] of cases) {
    it(`reports ${what} on one line`, () => {
      expect(() => parseCsc384(text, 'board.txt')).toThrow(new UserError(message));
    });
  }
});

describe("seed 001's worked examples land where the seed says (orientation)", () => {
  // Seed 001 numbers the bottom pockets B0..B5 from the left and sows counter-clockwise: along the
  // bottom row to the right, into the bottom store, then along the top row to the left.

  it('capture: B0\'s four stones end in the empty B4 and take the six stones opposite; the store ends with eight', () => {
    // The seed: "The bottom player took the four stones in B0, deposited them counterclockwise, and
    // captured the six stones in T1. After this move, the bottom player's store has eight stones."
    // Four stones from B0 fall in B1..B4, so B4 must have been empty and the six captured stones lay
    // opposite it: pockets[TOP][4] in the file's left-to-right order. The seed's "T1" numbers the top
    // row from the top player's own side (T0 is the rightmost pocket, the top player's first to sow
    // from), which is the engine's top sowing index 1, and the engine names it T1 too (the
    // course's code indexes it 4, left to right). The store held 8 - 6 = 2 before (no free turns, and the capturing
    // stone stays in B4 under seed 001's rules). The other pockets are made up.
    const { game, after, board } = playBottom('3,5,4,4,6,2\n4,1,2,3,0,5\n1\n2\n', 'B0');
    expect(game.position(1, 1)).toBe(4); // seed's T1 = fifth pocket from the left
    expect(game.pitName(1, 1)).toBe('T1');
    expect(board).toEqual({
      top: [3, 5, 4, 4, 0, 2], // the six stones opposite B4 are gone
      bottom: [0, 2, 3, 4, 1, 5], // B0 emptied, one stone each in B1..B4; the last stays in B4
      topStore: 1,
      bottomStore: 8, // 2 + the 6 captured
      toMove: 1,
    });
    expect(game.isOver(after)).toBe(false);
  });

  it('B4\'s six stones: one in B5, one in the store, then the top row from the right', () => {
    const { board } = playBottom('1,1,1,1,1,1\n1,1,1,1,6,1\n0\n0\n', 'B4');
    expect(board).toEqual({ top: [1, 1, 2, 2, 2, 2], bottom: [1, 1, 1, 1, 0, 2], topStore: 0, bottomStore: 1, toMove: 1 });
  });

  it("B5's eight stones: the store, all six top pockets, the top store skipped, then B0", () => {
    const { board } = playBottom('1,1,1,1,1,1\n1,1,1,1,1,8\n3\n0\n', 'B5');
    expect(board).toEqual({ top: [2, 2, 2, 2, 2, 2], bottom: [2, 1, 1, 1, 1, 0], topStore: 3, bottomStore: 1, toMove: 1 });
  });
});
