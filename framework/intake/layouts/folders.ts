/**
 * The layouts no LMS names: a folder per student (`alice/`, `bob/`, …, the student's id the
 * folder's name), and one submission, a folder or an agent file, as `mancala grade` always took.
 */
import { join } from 'node:path';
import { besideNotes, classEntries, CODE_FOLDERS, entriesOf, isClassOfFolders } from './junk.ts';
import type { FoundSubmission, LayoutRead } from './found.ts';

/**
 * A folder of students: folders, at least two entries, and nothing beside the folders but links
 * (refused) and fewer stray files (a grades.csv, a README) than folders; no code file. Folders a
 * student's code lives in (src/, lib/, test/, …) make it one student's submission instead.
 */
export function isFolderPerStudent(dir: string): boolean {
  return entriesOf(dir).length >= 2 && isClassOfFolders(classEntries(dir), (e) => !CODE_FOLDERS.has(e.name.toLowerCase()));
}

export function readFolderPerStudent(dir: string, shown: string): LayoutRead {
  const c = classEntries(dir);
  // A link is never followed, to a folder least of all: it is no student's.
  const notes = [...besideNotes(c, shown), ...c.others.map((e) => `${shown}/${e.name}: not a folder: ignored`)];
  const submissions = c.folders.map((e) => ({ idHint: e.name, source: `${shown}/${e.name}`, from: { folder: join(dir, e.name) }, notes: [] }));
  return { submissions, notes };
}

/** One submission: the folder `dir` (or the file), its id `id`. */
export function readSingle(path: string, shown: string, id: string, isFile: boolean): LayoutRead {
  const found: FoundSubmission = { idHint: id, source: shown, from: isFile ? { file: path } : { folder: path }, notes: [] };
  return { submissions: [found], notes: [] };
}
