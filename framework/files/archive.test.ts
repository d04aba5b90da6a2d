/**
 * Hostile zips, built here with yazl and patched where yazl (rightly) refuses to write them: names
 * that climb out or are absolute, a symlink entry, a FIFO entry, 10,000 entries, a header that
 * declares 1 GB, a header that lies small, zips inside zips.
 */
import { existsSync, lstatSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buffer } from 'node:stream/consumers';
import { afterEach, describe, expect, it } from 'vitest';
import { ZipFile } from 'yazl';
import { archiveBudget, extractZip, isZipFile, openZipsInside } from './archive.ts';

interface TestEntry {
  name: string;
  data?: string | Buffer;
  /** the Unix mode (type bits included) */
  mode?: number;
  /**
   * A hostile name yazl refuses to write (`../x`, `/abs`): the entry is written under this harmless
   * name of the same length, and the bytes are then patched to `name`, as a hostile zip would hold it.
   */
  writtenAs?: string;
  /** deflated (default); stored is faster to build, for the 10,000 entries */
  compress?: boolean;
}

export async function zipBytes(entries: readonly TestEntry[]): Promise<Buffer> {
  const zip = new ZipFile();
  for (const e of entries) {
    const data = typeof e.data === 'string' ? Buffer.from(e.data) : (e.data ?? Buffer.alloc(0));
    const options = { mode: e.mode ?? 0o100644, mtime: new Date('2024-01-01T00:00:00Z'), compress: e.compress ?? true };
    if (e.name.endsWith('/')) zip.addEmptyDirectory(e.name, { mode: options.mode, mtime: options.mtime });
    else zip.addBuffer(data, e.writtenAs ?? e.name, options);
  }
  zip.end();
  let bytes: Buffer = Buffer.from(await buffer(zip.outputStream));
  for (const e of entries) {
    if (e.writtenAs === undefined) continue;
    expect(e.writtenAs.length).toBe(e.name.length);
    bytes = replaceAll(bytes, Buffer.from(e.writtenAs), Buffer.from(e.name));
  }
  return bytes;
}

function replaceAll(bytes: Buffer, from: Buffer, to: Buffer): Buffer {
  const out = Buffer.from(bytes);
  let at = out.indexOf(from);
  while (at >= 0) {
    to.copy(out, at);
    at = out.indexOf(from, at + from.length);
  }
  return out;
}

/** Sets the uncompressed size every central-directory header declares. */
function declareSize(bytes: Buffer, size: number): Buffer {
  const out = Buffer.from(bytes);
  const sig = Buffer.from('PK\x01\x02');
  for (let at = out.indexOf(sig); at >= 0; at = out.indexOf(sig, at + 4)) out.writeUInt32LE(size, at + 24);
  return out;
}

const dirs: string[] = [];
function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'archive-test-'));
  dirs.push(d);
  return d;
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

async function zipFile(entries: readonly TestEntry[], name = 'in.zip'): Promise<{ zip: string; out: string; root: string }> {
  const root = tempDir();
  const zip = join(root, name);
  writeFileSync(zip, await zipBytes(entries));
  return { zip, out: join(root, 'out'), root };
}

function listing(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).sort();
}

describe('extractZip', () => {
  it('extracts plain files and folders, keeping an executable bit', async () => {
    const { zip, out } = await zipFile([
      { name: 'src/', mode: 0o040755 },
      { name: 'src/agent.ts', data: 'export {}' },
      { name: 'run.sh', data: '#!/bin/sh', mode: 0o100755 },
    ]);
    expect(isZipFile(zip)).toBe(true);
    const got = await extractZip(zip, out, { shown: 'in.zip' });
    expect(got).toMatchObject({ files: 2, notes: [], truncated: false });
    expect(listing(out)).toEqual(['run.sh', 'src', 'src/agent.ts']);
    expect(readFileSync(join(out, 'src/agent.ts'), 'utf8')).toBe('export {}');
    expect(statSync(join(out, 'run.sh')).mode & 0o100).not.toBe(0);
  });

  it('refuses ../, absolute, drive-letter and backslash-climbing names, a symlink and a FIFO entry, and writes nothing outside', async () => {
    const { zip, out, root } = await zipFile([
      { name: '../x', writtenAs: 'zz/x', data: 'escaped' },
      { name: 'a/../../y', writtenAs: 'a/zz/zz/y', data: 'escaped' },
      { name: '/abs', writtenAs: 'Xabs', data: 'absolute' },
      { name: 'C:evil', writtenAs: 'Cxevil', data: 'drive' },
      { name: '..\\w', writtenAs: 'zz_w', data: 'backslash' },
      { name: 'link', data: '/etc/passwd', mode: 0o120777 },
      { name: 'fifo', mode: 0o010644 },
      { name: 'ok.txt', data: 'fine' },
    ]);
    const got = await extractZip(zip, out, { shown: 'in.zip' });
    expect(listing(out)).toEqual(['ok.txt']);
    expect(listing(root).sort()).toEqual(['in.zip', 'out', 'out/ok.txt']);
    expect(existsSync(join(root, 'x'))).toBe(false);
    expect(got.notes).toEqual([
      'in.zip: ../x: refused (it climbs out of the folder (..))',
      'in.zip: a/../../y: refused (it climbs out of the folder (..))',
      'in.zip: /abs: refused (an absolute path)',
      'in.zip: C:evil: refused (an absolute path)',
      'in.zip: ../w: refused (it climbs out of the folder (..))',
      'in.zip: link: a symbolic link (refused)',
      'in.zip: fifo: not a regular file (refused)',
    ]);
    // The link's target is named nowhere.
    expect(got.notes.join('\n')).not.toContain('/etc/passwd');
  });

  it('stops at the entry cap: 10,000 entries with a cap of 1,000 give 1,000 files and one note', async () => {
    const entries = Array.from({ length: 10_000 }, (_, i) => ({ name: `f/${String(i).padStart(5, '0')}.txt`, data: 'x', compress: false }));
    const { zip, out } = await zipFile(entries);
    const got = await extractZip(zip, out, { shown: 'many.zip', limits: { entries: 1000 } });
    expect(got.files).toBe(1000);
    expect(got.truncated).toBe(true);
    expect(readdirSync(join(out, 'f'))).toHaveLength(1000);
    expect(got.notes).toEqual(['many.zip: more than 1000 entries; at most 1000 entries and 200 MB are taken, the rest was left out']);
  });

  it('refuses a bomb that declares 1 GB before reading a byte of it', async () => {
    const bytes = declareSize(await zipBytes([{ name: 'small.txt', data: 'a' }, { name: 'bomb.bin', data: Buffer.alloc(1 << 20) }]), 1024 * 1024 * 1024);
    const root = tempDir();
    writeFileSync(join(root, 'bomb.zip'), bytes);
    const got = await extractZip(join(root, 'bomb.zip'), join(root, 'out'), { shown: 'bomb.zip' });
    expect(got.truncated).toBe(true);
    expect(got.files).toBe(0);
    expect(listing(join(root, 'out'))).toEqual([]);
    expect(got.notes[0]).toBe('bomb.zip: small.txt: declares 1024 MB, more than the 200 MB taken from an archive; it and the rest were left out');
  });

  it('stops a header that lies small as soon as more bytes come than it declared, and leaves no partial file', async () => {
    const bytes = declareSize(await zipBytes([{ name: 'liar.bin', data: Buffer.alloc(8 << 20) }]), 1024);
    const root = tempDir();
    writeFileSync(join(root, 'liar.zip'), bytes);
    const got = await extractZip(join(root, 'liar.zip'), join(root, 'out'), { shown: 'liar.zip' });
    expect(got.files).toBe(0);
    expect(listing(join(root, 'out'))).toEqual([]);
    expect(got.notes).toHaveLength(1);
    expect(got.notes[0]).toMatch(/^liar\.zip: liar\.bin: cannot be extracted \(too many bytes in the stream/);
  });

  it('stops when the bytes written over all entries pass the cap', async () => {
    const { zip, out } = await zipFile([1, 2, 3].map((i) => ({ name: `part${i}.bin`, data: Buffer.alloc(400 * 1024, i) })));
    const got = await extractZip(zip, out, { shown: 'big.zip', limits: { bytes: 1024 * 1024 } });
    expect(got.files).toBe(2);
    expect(got.bytes).toBe(800 * 1024);
    expect(got.notes).toEqual(['big.zip: part3.bin: declares 400 KB, more than the 1 MB taken from an archive; it and the rest were left out']);
  });

  it('leaves out what skip names, without a note', async () => {
    const { zip, out } = await zipFile([
      { name: '__MACOSX/._agent.ts', data: 'junk' },
      { name: '.DS_Store', data: 'junk' },
      { name: 'agent.ts', data: 'ok' },
    ]);
    const got = await extractZip(zip, out, { skip: (rel) => rel.split('/').some((p) => p === '__MACOSX' || p === '.DS_Store') });
    expect(listing(out)).toEqual(['agent.ts']);
    expect(got.notes).toEqual([]);
  });

  it('says a file that is no zip is not one, and refuses a linked zip', async () => {
    const root = tempDir();
    writeFileSync(join(root, 'fake.zip'), 'not a zip');
    expect(isZipFile(join(root, 'fake.zip'))).toBe(false);
    const got = await extractZip(join(root, 'fake.zip'), join(root, 'out'), { shown: 'fake.zip' });
    expect(got.notes[0]).toMatch(/^fake\.zip: not a readable zip/);
  });
});

describe('openZipsInside', () => {
  it('opens zips in place to two levels, one budget for all, and leaves a third level as a file', async () => {
    const level3 = await zipBytes([{ name: 'deepest.txt', data: '3' }]);
    const level2 = await zipBytes([{ name: 'inner.txt', data: '2' }, { name: 'three.zip', data: level3 }]);
    const root = tempDir();
    const folder = join(root, 'student');
    const { mkdirSync } = await import('node:fs');
    mkdirSync(folder);
    writeFileSync(join(folder, 'mine.zip'), await zipBytes([{ name: 'mine/agent.ts', data: '1' }, { name: 'two.zip', data: level2 }]));
    const budget = archiveBudget();
    const got = await openZipsInside(folder, { levels: 2, budget });
    expect(got.notes).toEqual([]);
    expect(listing(folder)).toEqual(['mine', 'mine/mine', 'mine/mine/agent.ts', 'mine/two', 'mine/two/inner.txt', 'mine/two/three.zip']);
    expect(lstatSync(join(folder, 'mine/two/three.zip')).isFile()).toBe(true);
    expect(budget.entries).toBe(20_000 - 4);
  });
});
