/**
 * Staging a submission for program runs: one private, world-readable host copy of its files
 * (submissions/copy.ts's rules: no link followed or copied, bounded), bound read-only into every run's jail.
 */
import { chmod, readdir, stat } from 'node:fs/promises';
import { realpathSync } from 'node:fs';
import { join } from 'node:path';
import { copySubmission } from '../submissions/copy.ts';
import { makeTempFolder, removeTempFolder } from '../jail/temp-folders.ts';

/** A private host copy of a submission's files (stageFiles), bound read-only into each run. */
export interface StagedFiles {
  dir: string;
  /** what the copy occupies on a tmpfs (whole pages) */
  bytes: number;
  /** the largest file of the copy */
  largestFileBytes: number;
  /** what copying noted (refused symlinks, …) */
  notes: string[];
  dispose(): Promise<void>;
}

const PAGE = 4096;
const pages = (bytes: number) => Math.ceil(bytes / PAGE) * PAGE;

async function makeReadable(dir: string): Promise<{ bytes: number; largest: number }> {
  // The jail's user owns nothing on the host: the copy must be world-readable to be copied in.
  await chmod(dir, 0o755);
  let bytes = PAGE;
  let largest = 0;
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      const inner = await makeReadable(path);
      bytes += inner.bytes;
      largest = Math.max(largest, inner.largest);
    } else {
      const info = await stat(path);
      await chmod(path, info.mode & 0o111 ? 0o755 : 0o644);
      bytes += pages(info.size) || PAGE;
      largest = Math.max(largest, info.size);
    }
  }
  return { bytes, largest };
}

/** Copies a submission folder once (submissions/copy.ts's rules: no link followed or copied, bounded) for any number of runs. */
export async function stageFiles(source: string): Promise<StagedFiles> {
  const root = await makeTempFolder('program-files');
  const dir = join(root, 'files');
  const notes: string[] = [];
  try {
    await chmod(root, 0o755);
    await copySubmission(realpathSync(source), dir, notes);
    const { bytes, largest } = await makeReadable(dir);
    return { dir, bytes, largestFileBytes: largest, notes, dispose: () => removeTempFolder(root) };
  } catch (e) {
    await removeTempFolder(root);
    throw e;
  }
}

/** An empty submission's staged copy for the duration of `use`. */
export async function withEmptyFiles<T>(use: (files: StagedFiles) => Promise<T>): Promise<T> {
  const root = await makeTempFolder('program-empty');
  try {
    const files = await stageFiles(root);
    try {
      return await use(files);
    } finally {
      await files.dispose();
    }
  } finally {
    await removeTempFolder(root);
  }
}
