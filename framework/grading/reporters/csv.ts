/**
 * A CSV gradebook, one row per submission:
 *
 *   id,path,score,max_score,<one column per category: its points>,passed,failed,error,timeout,memory
 *
 * RFC 4180: CRLF line ends, a field quoted when it holds a comma, a quote, CR or LF, quotes doubled.
 * Submission ids and paths come from students' folder names, so a cell that a spreadsheet would
 * take for a formula (starting with = + - @, tab or CR) gets a leading apostrophe (OWASP's advice);
 * numbers we write never need it. Categories keep the suite's order; a submission with no case in
 * a category gets an empty cell there, and one the machine could not grade (notGraded) empty
 * score cells (not graded is not zero). With a due date (--due) each row ends in the late policy's
 * columns: submitted_at, minutes_late, grace_days_spent, penalty, adjusted_score; `score` stays
 * the raw score. (`--gradebook csv FILE` writes this same file.)
 */
import type { GradeReport } from '../report.ts';
import { categoryTotals, countStatuses, reportCategories, STATUSES } from './summary.ts';
import { roundScore } from './text.ts';
import { studentPath } from '../../student-text.ts';

const FIXED_BEFORE = ['id', 'path', 'score', 'max_score'];
const LATE_COLUMNS = ['submitted_at', 'minutes_late', 'grace_days_spent', 'penalty', 'adjusted_score'];

/** A text cell, guarded against formula injection and quoted as RFC 4180 asks. */
export function csvText(value: string): string {
  const guarded = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(guarded) ? `"${guarded.replace(/"/g, '""')}"` : guarded;
}

function csvNumber(x: number): string {
  return String(roundScore(x));
}

/** Category column names, renamed only where one would clash with a fixed column or another category. */
function categoryHeaders(categories: readonly string[]): string[] {
  const taken = new Set<string>([...FIXED_BEFORE, ...STATUSES]);
  return categories.map((name) => {
    let header = taken.has(name) ? `category ${name}` : name;
    for (let k = 2; taken.has(header); k++) header = `category ${name} (${k})`;
    taken.add(header);
    return header;
  });
}

/** The report as a CSV gradebook (CRLF line ends, a header row, one row per submission). */
export function toCsv(report: GradeReport): string {
  const categories = reportCategories(report);
  const late = report.submissions.some((s) => s.late !== undefined);
  const rows: string[][] = [[...FIXED_BEFORE, ...categoryHeaders(categories), ...STATUSES, ...(late ? LATE_COLUMNS : [])].map(csvText)];
  for (const s of report.submissions) {
    const totals = new Map(categoryTotals(s.cases).map((t) => [t.name, t.score]));
    const counts = countStatuses(s.cases);
    rows.push([
      // Folder names: terminal-safe already (grading/score.ts); again here for a report read back from an older file.
      csvText(studentPath(s.id)),
      csvText(studentPath(s.path)),
      // Not graded (the machine lacked the course's runtime) is no score at all, not a zero.
      s.notGraded !== undefined ? '' : csvNumber(s.score),
      csvNumber(s.maxScore),
      ...categories.map((name) => {
        const score = totals.get(name);
        return score === undefined || s.notGraded !== undefined ? '' : csvNumber(score);
      }),
      ...STATUSES.map((status) => String(counts[status])),
      ...(!late ? [] : s.late === undefined ? LATE_COLUMNS.map(() => '') : [csvText(s.late.submittedAt ?? ''), String(s.late.minutesLate), String(s.late.graceDaysSpent), csvNumber(s.late.penalty), csvNumber(s.late.score)]),
    ]);
  }
  return rows.map((row) => `${row.join(',')}\r\n`).join('');
}
