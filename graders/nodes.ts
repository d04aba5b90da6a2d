/**
 * `nodes`: the positions the agent's search visited, the root included, as the instrumented game
 * counted them, compared with the reference's (exactly, at most, or within a factor).
 *
 * In a case whose node counts are informational (`node_counts: informational`, in the case or the
 * suite), the check never fails the case: a count it would refuse is told as information
 * ("nodes: your search visited 2,298 nodes; the reference 1,200 (informational, not graded)"), a
 * count it would accept says nothing, as a passed check does.
 */
import type { CheckResult, Grader } from '../framework/grading/types.ts';
import type { CountCheck } from '../framework/suites/types.ts';
import { compareCount, countMismatch, ratioRange } from './count.ts';
import { failed, missingExpected, passed } from './message.ts';

const fmt = (n: number): string => n.toLocaleString('en-US');

const nodes: Grader = {
  check: 'nodes',
  grade(input) {
    const check = input.case.checks.nodes ?? { mode: 'exact' };
    const reference = input.expected.nodes;
    if (reference === undefined) return missingExpected(input, 'nodes');
    const got = input.observation.nodes;
    if (input.case.nodeCounts === 'informational') return informational(check, reference, got);
    if (got === undefined) return failed('nodes', input, `nodes: expected ${compareCount(check, reference, 0).expectation}, got no count (the search was not measured)`);
    const verdict = compareCount(check, reference, got);
    if (!verdict.passed) return failed('nodes', input, `nodes: ${countMismatch(verdict, reference, got)}`);
    return passed('nodes');
  },
};

/** The informational verdict: passed whatever the count; a message only when a graded check would have refused it. */
function informational(check: CountCheck, reference: number, got: number | undefined): CheckResult {
  const result = (message: string): CheckResult => ({ check: 'nodes', passed: true, message, informational: true });
  if (got === undefined) return result(`nodes: your search's nodes were not counted; the reference visited ${fmt(reference)} (informational, not graded)`);
  if (compareCount(check, reference, got).passed) return result('');
  const accepts = check.mode === 'exact' ? '' : `; graded, it would need ${check.mode === 'at-most' ? `at most ${fmt(reference)}` : rangeText(reference, check.ratio)}`;
  return result(`nodes: your search visited ${fmt(got)} nodes; the reference ${fmt(reference)} (informational, not graded${accepts})`);
}

function rangeText(reference: number, ratio: number): string {
  const { low, high } = ratioRange(reference, ratio);
  return `${fmt(low)} to ${fmt(high)}`;
}

export default nodes;
