/**
 * `quality`: how many stones the agent's move gives up against a best move, by the perfect-play
 * solver (the values of every legal move, proven when the suite was blessed: expected.moveValues).
 * Full marks within the check's tolerance; past it, partial credit falling to nothing at
 * `no_credit_at` (absent: nothing past the tolerance). A move that is not legal loses everything.
 */
import type { CheckResult, Grader } from '../framework/grading/types.ts';
import { qualityCredit } from '../framework/suites/quality-check.ts';
import { casePosition, describeLegalMoves, describeMove } from './case-context.ts';
import { failed, missingExpected, passed } from './message.ts';
import { observedMove } from './move.ts';

/** A margin as the messages print it: +4, 0, -2. */
function signed(v: number): string {
  return v > 0 ? `+${v}` : String(v);
}

const stones = (n: number) => `${n} stone${n === 1 ? '' : 's'}`;

/** The stones a move gives up against the best one, from the blessed move values (undefined: not a legal move). */
export function stonesLost(moveValues: Record<string, number>, move: number): number | undefined {
  const v = moveValues[String(move)];
  return v === undefined ? undefined : Math.max(...Object.values(moveValues)) - v;
}

const quality: Grader = {
  check: 'quality',
  grade(input) {
    const check = input.case.checks.quality!;
    const values = input.expected.moveValues;
    if (values === undefined) return missingExpected(input, 'moveValues');
    const { game, state } = casePosition(input.manifest, input.case);
    const best = Math.max(...Object.values(values));
    const bestMoves = Object.keys(values)
      .filter((m) => values[m] === best)
      .map((m) => describeMove(game, state, Number(m)))
      .join(' or ');
    const { move: got, reportedOnly } = observedMove(input);
    if (got === undefined) return failed('quality', input, `quality: no move to grade (chooseMove returned none); the best: ${bestMoves}, margin ${signed(best)}`);
    const lost = stonesLost(values, got);
    const source = reportedOnly ? ' (the last move reported with ctx.report)' : '';
    if (lost === undefined) {
      return failed('quality', input, [
        `quality: ${describeMove(game, state, got)}${source} is not a legal move in this position; the best: ${bestMoves}, margin ${signed(best)}`,
        `legal moves: ${describeLegalMoves(game, state)}`,
      ]);
    }
    const credit = qualityCredit(check, lost);
    if (credit === 1) return passed('quality');
    const within = check.tolerance > 0 ? ` (tolerance ${stones(check.tolerance)})` : '';
    const points = credit === 0 ? 'no points' : `${Math.round(credit * 1000) / 10}% of the case's points`;
    const result: CheckResult = failed(
      'quality',
      input,
      `quality: ${describeMove(game, state, got)}${source} gives up ${stones(lost)}${within} against the best move ${bestMoves}: perfect play ends ${signed(best)} after the best, ${signed(best - lost)} after yours; ${points}`,
    );
    if (credit > 0) result.credit = credit;
    return result;
  },
};

export default quality;
