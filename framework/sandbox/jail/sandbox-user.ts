/**
 * The weak mode as root: without bwrap there is no private file system, so a root grader still
 * drops the submission's process to SANDBOX_UID (command.ts). What that user may touch is then
 * decided by the host's own permissions:
 *  - it reads only what any user may: a suite kept `chmod go-rwx` (as the Gradescope autograder
 *    keeps its suites) is out of its reach;
 *  - the host folders it must write (its work folder, its TMPDIR) are handed to it first;
 *  - a runtime it must run has to be reachable by any user: an interpreter under /root (pyenv's)
 *    is not, so the next one on the PATH is taken (programs/runtimes.ts), or the run says why not.
 */
import { lchown } from 'node:fs/promises';
import { dirname } from 'node:path';
import { realpathSync, statSync } from 'node:fs';
import { UserError } from '../../errors.ts';
import { SANDBOX_UID, type Mechanisms, type SandboxMode } from './machine.ts';

/** Without bwrap, does the process still drop from root to SANDBOX_UID? (The grader is root and setpriv is here.) */
export function dropsOutsideJail(m: Mechanisms): boolean {
  return m.privileged && m.setpriv !== undefined;
}

/** Does a run in `mode` meet the host's permissions as SANDBOX_UID (weak mode, root grader)? */
export function runsAsSandboxUserOnHost(m: Mechanisms, mode: SandboxMode): boolean {
  const jailed = mode === 'full' && m.bwrap !== undefined;
  return !jailed && dropsOutsideJail(m);
}

/**
 * Before a run on the host as SANDBOX_UID: the folders the process may write become that user's
 * (else it could not write its own work folder). In the jail they are tmpfs mounts instead.
 */
export async function handWritableFolders(m: Mechanisms, mode: SandboxMode, writable: readonly { path: string }[]): Promise<void> {
  if (!runsAsSandboxUserOnHost(m, mode)) return;
  for (const w of writable) {
    const blocker = blockedForSandboxUser(w.path, 'read');
    if (blocker !== undefined) {
      throw new UserError(
        `the weak sandbox runs submissions as user ${SANDBOX_UID}, who cannot enter ${blocker} on the way to its work folder ${w.path}: ` +
          'set TMPDIR to a folder any user can enter, such as /tmp',
      );
    }
    await lchown(w.path, SANDBOX_UID, SANDBOX_UID);
  }
}

/**
 * What keeps SANDBOX_UID from running or reading `path` on the host: the first folder on the way
 * that others cannot enter, or the file itself when others cannot read it; undefined when nothing
 * does. Judged by the permission bits as they apply to that user: its own where it owns the file,
else its group's (it has no other), else those for others.
 */
export function blockedForSandboxUser(path: string, need: 'execute' | 'read' = 'execute'): string | undefined {
  let real: string;
  try {
    real = realpathSync(path);
  } catch {
    return path;
  }
  // Both ways: the path as it is run (a link's own folder must be entered too) and where it leads.
  for (const folder of [...ancestors(path), ...ancestors(real)]) if ((permitted(folder) & 0o1) === 0) return folder;
  return (permitted(real) & (need === 'execute' ? 0o1 : 0o4)) === 0 ? real : undefined;
}

function ancestors(path: string): string[] {
  const out: string[] = [];
  for (let p = dirname(path); ; p = dirname(p)) {
    out.unshift(p);
    if (p === dirname(p)) return out;
  }
}

/** The rwx bits that apply to SANDBOX_UID (its own group is SANDBOX_UID too) on `path`; 0 when it is not there. */
function permitted(path: string): number {
  const info = statSync(path, { throwIfNoEntry: false });
  if (info === undefined) return 0;
  if (info.uid === SANDBOX_UID) return (info.mode >> 6) & 0o7;
  if (info.gid === SANDBOX_UID) return (info.mode >> 3) & 0o7;
  return info.mode & 0o7;
}
