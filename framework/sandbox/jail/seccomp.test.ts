/**
 * The jail's system-call filter (seccomp.ts): a kernel keyring, which one sandbox user's programs
 * would otherwise share across cases, jails and submissions, cannot be used from inside the jail.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { findExecutable, mechanisms } from './mechanisms.ts';
import { keyringFilter } from './seccomp.ts';
import { runInSandbox, settleCleanups, stageFiles } from '../programs/run.ts';

const m = await mechanisms();
const python = findExecutable('python3') !== undefined;
const work = mkdtempSync(join(tmpdir(), 'seccomp-test-'));
afterAll(async () => {
  await settleCleanups();
  rmSync(work, { recursive: true, force: true });
});

/** add_key into the user keyring, then a search of it: each call's result and errno. */
const KEYS = `import ctypes, sys
libc = ctypes.CDLL(None, use_errno=True)
nr = {'x86_64': (248, 250), 'aarch64': (217, 219)}[__import__('platform').machine()]
added = libc.syscall(nr[0], b"user", b"mancala-memo", b"an answer", 9, ctypes.c_int(-4))
e1 = ctypes.get_errno()
found = libc.syscall(nr[1], 10, ctypes.c_int(-4), b"user", b"mancala-memo", 0)
open('out.txt', 'w').write('%d %d %d %d' % (added, e1, found, ctypes.get_errno()))
`;

describe('the keyring filter', () => {
  it('is a few BPF instructions for this machine, ending in allow and EPERM', () => {
    const f = keyringFilter('x64')!;
    expect(f.length % 8).toBe(0);
    expect(f.readUInt32LE(f.length - 12)).toBe(0x7fff0000);
    expect(f.readUInt32LE(f.length - 4)).toBe(0x00050001);
    expect(keyringFilter('ia32')).toBeUndefined();
  });

  it.runIf(m.bwrap !== undefined && python && keyringFilter() !== undefined)('refuses add_key and keyctl in the jail (EPERM), so no key passes from one run to the next', async () => {
    const dir = join(work, 'keys');
    mkdirSync(dir);
    writeFileSync(join(dir, 'keys.py'), KEYS);
    const files = await stageFiles(dir);
    try {
      for (let k = 0; k < 2; k++) {
        const r = await runInSandbox({ files, argv: ['python3', 'keys.py'], inputs: {}, outputs: ['out.txt'], limits: { cpuMs: 5000, memoryBytes: 256 * 1024 * 1024 } });
        expect(r.status, r.message).toBe('ok');
        expect(r.files['out.txt']?.toString()).toBe('-1 1 -1 1');
      }
    } finally {
      await files.dispose();
    }
  });
});
