/**
 * Looking at a name in a submission folder without following it: is `mancala.yaml` there, and is
 * it a regular file? `existsSync` and `statSync` follow links, so `command -> /dev/zero` would
 * "exist" as a file and `agent.py -> /nowhere` would not exist at all; here a link is a link,
 * wherever it points (and whether or not its target exists), and so is a name reached through a
 * linked folder. Reads go through safe-read.ts, which opens with O_NOFOLLOW.
 */
import { lstatSync } from 'node:fs';
import { join } from 'node:path';
import { readRegularTextSync, refusalMessage, type Refusal } from './safe-read.ts';

export type EntryKind = 'file' | 'folder' | 'link' | 'special' | 'missing';

/** What `relative` ('/'-separated) is inside the folder `root`, following no link on the way. */
export function entryKind(root: string, relative: string): EntryKind {
  let at = root;
  const parts = relative.split('/').filter((p) => p !== '' && p !== '.');
  for (const [k, part] of parts.entries()) {
    at = join(at, part);
    let info;
    try {
      info = lstatSync(at);
    } catch {
      return 'missing';
    }
    if (info.isSymbolicLink()) return 'link';
    const last = k === parts.length - 1;
    if (!last && !info.isDirectory()) return 'missing';
    if (last) return info.isFile() ? 'file' : info.isDirectory() ? 'folder' : 'special';
  }
  return 'folder';
}

/** `relative` is there in `root` as anything at all (a link, a FIFO …): a name the submission holds. */
export function hasEntry(root: string, relative: string): boolean {
  return entryKind(root, relative) !== 'missing';
}

/** `relative` is a regular file of `root`, reached through no link. */
export function isRegularFileIn(root: string, relative: string): boolean {
  return entryKind(root, relative) === 'file';
}

/** Why `relative` of `root` is no regular file to read, in the words of safe-read.ts; undefined when it is one. */
export function notRegularFile(root: string, relative: string): string | undefined {
  const kind = entryKind(root, relative);
  if (kind === 'file') return undefined;
  const refusal: Refusal = kind === 'link' ? 'link' : kind === 'folder' ? 'folder' : kind === 'special' ? 'special' : 'missing';
  return refusalMessage(relative, refusal);
}

/** The text of `relative` in `root`: a regular file reached through no link, at most `maxBytes`; messages name `relative` only. */
export function readSubmissionText(root: string, relative: string, maxBytes: number): ReturnType<typeof readRegularTextSync> {
  return readRegularTextSync(join(root, ...relative.split('/')), maxBytes, { root, shown: relative });
}

/**
 * A file-system error met while taking in one submission (a folder it cannot read, a name too
 * long, a file gone while copied), as that submission's own error: one line naming the error's
 * code, never the path (which may be the grader's). Undefined for anything else (a bug: it stops
 * the run, as it should).
 */
export function unreadableSubmission(e: unknown): string | undefined {
  const code = (e as NodeJS.ErrnoException | undefined)?.code;
  if (typeof code !== 'string' || !/^E[A-Z0-9]+$/.test(code)) return undefined;
  return `the submission's files could not be read (${code})`;
}
