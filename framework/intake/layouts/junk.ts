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
