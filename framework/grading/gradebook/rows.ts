/**
 * What every gradebook writes of a student: who (the intake's record: LMS ids, name, email), the
 * score the LMS gets (the late policy's adjusted score when there is one), the raw score, and a
 * line of feedback a student may read (the score and the late verdict, nothing of hidden cases).
 */
import type { SubmissionRecord } from '../../intake/submission.ts';
import type { GradeReport, LateVerdict } from '../report.ts';
import { studentOf, type ClassStudents } from '../class-students.ts';
import { formatPoints, oneLine, roundScore } from '../reporters/text.ts';

/** Who a gradebook row is: all an LMS's import needs of the intake's record (an arena's students have only these). */
export type GradebookStudent = Pick<SubmissionRecord, 'id' | 'name' | 'email' | 'lms'>;

export interface GradebookRow {
  student: GradebookStudent;
  /** what the LMS gets; undefined when the machine could not grade it (the cell stays empty) */
  score?: number;
  rawScore?: number;
  maxScore: number;
  late?: LateVerdict;
  /** one line a student may read */
  feedback: string;
}

export function gradebookRows(report: GradeReport, students?: ClassStudents): GradebookRow[] {
  return report.submissions.map((s) => {
    const student = studentOf(students, s);
    if (s.notGraded !== undefined) return { student, maxScore: s.maxScore, feedback: `not graded: ${oneLine(s.notGraded)}` };
    const score = roundScore(s.late?.score ?? s.score);
    // A student reads it in the LMS: the score and the late verdict, nothing of the cases (their feedback file has those they may see).
    const feedback = [`${formatPoints(score)} / ${formatPoints(s.maxScore)} on ${oneLine(report.suite)}`, ...(s.late !== undefined ? [`late policy: ${s.late.summary}`] : [])].join('; ');
    return { student, score, rawScore: roundScore(s.score), maxScore: s.maxScore, ...(s.late !== undefined ? { late: s.late } : {}), feedback };
  });
}

/** The points a gradebook column is out of: the suite's maximum, as the graded submissions have it. */
export function pointsPossible(rows: readonly GradebookRow[]): number {
  return Math.max(0, ...rows.map((r) => r.maxScore));
}

/** A student's name split as Blackboard's columns want it: "Lovelace, Ada" or "Ada Lovelace". */
export function splitName(name: string | undefined): { first: string; last: string } {
  if (name === undefined || name.trim() === '') return { first: '', last: '' };
  const comma = name.indexOf(',');
  if (comma >= 0) return { last: name.slice(0, comma).trim(), first: name.slice(comma + 1).trim() };
  const words = name.trim().split(/\s+/);
  return words.length === 1 ? { first: '', last: words[0]! } : { first: words.slice(0, -1).join(' '), last: words[words.length - 1]! };
}
