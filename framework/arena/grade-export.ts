/**
 * The arena's grades (grade-rules.ts) as an LMS's grade import (framework/grading/gradebook): each
 * student as the arena knows them (id, name, email), with the LMS's ids from the roster given
 * (the one the arena started with, or a newer export of it), which Canvas and Blackboard need.
 */
import { readRoster } from '../intake/roster.ts';
import type { Assignment } from '../grading/gradebook/assignment.ts';
import { parseAssignment } from '../grading/gradebook/assignment.ts';
import { renderLmsGradebook, type Gradebook, type GradebookKind } from '../grading/gradebook/formats.ts';
import type { GradebookRow, GradebookStudent } from '../grading/gradebook/rows.ts';
import type { StudentGrade } from './grade-rules.ts';
import type { StudentRow } from './schema.ts';

export function arenaGradebook(kind: Exclude<GradebookKind, 'csv'>, grades: readonly StudentGrade[], students: readonly StudentRow[], rosterFile: string | undefined, assignmentName: string): Gradebook {
  const assignment: Assignment = parseAssignment(assignmentName, 'Mancala arena');
  const roster = new Map((rosterFile === undefined ? [] : readRoster(rosterFile).entries).map((e) => [e.id, e]));
  const known = new Map(students.map((s) => [s.id, s]));
  const rows: GradebookRow[] = grades.map((g) => {
    const entry = roster.get(g.student);
    const row = known.get(g.student);
    const name = entry?.name ?? row?.name ?? undefined;
    const email = entry?.email ?? row?.email ?? undefined;
    const student: GradebookStudent = { id: g.student, ...(name !== undefined ? { name } : {}), ...(email !== undefined ? { email } : {}), ...(entry !== undefined ? { lms: entry.lms } : {}) };
    return { student, score: g.score, rawScore: g.score, maxScore: g.maxScore, feedback: g.feedback };
  });
  return renderLmsGradebook(kind, rows, assignment);
}
