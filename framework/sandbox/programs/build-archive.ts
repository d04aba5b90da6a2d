/**
 * A build's work folder, brought back from the sandbox as a ustar archive (the only way out of
 * the jail is the wrapper's report: build.ts) and unpacked here by our own reader, not by
 * the host's tar: the archive is the student's, so only plain files and folders with relative,
 * `..`-free names are written, never a link, a device or an owner. Anything else refuses it.
 */
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

const BLOCK = 512;

function field(header: Buffer, at: number, length: number): string {
  const raw = header.subarray(at, at + length);
  const end = raw.indexOf(0);
  return raw.subarray(0, end < 0 ? length : end).toString('utf8');
}

const octal = (text: string): number => (text.trim() === '' ? 0 : parseInt(text.trim(), 8));

export interface ArchiveEntry {
  path: string;
  kind: 'file' | 'dir';
  executable: boolean;
  data: Buffer;
}

/** The entries of a ustar archive, or why it is refused. */
export function readUstar(archive: Buffer): ArchiveEntry[] | { problem: string } {
  const entries: ArchiveEntry[] = [];
  for (let at = 0; at + BLOCK <= archive.length; ) {
    const header = archive.subarray(at, at + BLOCK);
    if (header.every((b) => b === 0)) break;
    const name = field(header, 0, 100);
    const prefix = field(header, 345, 155);
    const path = (prefix === '' ? name : `${prefix}/${name}`).replace(/^\.\//, '').replace(/\/$/, '');
    const size = octal(field(header, 124, 12));
    const mode = octal(field(header, 100, 8));
    const type = String.fromCharCode(header[156]!);
    at += BLOCK;
    if (!Number.isSafeInteger(size) || size < 0 || at + size > archive.length) return { problem: `${path}: cut short` };
    const data = Buffer.from(archive.subarray(at, at + size));
    at += Math.ceil(size / BLOCK) * BLOCK;
    if (path === '' || path === '.') continue;
    if (path.startsWith('/') || path.split('/').some((p) => p === '..' || p === '')) return { problem: `${path}: not a plain relative name` };
    if (type === '5') entries.push({ path, kind: 'dir', executable: false, data });
    else if (type === '0' || type === '\0') entries.push({ path, kind: 'file', executable: (mode & 0o111) !== 0, data });
    // Links (to anything) are what would reach outside; a build has no need of them.
    else return { problem: `${path}: a link or special file (type ${JSON.stringify(type)})` };
  }
  return entries;
}

/** Writes `entries` under `dir` (which exists). */
export async function writeEntries(dir: string, entries: readonly ArchiveEntry[]): Promise<void> {
  for (const e of entries) {
    const path = join(dir, e.path);
    if (e.kind === 'dir') {
      await mkdir(path, { recursive: true });
      continue;
    }
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, e.data, { flag: 'w' });
    if (e.executable) await chmod(path, 0o755);
  }
}
