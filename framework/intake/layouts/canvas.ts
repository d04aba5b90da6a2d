/**
 * Canvas's "Download Submissions": one flat folder (or zip) of files named
 * `<lastnamefirstname>[_LATE]_<userId>_<submissionId>_<original name>`. All files of one student
 * share the user and submission ids. A file the student uploaded again under the same name gets
 * `-N` before its extension (`mancala-1.py`): the name is restored, and of `mancala.py` and
 * `mancala-2.py` the highest N (the latest upload) is kept. `_LATE` is Canvas's late mark.
 * Canvas Instructor Guide, "How do I download all student submissions for an assignment?":
 * https://community.canvaslms.com/t5/Instructor-Guide/tkb-p/Instructor
 */
import { join } from 'node:path';
import { entriesOf } from './junk.ts';
import type { FoundSubmission, LayoutRead } from './found.ts';

const CANVAS_NAME = /^([^_]+?)(_LATE)?_(\d+)_(\d+)_(.+)$/i;
const RESUBMITTED = /^(.*?)-(\d+)(\.[^./]*)?$/;

export function isCanvasName(name: string): boolean {
  return CANVAS_NAME.test(name);
}

/** The name without Canvas's resubmission counter, and the counter (0 for none). */
export function withoutResubmission(name: string): { name: string; n: number } {
  const m = RESUBMITTED.exec(name);
  if (m === null) return { name, n: 0 };
  return { name: m[1]! + (m[3] ?? ''), n: Number(m[2]) };
}

export function readCanvas(dir: string, shown: string): LayoutRead {
  const byStudent = new Map<string, { sub: FoundSubmission; kept: Map<string, { n: number; path: string; original: string }> }>();
  const notes: string[] = [];
  for (const e of entriesOf(dir)) {
    const m = CANVAS_NAME.exec(e.name);
    // A link named as a student's file is theirs: its copy refuses it, on their record.
    if (m === null || !(e.isFile() || e.isSymbolicLink())) {
      notes.push(`${shown}/${e.name}: not named as Canvas names a student's file (<name>_<user id>_<submission id>_<file>): left out`);
      continue;
    }
    const [, who, late, userId, submissionId, original] = m as unknown as [string, string, string | undefined, string, string, string];
    const key = `${userId}_${submissionId}`;
    let entry = byStudent.get(key);
    if (entry === undefined) {
      entry = {
        sub: {
          idHint: userId,
          ...(who.toLowerCase() !== 'anonymous' ? { name: who } : {}),
          lms: { userId, submissionId },
          late: late !== undefined,
          source: `${shown}/${who}${late ?? ''}_${userId}_${submissionId}_*`,
          from: { files: [] },
          notes: [],
        },
        kept: new Map(),
      };
      byStudent.set(key, entry);
    }
    const restored = withoutResubmission(original);
    const before = entry.kept.get(restored.name);
    if (before === undefined || restored.n > before.n) entry.kept.set(restored.name, { n: restored.n, path: join(dir, e.name), original });
  }
  const submissions: FoundSubmission[] = [];
  for (const { sub, kept } of byStudent.values()) {
    const files = [...kept.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([as, { path, n, original }]) => {
      if (n > 0) sub.notes.push(`${original}: Canvas's name for a file uploaded again, restored to ${as}`);
      return { path, as };
    });
    sub.from = { files };
    submissions.push(sub);
  }
  // A student with two submission ids (an old and a new download merged) keeps the later one.
  const latest = new Map<string, FoundSubmission>();
  for (const s of submissions) {
    const other = latest.get(s.idHint);
    if (other === undefined || Number(s.lms!.submissionId) > Number(other.lms!.submissionId)) latest.set(s.idHint, s);
  }
  return { submissions: [...latest.values()], notes };
}
