/**
 * A submission's score from its graded cases: case points scaled to the category weights and added
 * up (report.ts explains the scheme). Shared by agent grading and csci561 program grading.
 */
import type { CaseReport, SubmissionReport } from './report.ts';
import type { Suite, SuiteCase } from '../suites/types.ts';
import type { CaseStatus, CheckResult } from './types.ts';
import { studentName, studentPath, studentText } from '../student-text.ts';

/** One graded case, as scored. */
export interface CaseResult {
  c: SuiteCase;
  status: CaseStatus;
  message: string;
  /** ms of CPU time the case took, as the grader measured it */
  ms: number;
  nodes: number | null;
  checks?: CheckResult[];
}

/** Scales case points to category weights and adds them up (report.ts explains the scheme). */
export function scoreSubmission(suite: Suite, id: string, path: string, notes: string[], results: readonly CaseResult[]): SubmissionReport {
  const categoryPoints = new Map<string, number>();
  for (const { c } of results) categoryPoints.set(c.category, (categoryPoints.get(c.category) ?? 0) + c.points);
  const weight = new Map(suite.manifest.categories.map((k) => [k.name, k.weight]));
  const share = (c: SuiteCase): number => {
    const points = categoryPoints.get(c.category)!;
    return points > 0 ? (c.points / points) * (weight.get(c.category) ?? 0) : 0;
  };
  // Cumulative rounding within each category: case maxima add up exactly to the weight
  // (3.333333 + 3.333333 + 3.333334 = 10), so Gradescope's and the CSV's sums agree with ours.
  const running = new Map<string, number>();
  const maxOf = results.map(({ c }) => {
    const before = running.get(c.category) ?? 0;
    const after = before + share(c);
    running.set(c.category, after);
    return round(after) - round(before);
  });
  const cases: CaseReport[] = results.map(({ c, status, message, ms, nodes, checks }, k): CaseReport => {
    const maxScore = round(maxOf[k]!);
    const info = informationOf(checks);
    return {
      id: c.id,
      category: c.category,
      status,
      score: round(maxScore * earned({ status, checks })),
      maxScore,
      // Where a submission's words enter the grader's records: every writer gets them terminal-safe.
      message: studentText(message),
      ...(info.length > 0 ? { info: info.map((i) => studentText(i)) } : {}),
      ms: Math.round(ms * 10) / 10,
      nodes,
      visibility: c.visibility,
      ...(c.description !== undefined ? { description: c.description } : {}),
      ...(checks !== undefined ? { checks: checks.map((k) => ({ ...k, message: studentText(k.message) })) } : {}),
    };
  });
  // Totals add the unrounded shares: three cases of 10/3 points make 10, not 3 × 3.333333 = 9.999999.
  const sum = (part: (r: CaseResult) => number): number => round(results.reduce((a, r) => a + share(r.c) * part(r), 0));
  return { id: studentName(id), path: studentPath(path), score: sum(earned), maxScore: sum(() => 1), cases, notes: notes.map((n) => studentText(n)) };
}

/**
 * The share of its points a case earns: all when it passed; when it failed on checks that give
 * partial credit (a `quality` check's move that lost a few stones), the smallest credit among its
 * failed checks; otherwise none.
 */
export function earned(r: Pick<CaseResult, 'status' | 'checks'>): number {
  if (r.status === 'passed') return 1;
  if (r.status !== 'failed' || r.checks === undefined) return 0;
  return Math.min(...r.checks.filter((k) => !k.passed).map((k) => k.credit ?? 0));
}

/** What the case's informational checks found (they never change its status or score). */
function informationOf(checks: readonly CheckResult[] | undefined): string[] {
  return (checks ?? []).filter((r) => r.informational === true && r.message !== '').map((r) => r.message);
}

/** Scores keep six decimals: enough for any weighting, and no 0.30000000000000004 in reports. */
function round(x: number): number {
  return Math.round(x * 1e6) / 1e6;
}
