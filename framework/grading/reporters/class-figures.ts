/**
 * The class's figures a report shows, as plain numbers: each submission's percentage, the
 * histogram of scores, each case's pass rate. The HTML report draws them (html-sections.ts); the
 * web app's report pages show the same.
 */
import type { CaseReport, GradeReport, SubmissionReport } from '../report.ts';
import type { CaseStatus } from '../types.ts';
import { firstLine } from './text.ts';

/** A submission's score as a percentage of its maximum (0 when it has none). */
export function percent(s: Pick<SubmissionReport, 'score' | 'maxScore'>): number {
  return s.maxScore > 0 ? (100 * s.score) / s.maxScore : 0;
}

export interface HistogramBin {
  /** "0–9%", …, "90–99%", "100%" (or "≥100%" when a bonus took some above) */
  label: string;
  count: number;
}

/** Scores in eleven bins by percentage: ten of 10 points each below 100%, and full marks (or more) apart. */
export function scoreHistogram(submissions: readonly Pick<SubmissionReport, 'score' | 'maxScore'>[]): HistogramBin[] {
  const bins: HistogramBin[] = Array.from({ length: 10 }, (_, k) => ({ label: `${10 * k}–${10 * k + 9}%`, count: 0 }));
  bins.push({ label: '100%', count: 0 });
  let above = false;
  for (const s of submissions) {
    // A hair under 100 after rounding (99.9999995) is full marks; 89.99 stays below 90.
    const p = Math.round(percent(s) * 1e6) / 1e6;
    if (p > 100) above = true;
    bins[p >= 100 ? 10 : Math.max(0, Math.floor(p / 10))]!.count += 1;
  }
  if (above) bins[10]!.label = '≥100%';
  return bins;
}

export interface CaseRate {
  id: string;
  category: string;
  visibility: CaseReport['visibility'];
  description?: string;
  /** submissions that have the case, and those of them that passed it */
  graded: number;
  passed: number;
  /** the most frequent first line of the failures' messages, and how many share it */
  commonProblem?: { text: string; count: number };
  statuses: Partial<Record<CaseStatus, number>>;
}

/** Each case's pass rate over the submissions, the most failed first (then in the suite's order). */
export function casePassRates(report: GradeReport): CaseRate[] {
  const rates = new Map<string, CaseRate & { problems: Map<string, number>; order: number }>();
  for (const s of report.submissions) {
    for (const c of s.cases) {
      let r = rates.get(c.id);
      if (r === undefined) {
        r = { id: c.id, category: c.category, visibility: c.visibility, graded: 0, passed: 0, statuses: {}, problems: new Map(), order: rates.size };
        if (c.description !== undefined) r.description = c.description;
        rates.set(c.id, r);
      }
      r.graded += 1;
      r.statuses[c.status] = (r.statuses[c.status] ?? 0) + 1;
      if (c.status === 'passed') r.passed += 1;
      else {
        const line = firstLine(c.message) || c.status;
        r.problems.set(line, (r.problems.get(line) ?? 0) + 1);
      }
    }
  }
  return [...rates.values()]
    .sort((a, b) => a.passed / a.graded - b.passed / b.graded || a.order - b.order)
    .map(({ problems, order: _order, ...r }) => {
      let best: { text: string; count: number } | undefined;
      for (const [text, count] of problems) if (best === undefined || count > best.count) best = { text, count };
      return best === undefined ? r : { ...r, commonProblem: best };
    });
}

/** The median of `xs` (0 when there are none). */
export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length === 0 ? 0 : s.length % 2 === 1 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}
