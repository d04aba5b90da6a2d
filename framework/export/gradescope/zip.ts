/**
 * The autograder's zip: written with yazl (every entry with its Unix mode, so that setup.sh,
 * run_autograder and esbuild's binary stay executable where Gradescope unzips it; a fixed time
 * stamp, so that the same inputs make the same bytes), read back with yauzl (the tests unpack it
 * as Gradescope does; `unzipTo` refuses an entry that would land outside the folder).
 */
import { chmodSync, createWriteStream, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, relative, resolve } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { buffer } from 'node:stream/consumers';
import { openPromise } from 'yauzl';
import { ZipFile } from 'yazl';
import { THREAD_TAG } from '../../thread-tag.ts';

/** Every entry's time stamp: the same inputs make the same zip. */
const MTIME = new Date('2020-01-01T00:00:00Z');

export interface ZipEntry {
  /** the path inside the zip ('/'-separated) */
  path: string;
  /** a file to read, or the entry's bytes */
  from: { file: string } | { bytes: string | Buffer };
  executable?: boolean;
}

/** Writes `entries` to `out` whole (a partial file beside it, renamed when complete); returns its size in bytes. */
export async function writeZip(out: string, entries: readonly ZipEntry[]): Promise<number> {
  const zip = new ZipFile();
  for (const e of entries) {
    const options = { mtime: MTIME, mode: (e.executable === true ? 0o755 : 0o644) | 0o100000, compress: true };
    if ('file' in e.from) zip.addFile(e.from.file, e.path, options);
    else zip.addBuffer(Buffer.from(e.from.bytes), e.path, options);
  }
  const aside = `${out}.${THREAD_TAG}.partial`;
  try {
    let size = 0;
    zip.outputStream.on('data', (chunk: Buffer) => void (size += chunk.length));
    zip.end();
    await pipeline(zip.outputStream, createWriteStream(aside));
    renameSync(aside, out);
    return size;
  } catch (e) {
    rmSync(aside, { force: true });
    throw e;
  }
}

/** The entries of a zip: path → its mode bits (Unix) and size. */
export async function listZip(file: string): Promise<Map<string, { mode: number; size: number }>> {
  const zip = await openPromise(file, { lazyEntries: true });
  const out = new Map<string, { mode: number; size: number }>();
  try {
    for await (const entry of zip.eachEntry()) out.set(entry.fileName, { mode: (entry.externalFileAttributes >>> 16) & 0o7777, size: entry.uncompressedSize });
  } finally {
    zip.close();
  }
  return out;
}

/** Unpacks `file` into `dir` as `unzip` does (modes kept); an entry that would leave `dir` is refused. */
export async function unzipTo(file: string, dir: string): Promise<number> {
  const zip = await openPromise(file, { lazyEntries: true });
  let count = 0;
  try {
    for await (const entry of zip.eachEntry()) {
      const target = resolve(dir, entry.fileName);
      const rel = relative(resolve(dir), target);
      if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) throw new Error(`${file}: entry ${entry.fileName} would land outside ${dir}`);
      if (entry.fileName.endsWith('/')) {
        mkdirSync(target, { recursive: true });
        continue;
      }
      mkdirSync(dirname(target), { recursive: true });
      const bytes = await buffer(await zip.openReadStreamPromise(entry));
      const mode = (entry.externalFileAttributes >>> 16) & 0o777;
      writeFileSync(target, bytes);
      // As unzip does: the entry's own mode, whatever the umask.
      chmodSync(target, mode === 0 ? 0o644 : mode);
      count++;
    }
  } finally {
    zip.close();
  }
  return count;
}
