/**
 * The HTML report's parts, each a string of markup from a GradeReport (the object the JSON
 * reporter writes, and reads back with parseReport): the class summary (statistics, a histogram of
 * scores, points per category, each case's pass rate), the submissions table (sorted and filtered
 * by the page's script), and one section per submission with each case that did not pass drawn
 * out: its position on a board in the course's pit names, expected against got, the likely bug,
 * the information the grader did not grade, the reproduce command, the whole message.
 *
 * This module holds the class summary, the table and the whole article; one submission's section
 * is html-submission.ts, the figures class-figures.ts, what the sections share html-pieces.ts.
 * html.ts puts them into one self-contained page; the web app serves the same parts as pages.
 * Links come from a `ReportLinks` so both can say where a submission lives (a #hash in the file).
 * Styles: REPORT_CSS (html-assets.ts). Inside `reportArticleHtml`'s article of several
 * submissions (class `many`) one submission shows at a time, as the page's #hash says; a page
 * that shows one submission (the web app's) puts `submissionHtml` outside such an article.
 *
 * Every string of the report goes through escapeHtml/escapeLine; numbers are formatted here.
 * What a reader sees of a case is what the JSON report holds, nothing more: the renderer runs no
 * reference and computes no answer. For a student's view (`mancala check --html`) only visible
 * cases are shown, as `renderCheck` shows them (`audience: 'student'`).
 */
import type { GradeReport, SubmissionReport } from '../report.ts';
import { casePassRates, median, percent, scoreHistogram, type HistogramBin } from './class-figures.ts';
import { forAudience, hashLinks, pageIds, pct, plural, rateBar, statusSummary, visibilityBadge, type ReportLinks, type SectionOptions } from './html-pieces.ts';
import { submissionHtml } from './html-submission.ts';
import { escapeHtml, escapeLine } from './html-text.ts';
import { categoryTotals, countStatuses, isolationLine, reportCategories } from './summary.ts';
import { formatPoints } from './text.ts';

// ---- the histogram ---------------------------------------------------------------------------

/** The histogram as an inline SVG: a bar per bin with its count above and its range below. */
export function histogramSvg(bins: readonly HistogramBin[], titleId: string): string {
  const barW = 34;
  const gap = 8;
  const top = 18;
  const plotH = 130;
  const width = bins.length * (barW + gap) + gap;
  const height = top + plotH + 36;
  const max = Math.max(1, ...bins.map((b) => b.count));
  const total = bins.reduce((t, b) => t + b.count, 0);
  const bars = bins.map((b, k) => {
    const h = b.count === 0 ? 0 : Math.max(2, Math.round((plotH * b.count) / max));
    const x = gap + k * (barW + gap);
    const y = top + plotH - h;
    return (
      `<g class="hbin" data-bin="${b.label}" data-count="${b.count}"><title>${plural(b.count, 'submission')} scored ${b.label}</title>` +
      `<rect class="bar" x="${x}" y="${y}" width="${barW}" height="${h}" rx="2"></rect>` +
      `<text x="${x + barW / 2}" y="${y - 4}" text-anchor="middle">${b.count}</text>` +
      `<text x="${x + barW / 2}" y="${top + plotH + 14}" text-anchor="middle">${b.label.replace('%', '')}</text>` +
      `</g>`
    );
  });
  return (
    `<svg class="hist" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" aria-labelledby="${titleId}">` +
    `<title id="${titleId}">Histogram of scores: ${bins.map((b) => `${b.label}: ${b.count}`).join(', ')} (${plural(total, 'submission')})</title>` +
    `<line class="axis" x1="0" y1="${top + plotH + 0.5}" x2="${width}" y2="${top + plotH + 0.5}"></line>` +
    bars.join('') +
    `<text x="${width / 2}" y="${height - 4}" text-anchor="middle" class="axis-label">score, % of the maximum</text>` +
    `</svg>`
  );
}

// ---- the class summary -----------------------------------------------------------------------

/** The run's notes and isolation, for the top of a report. */
function runNotes(report: GradeReport): string {
  const notes = (report.notes ?? []).map((n) => `<p class="run-note">${escapeHtml(n)}</p>`).join('');
  return `${notes}<p class="muted">${escapeLine(isolationLine(report.isolation))}</p>`;
}

/** What a reader must know before the summary: that hidden cases are shown (an instructor's report), the run's notes, the isolation. */
export function reportIntroHtml(report: GradeReport, options: SectionOptions = {}): string {
  const r = forAudience(report, options.audience);
  const hiddenShown = options.audience !== 'student' && r.submissions.some((s) => s.cases.some((c) => c.visibility !== 'visible'));
  const warning = hiddenShown
    ? `<p class="run-note">This report shows cases students do not see (hidden, or after the due date) with their expected answers: it is for instructors. A student's own report: <code>mancala check --html FILE</code>.</p>`
    : '';
  return warning + runNotes(r);
}

/** Statistics, the histogram, points per category and each case's pass rate. */
export function classSummaryHtml(report: GradeReport, options: SectionOptions = {}): string {
  const ids = pageIds(options.idPrefix ?? 'r1');
  const r = forAudience(report, options.audience);
  const subs = r.submissions;
  const n = subs.length;
  const scores = subs.map(percent);
  const full = subs.filter((s) => s.cases.length > 0 && s.cases.every((c) => c.status === 'passed')).length;
  const maxScore = Math.max(0, ...subs.map((s) => s.maxScore));
  const mean = n === 0 ? 0 : subs.reduce((t, s) => t + s.score, 0) / n;
  const stats = [
    `<li><b>${n}</b> ${n === 1 ? 'submission' : 'submissions'}</li>`,
    `<li>mean <b>${formatPoints(mean)}</b> / ${formatPoints(maxScore)}</li>`,
    `<li>median <b>${pct(median(scores))}</b></li>`,
    `<li>lowest <b>${pct(n === 0 ? 0 : Math.min(...scores))}</b>, highest <b>${pct(n === 0 ? 0 : Math.max(...scores))}</b></li>`,
    `<li><b>${full}</b> with every case passed</li>`,
  ].join('');
  const categories = reportCategories(r).map((name) => {
    const totals = subs.map((s) => categoryTotals(s.cases).find((t) => t.name === name)).filter((t) => t !== undefined);
    const got = totals.reduce((t, x) => t + x.score, 0);
    const max = totals.reduce((t, x) => t + x.maxScore, 0);
    const allPassed = totals.filter((t) => t.passed === t.cases).length;
    return (
      `<tr><td>${escapeLine(name)}</td><td class="num">${formatPoints(totals.length === 0 ? 0 : got / totals.length)} / ${formatPoints(totals.length === 0 ? 0 : max / totals.length)}</td>` +
      `<td class="num">${rateBar(allPassed, totals.length)}</td></tr>`
    );
  });
  const categoryTable =
    `<h3>Points per category</h3><div class="scroll"><table class="data cats"><thead><tr><th scope="col">category</th><th scope="col" class="num">mean points</th>` +
    `<th scope="col" class="num">submissions passing all of it</th></tr></thead><tbody>${categories.join('')}</tbody></table></div>`;
  const rates = casePassRates(r).map((c) => {
    const problem =
      c.commonProblem === undefined
        ? ''
        : `<span class="clip" title="${escapeLine(c.commonProblem.text)}">${c.commonProblem.count > 1 ? `${c.commonProblem.count}×: ` : ''}${escapeLine(c.commonProblem.text)}</span>`;
    return (
      `<tr><td><span class="path">${escapeLine(c.id)}</span> ${visibilityBadge(c.visibility)}</td><td class="wide">${escapeLine(c.category)}</td>` +
      `<td class="num">${c.passed} / ${c.graded}</td><td class="num">${rateBar(c.passed, c.graded)}</td>` +
      `<td class="wide">${statusSummary(c.statuses)}</td><td>${problem}</td></tr>`
    );
  });
  const caseTable =
    `<h3>Cases, the most failed first</h3><div class="scroll"><table class="data case-rates"><thead><tr><th scope="col">case</th><th scope="col" class="wide">category</th>` +
    `<th scope="col" class="num">passed</th><th scope="col" class="num">rate</th><th scope="col" class="wide">did not pass</th><th scope="col">most common problem</th></tr></thead>` +
    `<tbody>${rates.join('')}</tbody></table></div>`;
  return (
    `<section class="summary" id="${ids.summary}" aria-labelledby="${ids.summary}-h">` +
    `<h2 id="${ids.summary}-h">Class summary</h2><ul class="stats">${stats}</ul>` +
    `<div class="charts"><div><h3>Scores</h3><div class="scroll">${histogramSvg(scoreHistogram(subs), `${ids.summary}-hist`)}</div></div><div>${categoryTable}</div></div>` +
    caseTable +
    `</section>`
  );
}

// ---- the submissions table -------------------------------------------------------------------

/** Indices of the categories and cases a submission did not pass, in the report's lists. */
function failing(s: SubmissionReport, categories: readonly string[], caseIds: readonly string[]): { cats: number[]; cases: number[] } {
  const bad = s.cases.filter((c) => c.status !== 'passed');
  const cats = [...new Set(bad.map((c) => categories.indexOf(c.category)))].filter((k) => k >= 0);
  const cases = bad.map((c) => caseIds.indexOf(c.id)).filter((k) => k >= 0);
  return { cats, cases };
}

/** Every case id of the report, in order of first appearance. */
function reportCaseIds(report: GradeReport): string[] {
  const ids = new Set<string>();
  for (const s of report.submissions) for (const c of s.cases) ids.add(c.id);
  return [...ids];
}

/** With a late penalty, the adjusted score after the raw one (the table sorts and charts the raw scores). */
function lateCell(s: SubmissionReport): string {
  return s.late === undefined || s.late.penalty === 0 ? '' : ` <span class="muted late-adjusted">late: ${formatPoints(s.late.score)}</span>`;
}

/** The table of submissions, each row linking to its submission, with the controls the script works. */
export function submissionsTableHtml(report: GradeReport, links: ReportLinks, options: SectionOptions = {}): string {
  const ids = pageIds(options.idPrefix ?? 'r1');
  const r = forAudience(report, options.audience);
  const categories = reportCategories(r);
  const caseIds = reportCaseIds(r);
  const rows = r.submissions.map((s, i) => {
    const counts = countStatuses(s.cases);
    const f = failing(s, categories, caseIds);
    const problems = statusSummary(counts);
    const catTags = f.cats.map((k) => `<span class="tag">${escapeLine(categories[k]!)}</span>`).join('');
    return (
      `<tr data-index="${i}" data-name="${escapeLine(s.id.toLowerCase())}" data-score="${percent(s).toFixed(4)}" data-passed="${counts.passed}" ` +
      `data-failed="${s.cases.length - counts.passed}" data-cats="${f.cats.join(' ')}" data-cases="${f.cases.join(' ')}">` +
      `<td class="num wide">${i + 1}</td><td><a href="${escapeLine(links.submission(i))}">${escapeLine(s.id)}</a></td>` +
      `<td class="num score">${formatPoints(s.score)} / ${formatPoints(s.maxScore)}${lateCell(s)}</td><td class="num wide">${pct(percent(s))}</td>` +
      `<td class="num">${counts.passed} / ${s.cases.length}</td><td>${catTags}</td><td class="wide">${problems}</td></tr>`
    );
  });
  const option = (value: string, text: string) => `<option value="${value}">${text}</option>`;
  const catOptions = categories.map((c, k) => option(String(k), escapeLine(c))).join('');
  const caseOptions = caseIds.map((c, k) => option(String(k), escapeLine(c))).join('');
  const sortable = (key: string, text: string, cls = '') => `<th scope="col"${cls === '' ? '' : ` class="${cls}"`}><button type="button" data-sort="${key}">${text}</button></th>`;
  return (
    `<section class="subs" id="${ids.subs}" aria-labelledby="${ids.subs}-h"><h2 id="${ids.subs}-h">Submissions</h2>` +
    `<div class="filters" hidden="">` +
    `<label>Name<input type="search" class="f-name" placeholder="filter by name" autocomplete="off"/></label>` +
    `<label>Failing category<select class="f-cat">${option('', 'any')}${catOptions}</select></label>` +
    `<label>Failing case<select class="f-case">${option('', 'any')}${caseOptions}</select></label>` +
    `<span class="f-count muted" role="status" aria-live="polite"></span></div>` +
    `<div class="scroll"><table class="data subs-table"><thead><tr>` +
    sortable('index', '#', 'num wide') +
    sortable('name', 'submission') +
    sortable('score', 'score', 'num') +
    `<th scope="col" class="num wide">%</th>` +
    sortable('passed', 'cases passed', 'num') +
    `<th scope="col">failing categories</th><th scope="col" class="wide">did not pass</th>` +
    `</tr></thead><tbody>${rows.join('')}</tbody></table></div>` +
    (links.all === undefined ? '' : `<p class="muted"><a href="${escapeLine(links.all)}">Show every submission on this page</a> (for searching or printing)</p>`) +
    `</section>`
  );
}

/** A whole report's parts in one article: heading, notes, summary and table (with several submissions), each submission. */
export function reportArticleHtml(report: GradeReport, options: SectionOptions & { heading?: string } = {}): string {
  const prefix = options.idPrefix ?? 'r1';
  const ids = pageIds(prefix);
  const links = hashLinks(prefix);
  const r = forAudience(report, options.audience);
  const many = r.submissions.length > 1;
  const sections = r.submissions.map((_, i) => submissionHtml(r, i, links, { ...options, audience: 'instructor' }));
  return (
    `<article class="report${many ? ' many' : ''}" id="${ids.report}" aria-labelledby="${ids.report}-h"><span class="anchor all-anchor" id="${ids.all}"></span>` +
    `<h2 id="${ids.report}-h">${escapeLine(options.heading ?? `Suite ${report.suite}`)}</h2>${reportIntroHtml(report, options)}` +
    (many ? classSummaryHtml(r, { ...options, audience: 'instructor' }) + submissionsTableHtml(r, links, { ...options, audience: 'instructor' }) : '') +
    sections.join('') +
    `</article>`
  );
}
