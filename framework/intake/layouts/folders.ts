/**
 * The layouts no LMS names: a folder per student (`alice/`, `bob/`, …, the student's id the
 * folder's name), and one submission, a folder or an agent file, as `mancala grade` always took.
 */
import { join } from 'node:path';
import { CODE_FOLDERS, entriesOf } from './junk.ts';
import type { FoundSubmission, LayoutRead } from './found.ts';

/**
 * A folder of students: at least two folders and no file. Folders a student's code lives in
 * (src/, lib/, test/, …) make it one student's submission instead.
 */
export function isFolderPerStudent(dir: string): boolean {
  const entries = entriesOf(dir);
  return entries.length >= 2 && entries.every((e) => e.isDirectory() && !CODE_FOLDERS.has(e.name.toLowerCase()));
}

export function readFolderPerStudent(dir: string, shown: string): LayoutRead {
  const entries = entriesOf(dir);
  // A link is never followed, to a folder least of all: it is no student's.
  const notes = entries.filter((e) => !e.isDirectory()).map((e) => `${shown}/${e.name}: ${e.isSymbolicLink() ? 'a symbolic link (refused)' : 'not a folder: left out'}`);
  const submissions = entries.filter((e) => e.isDirectory()).map((e) => ({ idHint: e.name, source: `${shown}/${e.name}`, from: { folder: join(dir, e.name) }, notes: [] }));
  return { submissions, notes };
}

/** One submission: the folder `dir` (or the file), its id `id`. */
export function readSingle(path: string, shown: string, id: string, isFile: boolean): LayoutRead {
  const found: FoundSubmission = { idHint: id, source: shown, from: isFile ? { file: path } : { folder: path }, notes: [] };
  return { submissions: [found], notes: [] };
}
