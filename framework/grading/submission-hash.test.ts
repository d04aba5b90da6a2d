/**
 * submissionFilesHash reads nothing through a link or a FIFO, even one swapped in after it listed
 * the folder: a child process swaps `agent.py` between a regular file and a link to a FIFO, again
 * and again, while the folder is hashed. A hash that followed the link would open the FIFO and
 * wait on it for ever; each hash here ends (with a hash, or none: the file changed under it).
 */
import { spawn, execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, openSync, closeSync, constants, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { submissionFilesHash } from './submission-hash.ts';

const work = mkdtempSync(join(tmpdir(), 'submission-hash-test-'));
const fifo = join(work, 'fifo');
afterAll(() => {
  // Anything left waiting on the FIFO (a hash that followed the link) is let go.
  try {
    closeSync(openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK));
  } catch {
    // no reader waits
  }
  rmSync(work, { recursive: true, force: true });
});

describe('submissionFilesHash against a file swapped for a link', () => {
  it('never opens a link or a FIFO swapped in after the listing', { timeout: 60_000 }, async () => {
    const sub = join(work, 'sub');
    mkdirSync(sub);
    execFileSync('mkfifo', [fifo]);
    writeFileSync(join(work, 'plain'), 'print(1)\n');
    symlinkSync(fifo, join(work, 'link'));
    writeFileSync(join(sub, 'agent.py'), 'print(1)\n');
    // The swapper: rename is atomic, so agent.py is always one or the other.
    const swapper = spawn(process.execPath, ['-e', `
      const { renameSync, copyFileSync, symlinkSync, rmSync } = require('node:fs');
      const [w, s] = [${JSON.stringify(work)}, ${JSON.stringify(sub)}];
      for (let k = 0; ; k++) {
        if (k % 2 === 0) { rmSync(w + '/tmp-link', { force: true }); symlinkSync(w + '/fifo', w + '/tmp-link'); renameSync(w + '/tmp-link', s + '/agent.py'); }
        else { copyFileSync(w + '/plain', w + '/tmp-file'); renameSync(w + '/tmp-file', s + '/agent.py'); }
      }`], { stdio: 'ignore' });
    try {
      await new Promise((r) => setTimeout(r, 200));
      const ended: (string | undefined)[] = [];
      for (let i = 0; i < 300; i++) {
        const got = await Promise.race([submissionFilesHash(sub), new Promise<'hung'>((r) => setTimeout(() => r('hung'), 3000))]);
        expect(got, `hash ${i} waited on the FIFO`).not.toBe('hung');
        ended.push(got as string | undefined);
      }
      expect(ended).toHaveLength(300);
    } finally {
      swapper.kill('SIGKILL');
    }
  });
});
