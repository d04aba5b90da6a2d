/**
 * Where the project is, computed from this file's location (never hard-coded), so the sandbox
 * works wherever the project is checked out or installed.
 */
import { realpathSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The project root: the folder holding framework/ and node_modules/ (symlinks resolved). */
export const PROJECT_ROOT = realpathSync(resolve(dirname(fileURLToPath(import.meta.url)), '../..'));
export const FRAMEWORK_DIR = join(PROJECT_ROOT, 'framework');
export const NODE_MODULES_DIR = join(PROJECT_ROOT, 'node_modules');

/** True when `path` is `folder` or lies inside it (both absolute). */
export function isInside(folder: string, path: string): boolean {
  const rel = relative(folder, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}
