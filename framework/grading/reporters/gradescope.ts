/**
 * Gradescope's results.json for one submission (Gradescope grades one submission per container):
 * https://gradescope-autograders.readthedocs.io/en/latest/specs/#output-format
 *
 * - Every test is `status` "passed" or "failed" (the only two Gradescope knows); an error, timeout
 *   or memory case is "failed" with its status named at the top of `output`.
 * - Names and outputs use the "text" format: a student's message holding `<script>` must show as
 *   text, never be rendered as HTML (the top-level output defaults to "simple_format", i.e. HTML).
 * - The top-level `output` summarises the visible cases only: Gradescope hides the total score when
 *   a test is hidden, and our summary must not give it (or hidden results) away either.
 * - Our visibilities are Gradescope's (`visible`, `hidden`, `after_due_date`), so they map as they are.
 */
import { UserError } from '../../errors.ts';
import type { GradeReport, CaseReport } from '../report.ts';
import type { CaseStatus } from '../types.ts';
import type { Visibility } from '../../suites/types.ts';
import { caseTitle, categoryTotals, countStatuses, isolationLine, STATUS_LABELS } from './summary.ts';
import { formatPoints, oneLine, plainText, roundMs, roundScore } from './text.ts';

export type GradescopeVisibility = 'hidden' | 'after_due_date' | 'after_published' | 'visible';
export type GradescopeFormat = 'text' | 'simple_format' | 'html' | 'md' | 'ansi';

export interface GradescopeTest {
  score: number;
  max_score: number;
  status: 'passed' | 'failed';
  name: string;
  name_format: GradescopeFormat;
  /** "category.case", both 1-based, in report order */
  number: string;
  output?: string;
  output_format: GradescopeFormat;
  tags: string[];
  visibility: GradescopeVisibility;
  extra_data: { id: string; category: string; status: CaseStatus; ms: number; nodes: number | null };
}

export interface GradescopeResults {
  score: number;
  /** seconds, whole */
  execution_time: number;
  output: string;
  output_format: GradescopeFormat;
  /** what run_autograder prints is for instructors (it may describe hidden cases) */
  stdout_visibility: GradescopeVisibility;
  extra_data: { suite: string; submission: string; path: string; maxScore: number };
  tests: GradescopeTest[];
}

const VISIBILITY: Record<Visibility, GradescopeVisibility> = {
  visible: 'visible',
  hidden: 'hidden',
  after_due_date: 'after_due_date',
};

/** The test's output: its message (after its status when it is neither passed nor failed), then what was found but not graded. */
function testOutput(c: CaseReport): string | undefined {
  const message = plainText(c.message).trim();
  const parts = c.status === 'passed' || c.status === 'failed' ? [] : [`Status: ${STATUS_LABELS[c.status]}`];
  if (message !== '') parts.push(message);
  for (const info of c.info ?? []) {
    const text = plainText(info).trim();
    if (text !== '') parts.push(text);
  }
  return parts.length === 0 ? undefined : parts.join('\n');
}

function tests(cases: readonly CaseReport[]): GradescopeTest[] {
  const categoryIndex = new Map<string, { index: number; next: number }>();
  return cases.map((c) => {
    let at = categoryIndex.get(c.category);
    if (at === undefined) {
      at = { index: categoryIndex.size + 1, next: 1 };
      categoryIndex.set(c.category, at);
    }
    const test: GradescopeTest = {
      score: roundScore(c.score),
      max_score: roundScore(c.maxScore),
      status: c.status === 'passed' ? 'passed' : 'failed',
      name: oneLine(caseTitle(c)),
      name_format: 'text',
      number: `${at.index}.${at.next++}`,
      output_format: 'text',
      tags: [c.category],
      visibility: VISIBILITY[c.visibility],
      extra_data: { id: c.id, category: c.category, status: c.status, ms: roundMs(c.ms), nodes: c.nodes },
    };
    const output = testOutput(c);
    if (output !== undefined) test.output = output;
    return test;
  });
}

/** The summary a student sees above the tests: visible cases only, then notes and isolation. */
function summary(report: GradeReport, cases: readonly CaseReport[], notes: readonly string[], notGraded?: string): string {
  const visible = cases.filter((c) => c.visibility === 'visible');
  const lines = [`Suite ${oneLine(report.suite)}`];
  // The machine could not run it: said first, so that its score of 0 is read as no grade at all.
  if (notGraded !== undefined) lines.push(`NOT GRADED: ${oneLine(notGraded)} (the grading machine's fault, not yours: it will be graded again)`);
  if (visible.length === 0) {
    lines.push('No case is visible before grades are released.');
  } else {
    const counts = countStatuses(visible);
    const problems = (['failed', 'error', 'timeout', 'memory', 'output-limit'] as const)
      .filter((s) => counts[s] > 0)
      .map((s) => `${counts[s]} ${s}`);
    lines.push(`Visible cases: ${counts.passed} of ${visible.length} passed${problems.length > 0 ? ` (${problems.join(', ')})` : ''}`);
    for (const t of categoryTotals(visible)) {
      lines.push(`  ${oneLine(t.name)}: ${formatPoints(t.score)} / ${formatPoints(t.maxScore)} points, ${t.passed} of ${t.cases} passed`);
    }
    if (visible.length < cases.length) lines.push('Further cases are graded and shown after the due date, or only to the instructors.');
  }
  if (notes.length > 0) {
    lines.push('', 'Notes:');
    for (const note of notes) lines.push(`  - ${oneLine(note)}`);
  }
  lines.push('', isolationLine(report.isolation));
  return lines.join('\n');
}

/** Gradescope's results.json (as an object, for JSON.stringify) for the submission at `submissionIndex`. */
export function toGradescope(report: GradeReport, submissionIndex = 0): GradescopeResults {
  const submission = report.submissions[submissionIndex];
  if (submission === undefined) {
    throw new UserError(`the grade report has no submission #${submissionIndex + 1} (it has ${report.submissions.length})`);
  }
  const ms = submission.cases.reduce((total, c) => total + c.ms, 0);
  return {
    score: roundScore(submission.score),
    execution_time: Math.ceil(ms / 1000),
    output: summary(report, submission.cases, [...(report.notes ?? []), ...submission.notes], submission.notGraded),
    output_format: 'text',
    stdout_visibility: 'hidden',
    extra_data: { suite: report.suite, submission: submission.id, path: submission.path, maxScore: roundScore(submission.maxScore) },
    tests: tests(submission.cases),
  };
}
