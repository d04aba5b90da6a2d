/**
 * `mancala check --shard i/n` grades some of a suite's cases; a case's points, though, are its
 * share of its category's weight over ALL the run's cases (grading/score.ts). So a check shard
 * scores its cases as the whole run would, and records each case's unrounded share, from which
 * `mancala merge` adds up the totals exactly as one run does.
 */
import type { SubmissionReport } from '../grading/report.ts';
import { earned, scoreSubmission } from '../grading/score.ts';
import type { CaseResult } from '../grading/score.ts';
import type { Suite, SuiteCase } from '../suites/types.ts';

/** Each case's share of its category's weight among `all` (the whole run's cases), as grading/score.ts works it out. */
export function caseShares(suite: Suite, all: readonly SuiteCase[]): Map<string, number> {
  const categoryPoints = new Map<string, number>();
  for (const c of all) categoryPoints.set(c.category, (categoryPoints.get(c.category) ?? 0) + c.points);
  const weight = new Map(suite.manifest.categories.map((k) => [k.name, k.weight]));
  const shares = new Map<string, number>();
  for (const c of all) {
    const points = categoryPoints.get(c.category)!;
    shares.set(c.id, points > 0 ? (c.points / points) * (weight.get(c.category) ?? 0) : 0);
  }
  return shares;
}

/**
 * The shard's report of one submission, its cases scored as in the whole run over `all`, its
 * totals over its own cases; and each of its cases' share, in its order.
 */
export function scoreAsWholeRun(suite: Suite, all: readonly SuiteCase[], graded: SubmissionReport): { report: SubmissionReport; shares: number[] } {
  const mine = new Map(graded.cases.map((c) => [c.id, c]));
  // The whole run's cases, the others as placeholders: scoreSubmission scales every case by all of them.
  const results: CaseResult[] = all.map((c) => {
    const r = mine.get(c.id);
    return r === undefined
      ? { c, status: 'error', message: '', ms: 0, nodes: null }
      : { c, status: r.status, message: r.message, ms: r.ms, nodes: r.nodes, ...(r.checks !== undefined ? { checks: r.checks } : {}) };
  });
  const whole = new Map(scoreSubmission(suite, graded.id, graded.path, graded.notes, results).cases.map((c) => [c.id, c]));
  const cases = graded.cases.map((c) => {
    const w = whole.get(c.id)!;
    return { ...c, score: w.score, maxScore: w.maxScore };
  });
  const byId = caseShares(suite, all);
  const shares = cases.map((c) => byId.get(c.id) ?? 0);
  const round = (x: number) => Math.round(x * 1e6) / 1e6;
  const score = round(cases.reduce((a, c, k) => a + shares[k]! * earned(c), 0));
  const maxScore = round(shares.reduce((a, x) => a + x, 0));
  return { report: { ...graded, score, maxScore, cases }, shares };
}
