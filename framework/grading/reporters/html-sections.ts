/**
 * The HTML report's parts, each a string of markup from a GradeReport (the object the JSON
 * reporter writes, and reads back with parseReport): the class summary (statistics, a histogram of
 * scores, points per category, each case's pass rate), the submissions table (sorted and filtered
 * by the page's script), and one section per submission with each case that did not pass drawn
 * out: its position on a board in the course's pit names, expected against got, the likely bug,
 * the information the grader did not grade, the reproduce command, the whole message.
 *
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
import type { CaseReport, GradeReport, SubmissionReport } from '../report.ts';
import type { CaseStatus } from '../types.ts';
import { caseDetails, likelyBugs, type CaseDetails } from './case-details.ts';
import { boardHtml, mancalaBoardView, ticTacToeHtml } from './html-board.ts';
import { escapeHtml, escapeLine } from './html-text.ts';
import { categoryTotals, countStatuses, isolationLine, reportCategories, STATUS_LABELS, STATUSES } from './summary.ts';
import { firstLine, formatPoints } from './text.ts';

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

// ---- numbers ---------------------------------------------------------------------------------

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

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length === 0 ? 0 : s.length % 2 === 1 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

const pct = (x: number) => `${Math.round(x)}%`;
const plural = (n: number, word: string, words = `${word}s`) => `${n} ${n === 1 ? word : words}`;

// ---- small pieces ----------------------------------------------------------------------------

function statusBadge(status: CaseStatus): string {
  return `<span class="badge st-${status}" title="${escapeLine(STATUS_LABELS[status])}">${status}</span>`;
}

const VISIBILITY_TEXT: Record<CaseReport['visibility'], { label: string; title: string }> = {
  visible: { label: 'visible', title: 'students see this case' },
  hidden: { label: 'hidden', title: 'a hidden case: students never see it (this report is the instructors\u2019)' },
  after_due_date: { label: 'after due date', title: 'students see this case after the due date' },
};

function visibilityBadge(v: CaseReport['visibility']): string {
  if (v === 'visible') return '';
  return `<span class="badge vis" title="${VISIBILITY_TEXT[v].title}">${VISIBILITY_TEXT[v].label}</span>`;
}

/**
 * A pass rate's bar: an SVG whose bar is a rect as wide as the share. Not an element with a
 * `style="width:…"`: the web app serves these parts under a policy without 'unsafe-inline' for
 * styles, which refuses style attributes, while an SVG's geometry attributes are not styles.
 */
function rateBar(passed: number, total: number): string {
  const share = total === 0 ? 0 : (100 * passed) / total;
  return (
    `<svg class="rate" viewBox="0 0 100 1" preserveAspectRatio="none" aria-hidden="true"><rect width="${share.toFixed(1)}" height="1"></rect></svg>` +
    `<span class="pc">${pct(share)}</span>`
  );
}

function statusSummary(counts: Partial<Record<CaseStatus, number>>): string {
  return STATUSES.filter((s) => s !== 'passed' && (counts[s] ?? 0) > 0)
    .map((s) => `${counts[s]} ${s}`)
    .join(', ');
}

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
      `<td class="num score">${formatPoints(s.score)} / ${formatPoints(s.maxScore)}</td><td class="num wide">${pct(percent(s))}</td>` +
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

// ---- one submission --------------------------------------------------------------------------

function positionHtml(details: CaseDetails): string {
  const p = details.position;
  if (p === undefined) return '';
  if (p.kind === 'tictactoe') return ticTacToeHtml(p.cells, { caption: `tictactoe, ${p.status}`, ...(details.move !== undefined ? { moves: details.move } : {}) });
  const side = p.board.toMove === 1 ? 'top' : 'bottom';
  const view = mancalaBoardView(p.profile, p.board, { caption: `${p.game}, ${side} to move`, ...(details.move !== undefined ? { moves: details.move } : {}) });
  return boardHtml(view);
}

function comparisonTable(details: CaseDetails): string {
  if (details.comparisons.length === 0) return '';
  const rows = details.comparisons.map((c) => `<tr><th scope="row">${escapeLine(c.what)}</th><td class="exp">${escapeLine(c.expected)}</td><td class="got">${escapeLine(c.got)}</td></tr>`);
  return `<div class="scroll"><table class="cmp"><thead><tr><th scope="col"></th><th scope="col">expected</th><th scope="col">got</th></tr></thead><tbody>${rows.join('')}</tbody></table></div>`;
}

function infoHtml(info: readonly string[] | undefined): string {
  if (info === undefined || info.length === 0) return '';
  const items = info.map((text) => {
    const first = firstLine(text);
    const bugs = likelyBugs(text).map((b) => `<p><strong>likely bug, not graded:</strong> ${escapeLine(b)}</p>`);
    return `<p>${escapeLine(first)}</p>${bugs.join('')}`;
  });
  return `<div class="info"><strong>Not graded (information):</strong>${items.join('')}</div>`;
}

function reproduceHtml(details: CaseDetails): string {
  const r = details.reproduce;
  if (r === undefined) return '';
  const text = r.command ?? r.lines.join('\n');
  return (
    `<div class="repro"><strong>Reproduce${r.command === undefined ? '' : ' (the reference\u2019s answer)'}</strong>` +
    `<div class="repro-row"><pre class="wrap"><code>${escapeHtml(text)}</code></pre><button type="button" class="copy" aria-live="polite">Copy</button></div></div>`
  );
}

/** A case that did not pass (or passed with information), drawn out. */
export function caseHtml(c: CaseReport, id: string): string {
  const details = caseDetails(c);
  const board = positionHtml(details);
  const bugs = details.likelyBugs.map((b) => `<p class="bug"><strong>Likely bug:</strong> ${escapeLine(b)}</p>`).join('');
  const failedChecks = (c.checks ?? []).filter((k) => !k.passed && k.informational !== true).map((k) => `<span class="tag">${escapeLine(k.check)}</span>`);
  const checks = failedChecks.length > 0 ? `<p class="muted">checks failed: ${failedChecks.join('')}</p>` : '';
  // Long lines wrap, unless the message draws boards in text (next-state checks), whose columns must stay put.
  const drawn = /^\s*\+-+\+/m.test(c.message);
  const message = c.message.trim() === '' ? '' : `<pre${drawn ? '' : ' class="wrap"'}>${escapeHtml(c.message.replace(/\s+$/, ''))}</pre>`;
  // With expected/got drawn out above it, the whole message is one click away; else it is what there is to read.
  const drawnOut = details.comparisons.length > 0;
  const whole = message === '' || !drawnOut ? '' : `<details><summary>Whole message</summary>${message}</details>`;
  const cls = c.status === 'passed' ? 'case info-only' : `case case-${c.status}`;
  const head =
    `<h4>${statusBadge(c.status)} <span class="path">${escapeLine(c.id)}</span> <span class="muted">[${escapeLine(c.category)}]</span> ` +
    `<span class="score">${formatPoints(c.score)} / ${formatPoints(c.maxScore)}</span> ${visibilityBadge(c.visibility)}</h4>`;
  const description = c.description === undefined || c.description === '' ? '' : `<p class="desc">${escapeLine(c.description)}</p>`;
  const main = `<div>${comparisonTable(details)}${bugs}${drawnOut ? '' : message}${infoHtml(c.info)}${checks}${reproduceHtml(details)}</div>`;
  return (
    `<article class="${cls}" id="${id}" aria-label="${escapeLine(`${c.status} ${c.id}`)}">${head}${description}` +
    `<div class="case-body${board === '' ? '' : ' with-board'}">${main}${board === '' ? '' : `<div>${board}</div>`}</div>${whole}</article>`
  );
}

/** One submission: its score, categories and notes, each case that did not pass, the information on passed ones, the list of passed cases. */
export function submissionHtml(report: GradeReport, index: number, links: ReportLinks, options: SectionOptions = {}): string {
  const ids = pageIds(options.idPrefix ?? 'r1');
  const r = forAudience(report, options.audience);
  const s = r.submissions[index];
  if (s === undefined) throw new RangeError(`the report has no submission #${index + 1} (it has ${r.submissions.length})`);
  const n = r.submissions.length;
  const counts = countStatuses(s.cases);
  const nav = [
    n > 1 ? `<a href="${escapeLine(links.table)}">← All submissions</a>` : '',
    index > 0 ? `<a href="${escapeLine(links.submission(index - 1))}">‹ ${escapeLine(r.submissions[index - 1]!.id)}</a>` : '',
    index + 1 < n ? `<a href="${escapeLine(links.submission(index + 1))}">${escapeLine(r.submissions[index + 1]!.id)} ›</a>` : '',
  ].filter((x) => x !== '');
  const categories = categoryTotals(s.cases).map(
    (t) => `<tr><td>${escapeLine(t.name)}</td><td class="num">${formatPoints(t.score)} / ${formatPoints(t.maxScore)}</td><td class="num">${t.passed} / ${t.cases}</td></tr>`,
  );
  const notes = s.notes.length === 0 ? '' : `<ul class="notes">${s.notes.map((x) => `<li>${escapeLine(x)}</li>`).join('')}</ul>`;
  const bad = s.cases.map((c, j) => ({ c, j })).filter(({ c }) => c.status !== 'passed');
  const informed = s.cases.map((c, j) => ({ c, j })).filter(({ c }) => c.status === 'passed' && (c.info?.length ?? 0) > 0);
  const passed = s.cases.filter((c) => c.status === 'passed');
  const verdict =
    s.cases.length === 0
      ? 'no cases'
      : counts.passed === s.cases.length
        ? s.cases.length === 1
          ? 'its one case passed'
          : `all ${s.cases.length} cases passed`
        : `${counts.passed} of ${plural(s.cases.length, 'case')} passed`;
  const problems = statusSummary(counts);
  return (
    `<section class="sub" id="${ids.submission(index)}" aria-labelledby="${ids.submission(index)}-h">` +
    (nav.length > 0 ? `<nav class="subnav" aria-label="submissions">${nav.join('')}</nav>` : '') +
    `<h2 id="${ids.submission(index)}-h"><span>${escapeLine(s.id)}</span> <span class="score">${formatPoints(s.score)} / ${formatPoints(s.maxScore)}</span></h2>` +
    `<p class="path">${escapeLine(s.path)}</p>` +
    `<p>${verdict}${problems === '' ? '' : ` (${problems})`}</p>` +
    (categories.length > 0
      ? `<div class="scroll"><table class="data cats"><thead><tr><th scope="col">category</th><th scope="col" class="num">points</th><th scope="col" class="num">passed</th></tr></thead><tbody>${categories.join('')}</tbody></table></div>`
      : '') +
    notes +
    (bad.length > 0 ? `<h3>${bad.length === 1 ? 'The case that did not pass' : `The ${bad.length} cases that did not pass`}</h3>${bad.map(({ c, j }) => caseHtml(c, ids.kase(index, j))).join('')}` : '') +
    (informed.length > 0 ? `<h3>Passed, with information (not graded)</h3>${informed.map(({ c, j }) => caseHtml(c, ids.kase(index, j))).join('')}` : '') +
    (passed.length > 0
      ? `<details><summary>${plural(passed.length, 'case')} passed</summary><ul class="passed-list">${passed.map((c) => `<li><span class="path">${escapeLine(c.id)}</span> ${visibilityBadge(c.visibility)}</li>`).join('')}</ul></details>`
      : '') +
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
