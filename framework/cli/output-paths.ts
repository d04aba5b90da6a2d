/**
 * Checks the places a command will write to (--json, --csv, --replays, …) BEFORE it runs
 * anything: a folder that is missing is created, and the folder is really written to (a probe
 * file is made and removed again), so a run cannot grade for minutes and then fail to write its
 * report. A place that cannot be written is the user's mistake: one line naming the flag, the
 * path and why.
 */
import { closeSync, existsSync, mkdirSync, openSync, rmSync, statSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { dirname, join, resolve } from 'node:path';
import { UserError } from '../errors.ts';

/** The file `flag` names will be written (atomically: a temporary file beside it, then a rename). */
export function checkOutputFile(flag: string, file: string): void {
  const path = resolve(file);
  if (existsSync(path) && statSync(path).isDirectory()) {
    throw new UserError(`${flag} ${file}: is a folder; expected the name of a file to write`);
  }
  writableFolder(flag, file, dirname(path));
}

/** The folder `flag` names will be written into. */
export function checkOutputFolder(flag: string, dir: string): void {
  writableFolder(flag, dir, resolve(dir));
}

function writableFolder(flag: string, given: string, dir: string): void {
  try {
    mkdirSync(dir, { recursive: true });
  } catch (e) {
    throw new UserError(`${flag} ${given}: cannot create the folder ${dir}: ${reason(e, dir)}`);
  }
  if (!statSync(dir).isDirectory()) throw new UserError(`${flag} ${given}: ${dir} is a file, not a folder`);
  // Permission bits do not tell the whole story (root, read-only mounts, ACLs): try it.
  const probe = join(dir, `.mancala-write-probe-${process.pid}-${randomBytes(4).toString('hex')}`);
  try {
    closeSync(openSync(probe, 'wx'));
  } catch (e) {
    throw new UserError(`${flag} ${given}: cannot write in the folder ${dir}: ${reason(e, dir)}`);
  } finally {
    rmSync(probe, { force: true });
  }
}

/** Why the file system said no, in words; for "not a directory", which part of the path is a file. */
function reason(e: unknown, dir: string): string {
  const code = (e as NodeJS.ErrnoException).code;
  switch (code) {
    case 'ENOTDIR':
    case 'EEXIST': {
      const file = fileInPath(dir);
      return file === undefined ? 'a part of the path is not a folder' : `${file} is a file, not a folder`;
    }
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'EROFS':
      return 'the file system is read-only';
    case 'ENOSPC':
      return 'no space left on the device';
    default:
      return code ?? (e as Error).message;
  }
}

/** The first existing ancestor of `dir` (or `dir` itself) that is not a folder. */
function fileInPath(dir: string): string | undefined {
  for (let p = dir; ; p = dirname(p)) {
    if (existsSync(p)) return statSync(p).isDirectory() ? undefined : p;
    if (dirname(p) === p) return undefined;
  }
}
