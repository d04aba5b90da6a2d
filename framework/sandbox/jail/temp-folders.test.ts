import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { makeTempFolder, removeEveryTempFolderOfThisProcess, removeTempFolder } from './temp-folders.ts';

const others: string[] = [];
afterEach(() => {
  for (const dir of others.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A folder named as makeTempFolder names them, made by a worker thread of this process. */
async function folderMadeInAThread(): Promise<string> {
  const code = `
    const { mkdtempSync } = require('node:fs');
    const { join } = require('node:path');
    const { tmpdir } = require('node:os');
    require('node:worker_threads').parentPort.postMessage(mkdtempSync(join(tmpdir(), 'mancala-' + process.pid + '-submission-')));`;
  const worker = new Worker(code, { eval: true });
  const dir = await new Promise<string>((resolve) => worker.once('message', resolve));
  await worker.terminate();
  return dir;
}

describe('temp folders', () => {
  it('are named with the process id and removed by their user', async () => {
    const dir = await makeTempFolder('submission');
    expect(dir).toContain(`mancala-${process.pid}-submission-`);
    expect(existsSync(dir)).toBe(true);
    await removeTempFolder(dir);
    expect(existsSync(dir)).toBe(false);
  });

  it("on an interrupt, every one this process made goes, a worker thread's too, and no other process's", async () => {
    const mine = await makeTempFolder('program-run');
    const threads = await folderMadeInAThread();
    const anotherProcess = mkdtempSync(join(tmpdir(), `mancala-${process.pid + 1_000_000}-submission-`));
    others.push(anotherProcess, threads, mine);
    expect(removeEveryTempFolderOfThisProcess()).toBeGreaterThanOrEqual(2);
    expect(existsSync(mine)).toBe(false);
    expect(existsSync(threads)).toBe(false);
    expect(existsSync(anotherProcess)).toBe(true);
  });
});
