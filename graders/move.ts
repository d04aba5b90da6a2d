/**
 * `move`: the agent's move equals the reference's (ties go to the first best move in the
 * profile's order, so there is exactly one right answer). A move that is not legal in the
 * position gets its own message, naming the legal ones.
 */
import type { Grader, GradeInput } from '../framework/grading/types.ts';
import { casePosition, describeLegalMoves, describeMove } from './case-context.ts';
import { failed, missingExpected, passed } from './message.ts';

/** The move the agent answered with: its returned move, else the last one it reported. */
export function observedMove(input: GradeInput): { move: number | undefined; reportedOnly: boolean } {
  const o = input.observation;
  if (o.move !== undefined) return { move: o.move, reportedOnly: false };
  return { move: o.reported?.move, reportedOnly: o.reported !== undefined };
}

const move: Grader = {
  check: 'move',
  grade(input) {
    const expected = input.expected.move;
    if (expected === undefined) return missingExpected(input, 'move');
    const { game, state } = casePosition(input.manifest, input.case);
    const { move: got, reportedOnly } = observedMove(input);
    const want = describeMove(game, state, expected);
    if (got === undefined) return failed('move', input, `move: expected ${want}, got no move (chooseMove returned none)`);
    const source = reportedOnly ? ' (the last move reported with ctx.report)' : '';
    if (!game.isLegal(state, got)) {
      return failed('move', input, [
        `move: ${describeMove(game, state, got)}${source} is not a legal move in this position; expected ${want}`,
        `legal moves: ${describeLegalMoves(game, state)}`,
      ]);
    }
    if (got !== expected) return failed('move', input, `move: expected ${want}, got ${describeMove(game, state, got)}${source}`);
    return passed('move');
  },
};

export default move;
