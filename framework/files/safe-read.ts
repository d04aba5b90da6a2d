/**
 * Reading a file a student handed in, without trusting it to be a file.
 *
 * A submission's `mancala.yaml` may be a symbolic link to /dev/zero (an endless read), to
 * /dev/stdin (a read that never ends), to a FIFO (an open that never returns) or to the hidden
 * suite's answers. So every read of a submission's file opens it with O_NOFOLLOW (a link is refused
 * by the kernel, not checked beforehand and raced) and O_NONBLOCK (opening a FIFO returns at once),
 * checks the open descriptor is a regular file, and reads at most `maxBytes`. What is refused says
 * so in words that name no target: a student must not learn whether a guessed path exists.
 */
import { closeSync, constants, fstatSync, lstatSync, openSync, readSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { join, resolve, sep } from 'node:path';

/** Why a file was not read, in the words a student and an instructor may both see. */
export type Refusal = 'missing' | 'link' | 'folder' | 'special' | 'too-large' | 'unreadable';

export type SafeRead = { ok: true; bytes: Buffer; mode: number } | { ok: false; refusal: Refusal; message: string };

/** The open flags: read only, never through a final link, never waiting on a FIFO or device. */
const NO_FOLLOW_READ = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

/** What `refusal` means for the file `shown` (a path relative to the submission). */
export function refusalMessage(shown: string, refusal: Refusal, maxBytes?: number): string {
  switch (refusal) {
    case 'missing':
      return `${shown}: no such file`;
    case 'link':
      return `${shown}: a symbolic link (refused)`;
    case 'folder':
      return `${shown}: a folder, where a file was expected`;
    case 'special':
      return `${shown}: not a regular file (refused)`;
    case 'too-large':
      return `${shown}: larger than ${formatBytes(maxBytes ?? 0)} (refused)`;
    case 'unreadable':
      return `${shown}: cannot be read`;
  }
}

export function formatBytes(n: number): string {
  if (n >= 1024 * 1024) return `${Math.round((n / (1024 * 1024)) * 10) / 10} MB`;
  if (n >= 1024) return `${Math.round((n / 1024) * 10) / 10} KB`;
  return `${n} bytes`;
}

function refusalOf(e: unknown): Refusal {
  const code = (e as NodeJS.ErrnoException).code;
  if (code === 'ENOENT' || code === 'ENOTDIR') return 'missing';
  // O_NOFOLLOW on a link: ELOOP on Linux, EMLINK on FreeBSD, EFTYPE on some others.
  if (code === 'ELOOP' || code === 'EMLINK' || code === 'EFTYPE') return 'link';
  if (code === 'EISDIR') return 'folder';
  if (code === 'ENXIO' || code === 'ENODEV') return 'special';
  return 'unreadable';
}

/**
 * The folders between `root` and `path` hold no link: O_NOFOLLOW guards only the last name, and
 * `sub/mancala.yaml` with `sub -> /etc` would otherwise read outside the submission.
 */
function linkOnTheWay(given: string, file: string): boolean {
  // Both absolute and normalised: `alice/` and `alice/lib/x` must compare as folder and file inside it.
  const root = resolve(given);
  const path = resolve(file);
  if (!path.startsWith(root + sep)) return false;
  const parts = path.slice(root.length + 1).split(sep).slice(0, -1);
  let at = root;
  for (const part of parts) {
    at = join(at, part);
    try {
      if (lstatSync(at).isSymbolicLink()) return true;
    } catch {
      return false; // missing: the open below says so
    }
  }
  return false;
}

/**
 * Reads the regular file `path` whole, refusing links (the last name, and the folders below `root`
 * when given), folders, FIFOs, sockets and devices, and files over `maxBytes`. `shown` names the
 * file in the message (default: the path as given).
 */
export function readRegularFileSync(path: string, maxBytes: number, o: { root?: string; shown?: string } = {}): SafeRead {
  const shown = o.shown ?? path;
  const refuse = (refusal: Refusal): SafeRead => ({ ok: false, refusal, message: refusalMessage(shown, refusal, maxBytes) });
  if (o.root !== undefined && linkOnTheWay(o.root, path)) return refuse('link');
  let fd: number;
  try {
    fd = openSync(path, NO_FOLLOW_READ);
  } catch (e) {
    return refuse(refusalOf(e));
  }
  try {
    const info = fstatSync(fd);
    if (info.isDirectory()) return refuse('folder');
    if (!info.isFile()) return refuse('special');
    if (info.size > maxBytes) return refuse('too-large');
    // Read at most maxBytes + 1 whatever the size said: a file may grow while it is read.
    const buffer = Buffer.allocUnsafe(Math.min(maxBytes + 1, Math.max(info.size, 0) + 1));
    let filled = 0;
    for (;;) {
      if (filled === buffer.length) break;
      const n = readSync(fd, buffer, filled, buffer.length - filled, null);
      if (n === 0) break;
      filled += n;
    }
    if (filled > maxBytes) return refuse('too-large');
    return { ok: true, bytes: buffer.subarray(0, filled), mode: info.mode };
  } catch (e) {
    return refuse(refusalOf(e));
  } finally {
    closeSync(fd);
  }
}

/** readRegularFileSync as UTF-8 text. */
export function readRegularTextSync(path: string, maxBytes: number, o: { root?: string; shown?: string } = {}): { ok: true; text: string } | { ok: false; refusal: Refusal; message: string } {
  const read = readRegularFileSync(path, maxBytes, o);
  return read.ok ? { ok: true, text: read.bytes.toString('utf8') } : read;
}

/**
 * Opens the regular file `path` for a streamed copy, with the same refusals (no link, no special
 * file, at most `maxBytes`); the caller closes the handle.
 */
export async function openRegularFile(path: string, maxBytes: number, shown = path): Promise<{ ok: true; handle: import('node:fs/promises').FileHandle; size: number; mode: number; mtimeMs: number } | { ok: false; refusal: Refusal; message: string }> {
  const refuse = (refusal: Refusal) => ({ ok: false as const, refusal, message: refusalMessage(shown, refusal, maxBytes) });
  let handle: import('node:fs/promises').FileHandle;
  try {
    handle = await open(path, NO_FOLLOW_READ);
  } catch (e) {
    return refuse(refusalOf(e));
  }
  try {
    const info = await handle.stat();
    if (info.isDirectory() || !info.isFile() || info.size > maxBytes) {
      await handle.close();
      return refuse(info.isDirectory() ? 'folder' : !info.isFile() ? 'special' : 'too-large');
    }
    return { ok: true, handle, size: info.size, mode: info.mode, mtimeMs: info.mtimeMs };
  } catch (e) {
    await handle.close().catch(() => {});
    return refuse(refusalOf(e));
  }
}

/**
 * The first `n` bytes of the regular file `path` (fewer when it is shorter), with the same
 * no-follow, no-wait open; undefined when it is no regular file. For telling a zip by its magic.
 */
export function readFileHeadSync(path: string, n: number): Buffer | undefined {
  let fd: number;
  try {
    fd = openSync(path, NO_FOLLOW_READ);
  } catch {
    return undefined;
  }
  try {
    if (!fstatSync(fd).isFile()) return undefined;
    const buffer = Buffer.alloc(n);
    const read = readSync(fd, buffer, 0, n, 0);
    return buffer.subarray(0, read);
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}
