/**
 * The API of the Reports page (../api.ts): a grade report checked, in brief.
 */
/** GET /api/report?path= : a grade report (`mancala grade --json FILE`) checked, in brief; its pages are documents (/reports/view). */
export interface ReportSummary {
  /** the file, relative to the root */
  file: string;
  suite: string;
  /** in the report's order: submission=N (from 1) is submissions[N-1] */
  submissions: { id: string; score: number; maxScore: number; cases: number; passed: number }[];
  /** the class page's address (a submission's: add &submission=N) */
  view: string;
  /** set for a similarity report (mancala similarity --json): its one page is the ranked pairs; suite is "similarity", submissions empty */
  similarity?: { submissions: number; pairs: number };
}
