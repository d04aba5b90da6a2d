/**
 * `--submission-times FILE`: when each student handed in, where the export does not say (Canvas's
 * download has no times, and its gradebook export none either). A CSV with a header naming the
 * columns `id` and `submitted_at` (others ignored), one line a student: the id is any the student
 * is known by (the report's id, the LMS user id, SIS id, login, email) and the time ISO 8601 with a
 * time zone. A time given here is the student's, over the export's and the files'.
 */
import { parse } from 'csv-parse/sync';
import { UserError } from '../../errors.ts';
import { readRegularTextSync } from '../../files/safe-read.ts';
import type { SubmissionRecord } from '../../intake/submission.ts';
import { INSTANT_EXAMPLE, isoInstant, parseInstant } from './instant.ts';

export interface SubmissionTimes {
  file: string;
  /** by id: the instant (ms) and the line it came from */
  byId: ReadonlyMap<string, { at: number; line: number }>;
  /** the ids a student was found for (timeOf marks them) */
  used: Set<string>;
}

const TIMES_BYTES = 16 * 1024 * 1024;

export function readSubmissionTimes(file: string): SubmissionTimes {
  const shown = `--submission-times ${file}`;
  const read = readRegularTextSync(file, TIMES_BYTES, { shown });
  if (!read.ok) throw new UserError(read.message);
  let rows: string[][];
  try {
    rows = parse(read.text, { bom: true, relax_column_count: true, skip_empty_lines: true, trim: true }) as string[][];
  } catch (e) {
    throw new UserError(`${shown}: not a CSV file (${(e as Error).message})`);
  }
  const header = (rows[0] ?? []).map((h) => h.toLowerCase());
  const idCol = header.indexOf('id');
  const atCol = header.indexOf('submitted_at');
  if (idCol < 0 || atCol < 0) throw new UserError(`${shown}:1: expected a header naming the columns id and submitted_at (id,submitted_at), got ${JSON.stringify((rows[0] ?? []).slice(0, 6).join(','))}`);
  const byId = new Map<string, { at: number; line: number }>();
  for (const [i, row] of rows.slice(1).entries()) {
    const line = i + 2;
    const id = row[idCol] ?? '';
    const text = row[atCol] ?? '';
    if (id === '') throw new UserError(`${shown}:${line}: column id: expected the student's id`);
    const at = parseInstant(text);
    if (at === undefined) throw new UserError(`${shown}:${line}: column submitted_at: expected a date and time in ISO 8601 with a time zone, e.g. ${INSTANT_EXAMPLE}, got ${JSON.stringify(text)}`);
    const before = byId.get(id);
    if (before !== undefined) throw new UserError(`${shown}:${line}: ${id}: given a second time (first on line ${before.line})`);
    byId.set(id, { at, line });
  }
  return { file, byId, used: new Set() };
}

/** The time the file gives the student, by the first of their ids it names (marked used). */
export function timeOf(times: SubmissionTimes | undefined, student: SubmissionRecord): string | undefined {
  if (times === undefined) return undefined;
  const l = student.lms ?? {};
  for (const id of [student.id, l.userId, l.sisUserId, l.login, l.idNumber, student.email]) {
    const hit = id === undefined ? undefined : times.byId.get(id);
    if (hit !== undefined) {
      times.used.add(id!);
      return isoInstant(hit.at);
    }
  }
  return undefined;
}

/** The ids of the file no student had: one line, or none. */
export function unusedTimesLine(times: SubmissionTimes): string | undefined {
  const unused = [...times.byId.keys()].filter((id) => !times.used.has(id));
  if (unused.length === 0) return undefined;
  return `--submission-times ${times.file}: no submission for ${unused.length === 1 ? 'the id' : `${unused.length} ids`} ${unused.slice(0, 10).join(', ')}${unused.length > 10 ? ', …' : ''}`;
}
