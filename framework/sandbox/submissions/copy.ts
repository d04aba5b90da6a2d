/**
 * Copies a submission folder into the sandbox's private folder, which is all its process may read.
 *
 * Symbolic links are the one way a submission could point its process (or the grader) at files
 * outside itself: Node's permission model follows a link inside a granted folder wherever it
 * points, and folder links that point at each other multiply a copy that follows them (2^N
 * folders from N). So the copy is files/snapshot.ts's: no link is followed or copied, wherever it
 * points, and its note says only "a symbolic link (refused)" (never its target, nor whether that
 * exists: a student must not learn where the grader keeps its files). FIFOs, sockets and devices
 * are left out too. node_modules and .git are skipped (the bundler resolves packages from the
 * project), and the copy is bounded in files, bytes, folders and depth.
 */
import { basename } from 'node:path';
import { DEFAULT_SNAPSHOT_LIMITS, snapshotFolder, type SnapshotLimits } from '../../files/snapshot.ts';

export const SKIPPED_FOLDERS = new Set(['node_modules', '.git']);

/** The copy's bounds: the snapshot's own (100 MB, 20,000 files, 5,000 folders, 32 levels). */
export const COPY_LIMITS: Readonly<SnapshotLimits> = DEFAULT_SNAPSHOT_LIMITS;

/** Copies the folder `source` to `dest`; what was left out goes to `notes`, one line each, naming paths inside the submission only. */
export async function copySubmission(source: string, dest: string, notes: string[]): Promise<void> {
  // Skipped by name at any depth, a link so named too (a pnpm-style node_modules link is no note).
  const result = await snapshotFolder(source, dest, { limits: COPY_LIMITS, skip: (relative) => SKIPPED_FOLDERS.has(basename(relative)) });
  notes.push(...result.notes);
}
