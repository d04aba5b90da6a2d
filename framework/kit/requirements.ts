/**
 * What a student's machine needs besides Node for a kit's course: the course's language (python3,
 * a JDK's javac and java, g++), as `requires` in the starter's kit.json lists it. A kit checks it
 * when a command that runs the student's code starts (and `mancala doctor` on its own), so a
 * missing one is ONE line naming what to install, not a case-by-case "python3: not found".
 *
 *   "requires": [
 *     { "tool": "python3", "install": "Python 3: https://www.python.org/downloads/ (Debian/Ubuntu: apt install python3)" },
 *     { "tool": ["javac", "java"], "all": true, "install": "a JDK, 17 or newer: https://adoptium.net", "when": ["*.java"] }
 *   ]
 *
 * `tool`: a program looked for on the PATH; several: any one of them will do, or every one with
 * `all`. `when`: needed only if the folder checked holds a file whose name matches one of these
 * (`*` any characters), e.g. a course whose students may write C++, Java or Python.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import * as z from 'zod';
import { findExecutable } from '../sandbox/jail/mechanisms.ts';

export const requirementSchema = z.strictObject({
  tool: z.union([z.string().regex(/^[\w.+-]+$/), z.array(z.string().regex(/^[\w.+-]+$/)).min(1)]),
  all: z.boolean().optional(),
  install: z.string().min(1),
  when: z.array(z.string().min(1)).min(1).optional(),
});

export type Requirement = z.infer<typeof requirementSchema>;

/** The oldest Node the kit's checker runs on (bin/mancala.js refuses an older one in one line). */
export const NODE_MAJOR = 20;

/** A file-name pattern (`*` any characters) as a regular expression. */
function namePattern(pattern: string): RegExp {
  return new RegExp(`^${pattern.split('*').map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`);
}

/** Whether `r` applies to these folders: always without `when`, else when one of them holds a matching file. */
function applies(r: Requirement, folders: readonly string[]): boolean {
  if (r.when === undefined) return true;
  const patterns = r.when.map(namePattern);
  return folders.some((dir) => existsSync(dir) && statSync(dir).isDirectory() && readdirSync(dir).some((f) => patterns.some((p) => p.test(f))));
}

/**
 * The one line saying what to install, for the first requirement this machine lacks (undefined
 * when it has them all). `find` looks a program up on the PATH.
 */
export function missingRequirement(requires: readonly Requirement[], folders: readonly string[], find: (name: string) => string | undefined = findExecutable): string | undefined {
  for (const r of requires) {
    if (!applies(r, folders)) continue;
    const tools = typeof r.tool === 'string' ? [r.tool] : r.tool;
    const missing = tools.filter((t) => find(t) === undefined);
    const lacking = r.all === true ? missing.length > 0 : missing.length === tools.length;
    if (!lacking) continue;
    const named = r.all === true ? missing.join(' and ') : tools.join(' or ');
    return `this kit needs ${named} on your PATH to run your code, and ${missing.length > 1 ? 'they are' : 'it is'} not there: install ${r.install}, then open a new terminal`;
  }
  return undefined;
}
