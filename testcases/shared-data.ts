/**
 * The workspace's shared data for tests: `../shared` beside the repository (the courses' official
 * graded cases, the independent C engine). Found relative to the repository, never by an absolute
 * path, so the tests hold on any machine. A test that needs it runs only when it is there; the
 * global setup (shared-data-check.ts) says once what is skipped when it is not, and fails a CI run.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** ../shared, beside the repository. */
export const SHARED_DIR = fileURLToPath(new URL('../../shared', import.meta.url));

/** Seed 000's official graded cases (testInput_K.txt, next_state_K.txt, traverse_log_K.txt). */
export const CSCI561_OFFICIAL_DIR = join(SHARED_DIR, 'conformance', 'csci561-official');

/** The independent C implementation of the engine. */
export const KALAH_C = join(SHARED_DIR, 'bench', 'kalah.c');

export function haveSharedData(): boolean {
  return existsSync(CSCI561_OFFICIAL_DIR) && existsSync(KALAH_C);
}
