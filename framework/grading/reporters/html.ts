/**
 * The HTML report (`--html FILE` on grade, check, gauntlet and csci561-grade): ONE self-contained
 * page from the same GradeReport the JSON reporter writes. It opens from disk with no server and
 * no network: the styles and the one script are inline (html-assets.ts), the histogram is inline
 * SVG, the boards are tables, every link is a #hash. A Content-Security-Policy in the page allows
 * nothing to be fetched and no script but its own (by hash), so even a failure to escape could not
 * run a student's script; every string is escaped all the same (html-text.ts).
 *
 * With several submissions the page opens on the class summary and the table; a submission's
 * link shows that submission alone (CSS :target), "show every submission" shows them all.
 * The parts are html-sections.ts's (and html-submission.ts's), which the web app also serves.
 */
import { createHash } from 'node:crypto';
import type { GradeReport } from '../report.ts';
import { REPORT_CSS, REPORT_SCRIPT } from './html-assets.ts';
import type { Audience } from './html-pieces.ts';
import { reportArticleHtml } from './html-sections.ts';
import { escapeLine } from './html-text.ts';

export interface HtmlReportOptions {
  /** 'student': only visible cases, as `mancala check` shows them; default 'instructor' (everything the JSON report holds) */
  audience?: Audience;
  /** the page's title; default from the suite(s) */
  title?: string;
}

const SCRIPT_HASH = createHash('sha256').update(REPORT_SCRIPT).digest('base64');

/** The page's policy: nothing from anywhere, inline styles, and the one script by its hash. */
export const REPORT_CSP = `default-src 'none'; style-src 'unsafe-inline'; script-src 'sha256-${SCRIPT_HASH}'; img-src data:; base-uri 'none'; form-action 'none'`;

/**
 * The whole page for one report, or several (`mancala check` writes one per suite), as a string
 * (UTF-8 text, ends with a newline). Deterministic: the same report gives the same bytes.
 */
export function renderHtmlReport(reports: GradeReport | readonly GradeReport[], options: HtmlReportOptions = {}): string {
  const list: readonly GradeReport[] = Array.isArray(reports) ? reports : [reports as GradeReport];
  const audience = options.audience ?? 'instructor';
  const suites = list.map((r) => r.suite);
  const title = options.title ?? (audience === 'student' ? `Check: ${suites.join(', ')}` : `Grade report: ${suites.join(', ')}`);
  const articles = list.map((r, k) => reportArticleHtml(r, { audience, idPrefix: `r${k + 1}`, heading: `Suite ${r.suite}` }));
  const total = list.reduce((t, r) => t + r.submissions.length, 0);
  const skip = list.length === 1 && list[0]!.submissions.length > 1 ? '#r1-subs' : '#main';
  const contents =
    list.length > 1
      ? `<nav aria-label="suites"><ul>${list.map((r, k) => `<li><a href="#r${k + 1}">${escapeLine(r.suite)}</a></li>`).join('')}</ul></nav>`
      : '';
  return (
    `<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"/>` +
    `<meta name="viewport" content="width=device-width, initial-scale=1"/>` +
    `<meta http-equiv="Content-Security-Policy" content="${REPORT_CSP}"/>` +
    `<meta name="generator" content="mancala-autograder"/>` +
    `<title>${escapeLine(title)}</title><style>${REPORT_CSS}</style></head>\n` +
    `<body><a class="skip" href="${skip}">Skip to the ${skip === '#main' ? 'report' : 'submissions'}</a><div class="page">` +
    `<header class="top"><h1>${escapeLine(title)}</h1>` +
    `<p class="muted">${total === 1 ? '1 submission' : `${total} submissions`}${list.length > 1 ? ` on ${list.length} suites` : ''}; ` +
    `${audience === 'student' ? 'the visible cases' : 'every case graded'}. Written by <code>mancala</code>; opens from disk, nothing is fetched.</p>${contents}</header>` +
    `<main id="main">${articles.join('\n')}</main>` +
    `<footer>Grade report schema version 1 · each submission's link shows it alone; the table sorts and filters with scripts on.</footer>` +
    `</div><script>${REPORT_SCRIPT}</script></body></html>\n`
  );
}
