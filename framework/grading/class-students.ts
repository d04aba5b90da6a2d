/**
 * Who each graded submission is: the intake's SubmissionRecord (the LMS's ids, name, email, when
 * it was handed in), matched to the report's SubmissionReport by the path graded. A submission the
 * run has no record for (a plain folder given on the command line) is its folder: its id is the
 * report's id, and it was handed in when its newest file was written (late/file-times.ts).
 * Feedback files, gradebooks and the late policy all ask here, so they agree on who is who.
 */
import { resolve } from 'node:path';
import type { SubmissionRecord } from '../intake/submission.ts';
import type { SubmissionReport } from './report.ts';

/** The run's records, by the path graded (SubmissionRecord.path, the report's `path`). */
export type ClassStudents = ReadonlyMap<string, SubmissionRecord>;

/** The records keyed as studentOf looks them up. */
export function classStudents(records: readonly SubmissionRecord[]): ClassStudents {
  return new Map(records.map((r) => [resolve(r.path), r]));
}

/** The student of a report's submission: its record, else one made from its folder alone. */
export function studentOf(students: ClassStudents | undefined, s: SubmissionReport, fileTime?: (path: string) => number | undefined): SubmissionRecord {
  const known = students?.get(resolve(s.path));
  if (known !== undefined) return known;
  const newest = fileTime?.(s.path);
  return {
    id: s.id,
    path: s.path,
    source: s.path,
    files: [],
    notes: [],
    ...(newest !== undefined ? { submittedAt: new Date(newest).toISOString(), submittedAtSource: 'file-times' as const } : {}),
  };
}
