/**
 * Who each graded submission is: the intake's SubmissionRecord (the LMS's ids, name, email, when
 * it was handed in), matched to the report's SubmissionReport by its id (the intake makes each
 * record's id the id its report gets, and the report's paths may be renamed to the names given). A submission the
 * run has no record for (a plain folder given on the command line) is its folder: its id is the
 * report's id, and it was handed in when its newest file was written (late/file-times.ts).
 * Feedback files, gradebooks and the late policy all ask here, so they agree on who is who.
 */
import { resolve } from 'node:path';
import type { SubmissionRecord } from '../intake/submission.ts';
import type { SubmissionReport } from './report.ts';

/** The run's records, by their id (SubmissionRecord.id, the report's `id`) and by the path graded. */
export type ClassStudents = ReadonlyMap<string, SubmissionRecord>;

/** A path's key, apart from every id. */
function pathKey(path: string): string {
  return `path:${resolve(path)}`;
}

/** The records keyed as studentOf looks them up. */
export function classStudents(records: readonly SubmissionRecord[]): ClassStudents {
  return new Map(records.flatMap((r) => [[r.id, r] as const, [pathKey(r.path), r] as const]));
}

/** The student of a report's submission: its record, else one made from its folder alone. */
export function studentOf(students: ClassStudents | undefined, s: SubmissionReport, fileTime?: (path: string) => number | undefined): SubmissionRecord {
  const known = students?.get(s.id) ?? students?.get(pathKey(s.path));
  if (known !== undefined) return known;
  const newest = fileTime?.(s.path);
  return {
    id: s.id,
    path: s.path,
    source: s.path,
    files: [],
    notes: [],
    layout: 'folders',
    ...(newest !== undefined ? { submittedAt: new Date(newest).toISOString(), submittedAtSource: 'file-times' as const } : {}),
  };
}
