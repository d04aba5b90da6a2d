import { describe, expect, it } from 'vitest';
import { NOT_A_MOVE_MARK, notMoveOf } from './wire.ts';

describe("a bridge's answer that is no move", () => {
  it('names what came back and why, from its line among the student\'s prints; nothing without one', () => {
    const stderr = `thinking…\n${NOT_A_MOVE_MARK}None\tNonePlayer.chooseMove returned None: expected a cup number, 1 to 6\n`;
    expect(notMoveOf(stderr)).toEqual({ returned: 'None', why: 'NonePlayer.chooseMove returned None: expected a cup number, 1 to 6' });
    expect(notMoveOf(`${NOT_A_MOVE_MARK}(3, 4)`)).toEqual({ returned: '(3, 4)', why: 'it returned (3, 4)' });
    expect(notMoveOf('Traceback (most recent call last):\n  File "x.py", line 3\nZeroDivisionError: division by zero\n')).toBeUndefined();
  });
});
