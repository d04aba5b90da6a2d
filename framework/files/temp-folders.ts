/**
 * The temporary folders that hold submissions' copies and runs. Each is named with this process's
 * id, so that on Ctrl-C the main thread removes every one the process made, those of the worker
 * pool's threads included (a thread's own bookkeeping is out of its reach, and a thread does not
 * run exit handlers when the process exits under it).
 *
 * A folder not yet removed by its user is also removed when its thread or process exits normally.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const PREFIX = `mancala-${process.pid}-`;

/** Folders made by this thread and not yet removed. */
const live = new Set<string>();

/** A new empty folder in the temp dir, named `mancala-<pid>-<purpose>-XXXXXX`; remove it with removeTempFolder. */
export async function makeTempFolder(purpose: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), `${PREFIX}${purpose}-`));
  live.add(dir);
  return dir;
}

/**
 * makeTempFolder without the thread pool: for a folder of a few small files made on every case
 * (a program run's), where the pool's round trips cost more than the work on a busy machine.
 */
export function makeTempFolderSync(purpose: string): string {
  const dir = mkdtempSync(join(tmpdir(), `${PREFIX}${purpose}-`));
  live.add(dir);
  return dir;
}

/** removeTempFolder without the thread pool (see makeTempFolderSync). */
export function removeTempFolderSync(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
  live.delete(dir);
}

export async function removeTempFolder(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true });
  live.delete(dir);
}

/**
 * Removes, synchronously, every temp folder this process made in any thread and has not removed
 * (for a signal handler, in the main thread); returns how many.
 */
export function removeEveryTempFolderOfThisProcess(): number {
  let names: string[];
  try {
    names = readdirSync(tmpdir()).filter((n) => n.startsWith(PREFIX));
  } catch {
    names = [];
  }
  for (const name of names) rmSync(join(tmpdir(), name), { recursive: true, force: true });
  live.clear();
  return names.length;
}

process.on('exit', () => {
  for (const dir of live) rmSync(dir, { recursive: true, force: true });
});
