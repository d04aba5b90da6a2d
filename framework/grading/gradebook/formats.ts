/**
 * Each LMS's grade import file, as its documentation gives it (docs/gradebooks.md cites them):
 *
 *   canvas      Student,ID,SIS User ID,SIS Login ID,Section,<Assignment (id)>, a `Points Possible`
 *               row, one row per student matched by Canvas's user ID. Canvas makes a new
 *               assignment of any column it does not know, so the raw score is not written here.
 *   moodle      Email address,ID number,Username,Full name,<Assignment>,Feedback,Raw score,Lateness:
 *               on import each column is mapped (one identifier to email, ID number or username;
 *               the grade and its feedback to the grade item; the rest ignored).
 *   blackboard  "Last Name","First Name","Username","Student ID","<Assignment> [Total Pts: N Score] |<id>",
 *               every field quoted, matched by Username and the column id (a column without an id
 *               would be added as a new text column, so the raw score is not written here).
 *   csv         the project's own CSV (reporters/csv.ts, the same as --csv), with the late columns.
 *
 * A student the LMS could not match (no Canvas user ID, no Moodle identifier, no Blackboard
 * username) is left out of the file and named in `left`; the caller lists them once.
 */
import { UserError } from '../../errors.ts';
import type { GradeReport } from '../report.ts';
import type { ClassStudents } from '../class-students.ts';
import { csvText, toCsv } from '../reporters/csv.ts';
import { formatDuration, roundScore } from '../reporters/text.ts';
import type { Assignment } from './assignment.ts';
import { gradebookRows, pointsPossible, splitName, type GradebookRow } from './rows.ts';

export const GRADEBOOK_KINDS = ['canvas', 'moodle', 'blackboard', 'csv'] as const;
export type GradebookKind = (typeof GRADEBOOK_KINDS)[number];

export interface Gradebook {
  text: string;
  /** students left out, with why: "ada (no Canvas user ID)" */
  left: string[];
  /** what the reader must know about the file (an assignment column Canvas will create) */
  notes: string[];
}

/** Before grading: what `kind` needs of the assignment is there. */
export function checkAssignment(kind: GradebookKind, assignment: Assignment): void {
  if (kind === 'blackboard' && assignment.id === undefined) {
    throw new UserError(
      `--gradebook blackboard: needs the Grade Center column's id, or Blackboard adds a new text column worth 0 points: --assignment "${assignment.name} |123456" (the number after | in the column's header of a Grade Center download)`,
    );
  }
}

const num = (x: number | undefined): string => (x === undefined ? '' : String(roundScore(x)));
const rfc = (cells: readonly string[]): string => `${cells.join(',')}\r\n`;

export function renderGradebook(kind: GradebookKind, report: GradeReport, assignment: Assignment, students?: ClassStudents): Gradebook {
  if (kind === 'csv') return { text: toCsv(report), left: [], notes: [] };
  return renderLmsGradebook(kind, gradebookRows(report, students), assignment);
}

/** An LMS's import file of `rows` (a grade report's, or any other grades: the arena's standings under a rule). */
export function renderLmsGradebook(kind: Exclude<GradebookKind, 'csv'>, rows: readonly GradebookRow[], assignment: Assignment): Gradebook {
  switch (kind) {
    case 'canvas':
      return canvas(rows, assignment);
    case 'moodle':
      return moodle(rows, assignment);
    case 'blackboard':
      checkAssignment(kind, assignment);
      return blackboard(rows, assignment);
  }
}

function canvas(rows: readonly GradebookRow[], a: Assignment): Gradebook {
  const column = a.id === undefined ? a.name : `${a.name} (${a.id})`;
  const notes = a.id === undefined ? [`Canvas will make a new assignment named ${JSON.stringify(a.name)}: to fill an existing one, give --assignment "${a.name} (ID)" with the id its column has in a gradebook export`] : [];
  const lines = [rfc(['Student', 'ID', 'SIS User ID', 'SIS Login ID', 'Section', column].map(csvText)), rfc(['    Points Possible', '', '', '', '', num(pointsPossible(rows))])];
  const left: string[] = [];
  for (const r of rows) {
    const lms = r.student.lms ?? {};
    if (lms.userId === undefined || lms.userId === '') {
      left.push(`${r.student.id} (no Canvas user ID)`);
      continue;
    }
    lines.push(rfc([r.student.name ?? r.student.id, lms.userId, lms.sisUserId ?? '', lms.login ?? '', lms.section ?? ''].map(csvText).concat(num(r.score))));
  }
  return { text: lines.join(''), left, notes };
}

function lateness(r: GradebookRow): string {
  if (r.late === undefined) return '';
  return r.late.minutesLate === 0 ? 'on time' : `${r.late.latenessUnknown === true ? 'marked late, time unknown' : `${formatDuration(r.late.minutesLate * 60_000)} late`}${r.late.graceDaysSpent > 0 ? `, ${r.late.graceDaysSpent} grace day${r.late.graceDaysSpent === 1 ? '' : 's'}` : ''}`;
}

function moodle(rows: readonly GradebookRow[], a: Assignment): Gradebook {
  const lines = [rfc(['Email address', 'ID number', 'Username', 'Full name', a.name, 'Feedback', 'Raw score', 'Lateness'].map(csvText))];
  const left: string[] = [];
  for (const r of rows) {
    const email = r.student.email ?? '';
    const idNumber = r.student.lms?.idNumber ?? '';
    const username = r.student.lms?.login ?? '';
    if (email === '' && idNumber === '' && username === '') {
      left.push(`${r.student.id} (no email, ID number or username)`);
      continue;
    }
    lines.push(rfc([email, idNumber, username, r.student.name ?? r.student.id].map(csvText).concat(num(r.score), csvText(r.feedback), num(r.rawScore), csvText(lateness(r)))));
  }
  return { text: lines.join(''), left, notes: [] };
}

function blackboard(rows: readonly GradebookRow[], a: Assignment): Gradebook {
  // Blackboard asks every field of a comma-separated file to be quoted.
  const q = (v: string) => {
    const cell = csvText(v);
    return cell.startsWith('"') ? cell : `"${cell}"`;
  };
  const column = `${a.name} [Total Pts: ${num(pointsPossible(rows))} Score] |${a.id!}`;
  const lines = [rfc(['Last Name', 'First Name', 'Username', 'Student ID', column].map(q))];
  const left: string[] = [];
  for (const r of rows) {
    const username = r.student.lms?.login ?? r.student.lms?.userId ?? '';
    if (username === '') {
      left.push(`${r.student.id} (no Blackboard username)`);
      continue;
    }
    const { first, last } = splitName(r.student.name);
    lines.push(rfc([last, first, username, r.student.lms?.sisUserId ?? r.student.lms?.idNumber ?? '', num(r.score)].map(q)));
  }
  return { text: lines.join(''), left, notes: [] };
}
