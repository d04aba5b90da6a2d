/**
 * Opening a zip a student (or an LMS) handed in, without trusting it: what PEP 706's `data` filter
 * does for tar, for zip.
 *
 * Every entry lands inside the folder it is extracted into, or nowhere. An entry whose name climbs
 * out (`..`), is absolute (`/x`, `C:x`, `\\server`) or holds a NUL is refused with a note. So is a
 * link (a Unix symlink entry, told by its external attributes), a FIFO, socket or device entry, and
 * an encrypted one. The whole extraction is bounded in entries and in bytes written: a bomb stops
 * when the bytes written pass the cap, whatever its headers claim (a header that declares more than
 * is left is refused before a byte is read). Zips inside are opened in place, each becoming a folder
 * of its name, to a bounded nesting, sharing the same budget: a zip of zips multiplies nothing.
 * Notes name entries as the archive does, never a path of the machine's.
 */
import { closeSync, constants, fstatSync, openSync } from 'node:fs';
import { mkdir, open, readdir, rm, utimes } from 'node:fs/promises';
import { join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { fromFd, getFileNameLowLevel, type Entry, type ZipFile } from 'yauzl';
import { formatBytes, readFileHeadSync, refusalMessage } from './safe-read.ts';
import { studentName } from '../student-text.ts';

export interface ArchiveLimits {
  /** entries read, at most, over the archive and every zip inside it */
  entries: number;
  /** bytes written, at most, over the archive and every zip inside it */
  bytes: number;
  /** zips inside zips opened, at most this many levels below the first */
  nesting: number;
  /** folder nesting of an entry's name, at most */
  depth: number;
}

export const DEFAULT_ARCHIVE_LIMITS: Readonly<ArchiveLimits> = { entries: 20_000, bytes: 200 * 1024 * 1024, nesting: 2, depth: 32 };

/** What is left to spend: one budget for an archive and every zip opened inside it. */
export interface ArchiveBudget {
  entries: number;
  bytes: number;
}

export function archiveBudget(limits: Partial<ArchiveLimits> = {}): ArchiveBudget {
  const l = { ...DEFAULT_ARCHIVE_LIMITS, ...limits };
  return { entries: l.entries, bytes: l.bytes };
}

export interface ArchiveResult {
  files: number;
  bytes: number;
  /** what was refused or left out, one line each, naming entries as the archive names them */
  notes: string[];
  /** a limit was reached: what was extracted is partial */
  truncated: boolean;
}

export interface ExtractOptions {
  /** how notes name the archive (default: "the zip") */
  shown?: string;
  limits?: Partial<ArchiveLimits>;
  /** shared with other extractions (nested zips); default a fresh one from `limits` */
  budget?: ArchiveBudget;
  /** entries left out without a note (name relative to the archive's root, '/'-separated) */
  skip?: (relative: string, isFolder: boolean) => boolean;
}

const ZIP_MAGIC = [Buffer.from('PK\x03\x04'), Buffer.from('PK\x05\x06')];

/** The regular file at `path` starts as a zip does (a link or special file is no zip). */
export function isZipFile(path: string): boolean {
  const head = readFileHeadSync(path, 4);
  return head !== undefined && head.length === 4 && ZIP_MAGIC.some((m) => head.equals(m));
}

const S_IFMT = 0o170000;
const S_IFREG = 0o100000;
const S_IFDIR = 0o040000;
const S_IFLNK = 0o120000;

/** The entry's name as '/'-separated parts, or why it is refused. */
export function entryParts(name: string): { parts: string[] } | { refused: string } {
  if (name.includes('\0')) return { refused: 'a NUL in its name' };
  if (name.startsWith('/') || /^[A-Za-z]:/.test(name)) return { refused: 'an absolute path' };
  const parts = name.split('/').filter((p) => p !== '' && p !== '.');
  if (parts.includes('..')) return { refused: 'it climbs out of the folder (..)' };
  return { parts };
}

/** Extracts the zip `zip` into the folder `dest` (made if missing), as the module comment says. */
export async function extractZip(zip: string, dest: string, o: ExtractOptions = {}): Promise<ArchiveResult> {
  const limits = { ...DEFAULT_ARCHIVE_LIMITS, ...o.limits };
  const budget = o.budget ?? archiveBudget(limits);
  const shown = o.shown ?? 'the zip';
  const result: ArchiveResult = { files: 0, bytes: 0, notes: [], truncated: false };
  await mkdir(dest, { recursive: true });
  // A plain fd (yauzl closes it with the zip): never through a link, never waiting on a FIFO, a regular file only.
  let fd: number;
  try {
    fd = openSync(zip, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    result.notes.push(refusalMessage(shown, code === 'ELOOP' ? 'link' : code === 'ENOENT' ? 'missing' : 'unreadable'));
    return result;
  }
  if (!fstatSync(fd).isFile()) {
    closeSync(fd);
    result.notes.push(refusalMessage(shown, 'special'));
    return result;
  }
  let zipfile: ZipFile;
  try {
    zipfile = await new Promise<ZipFile>((resolve, reject) =>
      fromFd(fd, { lazyEntries: true, autoClose: false, decodeStrings: false, validateEntrySizes: true }, (err, z) => (err ? reject(err) : resolve(z))),
    );
  } catch (e) {
    closeSync(fd);
    result.notes.push(`${shown}: not a readable zip (${(e as Error).message})`);
    return result;
  }
  try {
    await readEntries(zipfile, dest, shown, limits, budget, o.skip ?? (() => false), result);
  } finally {
    zipfile.close();
  }
  return result;
}

function readEntries(zipfile: ZipFile, dest: string, shown: string, limits: ArchiveLimits, budget: ArchiveBudget, skip: (rel: string, isFolder: boolean) => boolean, result: ArchiveResult): Promise<void> {
  const stop = (why: string) => {
    result.truncated = true;
    result.notes.push(`${shown}: ${why}; at most ${limits.entries} entries and ${formatBytes(limits.bytes)} are taken, the rest was left out`);
  };
  return new Promise<void>((resolve) => {
    let finished = false;
    const finish = () => {
      if (!finished) resolve();
      finished = true;
    };
    zipfile.on('error', (e: Error) => {
      result.notes.push(`${shown}: the zip is damaged (${e.message}); what came before was kept`);
      finish();
    });
    zipfile.on('end', finish);
    zipfile.on('entry', (entry: Entry) => {
      void (async () => {
        if (budget.entries <= 0) return (stop(`more than ${limits.entries} entries`), finish());
        budget.entries--;
        const go = await takeEntry(zipfile, entry, dest, shown, limits, budget, skip, result);
        if (go === 'stop') return finish();
        zipfile.readEntry();
      })().catch((e: unknown) => {
        result.notes.push(`${shown}: ${(e as Error).message}`);
        finish();
      });
    });
    zipfile.readEntry();
  });
}

/** One entry: written, refused with a note, or the end of the extraction ('stop'). */
async function takeEntry(zipfile: ZipFile, entry: Entry, dest: string, shown: string, limits: ArchiveLimits, budget: ArchiveBudget, skip: (rel: string, isFolder: boolean) => boolean, result: ArchiveResult): Promise<'next' | 'stop'> {
  const raw = entry.fileName as unknown as Buffer;
  const name = getFileNameLowLevel(entry.generalPurposeBitFlag, raw, entry.extraFields, false);
  const named = `${shown}: ${studentName(name)}`;
  const checked = entryParts(name);
  if ('refused' in checked) {
    result.notes.push(`${named}: refused (${checked.refused})`);
    return 'next';
  }
  const parts = checked.parts;
  if (parts.length === 0) return 'next';
  const rel = parts.join('/');
  const type = (entry.externalFileAttributes >>> 16) & S_IFMT;
  const isFolder = name.endsWith('/') || type === S_IFDIR;
  if (skip(rel, isFolder) || parts.slice(0, -1).some((_, i) => skip(parts.slice(0, i + 1).join('/'), true))) return 'next';
  if (type === S_IFLNK) {
    result.notes.push(`${named}: a symbolic link (refused)`);
    return 'next';
  }
  if (type !== 0 && type !== S_IFREG && type !== S_IFDIR) {
    result.notes.push(`${named}: not a regular file (refused)`);
    return 'next';
  }
  if (parts.length > limits.depth) {
    result.notes.push(`${named}: nested more than ${limits.depth} folders deep (refused)`);
    return 'next';
  }
  const path = join(dest, ...parts);
  try {
    if (isFolder) {
      await mkdir(path, { recursive: true });
      return 'next';
    }
    if (entry.isEncrypted()) {
      result.notes.push(`${named}: encrypted (refused)`);
      return 'next';
    }
    if (entry.uncompressedSize > budget.bytes) {
      result.truncated = true;
      result.notes.push(`${named}: declares ${formatBytes(entry.uncompressedSize)}, more than the ${formatBytes(limits.bytes)} taken from an archive; it and the rest were left out`);
      return 'stop';
    }
    await mkdir(join(dest, ...parts.slice(0, -1)), { recursive: true });
    const written = await writeEntry(zipfile, entry, path, (entry.externalFileAttributes >>> 16) & 0o100 ? 0o755 : 0o644, budget.bytes);
    if (written === 'over') {
      budget.bytes = 0;
      result.truncated = true;
      result.notes.push(`${named}: unpacks to more than the ${formatBytes(limits.bytes)} taken from an archive, whatever its header says; it and the rest were left out`);
      return 'stop';
    }
    budget.bytes -= written;
    result.files++;
    result.bytes += written;
    return 'next';
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') result.notes.push(`${named}: a second entry of this name (the first was kept)`);
    else if (code === 'ENOTDIR' || code === 'EISDIR') result.notes.push(`${named}: a file and a folder of the same name (left out)`);
    else result.notes.push(`${named}: cannot be extracted (${(e as Error).message})`);
    return 'next';
  }
}

class TooLarge extends Error {}

/** Streams the entry into a new file, at most `cap` bytes; 'over' (and no file) past it. */
async function writeEntry(zipfile: ZipFile, entry: Entry, path: string, mode: number, cap: number): Promise<number | 'over'> {
  const out = await open(path, 'wx', mode);
  let count = 0;
  try {
    const stream = await new Promise<NodeJS.ReadableStream>((resolve, reject) => zipfile.openReadStream(entry, (err, s) => (err ? reject(err) : resolve(s))));
    const counter = new Transform({
      transform(chunk: Buffer, _enc, done) {
        count += chunk.length;
        if (count > cap) done(new TooLarge());
        else done(null, chunk);
      },
    });
    await pipeline(stream, counter, out.createWriteStream());
    // The entry's own time (a file this extraction made): where an LMS gives no submission time, the intake takes the files'.
    const when = entry.getLastModDate();
    await utimes(path, when, when);
    return count;
  } catch (e) {
    await out.close().catch(() => {});
    await rm(path, { force: true });
    if (e instanceof TooLarge) return 'over';
    throw e;
  } finally {
    await out.close().catch(() => {});
  }
}

export interface NestedOptions {
  /** levels of zips inside zips still to open (0: none) */
  levels: number;
  budget: ArchiveBudget;
  limits?: Partial<ArchiveLimits>;
  skip?: (relative: string, isFolder: boolean) => boolean;
  /** how notes name the folder's root (default: nothing, names relative to it) */
  shown?: string;
}

/**
 * Opens every zip inside `folder` (a folder the grader made: a snapshot, an extraction) in place:
 * `x.zip` becomes the folder `x/` (or `x.zip.d/` when `x` is taken) and the zip is removed;
 * zips inside those are opened in turn, `levels` deep. Returns what was refused and left out.
 */
export async function openZipsInside(folder: string, o: NestedOptions): Promise<ArchiveResult> {
  const total: ArchiveResult = { files: 0, bytes: 0, notes: [], truncated: false };
  if (o.levels <= 0) return total;
  const zips: string[] = [];
  const walk = async (dir: string, rel: string): Promise<void> => {
    for (const e of (await readdir(dir, { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const r = rel === '' ? e.name : `${rel}/${e.name}`;
      if (e.isDirectory()) await walk(join(dir, e.name), r);
      else if (e.isFile() && /\.zip$/i.test(e.name) && isZipFile(join(dir, e.name))) zips.push(r);
    }
  };
  await walk(folder, '');
  for (const rel of zips) {
    const zipPath = join(folder, ...rel.split('/'));
    const stem = rel.replace(/\.zip$/i, '');
    let into = join(folder, ...stem.split('/'));
    if (await exists(into)) into = `${zipPath}.d`;
    const shown = o.shown === undefined ? rel : `${o.shown}/${rel}`;
    const got = await extractZip(zipPath, into, { shown, budget: o.budget, ...(o.limits !== undefined ? { limits: o.limits } : {}), ...(o.skip !== undefined ? { skip: o.skip } : {}) });
    await rm(zipPath, { force: true });
    const inner = await openZipsInside(into, { ...o, levels: o.levels - 1, shown: shown.replace(/\.zip$/i, '') });
    total.files += got.files + inner.files;
    total.bytes += got.bytes + inner.bytes;
    total.notes.push(...got.notes, ...inner.notes);
    total.truncated ||= got.truncated || inner.truncated;
  }
  return total;
}

async function exists(path: string): Promise<boolean> {
  try {
    await readdir(path);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code !== 'ENOENT';
  }
}
