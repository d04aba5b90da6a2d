/**
 * The project's version as distributed runs compare it: the package's version and a digest of
 * every source a job can run (framework/, agents/, graders/, tests left out) and of the
 * dependencies package.json names. A coordinator records it with its run; a worker whose own
 * differs refuses the run's jobs (a game played by other code is not the game the coordinator
 * scheduled), and says which versions differ. The same checkout, or the same package installed
 * with npm ci, gives the same version on every machine: paths are relative to the project's root.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The project root: the folder holding package.json and framework/. */
export const PROJECT_ROOT_DIR = fileURLToPath(new URL('../..', import.meta.url));

const SOURCE_FOLDERS = ['framework', 'agents', 'graders'];
/** Files that are not sources: tests, and what a language's tools leave beside sources. */
const NOT_SOURCE = /(\.test\.ts$|\.pyc$|\.class$|(^|\/)\.[^/]*$)/;
const NOT_FOLDER = new Set(['node_modules', '__pycache__', '.git']);

function sourceFiles(dir: string, out: string[]): void {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const e of entries) {
    const path = join(dir, e.name);
    if (e.isDirectory()) {
      if (!NOT_FOLDER.has(e.name)) sourceFiles(path, out);
    } else if (e.isFile() && !NOT_SOURCE.test(e.name)) {
      out.push(path);
    }
  }
}

let computed: string | undefined;

/** `0.1.0+<12 hex digits>`; computed once a process (a few ms). */
export function projectVersion(root = PROJECT_ROOT_DIR): string {
  if (computed !== undefined && root === PROJECT_ROOT_DIR) return computed;
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version?: string; dependencies?: Record<string, string> };
  const files: string[] = [];
  for (const f of SOURCE_FOLDERS) sourceFiles(join(root, f), files);
  const hash = createHash('sha256');
  hash.update(JSON.stringify({ version: pkg.version, dependencies: pkg.dependencies ?? {} }));
  for (const file of files.map((f) => relative(root, f).split(sep).join('/')).sort()) {
    hash.update(`\0${file}\0`);
    hash.update(readFileSync(join(root, file)));
  }
  const version = `${pkg.version ?? '0.0.0'}+${hash.digest('hex').slice(0, 12)}`;
  if (root === PROJECT_ROOT_DIR) computed = version;
  return version;
}
