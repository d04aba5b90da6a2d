/**
 * Tallies every reporter needs: cases by status, points by category, and a case's display name.
 * Categories keep the order in which they first appear (the runner emits cases in suite order,
 * so that is the manifest's order of categories), never an alphabetical one.
 */
import type { CaseStatus } from '../types.ts';
import type { CaseReport, GradeReport } from '../report.ts';
import { oneLine } from './text.ts';

/** Every status, in the order reporters list them. */
export const STATUSES = ['passed', 'failed', 'error', 'timeout', 'memory', 'output-limit'] as const satisfies readonly CaseStatus[];

export type StatusCounts = Record<CaseStatus, number>;

export function countStatuses(cases: readonly CaseReport[]): StatusCounts {
  const counts: StatusCounts = { passed: 0, failed: 0, error: 0, timeout: 0, memory: 0, 'output-limit': 0 };
  for (const c of cases) counts[c.status] += 1;
  return counts;
}

export interface CategoryTotal {
  name: string;
  score: number;
  maxScore: number;
  cases: number;
  passed: number;
}

export function categoryTotals(cases: readonly CaseReport[]): CategoryTotal[] {
  const totals = new Map<string, CategoryTotal>();
  for (const c of cases) {
    let total = totals.get(c.category);
    if (total === undefined) {
      total = { name: c.category, score: 0, maxScore: 0, cases: 0, passed: 0 };
      totals.set(c.category, total);
    }
    total.score += c.score;
    total.maxScore += c.maxScore;
    total.cases += 1;
    if (c.status === 'passed') total.passed += 1;
  }
  return [...totals.values()];
}

/** Every category of the report, in order of first appearance over all submissions. */
export function reportCategories(report: GradeReport): string[] {
  const names = new Set<string>();
  for (const submission of report.submissions) for (const c of submission.cases) names.add(c.category);
  return [...names];
}

/** `[category] id — description`, the name a case goes by in Gradescope and the student's view. */
export function caseTitle(c: CaseReport): string {
  const title = `[${c.category}] ${c.id}`;
  return c.description ? `${title} — ${c.description}` : title;
}

/** What a status means, for people. */
export const STATUS_LABELS: Record<CaseStatus, string> = {
  passed: 'passed',
  failed: 'failed',
  error: 'error (the agent crashed, threw or answered something malformed)',
  timeout: 'timeout (over the time limit)',
  memory: 'memory (over the memory limit)',
  'output-limit': 'output-limit (wrote more than the grader keeps)',
};

/** One sentence on how the submissions were isolated (`network: true`: the network was cut off). */
export function isolationLine(isolation: GradeReport['isolation']): string {
  const base = isolation.network
    ? 'Isolation: each submission ran in its own sandboxed process, with the network cut off.'
    : 'Isolation: each submission ran in its own sandboxed process; the network was NOT cut off.';
  return isolation.note === undefined ? base : `${base} ${oneLine(isolation.note)}`;
}
