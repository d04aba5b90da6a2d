/**
 * How a submission's process is started: the command line that wraps Node in the limits and
 * namespaces this machine offers, detected once per grader process.
 *
 *   setpriv --pdeathsig KILL -- prlimit --as=BYTES -- unshare -rnp --fork --kill-child --
 *     node --experimental-permission --allow-fs-read=<submission dir> --allow-fs-read=<runtime dir>
 *     --max-old-space-size=MB <runtime.mjs>
 *
 * - `setpriv --pdeathsig KILL`: if the grader dies (even by SIGKILL), the kernel kills the chain,
 *   and unshare's --kill-child takes Node with it. Without it, an agent stuck in a loop would
 *   outlive a killed grader (measured: it does).
 * - `prlimit --as` caps the address space: it stops a Buffer/ArrayBuffer bomb, which the heap
 *   limit does not see. Node reserves about 0.7 GB of address space before running any code, so
 *   the cap is 1 GB plus twice the heap limit: the heap reaches its own limit first (a clean
 *   `memory` verdict), and a Buffer bomb is refused after a few hundred MB more.
 * - `unshare -r -n -p` gives the child a new user, network and pid namespace (unprivileged): no
 *   network at all, and no pid of the grader's is visible, so `process.kill(process.ppid)` or a
 *   guessed pid cannot reach it. `--kill-child` takes the child down when unshare dies.
 * - Node's permission model: read only the two folders; no writes, child processes, workers,
 *   addons or inspector (none of those flags are given).
 * Where unshare does not work, the child runs without it: the network is then reachable
 * (`isolation.network` false, with a note) and the runtime disables process.kill instead.
 */
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import { execa } from 'execa';

export interface Isolation {
  /** true when the child has no network (its own network namespace) */
  network: boolean;
  /** why the isolation is weaker than intended, when it is */
  note?: string;
}

export interface Launcher {
  isolation: Isolation;
  /** true when the child gets its own pid namespace */
  pidNamespace: boolean;
  /** the command and arguments that start `node <nodeArgs>` inside the limits */
  command(nodeArgs: string[], memoryMb: number): { file: string; args: string[] };
}

/** The address-space cap for a heap limit of `memoryMb` (see the module comment). */
export function addressSpaceBytes(memoryMb: number): number {
  return (1024 + 2 * memoryMb) * 1024 * 1024;
}

const UNSHARE_ARGS = ['-rnp', '--fork', '--kill-child', '--'];

interface Tools {
  setpriv?: string;
  prlimit?: string;
  /** unshare, when `unshare -rnp` works here */
  unshare?: string;
  notes: string[];
}

let cached: Promise<Tools> | undefined;

/**
 * What this machine supports (probed once per process), as a launcher. `namespaces: false`
 * runs without unshare even where it works (the weaker mode a machine without it gets).
 */
export async function launcher(options: { namespaces?: boolean } = {}): Promise<Launcher> {
  cached ??= detect();
  const tools = await cached;
  if (options.namespaces === false && tools.unshare !== undefined) {
    return makeLauncher({ ...tools, unshare: undefined, notes: [...tools.notes, 'namespaces turned off: submissions can reach the network'] });
  }
  return makeLauncher(tools);
}

/** An executable of that name on the grader's PATH, or undefined. */
function findExecutable(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? '/usr/bin:/bin').split(delimiter)) {
    if (dir === '') continue;
    const candidate = join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

async function works(file: string, args: string[]): Promise<{ ok: true } | { ok: false; why: string }> {
  const probe = await execa(file, [...args, process.execPath, '-e', '0'], { reject: false, timeout: 15_000, extendEnv: false, env: {}, stdin: 'ignore' });
  if (probe.exitCode === 0) return { ok: true };
  return { ok: false, why: String(probe.stderr ?? '').trim().split('\n')[0] || `exit code ${probe.exitCode ?? probe.signal}` };
}

async function detect(): Promise<Tools> {
  const notes: string[] = [];
  let setpriv = findExecutable('setpriv');
  if (setpriv !== undefined && !(await works(setpriv, ['--pdeathsig', 'KILL', '--'])).ok) setpriv = undefined;
  if (setpriv === undefined) notes.push('setpriv --pdeathsig unavailable: a submission stuck in a loop may outlive a grader that is killed');
  const prlimit = findExecutable('prlimit');
  if (prlimit === undefined) notes.push('prlimit not found: no address-space cap, so a Buffer bomb is stopped only by the machine');

  let unshare = findExecutable('unshare');
  if (unshare === undefined) {
    notes.push('unshare not found: submissions can reach the network');
  } else {
    const probe = await works(unshare, UNSHARE_ARGS);
    if (!probe.ok) {
      notes.push(`unshare -rnp does not work here (${probe.why}): submissions can reach the network`);
      unshare = undefined;
    }
  }
  return { setpriv, prlimit, unshare, notes };
}

function makeLauncher({ setpriv, prlimit, unshare, notes }: Tools): Launcher {
  const pidNamespace = unshare !== undefined;
  const isolation: Isolation = notes.length === 0 ? { network: true } : { network: pidNamespace, note: notes.join('; ') };
  return {
    isolation,
    pidNamespace,
    command(nodeArgs, memoryMb) {
      let args = [...nodeArgs];
      let file = process.execPath;
      if (unshare !== undefined) {
        args = [...UNSHARE_ARGS, file, ...args];
        file = unshare;
      }
      if (prlimit !== undefined) {
        args = [`--as=${addressSpaceBytes(memoryMb)}`, '--', file, ...args];
        file = prlimit;
      }
      if (setpriv !== undefined) {
        args = ['--pdeathsig', 'KILL', '--', file, ...args];
        file = setpriv;
      }
      return { file, args };
    },
  };
}
