/**
 * A content hash of what a submission is graded from: every file the sandbox would copy
 * (sandbox/submissions/copy.ts: node_modules and .git are never copied), by relative path, with
 * its executable bit and its bytes, and each symbolic link by what it points to. Nothing is
 * followed out of the folder and nothing but regular files is opened (a FIFO would block): each
 * file is opened without following a link and checked to be a regular file once open
 * (files/safe-read.ts), so a link or a FIFO swapped in after the listing is never read.
 * Over the copy's own caps there is no hash: such a submission is graded every time.
 */
import { createHash, type Hash } from 'node:crypto';
import { lstat, readdir, readlink, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { openRegularFile } from '../files/safe-read.ts';
import { COPY_LIMITS, SKIPPED_FOLDERS } from '../sandbox/submissions/copy.ts';

interface Count {
  bytes: number;
  files: number;
}

/** The hash of the submission at `path` (a folder or a file), or undefined when it is over the caps or unreadable. */
export async function submissionFilesHash(path: string): Promise<string | undefined> {
  const hash = createHash('sha256');
  const count: Count = { bytes: 0, files: 0 };
  try {
    const info = await stat(path);
    if (info.isDirectory()) {
      if (!(await hashFolder(path, '', hash, count))) return undefined;
    } else if (info.isFile()) {
      await hashFile(path, '', hash);
    } else return undefined;
  } catch {
    return undefined;
  }
  return hash.digest('hex');
}

async function hashFolder(dir: string, rel: string, hash: Hash, count: Count): Promise<boolean> {
  const entries = (await readdir(dir)).sort();
  for (const name of entries) {
    if (SKIPPED_FOLDERS.has(name)) continue;
    const path = join(dir, name);
    const shown = rel === '' ? name : `${rel}/${name}`;
    const info = await lstat(path);
    if (++count.files > COPY_LIMITS.files) return false;
    if (info.isSymbolicLink()) hash.update(`L\0${shown}\0${await readlink(path)}\0`);
    else if (info.isDirectory()) {
      hash.update(`D\0${shown}\0`);
      if (!(await hashFolder(path, shown, hash, count))) return false;
    } else if (info.isFile()) {
      count.bytes += info.size;
      if (count.bytes > COPY_LIMITS.bytes) return false;
      await hashFile(path, shown, hash);
    } else hash.update(`O\0${shown}\0`);
  }
  return true;
}

async function hashFile(path: string, shown: string, hash: Hash): Promise<void> {
  // What the listing saw may have been replaced since: a link or a special file now is refused (no hash), never followed or waited on.
  const opened = await openRegularFile(path, COPY_LIMITS.bytes, shown);
  if (!opened.ok) throw new Error(opened.message);
  try {
    hash.update(`F\0${shown}\0${opened.mode & 0o111 ? 'x' : '-'}\0`);
    const content = createHash('sha256');
    // The bytes it had when opened, at most: a file still growing is hashed as it was.
    const buf = Buffer.allocUnsafe(64 * 1024);
    for (let at = 0; at < opened.size; ) {
      const { bytesRead } = await opened.handle.read(buf, 0, Math.min(buf.length, opened.size - at), at);
      if (bytesRead === 0) break;
      content.update(buf.subarray(0, bytesRead));
      at += bytesRead;
    }
    hash.update(`${content.digest('hex')}\0`);
  } finally {
    await opened.handle.close();
  }
}
