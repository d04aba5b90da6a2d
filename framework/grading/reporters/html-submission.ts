/**
 * One submission of the HTML report: its score, categories and notes, and each case that did not
 * pass drawn out: its position on a board in the course's pit names, expected against got, the
 * likely bug, the information the grader did not grade, the reproduce command, the whole message.
 */
import type { CaseReport, GradeReport, LateVerdict } from '../report.ts';
import { caseDetails, likelyBugs, type CaseDetails } from './case-details.ts';
import { boardHtml, mancalaBoardView, ticTacToeHtml } from './html-board.ts';
import { forAudience, pageIds, plural, statusBadge, statusSummary, visibilityBadge, type ReportLinks, type SectionOptions } from './html-pieces.ts';
import { escapeHtml, escapeLine } from './html-text.ts';
import { categoryTotals, countStatuses } from './summary.ts';
import { firstLine, formatDuration, formatPoints, lateBrief } from './text.ts';

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

/** The late policy's verdict (--due): the raw score, the lateness and grace days, the penalty, the adjusted score. */
function lateHtml(l: LateVerdict, maxScore: number): string {
  const out = (x: number) => `${formatPoints(x)} / ${formatPoints(maxScore)}`;
  const handedIn =
    l.submittedAt === undefined
      ? 'no time in the export or the files (taken as on time)'
      : `${l.submittedAt}${l.submittedAtSource === 'file-times' ? ' (the newest of its files\u2019 times)' : ''}`;
  const grace = l.graceDaysSpent === 0 && l.graceDaysLeft === undefined ? '' : `; ${l.graceDaysSpent} grace day${l.graceDaysSpent === 1 ? '' : 's'} spent${l.graceDaysLeft === undefined ? '' : `, ${l.graceDaysLeft} left`}`;
  const rows: [string, string][] = [
    ['raw score', out(l.rawScore)],
    ['due', `${l.due}${l.extended === true ? ' (an extension)' : ''}`],
    ['handed in', handedIn],
    ['lateness', `${l.minutesLate === 0 ? 'on time' : `${formatDuration(l.minutesLate * 60_000)} late`}${grace}`],
    ['penalty', l.penalty > 0 ? `\u2212${formatPoints(l.penalty)}` : 'none'],
    ['adjusted score', out(l.score)],
  ];
  return (
    `<div class="scroll"><table class="data late" aria-label="late policy"><tbody>${rows.map(([k, v]) => `<tr><th scope="row">${k}</th><td>${escapeLine(v)}</td></tr>`).join('')}</tbody></table></div>` +
    `<p class="muted">${escapeLine(l.summary)}</p>`
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
    // With a due date the adjusted score leads, as on the console and in the gradebook; the raw score is beside it.
    `<h2 id="${ids.submission(index)}-h"><span>${escapeLine(s.id)}</span> <span class="score">${formatPoints(s.late?.score ?? s.score)} / ${formatPoints(s.maxScore)}</span>` +
    (s.late === undefined ? '' : ` <span class="muted">(${escapeLine(lateBrief(s.late))})</span>`) +
    `</h2>` +
    `<p class="path">${escapeLine(s.path)}</p>` +
    (s.late === undefined ? '' : lateHtml(s.late, s.maxScore)) +
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
