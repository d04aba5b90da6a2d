/**
 * `time`: the agent answered within the check's ms, as measured in its own process (the time it
 * spent in chooseMove, not the message's round trip). Over the case's hard limit a case is a
 * timeout before any check runs; this check is the softer, graded bound below it.
 */
import type { Grader } from '../framework/grading/types.ts';
import { failed, passed } from './message.ts';

const time: Grader = {
  check: 'time',
  grade(input) {
    const limit = input.case.checks.time?.ms ?? input.case.limits.ms;
    const took = input.observation.ms;
    if (!(took <= limit)) {
      return failed('time', input, `time: expected an answer within ${limit} ms, took ${Math.round(took * 10) / 10} ms`);
    }
    return passed('time');
  },
};

export default time;
