/**
 * `value`: the value the agent returned (from the mover's point of view) equals the reference's,
 * within the check's tolerance.
 */
import type { Grader } from '../framework/grading/types.ts';
import { failed, missingExpected, num, passed } from './message.ts';

const value: Grader = {
  check: 'value',
  grade(input) {
    const tolerance = input.case.checks.value?.tolerance ?? 0;
    const expected = input.expected.value;
    if (expected === undefined) return missingExpected(input, 'value');
    const got = input.observation.value;
    const within = tolerance > 0 ? ` (tolerance ${tolerance})` : '';
    if (got === undefined) {
      return failed('value', input, `value: expected ${num(expected)}, got no value: chooseMove must return { move, value }`);
    }
    if (!Number.isFinite(got) || Math.abs(got - expected) > tolerance) {
      const off = Number.isFinite(got) ? `, off by ${num(Math.abs(got - expected))}` : '';
      return failed('value', input, `value: expected ${num(expected)}${within}, got ${num(got)}${off}`);
    }
    return passed('value');
  },
};

export default value;
