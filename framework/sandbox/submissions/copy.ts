/**
 * Copies a submission folder into the sandbox's private folder, which is all its process may read.
 *
 * Symbolic links are the one way a submission could point its process at files outside itself
 * (Node's permission model follows a link inside a granted folder wherever it points). So links
 * are never copied as links: one whose target (realpath) lies inside the submission is copied as
 * that target; one that points outside, dangles or loops is left out, with a note saying so.
 * node_modules and .git are skipped (the bundler resolves packages from the project), and the
 * copy is capped in bytes and files, so a huge submission cannot fill the disk.
 */
import { copyFile, mkdir, readdir, readlink, realpath, stat } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { isInside } from '../paths.ts';

export const SKIPPED_FOLDERS = new Set(['node_modules', '.git']);
export const MAX_COPY_BYTES = 100 * 1024 * 1024;
export const MAX_COPY_FILES = 20_000;

interface Budget {
  bytes: number;
  files: number;
  exhausted: boolean;
}

/** Copies the folder `source` (already a realpath) to `dest`; what was left out goes to `notes`. */
export async function copySubmission(source: string, dest: string, notes: string[]): Promise<void> {
  const budget: Budget = { bytes: MAX_COPY_BYTES, files: MAX_COPY_FILES, exhausted: false };
  await mkdir(dest, { recursive: true });
  await copyFolder(source, source, '', dest, new Set([source]), notes, budget);
}

async function copyFolder(root: string, from: string, rel: string, to: string, ancestors: Set<string>, notes: string[], budget: Budget): Promise<void> {
  const entries = (await readdir(from, { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    if (SKIPPED_FOLDERS.has(entry.name)) continue;
    const path = join(from, entry.name);
    const shown = rel === '' ? entry.name : `${rel}/${entry.name}`;
    let real = path;
    if (entry.isSymbolicLink()) {
      const target = await realpath(path).catch(() => undefined);
      if (target === undefined) {
        const text = await readlink(path).catch(() => '?');
        notes.push(`refused symlink ${shown} -> ${resolve(dirname(path), text)} (its target does not exist)`);
        continue;
      }
      if (!isInside(root, target)) {
        notes.push(`refused symlink ${shown} -> ${target} (points outside the submission)`);
        continue;
      }
      real = target;
    }
    const info = await stat(real).catch(() => undefined);
    if (info === undefined) continue; // vanished while we copied
    if (info.isDirectory()) {
      if (ancestors.has(real)) {
        notes.push(`refused symlink ${shown} (it loops back to a folder that contains it)`);
        continue;
      }
      await mkdir(join(to, entry.name));
      await copyFolder(root, real, shown, join(to, entry.name), new Set([...ancestors, real]), notes, budget);
    } else if (info.isFile()) {
      if (budget.files <= 0 || info.size > budget.bytes) {
        if (!budget.exhausted) notes.push(`the submission is too large: copied at most ${MAX_COPY_FILES} files and ${MAX_COPY_BYTES / (1024 * 1024)} MB; ${shown} and later files were left out`);
        budget.exhausted = true;
        continue;
      }
      budget.files--;
      budget.bytes -= info.size;
      await copyFile(real, join(to, entry.name));
    } else {
      notes.push(`skipped ${shown} (not a regular file or folder)`);
    }
  }
}
