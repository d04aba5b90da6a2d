/**
 * What a submission's module may import, and where a relative import is read from: the rules
 * both compilers of a submission apply (bundle.ts with esbuild, module-tree.ts in a student kit),
 * so the two refuse the same imports with the same words.
 */
import { existsSync } from 'node:fs';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { FRAMEWORK_DIR, isInside, isPackageFile, PROJECT_ROOT } from '../paths.ts';

export interface BundleSite {
  /** the submission's private copy */
  copyRoot: string;
  /** where the copied folder came from (a single-file submission: the file's folder) */
  originalRoot: string;
  /** the copy holds one file only: any other relative import is read from the original place */
  singleFile: boolean;
}

export const ALLOWED = 'a submission may import its own files, the project\'s framework/ and installed packages';

/** A resolved file a submission's module may take: its own, the framework's, an installed package's. */
export function allowedFile(site: BundleSite, path: string): boolean {
  return isInside(site.copyRoot, path) || isInside(FRAMEWORK_DIR, path) || isPackageFile(path);
}

/**
 * Where a path import (`./x`, `../x`, `/x`) written in a file of the copy is resolved from:
 * the folder and the path to resolve, or why it is refused. A relative import that leaves the copy
 * is read as it was meant from the submission's original place (the framework beside it), or as
 * `../../framework/…` written beside the project's framework/ and taken in elsewhere.
 */
export function pathImportFrom(site: BundleSite, resolveDir: string, path: string): { resolveDir: string; path: string } | { refused: string } {
  const target = resolve(resolveDir, path);
  const inCopy = isInside(site.copyRoot, target) && (!site.singleFile || existsSync(target) || hasResolvableSibling(target));
  if (inCopy) return { resolveDir, path };
  // Read the import as it was written, from the submission's original folder.
  const originalDir = join(site.originalRoot, relative(site.copyRoot, resolveDir));
  if (isInside(FRAMEWORK_DIR, resolve(originalDir, path))) return { resolveDir: originalDir, path };
  // `../../framework/…` written beside the project's framework/, taken in (a snapshot, an LMS's zip) elsewhere.
  const framework = frameworkImport(path);
  if (framework === undefined) return { refused: `import "${path}" reaches outside the submission: ${ALLOWED}` };
  return { resolveDir: PROJECT_ROOT, path: framework };
}

/** Why a resolved `path` is refused: it lies outside what a submission may import. */
export function outsideAllowed(specifier: string, path: string): string {
  return `import "${specifier}" resolves to ${shown(path)}, outside what ${ALLOWED}`;
}

/** A path import: relative or absolute. */
export function isPathImport(path: string): boolean {
  return path.startsWith('.') || isAbsolute(path);
}

/**
 * A relative import that climbs out to a `framework/` folder (`../../../framework/contracts/agent.ts`):
 * the project's framework, as `./framework/…` from the project root; undefined for anything else.
 */
function frameworkImport(path: string): string | undefined {
  const parts = path.split('/');
  let i = 0;
  while (parts[i] === '..') i++;
  if (i === 0 || parts[i] !== 'framework' || parts.length <= i + 1 || parts.slice(i + 1).includes('..')) return undefined;
  return `./${parts.slice(i).join('/')}`;
}

/** `./helper` may name helper.ts or helper/index.ts: for a single file, those count as present. */
function hasResolvableSibling(target: string): boolean {
  return ['.ts', '.mts', '.js', '.mjs', '.json'].some((ext) => existsSync(target + ext));
}

/** A path as a message shows it: relative to the project when inside it. */
export function shown(path: string): string {
  return isInside(PROJECT_ROOT, path) ? relative(PROJECT_ROOT, path) || '.' : path;
}
