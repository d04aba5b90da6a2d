/**
 * `heuristicValue`: what the submission's heuristic says of the case's board, from the side to
 * move's point of view, equals the reference heuristic's, within the check's tolerance.
 */
import type { Grader } from '../framework/grading/types.ts';
import { failed, missingExpected, num, passed } from './message.ts';

const heuristicValue: Grader = {
  check: 'heuristicValue',
  grade(input) {
    const check = input.case.checks.heuristicValue;
    const tolerance = check?.tolerance ?? 0;
    const reference = check?.reference ?? input.manifest.roles[input.case.role]?.reference ?? '?';
    const expected = input.expected.heuristicValue;
    if (expected === undefined) return missingExpected(input, 'heuristicValue');
    const got = input.observation.heuristicValue;
    const want = `${num(expected)} (the reference heuristic ${reference}${tolerance > 0 ? `, tolerance ${tolerance}` : ''})`;
    if (got === undefined) return failed('heuristicValue', input, `heuristic value: expected ${want}, got no value: evaluate(state, player, game) must return a number`);
    if (!Number.isFinite(got) || Math.abs(got - expected) > tolerance) {
      return failed('heuristicValue', input, `heuristic value: expected ${want}, got ${num(got)}`);
    }
    return passed('heuristicValue');
  },
};

export default heuristicValue;
