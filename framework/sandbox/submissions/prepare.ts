/**
 * Turns a submission on disk into what the sandbox runs: a private temp folder holding a copy of
 * the submission (copy.ts) and one bundled .mjs per role (bundle.ts), made in the grader's
 * trusted process before any of the student's code runs.
 *
 * A submission is a folder, or a single agent file. A single file fills every `agent` role and is
 * the whole submission: its folder is not copied (only framework imports reach beyond it).
 * A role's module is the first file its globby patterns find, patterns tried in order. A role
 * that cannot be filled — no file, an import that leaves the submission, a syntax error — is
 * `missing` with a message; it never stops the other roles or the grader.
 */
import { lchown, mkdir, readdir, realpath, stat } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { globby } from 'globby';
import { UserError } from '../../errors.ts';
import { snapshotFile } from '../../files/snapshot.ts';
import type { RoleSpec } from '../../suites/types.ts';
import { bundleModule, type BundleSite } from './bundle.ts';
import { copySubmission } from './copy.ts';
import { makeTempFolder, removeTempFolder } from '../jail/temp-folders.ts';
import { SANDBOX_UID } from '../jail/mechanisms.ts';

export type PreparedRole =
  | {
      /** the bundled .mjs inside `dir` */
      file: string;
      /** the module's original path */
      source: string;
      /** the role's kind */
      kind: RoleSpec['kind'];
    }
  | { /** why the role has no module, e.g. 'no module found for role agent (looked for agent.ts, src/agent.ts)' */ missing: string };

export interface PreparedSubmission {
  /** the submission's folder or file name */
  id: string;
  /** the path as given */
  path: string;
  /** the private temp folder: `submission/` (the copy) and `bundles/` */
  dir: string;
  roles: Record<string, PreparedRole>;
  /** what the grader wants the reader to know: refused symlinks, files left out */
  notes: string[];
  /** removes `dir` */
  dispose(): Promise<void>;
}

/** The copy's folder inside `dir`; messages from the child strip this prefix. */
export const COPY_FOLDER = 'submission';


export async function prepareSubmission(path: string, roles: Record<string, RoleSpec>): Promise<PreparedSubmission> {
  const info = await stat(path).catch(() => undefined);
  if (info === undefined) throw new UserError(`${path}: no such submission (expected a folder or an agent file)`);
  if (!info.isFile() && !info.isDirectory()) throw new UserError(`${path}: not a folder or a file`);
  const source = await realpath(path);
  const singleFile = info.isFile();

  const folder = await makeTempFolder('submission');
  const dir = await realpath(folder);
  const dispose = () => removeTempFolder(folder);
  try {
    const copyRoot = join(dir, COPY_FOLDER);
    const bundles = join(dir, 'bundles');
    await mkdir(bundles);
    const notes: string[] = [];
    if (singleFile) {
      await mkdir(copyRoot);
      // Opened with no link followed and checked to be a regular file (a FIFO given as an agent file would never open).
      const copied = await snapshotFile(source, join(copyRoot, basename(source)), basename(source));
      if (!copied.ok) throw new UserError(`${path}: ${copied.message}`);
    } else {
      await copySubmission(source, copyRoot, notes);
    }
    const site: BundleSite = { copyRoot, originalRoot: singleFile ? dirname(source) : source, singleFile };

    const prepared: Record<string, PreparedRole> = {};
    let index = 0;
    for (const [name, spec] of Object.entries(roles)) {
      const found = singleFile ? singleFileRole(name, spec, basename(source)) : await findRoleModule(name, spec, copyRoot);
      if ('missing' in found) {
        prepared[name] = found;
        continue;
      }
      const file = join(bundles, `${index++}-${name.replace(/[^A-Za-z0-9_-]/g, '_')}.mjs`);
      const built = await bundleModule(join(copyRoot, found.relative), file, site);
      prepared[name] = built.ok
        ? { file, source: singleFile ? path : join(path, found.relative), kind: spec.kind }
        : { missing: `role ${name}: ${found.relative} could not be bundled: ${built.message}` };
    }
    await handToSandboxUser(dir);
    return { id: basename(resolve(path)), path, dir, roles: prepared, notes, dispose };
  } catch (e) {
    await dispose();
    throw e;
  }
}

function singleFileRole(name: string, spec: RoleSpec, file: string): { relative: string } | { missing: string } {
  if (spec.kind === 'agent') return { relative: file };
  return { missing: `role ${name} needs a heuristic module, but the submission is a single agent file (${file}); submit a folder with ${spec.files.join(' or ')}` };
}

async function findRoleModule(name: string, spec: RoleSpec, copyRoot: string): Promise<{ relative: string } | { missing: string }> {
  for (const pattern of spec.files) {
    // A pattern is relative to the submission and stays inside it.
    if (isAbsolute(pattern) || pattern.split(/[\\/]/).includes('..')) {
      return { missing: `role ${name}: the pattern "${pattern}" reaches outside the submission (patterns are relative to the submission folder)` };
    }
    const matches = await globby(pattern, { cwd: copyRoot, onlyFiles: true, dot: true, followSymbolicLinks: false, expandDirectories: false });
    const inside = matches.filter((m) => !relative(copyRoot, join(copyRoot, m)).startsWith('..')).sort();
    if (inside.length > 0) return { relative: inside[0]! };
  }
  return { missing: `no module found for role ${name} (looked for ${spec.files.join(', ')})${await otherLanguageHint(copyRoot)}` };
}

/**
 * What the folder holds instead, when it is code in another language that is no agent the tools
 * recognise: Java with no class extending the course's Player (a CS540 player) nor using the
 * MancalaAgent client, or Python with no agent.py.
 */
async function otherLanguageHint(copyRoot: string): Promise<string> {
  const found = await globby(['*.java', '*.py'], { cwd: copyRoot, onlyFiles: true });
  if (found.length === 0) return '';
  const shown = found.sort().slice(0, 4).join(', ') + (found.length > 4 ? ', …' : '');
  return `; found ${shown}: a Java agent is a class extending Player (a CS540 player, <name>Player.java) or uses the MancalaAgent client, a Python one is agent.py; or give a mancala.yaml with protocol: 1 (agents/clients/PROTOCOL.md)`;
}

/**
 * A root grader's jail runs the submission as SANDBOX_UID: the private folder becomes that user's
 * (still mode 0700, so no other local user reads it; other jails never see it mounted).
 */
async function handToSandboxUser(dir: string): Promise<void> {
  if (process.getuid?.() !== 0) return;
  await lchown(dir, SANDBOX_UID, SANDBOX_UID);
  for (const entry of await readdir(dir, { recursive: true })) await lchown(join(dir, entry), SANDBOX_UID, SANDBOX_UID);
}
