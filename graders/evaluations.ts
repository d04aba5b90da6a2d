/**
 * `evaluations`: the calls of the heuristic handed to the agent, compared with the reference's
 * (exactly, at most, or within a factor).
 */
import type { Grader } from '../framework/grading/types.ts';
import { compareCount, countMismatch } from './count.ts';
import { failed, missingExpected, passed } from './message.ts';

const evaluations: Grader = {
  check: 'evaluations',
  grade(input) {
    const check = input.case.checks.evaluations ?? { mode: 'exact' };
    const reference = input.expected.evaluations;
    if (reference === undefined) return missingExpected(input, 'evaluations');
    const got = input.observation.evaluations;
    if (got === undefined) {
      return failed('evaluations', input, `evaluations (heuristic calls): expected ${compareCount(check, reference, 0).expectation}, got no count (the search was not measured)`);
    }
    const verdict = compareCount(check, reference, got);
    if (!verdict.passed) return failed('evaluations', input, `evaluations (heuristic calls): ${countMismatch(verdict, reference, got)}`);
    return passed('evaluations');
  },
};

export default evaluations;
