/**
 * An upload taken in: a zip's bytes or a folder, unpacked and copied with the grader's own
 * hostile-safe readers (archive.ts: no entry outside the folder, no link, bounded in entries and
 * bytes; snapshot.ts: regular files only, bounded) into DIR/submissions/<student>/<n>/.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { UserError } from '../errors.ts';
import { extractZip } from '../files/archive.ts';
import { snapshotFolder } from '../files/snapshot.ts';
import { makeTempFolder, removeTempFolder } from '../files/temp-folders.ts';
import { SUBMISSIONS_DIR } from './settings.ts';

export type Upload = { zip: Buffer } | { folder: string };

/** The upload as submission `n` of `student`: its folder (relative to `dir`), content digest, and what was left out. */
export async function takeInUpload(dir: string, student: string, n: number, upload: Upload): Promise<{ folder: string; contentHash: string; notes: string[] }> {
  const temp = await makeTempFolder('arena-upload');
  try {
    let source: string;
    const notes: string[] = [];
    if ('zip' in upload) {
      const zip = join(temp, 'upload.zip');
      writeFileSync(zip, upload.zip);
      source = join(temp, 'unpacked');
      mkdirSync(source);
      const r = await extractZip(zip, source, { shown: 'the upload' });
      notes.push(...r.notes);
      if (r.truncated) throw new UserError(`the upload is too large when unpacked: ${r.notes.at(-1) ?? ''}`);
      source = soleFolder(source);
    } else {
      source = upload.folder;
    }
    const folder = join(SUBMISSIONS_DIR, safeName(student), String(n));
    const dest = join(dir, folder);
    rmSync(dest, { recursive: true, force: true });
    mkdirSync(join(dir, SUBMISSIONS_DIR, safeName(student)), { recursive: true });
    const snap = await snapshotFolder(source, dest);
    notes.push(...snap.notes);
    if (countFiles(dest) === 0) {
      rmSync(dest, { recursive: true, force: true });
      throw new UserError('the upload holds no file');
    }
    return { folder, contentHash: contentHash(dest), notes };
  } finally {
    await removeTempFolder(temp);
  }
}

/** A folder holding one folder and nothing else (a zip of a folder): that folder. */
function soleFolder(dir: string): string {
  const entries = readdirSync(dir).filter((n) => n !== '__MACOSX' && n !== '.DS_Store');
  if (entries.length === 1 && statSync(join(dir, entries[0]!)).isDirectory()) return soleFolder(join(dir, entries[0]!));
  return dir;
}

function countFiles(dir: string): number {
  let n = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) n += e.isDirectory() ? countFiles(join(dir, e.name)) : 1;
  return n;
}

/** The digest of a folder's files: their paths and contents, in path order. */
export function contentHash(dir: string): string {
  const h = createHash('sha256');
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true }).sort((x, y) => (x.name < y.name ? -1 : 1))) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile()) {
        const data = readFileSync(p);
        h.update(`${relative(dir, p)}\0${data.length}\0`);
        h.update(data);
      }
    }
  };
  walk(dir);
  return h.digest('hex');
}

/**
 * A student id as a folder name: letters, digits, `.`, `_`, `-` (anything else as `_`; ids come
 * from a roster) and a digest of the whole id, so two ids never share a folder.
 */
function safeName(id: string): string {
  const s = id.replace(/[^A-Za-z0-9._-]/g, '_').replace(/^\.+/, '_').slice(0, 60);
  return `${s}-${createHash('sha256').update(id).digest('hex').slice(0, 8)}`;
}
