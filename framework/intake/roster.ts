/**
 * `--roster FILE`: who the class is, from the LMS's own gradebook export, so that each submission
 * is known by its student and the gradebook written back can be matched by the LMS.
 *
 * Three forms are read, told by their header:
 *  - Canvas's gradebook export: `Student,ID,SIS User ID,SIS Login ID,Section,…`, its
 *    `Points Possible` row skipped; the student's id is Canvas's `ID` (the user id its
 *    "Download Submissions" names files with);
 *  - Moodle's grade export: `First name,Surname,ID number,…,Email address,…` (`Username` when
 *    exported); the id is the ID number, else the username, else the email address;
 *  - a plain `id,name,email` (any order, `name` and `email` optional).
 * A submission is matched by its ids first (user id, SIS ids, login, ID number, email, the
 * folder's own name), then by the student's name in either order (Canvas writes `smithalice`,
 * its gradebook `Smith, Alice`). A submission no student matches, and a student with no
 * submission, are each listed once.
 */
import { parse } from 'csv-parse/sync';
import { UserError } from '../errors.ts';
import { readRegularTextSync } from '../files/safe-read.ts';
import type { FoundSubmission } from './layouts/found.ts';
import type { LmsIdentity } from './submission.ts';

export type RosterForm = 'canvas' | 'moodle' | 'plain';

export interface RosterEntry {
  /** the id reports use for this student */
  id: string;
  name?: string;
  email?: string;
  lms: LmsIdentity;
  /** the roster's line (1-based), for messages */
  line: number;
}

export interface Roster {
  file: string;
  form: RosterForm;
  entries: RosterEntry[];
}

export interface RosterReport {
  file: string;
  form: RosterForm;
  /** submissions matched to a student */
  matched: number;
  /** submissions no roster entry matched: their sources, once each */
  unmatchedSubmissions: string[];
  /** roster entries no submission matched, once each */
  withoutSubmission: RosterEntry[];
}

const ROSTER_BYTES = 16 * 1024 * 1024;

/** Reads and checks the roster file; a malformed one is a UserError naming the file, line and column. */
export function readRoster(file: string): Roster {
  const read = readRegularTextSync(file, ROSTER_BYTES, { shown: `--roster ${file}` });
  if (!read.ok) throw new UserError(read.message);
  let rows: string[][];
  try {
    rows = parse(read.text, { bom: true, relax_column_count: true, skip_empty_lines: true, trim: false }) as string[][];
  } catch (e) {
    throw new UserError(`--roster ${file}: not a CSV file (${(e as Error).message})`);
  }
  if (rows.length === 0) throw new UserError(`--roster ${file}: empty; expected a header line (Canvas: Student,ID,…; Moodle: First name,Surname,…,Email address; or id,name,email)`);
  const header = rows[0]!.map((h) => h.trim().toLowerCase());
  const col = (...names: string[]) => header.findIndex((h) => names.includes(h));
  const at = (row: string[], i: number) => (i < 0 ? undefined : row[i]?.trim() || undefined);
  const entries: RosterEntry[] = [];
  let form: RosterForm;
  if (col('student') >= 0 && col('id') >= 0 && col('sis user id', 'sis login id') >= 0) {
    form = 'canvas';
    const [student, id, sisUser, sisLogin, section] = [col('student'), col('id'), col('sis user id'), col('sis login id'), col('section')];
    for (const [i, row] of rows.slice(1).entries()) {
      const name = at(row, student);
      // Canvas's second line, and its test student, are no student of the class.
      if (name === 'Points Possible' || name === 'Student, Test') continue;
      const canvasId = at(row, id);
      if (canvasId === undefined) throw new UserError(`--roster ${file}:${i + 2}: column ID: expected the student's Canvas id`);
      const s = at(row, sisUser);
      const l = at(row, sisLogin);
      const sec = at(row, section);
      entries.push({ id: canvasId, ...(name !== undefined ? { name } : {}), lms: { userId: canvasId, ...(s !== undefined ? { sisUserId: s } : {}), ...(l !== undefined ? { login: l } : {}), ...(sec !== undefined ? { section: sec } : {}) }, line: i + 2 });
    }
  } else if (col('email address') >= 0 && col('first name') >= 0) {
    form = 'moodle';
    const [first, last, idNumber, email, username] = [col('first name'), col('surname', 'last name'), col('id number'), col('email address'), col('username')];
    for (const [i, row] of rows.slice(1).entries()) {
      const name = [at(row, first), at(row, last)].filter((x) => x !== undefined).join(' ') || undefined;
      const num = at(row, idNumber);
      const mail = at(row, email);
      const user = at(row, username);
      const id = num ?? user ?? mail;
      if (id === undefined) throw new UserError(`--roster ${file}:${i + 2}: expected an ID number, Username or Email address for ${name ?? 'the student'}`);
      entries.push({ id, ...(name !== undefined ? { name } : {}), ...(mail !== undefined ? { email: mail } : {}), lms: { ...(num !== undefined ? { idNumber: num } : {}), ...(user !== undefined ? { login: user } : {}) }, line: i + 2 });
    }
  } else if (col('id') >= 0) {
    form = 'plain';
    const [id, name, email] = [col('id'), col('name'), col('email')];
    for (const [i, row] of rows.slice(1).entries()) {
      const v = at(row, id);
      if (v === undefined) throw new UserError(`--roster ${file}:${i + 2}: column id: expected the student's id`);
      const n = at(row, name);
      const m = at(row, email);
      entries.push({ id: v, ...(n !== undefined ? { name: n } : {}), ...(m !== undefined ? { email: m } : {}), lms: {}, line: i + 2 });
    }
  } else {
    throw new UserError(
      `--roster ${file}:1: the header names no roster form: expected Canvas's (Student,ID,SIS User ID,SIS Login ID,Section,…), Moodle's (First name,Surname,ID number,…,Email address) or id,name,email; got ${rows[0]!.slice(0, 6).join(',')}`,
    );
  }
  const seen = new Map<string, number>();
  for (const e of entries) {
    const before = seen.get(e.id);
    if (before !== undefined) throw new UserError(`--roster ${file}:${e.line}: the id ${e.id} is on line ${before} too`);
    seen.set(e.id, e.line);
  }
  return { file, form, entries };
}

/** A name as letters only, lower case: `Smith, Alice` → `smithalice`. */
function letters(s: string): string {
  return s
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z]/g, '');
}

/** A roster name both ways round: `Smith, Alice` and `Alice Smith` each give smithalice and alicesmith. */
function nameKeys(name: string): string[] {
  const comma = name.split(',');
  if (comma.length === 2) return [letters(comma[0]! + comma[1]!), letters(comma[1]! + comma[0]!)];
  const words = name.trim().split(/\s+/);
  if (words.length < 2) return [letters(name)];
  const last = words.at(-1)!;
  return [letters(name), letters(last + words.slice(0, -1).join(''))];
}

type Identified = Pick<FoundSubmission, 'idHint' | 'name' | 'email' | 'lms' | 'members' | 'source'>;

/**
 * Each submission's roster entry (undefined: none), in order, and the report. An entry is
 * matched once: a second submission that would match it is left unmatched.
 */
export function matchRoster(roster: Roster, found: readonly Identified[]): { entries: (RosterEntry | undefined)[]; report: RosterReport } {
  const byId = new Map<string, RosterEntry[]>();
  const byName = new Map<string, RosterEntry[]>();
  const add = (map: Map<string, RosterEntry[]>, key: string | undefined, e: RosterEntry) => {
    if (key === undefined || key === '') return;
    const k = key.toLowerCase();
    const list = map.get(k) ?? [];
    if (!list.includes(e)) list.push(e);
    map.set(k, list);
  };
  for (const e of roster.entries) {
    for (const key of [e.id, e.email, e.email?.split('@')[0], e.lms.userId, e.lms.sisUserId, e.lms.login, e.lms.idNumber]) add(byId, key, e);
    if (e.name !== undefined) for (const k of nameKeys(e.name)) add(byName, k, e);
  }
  const used = new Set<RosterEntry>();
  const one = (list: RosterEntry[] | undefined) => (list !== undefined && list.length === 1 && !used.has(list[0]!) ? list[0] : undefined);
  const entries = found.map((f) => {
    const ids = [f.lms?.userId, f.lms?.sisUserId, f.lms?.login, f.lms?.idNumber, f.email, ...(f.members ?? []).flatMap((m) => [m.id, m.email]), f.idHint];
    let e: RosterEntry | undefined;
    for (const id of ids) if (e === undefined && id !== undefined) e = one(byId.get(id.toLowerCase()));
    if (e === undefined && f.name !== undefined) e = one(byName.get(letters(f.name)));
    if (e !== undefined) used.add(e);
    return e;
  });
  return {
    entries,
    report: {
      file: roster.file,
      form: roster.form,
      matched: entries.filter((e) => e !== undefined).length,
      unmatchedSubmissions: found.filter((_, i) => entries[i] === undefined).map((f) => f.source),
      withoutSubmission: roster.entries.filter((e) => !used.has(e)),
    },
  };
}
