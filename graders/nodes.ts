/**
 * `nodes`: the positions the agent's search visited, the root included, as the instrumented game
 * counted them, compared with the reference's (exactly, at most, or within a factor).
 */
import type { Grader } from '../framework/grading/types.ts';
import { compareCount, countMismatch } from './count.ts';
import { failed, missingExpected, passed } from './message.ts';

const nodes: Grader = {
  check: 'nodes',
  grade(input) {
    const check = input.case.checks.nodes ?? { mode: 'exact' };
    const reference = input.expected.nodes;
    if (reference === undefined) return missingExpected(input, 'nodes');
    const got = input.observation.nodes;
    if (got === undefined) return failed('nodes', input, `nodes: expected ${compareCount(check, reference, 0).expectation}, got no count (the search was not measured)`);
    const verdict = compareCount(check, reference, got);
    if (!verdict.passed) return failed('nodes', input, `nodes: ${countMismatch(verdict, reference, got)}`);
    return passed('nodes');
  },
};

export default nodes;
