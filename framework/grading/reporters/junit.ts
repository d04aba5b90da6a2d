/**
 * JUnit XML for CI (GitLab, Jenkins, GitHub test reporters): one <testsuite> per submission, one
 * <testcase> per case, `classname` "<submission>.<category>" so that CI groups cases by category
 * and the same case of two submissions never collides.
 *
 * - failed → <failure type="…"> (type: the checks that failed, else "failed");
 *   error, timeout, memory → <error type="<status>">. `message` is the first line, the body the
 *   whole message. What was found but not graded (CaseReport.info) is the case's <system-out>.
 * - Times are seconds with millisecond precision, as JUnit writes them.
 * - Student output can hold anything: ANSI sequences are dropped, characters XML 1.0 cannot hold
 *   (most C0 controls, lone surrogates, U+FFFE/U+FFFF) are removed, and the rest is escaped, with
 *   tabs, newlines and carriage returns in attributes written as character references so that a
 *   parser gives them back rather than normalising them to spaces.
 */
import type { CaseReport, GradeReport, SubmissionReport } from '../report.ts';
import { countStatuses, isolationLine } from './summary.ts';
import { firstLine, formatPoints, stripAnsi } from './text.ts';

// Char ::= #x9 | #xA | #xD | [#x20-#xD7FF] | [#xE000-#xFFFD] | [#x10000-#x10FFFF]  (XML 1.0, §2.2)
const NOT_XML_CHAR = /[^\t\n\r\u0020-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]/gu;

/** What of `text` XML 1.0 can hold: ANSI sequences and invalid characters removed. */
export function xmlSafe(text: string): string {
  return stripAnsi(text).replace(NOT_XML_CHAR, '');
}

function escapeText(text: string): string {
  return xmlSafe(text).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/\r/g, '&#13;');
}

function escapeAttribute(text: string): string {
  return escapeText(text).replace(/"/g, '&quot;').replace(/\t/g, '&#9;').replace(/\n/g, '&#10;');
}

function attributes(attrs: Record<string, string | number>): string {
  return Object.entries(attrs)
    .map(([k, v]) => ` ${k}="${escapeAttribute(String(v))}"`)
    .join('');
}

/** ms → seconds, three decimals. */
function seconds(ms: number): string {
  return (Math.max(0, ms) / 1000).toFixed(3);
}

function testcase(suiteName: string, c: CaseReport): string {
  const open = `    <testcase${attributes({ classname: `${suiteName}.${c.category}`, name: c.id, time: seconds(c.ms) })}`;
  // What was found but not graded (an informational node count) is the case's output, never a failure.
  const info = c.info !== undefined && c.info.length > 0 ? `\n      <system-out>${escapeText(c.info.join('\n'))}</system-out>` : '';
  if (c.status === 'passed') return info === '' ? `${open}/>` : `${open}>${info}\n    </testcase>`;
  let element: string;
  let type: string;
  if (c.status === 'failed') {
    element = 'failure';
    const failedChecks = (c.checks ?? []).filter((k) => !k.passed).map((k) => k.check);
    type = failedChecks.length > 0 ? failedChecks.join(',') : 'failed';
  } else {
    element = 'error';
    type = c.status;
  }
  const message = c.message === '' ? c.status : c.message;
  const detail = `<${element}${attributes({ message: firstLine(message), type })}>${escapeText(message)}</${element}>`;
  return `${open}>\n      ${detail}${info}\n    </testcase>`;
}

function testsuite(report: GradeReport, s: SubmissionReport): string {
  const counts = countStatuses(s.cases);
  const ms = s.cases.reduce((total, c) => total + c.ms, 0);
  const head = `  <testsuite${attributes({
    name: s.id,
    tests: s.cases.length,
    failures: counts.failed,
    errors: counts.error + counts.timeout + counts.memory,
    skipped: 0,
    time: seconds(ms),
  })}>`;
  const properties = [
    ['suite', report.suite],
    ['path', s.path],
    ['score', formatPoints(s.score)],
    ['maxScore', formatPoints(s.maxScore)],
    ['isolation', isolationLine(report.isolation)],
    // JUnit has no properties for the whole run: each suite carries the run's notes.
    ...(report.notes ?? []).map((note) => ['run-note', note]),
    ...s.notes.map((note) => ['note', note]),
  ].map(([name, value]) => `      <property${attributes({ name: name!, value: value! })}/>`);
  return [head, '    <properties>', ...properties, '    </properties>', ...s.cases.map((c) => testcase(s.id, c)), '  </testsuite>'].join('\n');
}

/** The report as JUnit XML. */
export function toJUnit(report: GradeReport): string {
  const all = report.submissions.flatMap((s) => s.cases);
  const counts = countStatuses(all);
  const head = `<testsuites${attributes({
    name: report.suite,
    tests: all.length,
    failures: counts.failed,
    errors: counts.error + counts.timeout + counts.memory,
    time: seconds(all.reduce((total, c) => total + c.ms, 0)),
  })}>`;
  return ['<?xml version="1.0" encoding="UTF-8"?>', head, ...report.submissions.map((s) => testsuite(report, s)), '</testsuites>', ''].join('\n');
}
