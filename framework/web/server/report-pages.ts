/**
 * A grade report as documents the server renders (`GET /reports/view?path=FILE[&submission=N]`),
 * from the HTML report's own parts (grading/reporters/html-sections.ts, html-submission.ts), so the pages and the
 * self-contained `--html` file are one renderer:
 *
 *   the class page          the run's notes, the class summary (statistics, the histogram of
 *                           scores, points per category, each case's pass rate) and the table of
 *                           submissions, each row linking to its submission's page
 *   a submission's page     its score and categories, and each case that did not pass drawn out:
 *                           the position on a board, expected against got, the reproduce command
 *   submission=all          every submission on one page, for searching or printing
 *
 * Why documents and not the app's page drawing JSON: the parts exist, are tested against real
 * grading runs and escape every string a student wrote; a 200-submission class is 140 KB of
 * markup the browser lays out faster than a script would build it; and the page (client/pages/
 * reports.ts) shows them in a frame, each link a plain link.
 *
 * They load nothing but the report's style sheet and script, served as files (/reports/report.css,
 * /reports/report.js: REPORT_CSS and REPORT_SCRIPT, the self-contained page's, which sort and
 * filter the table and copy a reproduce command), under a policy of their own: no inline script
 * or style (the parts have no style attribute: a rate bar is an SVG), and framed by the app only.
 */
import { createHash } from 'node:crypto';
import type { GradeReport } from '../../grading/report.ts';
import { REPORT_CSS, REPORT_SCRIPT } from '../../grading/reporters/html-assets.ts';
import type { ReportLinks } from '../../grading/reporters/html-pieces.ts';
import { classSummaryHtml, reportIntroHtml, submissionsTableHtml } from '../../grading/reporters/html-sections.ts';
import { submissionHtml } from '../../grading/reporters/html-submission.ts';
import { escapeLine } from '../../grading/reporters/html-text.ts';
import { SIMILARITY_CSS } from '../../similarity/html.ts';
import type { Asset } from './assets.ts';

/** The documents' policy: their own style sheet and script, no inline anything, shown in the app's frame or on their own. */
export const REPORT_PAGE_CSP = [
  "default-src 'none'",
  "style-src 'self'",
  "script-src 'self'",
  "img-src 'self' data:",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'self'",
].join('; ');

function asset(body: string, type: string): Asset {
  const bytes = Buffer.from(body, 'utf8');
  return { body: bytes, type, etag: `"${createHash('sha256').update(bytes).digest('base64url').slice(0, 22)}"` };
}

/** The documents' files, by the name under /reports/ (a similarity report's page adds its own style sheet). */
export const REPORT_ASSETS: ReadonlyMap<string, Asset> = new Map([
  ['report.css', asset(REPORT_CSS, 'text/css; charset=utf-8')],
  ['report.js', asset(REPORT_SCRIPT, 'text/javascript; charset=utf-8')],
  ['similarity.css', asset(SIMILARITY_CSS, 'text/css; charset=utf-8')],
]);

/** What a page shows: the class, a submission (0-based), or every submission. */
export type ReportPageKind = { kind: 'class' } | { kind: 'submission'; index: number } | { kind: 'all' };

/** A page's address: /reports/view?path=FILE[&submission=N|all] (N from 1, as the table numbers them). */
export function reportPageUrl(file: string, page: ReportPageKind = { kind: 'class' }): string {
  const q = new URLSearchParams({ path: file });
  if (page.kind === 'submission') q.set('submission', String(page.index + 1));
  if (page.kind === 'all') q.set('submission', 'all');
  return `/reports/view?${q.toString()}`;
}

/** Links between the pages of one file (the self-contained report's are #hashes: hashLinks). */
export function serverLinks(file: string): ReportLinks {
  return {
    submission: (i) => reportPageUrl(file, { kind: 'submission', index: i }),
    table: `${reportPageUrl(file)}#r1-subs`,
    all: reportPageUrl(file, { kind: 'all' }),
  };
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

function documentHtml(report: GradeReport, file: string, title: string, where: string, body: string): string {
  const n = report.submissions.length;
  return (
    `<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"/>` +
    `<meta name="viewport" content="width=device-width, initial-scale=1"/>` +
    `<meta name="generator" content="mancala-autograder"/>` +
    `<title>${escapeLine(title)}</title><link rel="stylesheet" href="/reports/report.css"/><script src="/reports/report.js" defer=""></script></head>\n` +
    `<body><a class="skip" href="#main">Skip to the report</a><div class="page">` +
    `<header class="top"><h1>Grade report: ${escapeLine(report.suite)}</h1>` +
    `<p class="muted"><span class="path">${escapeLine(file)}</span> · ${plural(n, 'submission')} · ${escapeLine(where)}</p></header>` +
    `<main id="main">${body}</main>` +
    `<footer>Grade report schema version 1 · read from ${escapeLine(file)} by <code>mancala serve</code> · the whole report in one file: <code>mancala grade --html FILE</code>.</footer>` +
    `</div></body></html>\n`
  );
}

/** The page `page` of a report read from `file` (its path under the root), a whole HTML document. */
export function reportPageHtml(report: GradeReport, file: string, page: ReportPageKind): string {
  const links = serverLinks(file);
  const n = report.submissions.length;
  if (page.kind === 'class') {
    const body =
      `<article class="report" id="r1" aria-label="the class">${reportIntroHtml(report)}` +
      classSummaryHtml(report) +
      submissionsTableHtml(report, links) +
      `</article>`;
    return documentHtml(report, file, `${report.suite}: the class`, 'the class summary and the submissions', body);
  }
  if (page.kind === 'all') {
    const back = `<nav class="subnav" aria-label="report"><a href="${escapeLine(links.table)}">← The class summary</a></nav>`;
    const body = `<article class="report" id="r1" aria-label="every submission">${back}${report.submissions.map((_, i) => submissionHtml(report, i, links)).join('')}</article>`;
    return documentHtml(report, file, `${report.suite}: every submission`, 'every submission', body);
  }
  const s = report.submissions[page.index]!;
  // With one submission there is no table to go back to (submissionHtml links none): the class page is still a link away.
  const back = n === 1 ? `<nav class="subnav" aria-label="report"><a href="${escapeLine(reportPageUrl(file))}">← The class summary</a></nav>` : '';
  const body = `<article class="report" id="r1" aria-label="a submission">${back}${submissionHtml(report, page.index, links)}</article>`;
  return documentHtml(report, file, `${s.id}: ${report.suite}`, `submission ${page.index + 1} of ${n}`, body);
}
