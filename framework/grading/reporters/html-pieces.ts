/**
 * What the HTML report's sections share (html-sections.ts, html-submission.ts): who reads the
 * report, where its parts are (ids and links), and the small pieces of markup every section uses
 * (status and visibility badges, pass-rate bars).
 */
import type { CaseReport, GradeReport } from '../report.ts';
import type { CaseStatus } from '../types.ts';
import { escapeLine } from './html-text.ts';
import { STATUS_LABELS, STATUSES } from './summary.ts';

export type Audience = 'instructor' | 'student';

export interface SectionOptions {
  /** 'student': only the cases students may see (visible ones), as `mancala check` shows them */
  audience?: Audience;
  /** every id in the markup starts with this (several reports on one page): "r1" */
  idPrefix?: string;
}

/** Where things are: a submission's page or section, and the table of submissions. */
export interface ReportLinks {
  /** the submission at `index` (0-based, in the report's order) */
  submission(index: number): string;
  /** the submissions table */
  table: string;
  /** every submission on one page (for searching or printing); none: the table offers no such link */
  all?: string;
}

/** The ids a report's parts use, and links to them within one page. */
export function pageIds(prefix: string) {
  return {
    report: prefix,
    summary: `${prefix}-summary`,
    subs: `${prefix}-subs`,
    all: `${prefix}-all`,
    submission: (i: number) => `${prefix}-s${i + 1}`,
    kase: (i: number, j: number) => `${prefix}-s${i + 1}-c${j + 1}`,
  };
}

/** #hash links within one page (the self-contained file). */
export function hashLinks(prefix: string): ReportLinks {
  const ids = pageIds(prefix);
  return { submission: (i) => `#${ids.submission(i)}`, table: `#${ids.subs}`, all: `#${ids.all}` };
}

/** The report as its audience sees it: a student sees only visible cases. */
export function forAudience(report: GradeReport, audience: Audience = 'instructor'): GradeReport {
  if (audience === 'instructor') return report;
  return { ...report, submissions: report.submissions.map((s) => ({ ...s, cases: s.cases.filter((c) => c.visibility === 'visible') })) };
}

export const pct = (x: number) => `${Math.round(x)}%`;
export const plural = (n: number, word: string, words = `${word}s`) => `${n} ${n === 1 ? word : words}`;

export function statusBadge(status: CaseStatus): string {
  return `<span class="badge st-${status}" title="${escapeLine(STATUS_LABELS[status])}">${status}</span>`;
}

const VISIBILITY_TEXT: Record<CaseReport['visibility'], { label: string; title: string }> = {
  visible: { label: 'visible', title: 'students see this case' },
  hidden: { label: 'hidden', title: 'a hidden case: students never see it (this report is the instructors\u2019)' },
  after_due_date: { label: 'after due date', title: 'students see this case after the due date' },
};

export function visibilityBadge(v: CaseReport['visibility']): string {
  if (v === 'visible') return '';
  return `<span class="badge vis" title="${VISIBILITY_TEXT[v].title}">${VISIBILITY_TEXT[v].label}</span>`;
}

/**
 * A pass rate's bar: an SVG whose bar is a rect as wide as the share. Not an element with a
 * `style="width:…"`: the web app serves these parts under a policy without 'unsafe-inline' for
 * styles, which refuses style attributes, while an SVG's geometry attributes are not styles.
 */
export function rateBar(passed: number, total: number): string {
  const share = total === 0 ? 0 : (100 * passed) / total;
  return (
    `<svg class="rate" viewBox="0 0 100 1" preserveAspectRatio="none" aria-hidden="true"><rect width="${share.toFixed(1)}" height="1"></rect></svg>` +
    `<span class="pc">${pct(share)}</span>`
  );
}

export function statusSummary(counts: Partial<Record<CaseStatus, number>>): string {
  return STATUSES.filter((s) => s !== 'passed' && (counts[s] ?? 0) > 0)
    .map((s) => `${counts[s]} ${s}`)
    .join(', ');
}
