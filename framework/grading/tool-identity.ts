/**
 * Which grader graded: the package's version and a hash of the command's compiled code (dist/,
 * `npm run build`), so that a journal entry (grade-journal.ts) written by other code — a new
 * release, or a grader edited and rebuilt — is never taken for this one's. Without dist/ (the
 * sources run directly, as in tests) the sources' files are hashed instead.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { PROJECT_ROOT } from '../sandbox/paths.ts';

let cached: string | undefined;

/** `<version>+<hash>`, computed once a process (about 20 ms over dist/'s few MB). */
export function toolIdentity(): string {
  if (cached !== undefined) return cached;
  const version = (JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as { version: string }).version;
  const hash = createHash('sha256');
  const dist = join(PROJECT_ROOT, 'dist');
  const files = existsSync(dist) ? codeFiles(dist, /\.mjs$/) : ['framework', 'agents', 'graders', 'bin'].flatMap((d) => codeFiles(join(PROJECT_ROOT, d), /(?<!\.test)\.(ts|mjs|js|py|java)$/));
  for (const file of files) hash.update(`${relative(PROJECT_ROOT, file)}\0`).update(readFileSync(file)).update('\0');
  cached = `${version}+${hash.digest('hex').slice(0, 16)}`;
  return cached;
}

function codeFiles(dir: string, wanted: RegExp): string[] {
  if (!existsSync(dir)) return [];
  const found: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    if (name === 'node_modules') continue;
    const path = join(dir, name);
    const info = statSync(path);
    if (info.isDirectory()) found.push(...codeFiles(path, wanted));
    else if (wanted.test(name)) found.push(path);
  }
  return found;
}
