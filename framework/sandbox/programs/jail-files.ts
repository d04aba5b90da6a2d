/**
 * A supervised jail's writable folders (jail-session.ts), reached by the grader through the jail's
 * root (`/proc/PID/root` of its first process), between cases, when no process of the submission
 * is left: emptied and filled with the submission and the case's inputs before the case's go, and
 * read back after it (the free space, the files left, each requested output), with no process
 * started for any of it.
 *
 * The folders are the student's, so nothing in them is followed: the grader is root here. Entries
 * are removed without following links (rmSync), outputs are opened with O_NOFOLLOW and O_NONBLOCK
 * and read only when the descriptor is a regular file, at most `cap` bytes, and the list is walked
 * without entering links, within LIST_ENTRIES entries and a bounded depth. No process of the case
 * can change anything meanwhile: every one was killed before its report.
 */
import { closeSync, constants, copyFileSync, fstatSync, lchownSync, lstatSync, mkdirSync, openSync, readdirSync, readSync, rmSync, statfsSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SANDBOX_UID } from '../jail/machine.ts';
import { LIST_ENTRIES, LIST_NAME_BYTES, type Report } from './report.ts';

/** Deeper than any submission's own folders; a case's deeper nesting is not listed. */
const LIST_DEPTH = 32;

const NO_FOLLOW_READ = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

export interface CaseFolders {
  /** the jail's root as the grader reaches it: /proc/PID/root */
  root: string;
  /** the work folder and /tmp, as the jail names them */
  work: string;
  tmp: string;
  /** entries of those folders that are not the case's (the folders of read-only binds), as the jail names them */
  keep: ReadonlySet<string>;
}

const inJail = (f: CaseFolders, path: string) => join(f.root, path);

/**
 * The jail's root as a descriptor of this process, opened through the jail's first process while
 * it runs: `/proc/self/fd/N` then names that folder for good, never another process's root (a pid
 * reused after the jail ended), and never the host's (checked: the jail's root is a tmpfs of its own).
 */
export function openJailRoot(pid: number): { root: string; close(): void } {
  const fd = openSync(`/proc/${pid}/root`, constants.O_RDONLY | constants.O_DIRECTORY);
  const jail = fstatSync(fd);
  const host = statSync('/');
  if (jail.dev === host.dev && jail.ino === host.ino) {
    closeSync(fd);
    throw new Error(`internal: process ${pid} is not in a jail (its root is the machine's)`);
  }
  return { root: `/proc/self/fd/${fd}`, close: () => closeSync(fd) };
}

/** Everything in `folder` but `keep` goes; nothing is followed. */
function empty(f: CaseFolders, folder: string): void {
  for (const name of readdirSync(inJail(f, folder))) {
    if (f.keep.has(join(folder, name))) continue;
    rmSync(inJail(f, join(folder, name)), { recursive: true, force: true });
  }
}

/** The staged submission (the grader's own copy: no links) into `to`, owned by the sandbox's user, `skip` left out at its top. */
function copyInto(from: string, to: string, skip: ReadonlySet<string>): void {
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    if (skip.has(entry.name)) continue;
    const source = join(from, entry.name);
    const target = join(to, entry.name);
    if (entry.isDirectory()) {
      mkdirSync(target, { mode: statSync(source).mode & 0o7777 });
      lchownSync(target, SANDBOX_UID, SANDBOX_UID);
      copyInto(source, target, new Set());
    } else if (entry.isFile()) {
      // The target was removed with everything else: a name there now can only be a race, and fails.
      copyFileSync(source, target, constants.COPYFILE_EXCL);
      lchownSync(target, SANDBOX_UID, SANDBOX_UID);
    }
  }
}

/**
 * Before a case's go: its folders emptied of the case before, the submission copied in (without
 * copies of the requested outputs) and the inputs written. False when they do not fit (the
 * work folder's size cap): the case's setup failed, as the copy in a jail of its own would.
 */
export function prepareCase(f: CaseFolders, o: { src: string; outputs: readonly string[]; inputs: Readonly<Record<string, string | Buffer>> }): boolean {
  empty(f, f.work);
  empty(f, f.tmp);
  try {
    copyInto(o.src, inJail(f, f.work), new Set([...o.outputs, ...Object.keys(o.inputs)]));
    for (const [name, content] of Object.entries(o.inputs)) {
      const path = inJail(f, join(f.work, name));
      writeFileSync(path, content, { flag: 'wx', mode: 0o644 });
      lchownSync(path, SANDBOX_UID, SANDBOX_UID);
    }
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOSPC') return false;
    throw e;
  }
}

/** The non-folder entries under the work folder, as `find . -xdev ! -type d -printf '%s %P'` lists them: depth first, in the folder's order, at most LIST_ENTRIES. */
function listLeft(f: CaseFolders): Report['left'] {
  const left: Report['left'] = [];
  const walk = (dir: Buffer, shown: Buffer | undefined, depth: number): void => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true, encoding: 'buffer' });
    } catch {
      return;
    }
    for (const entry of entries) {
      if (left.length >= LIST_ENTRIES) return;
      const name = entry.name as unknown as Buffer;
      const path = Buffer.concat([dir, Buffer.from('/'), name]);
      const rel = shown === undefined ? name : Buffer.concat([shown, Buffer.from('/'), name]);
      if (entry.isDirectory()) {
        if (depth < LIST_DEPTH) walk(path, rel, depth + 1);
        continue;
      }
      let bytes = 0;
      try {
        bytes = lstatSync(path).size;
      } catch {
        // gone: listed without a size
      }
      left.push({ name: rel.subarray(0, LIST_NAME_BYTES).toString('utf8'), bytes });
    }
  };
  walk(Buffer.from(inJail(f, f.work)), undefined, 0);
  return left;
}

/** An output of the case: read when it is a regular file (at most `cap` bytes), else not a file, or none. */
function readOutput(path: string, cap: number): { kind: 'file'; bytes: Buffer; size: number } | { kind: 'none' | 'special' } {
  let fd: number;
  try {
    fd = openSync(path, NO_FOLLOW_READ);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return { kind: code === 'ENOENT' ? 'none' : 'special' };
  }
  try {
    const info = fstatSync(fd);
    if (!info.isFile()) return { kind: 'special' };
    const buffer = Buffer.allocUnsafe(Math.min(info.size, cap));
    let filled = 0;
    while (filled < buffer.length) {
      const n = readSync(fd, buffer, filled, buffer.length - filled, null);
      if (n === 0) break;
      filled += n;
    }
    return { kind: 'file', bytes: buffer.subarray(0, filled), size: info.size };
  } finally {
    closeSync(fd);
  }
}

/** After a case: what the wrapper's report would say of its folders (report.ts), read from outside. */
export function readCase(f: CaseFolders, o: { outputs: readonly string[]; cap: number }): Pick<Report, 'workFree' | 'workTotal' | 'tmpFree' | 'tmpTotal' | 'left' | 'files' | 'sizes' | 'notFiles'> {
  const space = (folder: string) => {
    const s = statfsSync(inJail(f, folder));
    return { free: s.bavail * s.bsize, total: s.blocks * s.bsize };
  };
  const work = space(f.work);
  const tmp = space(f.tmp);
  const out: ReturnType<typeof readCase> = { workFree: work.free, workTotal: work.total, tmpFree: tmp.free, tmpTotal: tmp.total, left: listLeft(f), files: {}, sizes: {}, notFiles: [] };
  for (const name of o.outputs) {
    const r = readOutput(inJail(f, join(f.work, name)), o.cap);
    if (r.kind === 'file') {
      out.files[name] = r.bytes;
      out.sizes[name] = r.size;
    } else if (r.kind === 'special') out.notFiles.push(name);
  }
  return out;
}
