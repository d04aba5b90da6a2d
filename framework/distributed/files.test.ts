/** packPath/unpackPath: a submission's files travel to the workers as they are, no link followed, no FIFO waited on. */
import { execFileSync } from 'node:child_process';
import { lstatSync, mkdirSync, mkdtempSync, readFileSync, readlinkSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { mirrored, packPath, unpackPath } from './files.ts';

const work = mkdtempSync(join(tmpdir(), 'distributed-files-test-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('a submission packed for the workers', () => {
  it('carries files with their modes and links as links; a FIFO travels as nothing to read, and packing never waits on it', () => {
    const sub = join(work, 'alice');
    mkdirSync(join(sub, 'src'), { recursive: true });
    writeFileSync(join(sub, 'src', 'agent.py'), 'print(1)\n', { mode: 0o755 });
    symlinkSync('/dev/zero', join(sub, 'mancala.yaml'));
    execFileSync('mkfifo', [join(sub, 'pipe')]);
    const { packed } = packPath(sub, work);
    const root = join(work, 'worker');
    unpackPath(packed, root, work, sub);
    const at = mirrored(root, work, sub);
    expect(readFileSync(join(at, 'src', 'agent.py'), 'utf8')).toBe('print(1)\n');
    expect(lstatSync(join(at, 'src', 'agent.py')).mode & 0o777).toBe(0o755);
    expect(readlinkSync(join(at, 'mancala.yaml'))).toBe('/dev/zero');
    expect(lstatSync(join(at, 'pipe')).isDirectory()).toBe(true);
  });
});
