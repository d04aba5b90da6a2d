/**
 * `--node-counts graded|informational` (`mancala grade`, `mancala check`): the instructor's
 * switch over what a suite's `node_counts` says, for one run. Blessed answers stay valid: whether
 * a node count is graded is not part of a case's hash.
 */
import type { NodeCounts, Suite, SuiteCase } from './types.ts';

/** The suite with every case that checks nodes set to `policy`, and the cases that changed. */
export function withNodeCounts(suite: Suite, policy: NodeCounts): { suite: Suite; changed: SuiteCase[] } {
  const changed = suite.cases.filter((c) => c.checks.nodes !== undefined && (c.nodeCounts ?? 'graded') !== policy);
  if (changed.length === 0) return { suite, changed };
  return {
    suite: { ...suite, cases: suite.cases.map((c) => (changed.includes(c) ? { ...c, nodeCounts: policy } : c)) },
    changed,
  };
}

/** The report's note on the switch, or undefined when it changed no case. */
export function nodeCountsNote(policy: NodeCounts, changed: readonly SuiteCase[], visibleOnly = false): string | undefined {
  const cases = visibleOnly ? changed.filter((c) => c.visibility === 'visible') : changed;
  if (cases.length === 0) return undefined;
  const n = `${cases.length} case${cases.length === 1 ? '' : 's'}`;
  return policy === 'graded'
    ? `node counts graded for this run (--node-counts graded): in ${n} whose suite has them informational, a wrong count fails the case`
    : `node counts informational for this run (--node-counts informational): in ${n} whose suite grades them, a wrong count is reported and fails nothing`;
}
