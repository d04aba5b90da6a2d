/**
 * A safe copy of a folder a student handed in: the one way the trusted grader takes in a
 * submission's files (the LMS intake, the sandbox's private copy).
 *
 * Nothing is followed. A symbolic link is left out with a note, whatever it points at (inside the
 * submission or not: the note never says where, nor whether its target exists). FIFOs, sockets and
 * devices are left out. Files are opened with O_NOFOLLOW and copied up to the size they had when
 * opened. The walk is bounded in files, bytes, folders and depth, so a tree of folders that
 * multiply, or a million empty folders, costs the grader no more than a small submission.
 */
import { execFileSync } from 'node:child_process';
import { mkdir, open, readdir, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { formatBytes, openRegularFile, refusalMessage } from './safe-read.ts';

export interface SnapshotLimits {
  /** regular files copied, at most */
  files: number;
  /** bytes copied, at most, over all files */
  bytes: number;
  /** folders made, at most (the root not counted) */
  folders: number;
  /** folder nesting below the root, at most */
  depth: number;
}

export const DEFAULT_SNAPSHOT_LIMITS: Readonly<SnapshotLimits> = { files: 20_000, bytes: 100 * 1024 * 1024, folders: 5_000, depth: 32 };

export interface SnapshotOptions {
  limits?: Partial<SnapshotLimits>;
  /** entries left out without a note (their path relative to the root, '/'-separated; folder or not) */
  skip?: (relative: string, isFolder: boolean) => boolean;
  /**
   * Keep what is refused as an inert stand-in of its kind: a link as a link that points nowhere
   * (its target not kept), a FIFO, socket or device as an empty FIFO. The intake's snapshot is not
   * the last reader: the grader still decides what a submission is from its names (a linked
   * mancala.yaml is that submission's error, not a folder without a manifest), and refuses the
   * stand-ins in the same words, without anything to follow or wait on.
   */
  standIns?: boolean;
}

/** What a refused link points at in a snapshot with stand-ins: nothing, and says so. */
export const REFUSED_LINK_TARGET = '(refused)';

export interface SnapshotResult {
  files: number;
  bytes: number;
  folders: number;
  /** what was left out and why, one line each, naming paths relative to the root only */
  notes: string[];
  /** some limit was reached: the copy is partial */
  truncated: boolean;
}

interface Walk {
  limits: SnapshotLimits;
  skip: (relative: string, isFolder: boolean) => boolean;
  result: SnapshotResult;
  /** the first limit reached, noted once */
  limitNoted: boolean;
  /** notes not kept beyond MAX_NOTES */
  notesLeftOut: number;
  standIns: boolean;
}

/**
 * Notes kept, at most: a folder of a million links is a million refusals, and the report that
 * lists them would be the grader's problem. The rest are counted in one last line.
 */
export const MAX_NOTES = 100;

function note(walk: Walk, line: string): void {
  if (walk.result.notes.length < MAX_NOTES) walk.result.notes.push(line);
  else walk.notesLeftOut++;
}

/** Copies the folder `source` into `dest` (made if missing), as the module comment says. */
export async function snapshotFolder(source: string, dest: string, o: SnapshotOptions = {}): Promise<SnapshotResult> {
  const walk: Walk = {
    limits: { ...DEFAULT_SNAPSHOT_LIMITS, ...o.limits },
    skip: o.skip ?? (() => false),
    result: { files: 0, bytes: 0, folders: 0, notes: [], truncated: false },
    limitNoted: false,
    notesLeftOut: 0,
    standIns: o.standIns === true,
  };
  await mkdir(dest, { recursive: true });
  await copyFolder(walk, source, '', dest, 0);
  if (walk.notesLeftOut > 0) walk.result.notes.push(`and ${walk.notesLeftOut} more entries left out (links, special files, unreadable files)`);
  return walk.result;
}

/** Copies the one regular file `source` to `dest`, with the same refusals; a note when refused. */
export async function snapshotFile(source: string, dest: string, shown: string, maxBytes = DEFAULT_SNAPSHOT_LIMITS.bytes): Promise<{ ok: true; bytes: number } | { ok: false; message: string }> {
  const opened = await openRegularFile(source, maxBytes, shown);
  if (!opened.ok) return { ok: false, message: opened.message };
  try {
    await copyOpened(opened.handle, opened.size, dest, opened.mode, opened.mtimeMs);
    return { ok: true, bytes: opened.size };
  } finally {
    await opened.handle.close();
  }
}

function noteLimit(walk: Walk, what: string, shown: string): void {
  walk.result.truncated = true;
  if (walk.limitNoted) return;
  walk.limitNoted = true;
  const { files, bytes, folders, depth } = walk.limits;
  // Always kept: it says the copy is partial.
  walk.result.notes.push(
    `the submission is too large (${what}): at most ${files} files, ${formatBytes(bytes)}, ${folders} folders and ${depth} levels are taken; ${shown} and what follows it were left out`,
  );
}

async function copyFolder(walk: Walk, from: string, rel: string, to: string, depth: number): Promise<void> {
  let entries;
  try {
    entries = await readdir(from, { withFileTypes: true });
  } catch {
    note(walk, `${rel === '' ? 'the folder' : rel}: cannot be read (left out)`);
    return;
  }
  // Byte order, not the locale's: the same tree gives the same copy and the same notes everywhere.
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    const shown = rel === '' ? entry.name : `${rel}/${entry.name}`;
    const path = join(from, entry.name);
    if (entry.isSymbolicLink()) {
      if (walk.skip(shown, false)) continue;
      note(walk, refusalMessage(shown, 'link'));
      if (walk.standIns) await symlink(REFUSED_LINK_TARGET, join(to, entry.name));
      continue;
    }
    if (entry.isDirectory()) {
      if (walk.skip(shown, true)) continue;
      if (depth + 1 > walk.limits.depth) {
        noteLimit(walk, `folders nested more than ${walk.limits.depth} deep`, shown);
        continue;
      }
      if (walk.result.folders >= walk.limits.folders) {
        noteLimit(walk, `more than ${walk.limits.folders} folders`, shown);
        continue;
      }
      walk.result.folders++;
      const into = join(to, entry.name);
      await mkdir(into);
      await copyFolder(walk, path, shown, into, depth + 1);
      continue;
    }
    if (walk.skip(shown, false)) continue;
    if (!entry.isFile()) {
      note(walk, refusalMessage(shown, 'special'));
      if (walk.standIns) makeFifo(join(to, entry.name));
      continue;
    }
    if (walk.result.files >= walk.limits.files) {
      noteLimit(walk, `more than ${walk.limits.files} files`, shown);
      continue;
    }
    const left = walk.limits.bytes - walk.result.bytes;
    const opened = await openRegularFile(path, left, shown);
    if (!opened.ok) {
      if (opened.refusal === 'too-large') noteLimit(walk, `more than ${formatBytes(walk.limits.bytes)}`, shown);
      else note(walk, opened.message);
      continue;
    }
    try {
      await copyOpened(opened.handle, opened.size, join(to, entry.name), opened.mode, opened.mtimeMs);
    } finally {
      await opened.handle.close();
    }
    walk.result.files++;
    walk.result.bytes += opened.size;
  }
}

const CHUNK = 256 * 1024;

/**
 * Copies `size` bytes of the open file to a new file at `dest`: executable for its owner if the
 * original was, with the original's modification time (where an LMS gives no submission time, the
 * intake takes the files' own).
 */
async function copyOpened(handle: import('node:fs/promises').FileHandle, size: number, dest: string, mode: number, mtimeMs: number): Promise<void> {
  const out = await open(dest, 'wx', (mode & 0o100) !== 0 ? 0o755 : 0o644);
  try {
    const buffer = Buffer.allocUnsafe(Math.min(CHUNK, Math.max(size, 1)));
    let done = 0;
    while (done < size) {
      const { bytesRead } = await handle.read(buffer, 0, Math.min(buffer.length, size - done), done);
      if (bytesRead === 0) break; // shrank while we read: copy what there was
      await out.write(buffer, 0, bytesRead);
      done += bytesRead;
    }
    const when = new Date(mtimeMs);
    await out.utimes(when, when);
  } finally {
    await out.close();
  }
}

/** An empty FIFO at `path` (Node has no mkfifo of its own; coreutils' is on every system that has FIFOs). */
function makeFifo(path: string): void {
  try {
    execFileSync('mkfifo', ['-m', '600', path], { stdio: 'ignore' });
  } catch {
    // no FIFOs here (Windows): the note says it was refused all the same
  }
}
