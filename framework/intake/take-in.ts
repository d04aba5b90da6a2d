/**
 * The one intake every command that takes submissions shares: paths as the instructor gives them
 * (agent files, folders, an LMS's zip or its unzipped folder, in any layout of layouts/) in,
 * one SubmissionRecord per student out, each a safe snapshot (files/snapshot.ts, files/archive.ts)
 * in a folder named by the student's id. Nothing downstream reads the given paths again.
 *
 * Per path: a zip is extracted (bounded, refusing what climbs out, links, special files); a lone
 * wrapper folder is looked through; the layout is detected and read; a roster, when given, maps
 * each submission to its student. Each student's files are then snapshotted (junk left out:
 * `__MACOSX/`, `._*`, `.DS_Store`, `Thumbs.db`, `.git`, `node_modules`), zips inside opened two
 * levels deep, and a lone wrapper folder inside looked through: a student who zipped their folder,
 * or put their files one folder down, hands in the same as one who did not.
 */
import { existsSync, lstatSync, readdirSync, realpathSync, statSync } from 'node:fs';
import { mkdir, readdir, rename, rm, rmdir, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { UserError } from '../errors.ts';
import { archiveBudget, DEFAULT_ARCHIVE_LIMITS, extractZip, isZipFile, openZipsInside, type ArchiveLimits } from '../files/archive.ts';
import { snapshotFile, snapshotFolder, type SnapshotLimits } from '../files/snapshot.ts';
import { makeTempFolder, removeTempFolder } from '../files/temp-folders.ts';
import { detectLayout, LAYOUT_NAMES, LAYOUT_READERS } from './layouts/detect.ts';
import { readSingle } from './layouts/folders.ts';
import type { FoundSubmission } from './layouts/found.ts';
import { CODE_FOLDERS, entriesOf, isJunk } from './layouts/junk.ts';
import { isMoodleName } from './layouts/moodle.ts';
import { CANVAS_NO_TIMES, sharedTime, sharedTimeReason, submittedAt } from './times.ts';
import { matchRoster, readRoster, type RosterReport } from './roster.ts';
import type { LayoutKind, SubmissionRecord } from './submission.ts';

export interface TakeInOptions {
  /**
   * The folder the snapshots are made in (made if missing, emptied first; the caller keeps or
   * removes it). Default: a temp folder of this process, removed at exit and on Ctrl-C.
   */
  root?: string;
  /** a roster file (--roster): the LMS's gradebook export, or id,name,email */
  roster?: string;
  snapshotLimits?: Partial<SnapshotLimits>;
  /** caps on the zips inside one student's submission (default files/archive.ts's) */
  archiveLimits?: Partial<ArchiveLimits>;
  /** caps on a download given as a zip, the whole class's (default EXPORT_LIMITS) */
  exportLimits?: Partial<ArchiveLimits>;
}

/** A whole class's download: ten times one submission's caps (200,000 entries, 2 GB written). */
export const EXPORT_LIMITS: Readonly<Partial<ArchiveLimits>> = { entries: 10 * DEFAULT_ARCHIVE_LIMITS.entries, bytes: 10 * DEFAULT_ARCHIVE_LIMITS.bytes };

/** How one given path was read. */
export interface IntakeRead {
  /** the path as given */
  path: string;
  layout: LayoutKind;
  /** submissions found in it */
  count: number;
}

export interface Intake {
  /** one per student, in the order of the given paths, then as the layout lists them (by id) */
  records: SubmissionRecord[];
  reads: IntakeRead[];
  /** what was left out of the exports as a whole (files no student's), one line each */
  notes: string[];
  /** with a roster: who matched, and who did not, either way */
  roster?: RosterReport;
  /** the folder holding the snapshots */
  root: string;
  /** removes the snapshots (when the intake made their folder) */
  dispose(): Promise<void>;
}

/** The file that marks a caller's folder as the intake's own, so that the next run may empty it. */
const ROOT_MARK = '.mancala-intake';

function readdirOrEmpty(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

/** Wrapper folders looked through, at most, one inside the other. */
const WRAPPER_DEPTH = 4;

/** A submission's id as grading has always named one: its folder or file name, without a .ts/.js extension. */
export function idOfPath(path: string): string {
  return basename(path.replace(/[\\/]+$/, '')).replace(/\.(m?[jt]s|zip)$/i, '') || path;
}

/** An id safe as a file name and in a CSV: letters, digits and `._@+-` kept, anything else `_`. */
export function safeId(id: string): string {
  const safe = id.replace(/[^A-Za-z0-9._@+-]/g, '_').replace(/^\.+/, '_').slice(0, 100);
  return safe === '' ? '_' : safe;
}

/** A name inside a submission ('/'-separated), or undefined when it would leave it. */
function safeRelative(name: string): string | undefined {
  const parts = name.replace(/\\/g, '/').split('/').filter((p) => p !== '' && p !== '.');
  if (parts.length === 0 || parts.includes('..') || /^[A-Za-z]:/.test(parts[0]!)) return undefined;
  return parts.join('/');
}

/** Takes in the given paths as the module comment says. */
export async function takeInSubmissions(paths: readonly string[], o: TakeInOptions = {}): Promise<Intake> {
  for (const p of paths) if (!exists(p)) throw new UserError(`submission ${p}: no such file or folder`);
  const roster = o.roster === undefined ? undefined : readRoster(o.roster);
  const made = o.root === undefined;
  const root = o.root ?? (await makeTempFolder('intake'));
  if (!made) {
    // Emptied only when an intake made it: a folder of the instructor's own is never removed.
    if (readdirOrEmpty(root).length > 0 && !existsSync(join(root, ROOT_MARK))) {
      throw new UserError(`${root}: already exists and holds files the intake did not make: the snapshots go in a folder of their own (move it, or give another folder)`);
    }
    await rm(root, { recursive: true, force: true });
    // Students' files: this user's alone, as every temp folder of the project is.
    await mkdir(root, { recursive: true, mode: 0o700 });
    await writeFile(join(root, ROOT_MARK), 'snapshots of submissions made by mancala; removed and made again by the next run\n');
  }
  const dispose = async () => {
    if (made) await removeTempFolder(root);
  };
  try {
    // The download as a whole holds a class: its own, larger caps. Each student's zips have theirs (snapshotOne).
    const exportLimits = { ...EXPORT_LIMITS, ...o.exportLimits };
    const budget = archiveBudget(exportLimits);
    const staging = join(root, '.exports');
    const found: { sub: FoundSubmission; layout: LayoutKind; noTimes?: string }[] = [];
    const reads: IntakeRead[] = [];
    const notes: string[] = [];
    for (const [index, path] of paths.entries()) {
      const shown = path.replace(/[\\/]+$/, '') || path;
      const real = realpathSync(path);
      let dir: string;
      let where = shown;
      let noTimes: string | undefined;
      if (statSync(real).isFile()) {
        if (!isZipFile(real)) {
          found.push({ sub: readSingle(real, shown, idOfPath(shown), true).submissions[0]!, layout: 'single' });
          reads.push({ path, layout: 'single', count: 1 });
          continue;
        }
        dir = join(staging, String(index));
        const got = await extractZip(real, dir, { shown, budget, limits: exportLimits, skip: (rel) => isJunk(rel) });
        notes.push(...got.notes);
        const at = sharedTime(dir);
        if (at !== undefined) noTimes = sharedTimeReason(shown, at);
      } else dir = real;
      ({ dir, shown: where } = lookThrough(dir, where));
      const layout = detectLayout(dir);
      const read = layout === 'single' ? readSingle(dir, where, idOfPath(shown), false) : LAYOUT_READERS[layout](dir, where);
      notes.push(...read.notes);
      if (read.fileTimes === false) {
        noTimes = CANVAS_NO_TIMES;
        notes.push(`${where}: ${CANVAS_NO_TIMES}: only its _LATE mark says who was late`);
      } else if (noTimes !== undefined && read.submissions.some((s) => s.submittedAt === undefined)) notes.push(`${noTimes}: no submission times are taken from them`);
      // In the order of the students' ids (numbers as numbers), whatever order the export's names list them in.
      const ordered = [...read.submissions].sort((a, b) => a.idHint.localeCompare(b.idHint, 'en', { numeric: true }) || (a.source < b.source ? -1 : 1));
      for (const sub of ordered) found.push({ sub, layout, ...(noTimes !== undefined ? { noTimes } : {}) });
      reads.push({ path, layout, count: read.submissions.length });
    }
    const matched = roster === undefined ? undefined : matchRoster(roster, found.map((f) => f.sub));
    const taken = new Set<string>();
    const records: SubmissionRecord[] = [];
    for (const [i, { sub, layout, noTimes }] of found.entries()) {
      const entry = matched?.entries[i];
      let id = safeId(entry?.id ?? sub.idHint);
      for (let n = 2; taken.has(id); n++) id = `${safeId(entry?.id ?? sub.idHint)}-${n}`;
      taken.add(id);
      records.push(await snapshotOne(sub, layout, id, root, o, entry, noTimes));
    }
    await rm(staging, { recursive: true, force: true });
    return { records, reads, notes, ...(matched !== undefined ? { roster: matched.report } : {}), root, dispose };
  } catch (e) {
    await dispose();
    throw e;
  }
}

/**
 * The path is one plain submission (an agent file, or a folder the layouts read as one
 * submission), no zip and no export: what a command may hand on as it is given.
 */
export function isPlainSubmission(path: string): boolean {
  try {
    const real = realpathSync(path);
    if (statSync(real).isFile()) return !isZipFile(real);
    return detectLayout(lookThrough(real, path).dir) === 'single';
  } catch {
    return false;
  }
}

function exists(path: string): boolean {
  try {
    statSync(path);
    return true;
  } catch {
    return false;
  }
}

/** Looks through lone wrapper folders at an export's top: `class.zip` → `class/` → the export. */
function lookThrough(dir: string, shown: string): { dir: string; shown: string } {
  for (let i = 0; i < WRAPPER_DEPTH; i++) {
    const entries = entriesOf(dir);
    const only = entries[0];
    if (entries.length !== 1 || only === undefined || !only.isDirectory() || isCodeFolder(only.name) || isMoodleName(only.name, true)) break;
    if (hasGit(join(dir, only.name))) break;
    dir = join(dir, only.name);
    shown = `${shown}/${only.name}`;
  }
  return { dir, shown };
}

function isCodeFolder(name: string): boolean {
  return CODE_FOLDERS.has(name.toLowerCase());
}

function hasGit(dir: string): boolean {
  try {
    lstatSync(join(dir, '.git'));
    return true;
  } catch {
    return false;
  }
}

async function snapshotOne(sub: FoundSubmission, layout: LayoutKind, id: string, root: string, o: TakeInOptions, entry: ReturnType<typeof matchRoster>['entries'][number], noTimes: string | undefined): Promise<SubmissionRecord> {
  const dest = join(root, id);
  await mkdir(dest, { recursive: true });
  const notes = [...sub.notes];
  let path = dest;
  if ('folder' in sub.from) {
    const got = await snapshotFolder(sub.from.folder, dest, { skip: (rel) => isJunk(rel), standIns: true, ...(o.snapshotLimits !== undefined ? { limits: o.snapshotLimits } : {}) });
    notes.push(...got.notes);
  } else if ('file' in sub.from) {
    path = join(dest, basename(sub.from.file));
    const got = await snapshotFile(sub.from.file, path, basename(sub.from.file));
    if (!got.ok) notes.push(got.message);
  } else {
    for (const f of sub.from.files) {
      const as = safeRelative(f.as);
      if (as === undefined || isJunk(as)) {
        if (as === undefined) notes.push(`${f.as}: a name that leaves the submission (refused)`);
        continue;
      }
      await mkdir(join(dest, ...as.split('/').slice(0, -1)), { recursive: true });
      const got = await snapshotFile(f.path, join(dest, ...as.split('/')), as).catch((e: NodeJS.ErrnoException) => ({ ok: false as const, message: `${as}: ${e.code === 'EEXIST' ? 'a second file of this name (the first was kept)' : 'cannot be copied'}` }));
      if (!got.ok) notes.push(got.message);
    }
  }
  if (path === dest) {
    // A budget of the student's own: one student's zip bomb leaves the next student's zips whole.
    const zips = await openZipsInside(dest, { levels: o.archiveLimits?.nesting ?? DEFAULT_ARCHIVE_LIMITS.nesting, budget: archiveBudget(o.archiveLimits), skip: (rel) => isJunk(rel), ...(o.archiveLimits !== undefined ? { limits: o.archiveLimits } : {}) });
    notes.push(...zips.notes);
    const wrapper = await lookThroughOwn(dest);
    if (wrapper !== undefined) notes.push(`looked through the folder ${wrapper}/ that held everything`);
  }
  const files = path === dest ? listFiles(dest) : [basename(path)];
  const name = entry?.name ?? sub.name;
  const email = entry?.email ?? sub.email;
  const record: SubmissionRecord = {
    id,
    ...(name !== undefined ? { name } : {}),
    ...(email !== undefined ? { email } : {}),
    ...(sub.lms !== undefined || entry !== undefined ? { lms: { ...sub.lms, ...entry?.lms } } : {}),
    path,
    source: sub.source,
    files,
    ...submittedAt(sub, (f) => (path === dest ? join(dest, ...f.split('/')) : path), files, noTimes),
    ...(sub.late !== undefined ? { late: sub.late } : {}),
    ...(sub.attempt !== undefined ? { attempt: sub.attempt } : {}),
    ...(sub.members !== undefined ? { members: sub.members } : {}),
    layout,
    ...(entry !== undefined ? { rosterLine: entry.line } : {}),
    notes,
  };
  return record;
}

/** A lone folder holding everything (junk aside), not a code folder: its contents moved up. Returns its name. */
async function lookThroughOwn(dest: string): Promise<string | undefined> {
  const names: string[] = [];
  for (let i = 0; i < WRAPPER_DEPTH; i++) {
    const entries = (await readdir(dest, { withFileTypes: true })).filter((e) => !isJunk(e.name));
    const only = entries[0];
    if (entries.length !== 1 || only === undefined || !only.isDirectory() || isCodeFolder(only.name)) break;
    const inner = join(dest, only.name);
    // Moved aside first: the wrapper may hold a file of its own name.
    const aside = join(dest, `.wrapper-${i}`);
    await rename(inner, aside);
    for (const name of await readdir(aside)) await rename(join(aside, name), join(dest, name));
    await rmdir(aside);
    names.push(only.name);
  }
  return names.length === 0 ? undefined : names.join('/');
}

function listFiles(dir: string): string[] {
  return (readdirSync(dir, { recursive: true, withFileTypes: true }) as import('node:fs').Dirent[])
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name).slice(dir.length + 1).split('\\').join('/'))
    .sort();
}

/** One line: which layouts were read, and how many students. */
export function describeIntake(intake: Intake): string {
  const n = intake.records.length;
  const kinds = new Map<LayoutKind, string[]>();
  for (const r of intake.reads) kinds.set(r.layout, [...(kinds.get(r.layout) ?? []), r.path]);
  const singles = kinds.get('single') ?? [];
  const parts = [...kinds.entries()]
    .filter(([k]) => k !== 'single')
    .map(([k, ps]) => `${LAYOUT_NAMES[k]} (${ps.length <= 2 ? ps.join(', ') : `${ps.length} paths`})`);
  if (singles.length > 0) parts.push(singles.length === 1 && parts.length === 0 ? 'one submission' : `${singles.length} submission${singles.length === 1 ? '' : 's'} given one by one`);
  return `intake: ${n} submission${n === 1 ? '' : 's'}, read as ${parts.join(' and ')}`;
}
