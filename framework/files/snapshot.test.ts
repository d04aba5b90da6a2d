import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync, existsSync, statSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readRegularFileSync } from './safe-read.ts';
import { MAX_NOTES, snapshotFolder } from './snapshot.ts';

const made: string[] = [];
function temp(): string {
  const d = mkdtempSync(join(tmpdir(), 'snapshot-test-'));
  made.push(d);
  return d;
}
afterEach(() => {
  for (const d of made.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('readRegularFileSync', () => {
  it('reads a regular file and refuses links, folders, devices, FIFOs and large files without naming a target', () => {
    const d = temp();
    writeFileSync(join(d, 'a.yaml'), 'protocol: 1\n');
    symlinkSync('/dev/zero', join(d, 'zero.yaml'));
    symlinkSync(join(d, 'a.yaml'), join(d, 'inside.yaml'));
    mkdirSync(join(d, 'sub'));
    execFileSync('mkfifo', [join(d, 'fifo')]);
    writeFileSync(join(d, 'big'), Buffer.alloc(2000));
    const ok = readRegularFileSync(join(d, 'a.yaml'), 100);
    expect(ok.ok && ok.bytes.toString()).toBe('protocol: 1\n');
    for (const [name, refusal] of [['zero.yaml', 'link'], ['inside.yaml', 'link'], ['sub', 'folder'], ['fifo', 'special'], ['big', 'too-large'], ['none', 'missing']] as const) {
      const r = readRegularFileSync(join(d, name), 1000, { shown: name });
      expect(r.ok, name).toBe(false);
      if (!r.ok) {
        expect(r.refusal, name).toBe(refusal);
        expect(r.message).not.toContain('/dev');
        expect(r.message).not.toContain(d);
      }
    }
    expect(readRegularFileSync('/dev/zero', 1000).ok).toBe(false);
  });

  it('refuses a file reached through a linked folder below the root', () => {
    const d = temp();
    const outside = temp();
    writeFileSync(join(outside, 'secret'), 'x');
    symlinkSync(outside, join(d, 'sub'));
    expect(readRegularFileSync(join(d, 'sub', 'secret'), 100).ok).toBe(true); // without a root: the caller's own path
    const r = readRegularFileSync(join(d, 'sub', 'secret'), 100, { root: d, shown: 'sub/secret' });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.message).toBe('sub/secret: a symbolic link (refused)');
  });
});

describe('snapshotFolder', () => {
  it('copies files and folders, keeps the executable bit, and leaves out links and special files with one note each', async () => {
    const src = temp();
    mkdirSync(join(src, 'src'));
    writeFileSync(join(src, 'src', 'agent.py'), 'print(1)\n');
    writeFileSync(join(src, 'run.sh'), '#!/bin/sh\n', { mode: 0o755 });
    symlinkSync('/etc/passwd', join(src, 'p1'));
    symlinkSync('/nonexistent/guess', join(src, 'p2'));
    symlinkSync('src', join(src, 'loop'));
    execFileSync('mkfifo', [join(src, 'fifo')]);
    const dest = join(temp(), 'copy');
    const r = await snapshotFolder(src, dest);
    expect(readFileSync(join(dest, 'src', 'agent.py'), 'utf8')).toBe('print(1)\n');
    expect(statSync(join(dest, 'run.sh')).mode & 0o100).not.toBe(0);
    expect(readdirSync(dest).sort()).toEqual(['run.sh', 'src']);
    expect(r.notes).toEqual(['fifo: not a regular file (refused)', 'loop: a symbolic link (refused)', 'p1: a symbolic link (refused)', 'p2: a symbolic link (refused)']);
    expect({ files: r.files, folders: r.folders, truncated: r.truncated }).toEqual({ files: 2, folders: 1, truncated: false });
  });

  it('a tree of folder links that would multiply to 2^22 copies nothing twice', async () => {
    const src = temp();
    // r0/x -> r1, r0/y -> r1, r1/x -> r2 ...: followed, 2^22 folders; not followed, 23 folders.
    for (let i = 0; i <= 22; i++) mkdirSync(join(src, `r${i}`));
    for (let i = 0; i < 22; i++) {
      symlinkSync(join(src, `r${i + 1}`), join(src, `r${i}`, 'x'));
      symlinkSync(`../r${i + 1}`, join(src, `r${i}`, 'y'));
    }
    const r = await snapshotFolder(src, join(temp(), 'copy'));
    expect(r.folders).toBe(23);
    expect(r.notes).toHaveLength(44);
  });

  it('bounds folders, depth, files and bytes, noting the first limit reached once', async () => {
    const src = temp();
    for (let i = 0; i < 30; i++) mkdirSync(join(src, `d${String(i).padStart(2, '0')}`));
    let deep = join(src, 'deep');
    for (let i = 0; i < 10; i++) {
      deep = join(deep, 'n');
      mkdirSync(deep, { recursive: true });
    }
    const folders = await snapshotFolder(src, join(temp(), 'c1'), { limits: { folders: 10 } });
    expect(folders.folders).toBe(10);
    expect(folders.truncated).toBe(true);
    expect(folders.notes).toHaveLength(1);
    expect(folders.notes[0]).toMatch(/too large \(more than 10 folders\).*d10 and what follows/);
    const depth = await snapshotFolder(join(src, 'deep'), join(temp(), 'c2'), { limits: { depth: 4 } });
    expect(depth.folders).toBe(4);
    expect(depth.notes[0]).toMatch(/nested more than 4 deep/);

    const files = temp();
    for (let i = 0; i < 5; i++) writeFileSync(join(files, `f${i}`), 'abcdefghij');
    const byFiles = await snapshotFolder(files, join(temp(), 'c3'), { limits: { files: 3 } });
    expect(byFiles.files).toBe(3);
    const byBytes = await snapshotFolder(files, join(temp(), 'c4'), { limits: { bytes: 25 } });
    expect({ files: byBytes.files, bytes: byBytes.bytes }).toEqual({ files: 2, bytes: 20 });
    expect(existsSync(join(made.at(-1)!, 'c4', 'f2'))).toBe(false);
  });

  it('a folder of thousands of links: at most MAX_NOTES notes, and one line counting the rest', async () => {
    const src = temp();
    for (let i = 0; i < 3000; i++) symlinkSync('/dev/zero', join(src, `l${String(i).padStart(4, '0')}`));
    writeFileSync(join(src, 'agent.py'), 'x');
    const r = await snapshotFolder(src, join(temp(), 'copy'));
    expect(r.files).toBe(1);
    expect(r.notes).toHaveLength(MAX_NOTES + 1);
    expect(r.notes[0]).toBe('l0000: a symbolic link (refused)');
    expect(r.notes.at(-1)).toBe(`and ${3000 - MAX_NOTES} more entries left out (links, special files, unreadable files)`);
  });

  it('skip leaves entries out without a note', async () => {
    const src = temp();
    mkdirSync(join(src, '__MACOSX'));
    writeFileSync(join(src, '.DS_Store'), 'x');
    writeFileSync(join(src, 'a.py'), 'x');
    const dest = join(temp(), 'c');
    const r = await snapshotFolder(src, dest, { skip: (rel) => rel === '__MACOSX' || rel.endsWith('.DS_Store') });
    expect(readdirSync(dest)).toEqual(['a.py']);
    expect(r.notes).toEqual([]);
  });
});

describe('snapshotFolder with stand-ins', () => {
  it('keeps a refused link as a link to nothing and a refused FIFO or socket as an empty FIFO, so a later reader refuses them in the same words', async () => {
    const { lstatSync, readlinkSync } = await import('node:fs');
    const { createServer } = await import('node:net');
    const src = temp();
    symlinkSync('/dev/zero', join(src, 'mancala.yaml'));
    execFileSync('mkfifo', [join(src, 'fifo')]);
    const server = createServer();
    await new Promise<void>((ok) => server.listen(join(src, 'sock'), ok));
    try {
      const dest = join(temp(), 'copy');
      const r = await snapshotFolder(src, dest, { standIns: true });
      expect(r.notes).toEqual(['fifo: not a regular file (refused)', 'mancala.yaml: a symbolic link (refused)', 'sock: not a regular file (refused)']);
      expect(readlinkSync(join(dest, 'mancala.yaml'))).toBe('(refused)');
      expect(lstatSync(join(dest, 'fifo')).isFIFO()).toBe(true);
      expect(lstatSync(join(dest, 'sock')).isFIFO()).toBe(true);
      const read = readRegularFileSync(join(dest, 'mancala.yaml'), 100, { shown: 'mancala.yaml' });
      expect(read.ok === false && read.message).toBe('mancala.yaml: a symbolic link (refused)');
      // Taken again (the sandbox's copy of the intake's snapshot), the stand-ins are refused as the originals were.
      const again = await snapshotFolder(dest, join(temp(), 'again'));
      expect(again.notes).toEqual(r.notes);
    } finally {
      server.close();
    }
  });
});
