/**
 * A student's feedback as Markdown (readable as plain text too): the score, the late policy's
 * verdict, the points of each category, the cases they may see that did not pass (expected
 * against got, the likely bug, the whole message), the ones that passed, and the points of the
 * cases not shown. It renders only the StudentView it is given: what the view left out is not here.
 */
import type { CaseReport } from '../report.ts';
import { caseDetails } from '../reporters/case-details.ts';
import { categoryTotals } from '../reporters/summary.ts';
import { formatPoints, oneLine, plainText } from '../reporters/text.ts';
import type { StudentView } from './student-view.ts';

/** Text safe inside a Markdown line or table cell: no markup a student's output could inject. */
function inline(text: string): string {
  return oneLine(text).replace(/([\\`*_[\]<>|])/g, '\\$1');
}

/** A fenced block longer than any run of backticks in `text`, so the text cannot close it. */
function fenced(text: string): string {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `${fence}text\n${plainText(text).replace(/\s+$/, '')}\n${fence}`;
}

function caseSection(c: CaseReport): string[] {
  const details = caseDetails(c);
  const out = [`### ${c.status === 'passed' ? '✓' : '✗'} ${inline(c.id)} [${inline(c.category)}]: ${c.status}, ${formatPoints(c.score)} / ${formatPoints(c.maxScore)}`, ''];
  if (c.description !== undefined && c.description !== '') out.push(inline(c.description), '');
  if (details.comparisons.length > 0) {
    out.push('| | expected | got |', '| --- | --- | --- |', ...details.comparisons.map((k) => `| ${inline(k.what)} | ${inline(k.expected)} | ${inline(k.got)} |`), '');
  }
  for (const bug of details.likelyBugs) out.push(`**Likely bug:** ${inline(bug)}`, '');
  if (c.message.trim() !== '') out.push(fenced(c.message), '');
  for (const info of c.info ?? []) out.push(`Not graded (information): ${inline(info.split('\n')[0]!)}`, '');
  return out;
}

export function feedbackMarkdown(view: StudentView): string {
  const s = view.report.submissions[0]!;
  const who = view.student.name !== undefined ? `${inline(view.student.name)} (${inline(view.student.id)})` : inline(view.student.id);
  const out = [`# ${inline(view.report.suite)}: feedback for ${who}`, ''];
  if (s.notGraded !== undefined) out.push(`**Not graded:** ${inline(s.notGraded)}`, '');
  else if (view.late !== undefined) {
    // The late policy's line itself is among the notes below.
    out.push(`**Score: ${formatPoints(view.late.score)} / ${formatPoints(s.maxScore)}** (graded: ${formatPoints(view.late.rawScore)}${view.late.penalty > 0 ? `, late penalty \u2212${formatPoints(view.late.penalty)}` : ''})`, '');
    if (view.late.submittedAt !== undefined) out.push(`Handed in ${view.late.submittedAt}, due ${view.late.due}${view.late.extended === true ? ' (your extension)' : ''}.`, '');
  } else out.push(`**Score: ${formatPoints(s.score)} / ${formatPoints(s.maxScore)}**`, '');
  const totals = categoryTotals(s.cases);
  if (totals.length > 0) {
    out.push('| category | points | cases passed |', '| --- | --- | --- |', ...totals.map((t) => `| ${inline(t.name)} | ${formatPoints(t.score)} / ${formatPoints(t.maxScore)} | ${t.passed} / ${t.cases} |`), '');
  }
  for (const note of s.notes) out.push(`- ${inline(note)}`);
  if (s.notes.length > 0) out.push('');
  const bad = s.cases.filter((c) => c.status !== 'passed');
  if (bad.length > 0) out.push(`## ${bad.length === 1 ? 'The case that did not pass' : `The ${bad.length} cases that did not pass`}`, '', ...bad.flatMap(caseSection));
  const informed = s.cases.filter((c) => c.status === 'passed' && (c.info?.length ?? 0) > 0);
  if (informed.length > 0) out.push('## Passed, with information (not graded)', '', ...informed.flatMap(caseSection));
  const passed = s.cases.filter((c) => c.status === 'passed');
  if (passed.length > 0) out.push('## Passed', '', passed.map((c) => inline(c.id)).join(', '), '');
  return `${out.join('\n').replace(/\n+$/, '')}\n`;
}
