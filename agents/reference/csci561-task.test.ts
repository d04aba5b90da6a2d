import { describe, it, expect } from 'vitest';
import { UserError } from '../../framework/errors.ts';
import { solveCsci561 } from './csci561-task.ts';

const input = (...lines: (string | number)[]) => lines.join('\n') + '\n';

/*
 * Worked by hand with seed 000's rules. Player 1 (bottom) to move; Greedy = one turn deep, every
 * free-turn chain of that turn included, valued by the store difference at its end:
 *   A2..A4 = 1 1 1, B2..B4 = 3 0 1, stores 0.
 *   B2 → B3 1, B4 2, store 1 (free turn); then B3 → B4 3: value 1; or B4 → store 2, A4 2: value 2.
 *   B4 → store 1 (free turn); B2 → B3 1, B4 1, store 2 (free turn); then B3 → B4 2: value 2;
 *      or B4 → store 3 (free turn); B3 → empty B4: captures it and A4's 1 (store 5), the
 *      bottom row is empty, so the game ends and A's two stones are swept to A1: value 5 - 2 = 3.
 * Best: B4 (3), and next_state plays the whole chain B4 B2 B4 B3.
 */
const chainInput = input(1, 1, 9, '1 1 1', '3 0 1', 0, 0);

describe('solveCsci561', () => {
  it("greedy plays the agent's whole free-turn chain and sweeps a finished board (depth line ignored)", () => {
    expect(solveCsci561(chainInput, 'input.txt')).toEqual({ nextState: '0 0 0\n0 0 0\n2\n5\n' });
  });

  it('player 2 (top row, sowing towards A1) on the mirror image gets the mirrored answer', () => {
    // Mirror of the case above: A4..A2 play B2..B4's part; the stores swap.
    expect(solveCsci561(input(1, 2, 1, '1 0 3', '1 1 1', 0, 0), 'input.txt')).toEqual({ nextState: '0 0 0\n0 0 0\n5\n2\n' });
  });

  it('minimax and alpha-beta give the same next state and a log of the same nodes', () => {
    const mm = solveCsci561(input(2, 1, 2, '1 1 1', '3 0 1', 0, 0), 'input.txt');
    const ab = solveCsci561(input(3, 1, 2, '1 1 1', '3 0 1', 0, 0), 'input.txt');
    expect(mm.nextState).toBe(ab.nextState);
    expect(mm.traverseLog![0]).toBe('Node,Depth,Value');
    expect(ab.traverseLog![0]).toBe('Node,Depth,Value,Alpha,Beta');
    expect(mm.traverseLog![1]).toBe('root,0,-Infinity');
    expect(ab.traverseLog![1]).toBe('root,0,-Infinity,-Infinity,Infinity');
    // Pruning only removes lines; the ones alpha-beta keeps agree on node, depth and value.
    const key = (l: string) => l.split(',').slice(0, 3).join(',');
    const mmLines = mm.traverseLog!.slice(1).map(key);
    let at = 0;
    for (const l of ab.traverseLog!.slice(1).map(key)) {
      while (at < mmLines.length && mmLines[at] !== l) at++;
      expect(at, `alpha-beta line ${l} is not in minimax's log in order`).toBeLessThan(mmLines.length);
      at++;
    }
  });
});

describe('inputs the solver refuses', () => {
  const error = (text: string): string => {
    try {
      solveCsci561(text, 'input.txt');
    } catch (e) {
      expect(e).toBeInstanceOf(UserError);
      return (e as Error).message;
    }
    throw new Error('expected a UserError');
  };

  it('names the file, the line and what was expected', () => {
    // A malformed file is board-io's to report; the message passes through unchanged.
    expect(error(input(2, 1, 2, '1 1 1', '3 0 1', 0))).toMatch(/^input\.txt:7: /);
    expect(error(input(4, 1, 2, '1 1 1', '3 0 1', 0, 0))).toMatch(/^input\.txt:1: task 4 \(Competition\) has no single right answer/);
    expect(error(input(2, 1, 0, '1 1 1', '3 0 1', 0, 0))).toBe('input.txt:3: expected a cut-off depth ≥ 1 for MiniMax, got 0');
    expect(error(input(2, 1, 2, '1 1 1', '0 0 0', 0, 0))).toBe('input.txt: player 1 has no legal move (the game is over on this board)');
  });

  it('greedy ignores the depth line, even 0', () => {
    expect(solveCsci561(input(1, 1, 0, '1 1 1', '3 0 1', 0, 0), 'input.txt').nextState).toBe('0 0 0\n0 0 0\n2\n5\n');
  });
});
