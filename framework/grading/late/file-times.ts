/**
 * When a plain folder was handed in, where no LMS says: the newest modification time of its
 * regular files. Links are not followed (a student's link to a file of tomorrow's date proves
 * nothing) and the walk is bounded, like every read of a student's files.
 */
import { lstatSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const JUNK = new Set(['__MACOSX', '.DS_Store', 'Thumbs.db', '.git', 'node_modules']);
const MAX_ENTRIES = 20_000;
const MAX_DEPTH = 32;

/** The newest mtime (ms) of the regular files under `path` (or of `path`, a file); undefined when there are none. */
export function newestFileTime(path: string): number | undefined {
  let newest: number | undefined;
  let seen = 0;
  const walk = (p: string, depth: number): void => {
    if (++seen > MAX_ENTRIES || depth > MAX_DEPTH) return;
    let st;
    try {
      st = lstatSync(p);
    } catch {
      return;
    }
    if (st.isFile()) {
      newest = newest === undefined ? st.mtimeMs : Math.max(newest, st.mtimeMs);
      return;
    }
    if (!st.isDirectory()) return;
    let names: string[];
    try {
      names = readdirSync(p);
    } catch {
      return;
    }
    for (const name of names.sort()) if (!JUNK.has(name) && !name.startsWith('._')) walk(join(p, name), depth + 1);
  };
  walk(path, 0);
  return newest;
}
