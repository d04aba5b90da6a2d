/**
 * Canvas's "Download Submissions": one flat folder (or zip) of files named
 * `<lastnamefirstname>[_LATE]_<user id>_<file id>_<original name>`, or under anonymous grading
 * `[LATE_]anon_<anonymous id>_<file id>_<original name>`. The second number is each *file's* own id
 * (Canvas's attachment id), not the submission's: a student's two files carry two numbers, so a
 * student is the user id (or the anonymous id) alone. A file the student uploaded again under the
 * same name gets `-N` before its extension (`mancala-1.py`): the name is restored, and of files with
 * the same restored name the latest is kept: the highest N, then the highest file id (Canvas's ids
 * grow with each upload; two downloads merged in one folder give one student files of both).
 * `_LATE` is Canvas's late mark; the download carries no submission times (each file in it bears
 * the time the zip was made), so no time is taken from it (take-in.ts).
 *
 * Canvas's source builds the names: lib/content_zipper.rb, `get_filename` (`[name, "LATE", id]`
 * joined by `_`, the id `anon_<anonymous_id>` when the assignment anonymizes students) and
 * `add_upload_submission` (`"#{filename}_#{file.id}_#{display_name}"`), github.com/instructure/canvas-lms.
 * Canvas Instructor Guide, "How do I download all student submissions for an assignment?":
 * https://community.canvaslms.com/t5/Instructor-Guide/tkb-p/Instructor
 */
import { join } from 'node:path';
import { entriesOf } from './junk.ts';
import type { FoundSubmission, LayoutRead } from './found.ts';

/**
 * A student's file. Canvas takes `_<digits>_` out of names (`sanitize_user_name`), so the name holds
 * none, and the first `_<user id>_<file id>_` is Canvas's (a Moodle name, `…_2002_assignsubmission…`, is no Canvas name).
 */
const NAMED = /^((?:(?!_\d+_).)+?)(_LATE)?_(\d+)_(\d+)_(.+)$/is;
/** Anonymous grading: Canvas's anonymous id, five base58 letters and digits. */
const ANONYMOUS = /^(LATE_)?anon_([A-Za-z0-9]+)_(\d+)_(.+)$/s;
/** A text entry or a link submitted online: a page of Canvas's, no file of the student's. */
const ONLINE = /^(?:.+?(?:_LATE)?_\d+|(?:LATE_)?anon_[A-Za-z0-9]+)_(text|link)\.html$/is;
const RESUBMITTED = /^(.*?)-(\d+)(\.[^./]*)?$/s;

interface CanvasFile {
  /** the student: `<user id>`, or `anon_<anonymous id>` */
  key: string;
  who?: string;
  userId?: string;
  anonymousId?: string;
  late: boolean;
  fileId: number;
  original: string;
  /** the name before `_<file id>_` (`smithalice_LATE_1001`), for sources */
  prefix: string;
}

function parse(name: string): CanvasFile | undefined {
  const a = ANONYMOUS.exec(name);
  if (a !== null) {
    const [, late, anon, fileId, original] = a as unknown as [string, string | undefined, string, string, string];
    return { key: `anon_${anon}`, anonymousId: anon, late: late !== undefined, fileId: Number(fileId), original, prefix: `${late ?? ''}anon_${anon}` };
  }
  const m = NAMED.exec(name);
  if (m === null) return undefined;
  const [, who, late, userId, fileId, original] = m as unknown as [string, string, string | undefined, string, string, string];
  return { key: userId, who, userId, late: late !== undefined, fileId: Number(fileId), original, prefix: `${who}${late ?? ''}_${userId}` };
}

export function isCanvasName(name: string): boolean {
  return parse(name) !== undefined;
}

/** The name without Canvas's resubmission counter, and the counter (0 for none). */
export function withoutResubmission(name: string): { name: string; n: number } {
  const m = RESUBMITTED.exec(name);
  if (m === null) return { name, n: 0 };
  return { name: m[1]! + (m[3] ?? ''), n: Number(m[2]) };
}

interface Kept {
  n: number;
  fileId: number;
  path: string;
  original: string;
  late: boolean;
  prefix: string;
}

export function readCanvas(dir: string, shown: string): LayoutRead {
  const byStudent = new Map<string, { first: CanvasFile; kept: Map<string, Kept>; dropped: string[] }>();
  const notes: string[] = [];
  for (const e of entriesOf(dir)) {
    const f = parse(e.name);
    // A link named as a student's file is theirs: its copy refuses it, on their record.
    if (f === undefined || !(e.isFile() || e.isSymbolicLink())) {
      const what = ONLINE.test(e.name) ? "a text entry or link submitted online (Canvas's page, no file)" : 'not named as Canvas names a student\'s file (<name>_<user id>_<file id>_<file>)';
      notes.push(`${shown}/${e.name}: ${what}: left out`);
      continue;
    }
    let entry = byStudent.get(f.key);
    if (entry === undefined) {
      entry = { first: f, kept: new Map(), dropped: [] };
      byStudent.set(f.key, entry);
    }
    const restored = withoutResubmission(f.original);
    const file: Kept = { n: restored.n, fileId: f.fileId, path: join(dir, e.name), original: f.original, late: f.late, prefix: f.prefix };
    const before = entry.kept.get(restored.name);
    const later = before === undefined || file.n > before.n || (file.n === before.n && file.fileId > before.fileId);
    if (before !== undefined) entry.dropped.push(later ? before.original : file.original);
    if (later) entry.kept.set(restored.name, file);
  }
  const submissions: FoundSubmission[] = [];
  for (const { first, kept, dropped } of byStudent.values()) {
    const chosen = [...kept.entries()].sort(([a], [b]) => (a < b ? -1 : 1));
    // The late mark of the newest file kept: of two downloads merged, the later one's.
    const newest = chosen.reduce((a, [, k]) => (k.fileId > a.fileId ? k : a), chosen[0]![1]);
    const subNotes: string[] = [];
    const files = chosen.map(([as, k]) => {
      if (k.n > 0) subNotes.push(`${k.original}: Canvas's name for a file uploaded again, restored to ${as}`);
      return { path: k.path, as };
    });
    for (const d of dropped.sort()) subNotes.push(`${d}: an earlier upload of a file kept under the same name: left out`);
    if (chosen.some(([, k]) => k.late !== newest.late)) subNotes.push(`some files marked _LATE and some not (downloads merged?): the newest file's mark taken (${newest.late ? 'late' : 'not late'})`);
    const named = first.who !== undefined && first.who.toLowerCase() !== 'anonymous';
    submissions.push({
      idHint: first.key,
      ...(named ? { name: first.who } : {}),
      lms: first.userId !== undefined ? { userId: first.userId } : { anonymousId: first.anonymousId! },
      late: newest.late,
      source: `${shown}/${newest.prefix}_*`,
      from: { files },
      notes: subNotes,
    });
  }
  return { submissions, notes, fileTimes: false };
}
