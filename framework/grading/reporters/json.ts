/**
 * The JSON report, our own stable schema (report.ts): written with a fixed key order, 2-space
 * indent and rounded numbers so that two runs that graded the same way give byte-identical files
 * (diffable, cacheable); read back with a zod schema that names the file and the field of any
 * problem. Every other output is derived from the same GradeReport.
 */
import * as z from 'zod';
import { UserError } from '../../errors.ts';
import type { CheckResult } from '../types.ts';
import type { CaseReport, GradeReport, LateVerdict, SubmissionReport } from '../report.ts';
import { STATUSES } from './summary.ts';
import { roundMs, roundScore } from './text.ts';
import { describeValue, formatPath, valueAt } from '../../field-path.ts';
import { jsonSyntaxLine, jsonSyntaxReason } from '../../json-syntax.ts';

// ---- writing ---------------------------------------------------------------------------------

/** A report field that is not a finite number is a grader bug: say where, rather than write `null`. */
function finite(x: number, where: string): number {
  if (!Number.isFinite(x)) throw new Error(`GradeReport ${where} is ${x}: every number in a report must be finite`);
  return x;
}

function checkJson(check: CheckResult): CheckResult {
  const out: CheckResult = { check: check.check, passed: check.passed, message: check.message };
  if (check.informational === true) out.informational = true;
  if (check.credit !== undefined) out.credit = check.credit;
  if (check.status !== undefined) out.status = check.status;
  return out;
}

function caseJson(c: CaseReport, where: string): CaseReport {
  const out: CaseReport = {
    id: c.id,
    category: c.category,
    status: c.status,
    score: roundScore(finite(c.score, `${where}.score`)),
    maxScore: roundScore(finite(c.maxScore, `${where}.maxScore`)),
    message: c.message,
    ...(c.info !== undefined && c.info.length > 0 ? { info: [...c.info] } : {}),
    ms: roundMs(finite(c.ms, `${where}.ms`)),
    nodes: c.nodes === null ? null : finite(c.nodes, `${where}.nodes`),
    visibility: c.visibility,
  };
  if (c.description !== undefined) out.description = c.description;
  if (c.checks !== undefined) out.checks = c.checks.map(checkJson);
  return out;
}

function submissionJson(s: SubmissionReport, where: string): SubmissionReport {
  return {
    id: s.id,
    path: s.path,
    score: roundScore(finite(s.score, `${where}.score`)),
    maxScore: roundScore(finite(s.maxScore, `${where}.maxScore`)),
    cases: s.cases.map((c, i) => caseJson(c, `${where}.cases[${i}]`)),
    notes: [...s.notes],
    ...(s.notGraded !== undefined ? { notGraded: s.notGraded } : {}),
    ...(s.late !== undefined ? { late: lateJson(s.late) } : {}),
  };
}

/** The late verdict in a fixed key order (grading/late/lateness.ts). */
function lateJson(l: LateVerdict): LateVerdict {
  return {
    due: l.due,
    ...(l.extended === true ? { extended: true } : {}),
    ...(l.submittedAt !== undefined ? { submittedAt: l.submittedAt } : {}),
    ...(l.submittedAtSource !== undefined ? { submittedAtSource: l.submittedAtSource } : {}),
    ...(l.latenessUnknown === true ? { latenessUnknown: true } : {}),
    minutesLate: l.minutesLate,
    graceDaysSpent: l.graceDaysSpent,
    ...(l.graceDaysLeft !== undefined ? { graceDaysLeft: l.graceDaysLeft } : {}),
    penalty: roundScore(l.penalty),
    rawScore: roundScore(l.rawScore),
    score: roundScore(l.score),
    summary: l.summary,
  };
}

/** The report as JSON: keys in report.ts's order, 2-space indent, trailing newline, scores to 1e-6, ms to 0.1. */
export function toJson(report: GradeReport): string {
  const isolation: GradeReport['isolation'] = { network: report.isolation.network };
  if (report.isolation.note !== undefined) isolation.note = report.isolation.note;
  const out: GradeReport = {
    version: report.version,
    suite: report.suite,
    isolation,
    ...(report.notes !== undefined && report.notes.length > 0 ? { notes: [...report.notes] } : {}),
    submissions: report.submissions.map((s, i) => submissionJson(s, `submissions[${i}]`)),
  };
  return `${JSON.stringify(out, null, 2)}\n`;
}

// ---- reading ---------------------------------------------------------------------------------

const text = (what: string) => z.string({ error: `expected ${what} (a string)` });
const name = (what: string) => text(what).min(1, { error: `expected ${what} (a non-empty string)` });
const nonNegative = (what: string) =>
  z.number({ error: `expected ${what} (a finite number ≥ 0)` }).min(0, { error: `expected ${what} (a finite number ≥ 0)` });
const status = z.enum(STATUSES, { error: `expected one of ${STATUSES.join(', ')}` });
const visibility = z.enum(['visible', 'hidden', 'after_due_date'], { error: 'expected one of visible, hidden, after_due_date' });

const checkResultSchema = z.strictObject(
  {
    check: name('the check'),
    passed: z.boolean({ error: 'expected true or false' }),
    message: text('the message'),
    informational: z.boolean({ error: 'expected true or false' }).optional(),
    credit: z.number({ error: 'expected the share of the points earned, 0 to 1' }).min(0).max(1).optional(),
    status: status.optional(),
  },
  { error: 'expected a check result {"check", "passed", "message"}' },
);

const caseReportSchema = z.strictObject(
  {
    id: name('the case id'),
    category: name('the category'),
    status,
    score: nonNegative('points'),
    maxScore: nonNegative('points'),
    message: text('the message'),
    info: z.array(text('a line of information'), { error: 'expected a list of strings' }).optional(),
    ms: nonNegative('milliseconds'),
    nodes: z
      .int({ error: 'expected a whole number ≥ 0 or null' })
      .min(0, { error: 'expected a whole number ≥ 0 or null' })
      .nullable(),
    visibility,
    description: text('the description').optional(),
    checks: z.array(checkResultSchema, { error: 'expected a list of check results' }).optional(),
  },
  { error: 'expected a case report {"id", "category", "status", …}' },
);

const submissionReportSchema = z.strictObject(
  {
    id: name('the submission id'),
    path: text('the path'),
    score: nonNegative('points'),
    maxScore: nonNegative('points'),
    cases: z.array(caseReportSchema, { error: 'expected a list of case reports' }),
    notes: z.array(text('a note'), { error: 'expected a list of strings' }),
    notGraded: text('why it was not graded').optional(),
    late: z
      .strictObject(
        {
          due: text('the due date'),
          extended: z.boolean({ error: 'expected true or false' }).optional(),
          submittedAt: text('when it was handed in').optional(),
          submittedAtSource: z.enum(['export', 'file-times', 'submission-times'], { error: 'expected export, file-times or submission-times' }).optional(),
          latenessUnknown: z.literal(true, { error: 'expected true' }).optional(),
          minutesLate: z.int({ error: 'expected a whole number of minutes' }).min(0, { error: 'expected a whole number of minutes ≥ 0' }),
          graceDaysSpent: z.int({ error: 'expected a whole number of days' }).min(0, { error: 'expected a whole number of days ≥ 0' }),
          graceDaysLeft: z.int({ error: 'expected a whole number of days' }).optional(),
          penalty: nonNegative('points'),
          rawScore: nonNegative('points'),
          score: nonNegative('points'),
          summary: text('the summary'),
        },
        { error: 'expected a late verdict {"due", "minutesLate", "rawScore", "score", …}' },
      )
      .optional(),
  },
  { error: 'expected a submission report {"id", "path", "score", …}' },
);

/** The JSON report's schema; its output type is exactly GradeReport (checked below at compile time). */
export const gradeReportSchema = z.strictObject(
  {
    version: z.literal(1, { error: 'expected 1 (the only report version this tool reads)' }),
    suite: name('the suite name'),
    isolation: z.strictObject(
      { network: z.boolean({ error: 'expected true or false' }), note: text('the note').optional() },
      { error: 'expected {"network": true|false, "note"?: "…"}' },
    ),
    notes: z.array(text('a note'), { error: 'expected a list of strings' }).optional(),
    submissions: z.array(submissionReportSchema, { error: 'expected a list of submission reports' }),
  },
  { error: 'expected a grade report object {"version", "suite", "isolation", "submissions"}' },
);

// Fails to compile when report.ts and the schema drift apart (a field added to one but not the other).
type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const schemaMatchesReport: Same<z.output<typeof gradeReportSchema>, GradeReport> = true;
void schemaMatchesReport;




function issueMessage(file: string, data: unknown, issue: z.core.$ZodIssue): string {
  if (issue.code === 'unrecognized_keys') {
    return `${file}: field "${formatPath([...issue.path, issue.keys[0]!])}": unknown field`;
  }
  const where = issue.path.length === 0 ? `${file}:` : `${file}: field "${formatPath(issue.path)}":`;
  const value = valueAt(data, issue.path);
  return value === undefined ? `${where} ${issue.message}, but it is missing` : `${where} ${issue.message}, got ${describeValue(value)}`;
}

/** Reads a JSON report back; a malformed one is a UserError naming the file and the field. */
export function parseReport(source: string, file: string): GradeReport {
  const body = source.replace(/^\uFEFF/, '');
  let data: unknown;
  try {
    data = JSON.parse(body);
  } catch (e) {
    if (!(e instanceof SyntaxError)) throw e;
    const line = jsonSyntaxLine(body, e);
    throw new UserError(`${file}${line === undefined ? '' : `:${line}`}: expected a JSON grade report (${jsonSyntaxReason(e)})`);
  }
  const parsed = gradeReportSchema.safeParse(data);
  if (!parsed.success) throw new UserError(issueMessage(file, data, parsed.error.issues[0]!));
  return parsed.data;
}
