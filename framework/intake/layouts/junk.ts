/**
 * What archivers and file managers add that no student wrote: macOS's `__MACOSX/` and `._*`
 * resource forks and `.DS_Store`, Windows's `Thumbs.db` and `desktop.ini`; and what the grader never
 * takes from a submission (`.git`, `node_modules`: the sandbox's copy skips them too).
 */
import { readdirSync, type Dirent } from 'node:fs';

const JUNK_NAMES = new Set(['__MACOSX', '.DS_Store', 'Thumbs.db', 'desktop.ini', '.git', 'node_modules']);

/** A path ('/'-separated) any of whose parts is junk. */
export function isJunk(relative: string): boolean {
  return relative.split('/').some((p) => JUNK_NAMES.has(p) || p.startsWith('._'));
}

/** The folder's entries that are not junk, in byte order (never through a link: readdir lists names only). */
export function entriesOf(dir: string): Dirent[] {
  let entries: Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  return entries.filter((e) => !isJunk(e.name)).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/**
 * Folders a student's code lives in: a lone one of these is the code's own layout, never a wrapper
 * to look through, and several of them are one student's folders, never a class.
 */
export const CODE_FOLDERS = new Set(['src', 'source', 'lib', 'libs', 'test', 'tests', 'include', 'bin', 'build', 'dist', 'out', 'docs', 'resources', 'main', 'java', 'utils']);

/**
 * Files an instructor leaves beside a class's folders (a grades.csv, a README, notes): data or
 * documents, never code, a manifest or a build file. Only these (and links, never followed) may
 * sit beside the students' folders without making the folder one student's submission.
 */
const STRAY_EXTENSIONS = new Set(['csv', 'tsv', 'txt', 'md', 'pdf', 'rtf', 'doc', 'docx', 'odt', 'xls', 'xlsx', 'ods', 'html', 'htm', 'log']);

export function isStrayFile(name: string): boolean {
  const dot = name.lastIndexOf('.');
  return dot > 0 && STRAY_EXTENSIONS.has(name.slice(dot + 1).toLowerCase());
}

/** A folder's entries sorted as a class folder reads them: folders, links (refused), stray files, and anything else. */
export interface ClassEntries {
  folders: Dirent[];
  links: Dirent[];
  strays: Dirent[];
  /** a file that is code, a manifest, a build file, or a special file: the folder is one submission */
  others: Dirent[];
}

export function classEntries(dir: string): ClassEntries {
  const c: ClassEntries = { folders: [], links: [], strays: [], others: [] };
  for (const e of entriesOf(dir)) {
    if (e.isDirectory()) c.folders.push(e);
    else if (e.isSymbolicLink()) c.links.push(e);
    else if (e.isFile() && isStrayFile(e.name)) c.strays.push(e);
    else c.others.push(e);
  }
  return c;
}

/**
 * Holds students' folders, whatever sits beside them: at least one folder, more folders than
 * stray files, no code file, and (the caller's test) every folder a student's. A link is refused
 * (never followed) and never counts either way.
 */
export function isClassOfFolders(c: ClassEntries, isStudentFolder: (e: Dirent) => boolean): boolean {
  return c.folders.length > 0 && c.others.length === 0 && c.folders.length > c.strays.length && c.folders.every(isStudentFolder);
}

/** One line for each entry beside the students' folders: a link refused, a stray file ignored. */
export function besideNotes(c: ClassEntries, shown: string): string[] {
  return [...c.links.map((e) => `${shown}/${e.name}: a symbolic link (refused)`), ...c.strays.map((e) => `${shown}/${e.name}: not a folder: ignored`)].sort();
}
