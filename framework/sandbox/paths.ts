/**
 * Where the project is, computed from this file's location (never hard-coded), so the sandbox
 * works wherever the project is checked out or installed.
 */
import { realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The project root: the folder holding framework/ and node_modules/ (symlinks resolved). */
export const PROJECT_ROOT = realpathSync(resolve(dirname(fileURLToPath(import.meta.url)), '../..'));
export const FRAMEWORK_DIR = join(PROJECT_ROOT, 'framework');
/** The clients of the stdio protocol and the courses' own APIs the project writes (agents/clients/): read-only in a jail. */
export const CLIENTS_DIR = join(PROJECT_ROOT, 'agents', 'clients');

/** The project's npm package name: a student kit's files import the framework by it. */
export const PACKAGE_NAME = 'mancala-autograder';
export const NODE_MODULES_DIR = join(PROJECT_ROOT, 'node_modules');

/**
 * The folders the project's packages are installed in: its own node_modules and, when the project
 * is itself an installed package (a student kit's node_modules/mancala-autograder), each
 * node_modules folder it sits in, where npm hoists its dependencies. Nearest first, as Node looks.
 */
export const PACKAGE_DIRS: readonly string[] = [NODE_MODULES_DIR, ...enclosingNodeModules(PROJECT_ROOT)];

function enclosingNodeModules(dir: string): string[] {
  const found: string[] = [];
  for (let d = dirname(dir); d !== dirname(d); d = dirname(d)) if (basename(d) === 'node_modules') found.push(d);
  return found;
}

/**
 * A file of an installed package: inside the project's node_modules, or inside an enclosing
 * node_modules but not inside the project (which, installed, lies in one: its agents/ are no package).
 */
export function isPackageFile(path: string): boolean {
  if (isInside(NODE_MODULES_DIR, path)) return true;
  return !isInside(PROJECT_ROOT, path) && PACKAGE_DIRS.some((d) => isInside(d, path));
}

/** True when `path` is `folder` or lies inside it (both absolute). */
export function isInside(folder: string, path: string): boolean {
  const rel = relative(folder, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}
