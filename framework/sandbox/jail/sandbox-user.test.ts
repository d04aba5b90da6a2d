/**
 * The weak mode as root (sandbox-user.ts): without bwrap the submission still runs as
 * SANDBOX_UID, so a file kept from other users (a hidden suite, `chmod go-rwx`) is out of its
 * reach, while its own work folder and TMPDIR stay writable; a runtime closed to other users is
 * passed over for one on the PATH it can run. Only meaningful where the grader is root (as here
 * and in CI); elsewhere the drop cannot happen and the tests say so by skipping.
 */
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { UserError } from '../../errors.ts';
import { SANDBOX_UID } from './machine.ts';
import { findExecutable, mechanisms } from './mechanisms.ts';
import { runInSandbox, stageFiles, type StagedFiles } from '../programs/run.ts';
import { resolveRuntime } from '../programs/runtimes.ts';
import { blockedForSandboxUser } from './sandbox-user.ts';

const root = process.getuid?.() === 0;
const m = await mechanisms();
const drops = root && m.setpriv !== undefined;

// Open to others as /tmp is: the weak mode's process enters its run folder through it.
const work = mkdtempSync(join(tmpdir(), 'sandbox-user-test-'));
chmodSync(work, 0o755);
const staged: StagedFiles[] = [];
afterAll(async () => {
  for (const s of staged) await s.dispose();
  rmSync(work, { recursive: true, force: true });
});

async function files(contents: Record<string, string> = {}): Promise<StagedFiles> {
  const dir = mkdtempSync(join(work, 'submission-'));
  for (const [name, text] of Object.entries(contents)) writeFileSync(join(dir, name), text);
  const s = await stageFiles(dir);
  staged.push(s);
  return s;
}

const limits = { cpuMs: 5000, memoryBytes: 256 * 1024 * 1024 };

describe.skipIf(!drops)('the weak mode as root', () => {
  it('runs the program as SANDBOX_UID: a hidden answer kept from others is out of reach, its work folder and TMPDIR are writable', async () => {
    const hidden = join(work, 'hidden-suite');
    mkdirSync(hidden);
    writeFileSync(join(hidden, 'expected.yaml'), 'move: 3\n');
    chmodSync(hidden, 0o700);
    const script = [
      'id -u > out.txt',
      `cat ${join(hidden, 'expected.yaml')} >> out.txt 2>&1 || echo refused >> out.txt`,
      'echo scratch > "$TMPDIR/x" && echo tmp-ok >> out.txt',
      'echo mine > own.txt && echo work-ok >> out.txt',
    ].join('\n');
    const r = await runInSandbox({ files: await files({ 'run.sh': script }), argv: ['/bin/sh', 'run.sh'], inputs: {}, outputs: ['out.txt'], limits, mode: 'weak' });
    expect(r.status, r.message).toBe('ok');
    const out = r.files['out.txt']!.toString();
    expect(out.split('\n')[0]).toBe(String(SANDBOX_UID));
    expect(out).toContain('refused');
    expect(out).not.toContain('move: 3');
    expect(out).toContain('tmp-ok');
    expect(out).toContain('work-ok');
  });

  it('the same program in the full sandbox does not even see the folder', async () => {
    if (m.bwrap === undefined) return;
    const r = await runInSandbox({ files: await files({ 'run.sh': `ls ${work} > out.txt 2>&1; true` }), argv: ['/bin/sh', 'run.sh'], inputs: {}, outputs: ['out.txt'], limits, mode: 'full' });
    expect(r.status, r.message).toBe('ok');
    expect(r.files['out.txt']!.toString()).toMatch(/No such file/);
  });

  it('a TMPDIR closed to other users is a clear error naming the folder, not a failed start', async () => {
    const closed = mkdtempSync(join(work, 'closed-'));
    chmodSync(closed, 0o700);
    const before = process.env.TMPDIR;
    process.env.TMPDIR = closed;
    try {
      const s = await files();
      const error = await runInSandbox({ files: s, argv: ['/bin/true'], inputs: {}, outputs: [], limits, mode: 'weak' }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(UserError);
      expect((error as Error).message).toContain(`user ${SANDBOX_UID}, who cannot enter ${closed}`);
      expect((error as Error).message).toContain('set TMPDIR');
    } finally {
      if (before === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = before;
    }
  });

  it('a runtime closed to other users is passed over for the next one on the PATH, or named', async () => {
    const closed = mkdtempSync(join(work, 'runtime-'));
    chmodSync(closed, 0o700);
    const tool = join(closed, 'sandbox-user-tool');
    writeFileSync(tool, '#!/bin/sh\necho hi\n', { mode: 0o755 });
    const open = mkdtempSync(join(work, 'runtime-open-'));
    chmodSync(open, 0o755);
    writeFileSync(join(open, 'sandbox-user-tool'), '#!/bin/sh\necho hi\n', { mode: 0o755 });
    const before = process.env.PATH;
    process.env.PATH = `${closed}:${open}:${before ?? ''}`;
    try {
      expect(blockedForSandboxUser(tool)).toBe(closed);
      expect(await resolveRuntime('sandbox-user-tool')).toMatchObject({ executable: tool });
      expect(await resolveRuntime('sandbox-user-tool', true)).toMatchObject({ executable: join(open, 'sandbox-user-tool') });
      // Only in the closed folder: nothing this user can run, and the problem says where and why.
      const only = join(closed, 'sandbox-user-only-closed');
      writeFileSync(only, '#!/bin/sh\necho hi\n', { mode: 0o755 });
      const r = await resolveRuntime('sandbox-user-only-closed', true);
      expect(r).toMatchObject({ problem: expect.stringContaining(`user ${SANDBOX_UID}, who cannot reach ${only} (${closed} is closed to other users)`) });
    } finally {
      process.env.PATH = before;
    }
  });

  it.skipIf(findExecutable('python3') === undefined)('a Python program runs in the weak mode whatever python3 comes first on the PATH', async () => {
    const r = await runInSandbox({ files: await files({ 'a.py': 'import os\nopen("out.txt","w").write(str(os.getuid()))\n' }), argv: ['python3', 'a.py'], inputs: {}, outputs: ['out.txt'], limits, mode: 'weak' });
    expect(r.status, r.message).toBe('ok');
    expect(r.files['out.txt']!.toString()).toBe(String(SANDBOX_UID));
  });
});

describe.skipIf(root)('not root', () => {
  it('the weak mode cannot drop to another user, and says the submission reads what the grader may', async () => {
    const { describeMechanisms } = await import('./mechanisms.ts');
    expect(describeMechanisms(m, 'weak')).toContain('read whatever the grader may');
  });
});
