/**
 * The command line that runs a submission's process in the sandbox (mechanisms.ts says what each
 * mechanism is for). An allow-list: the process sees
 *  - the system read-only: /usr (with /bin, /lib… as the host has them) and a few files of /etc
 *    that runtimes read (the dynamic linker's cache, alternatives, the JVM's and Python's config);
 *  - what the caller lists read-only, at the same paths as on the host (its copy, its runtime);
 *  - size-capped tmpfs folders, fresh for every process, as the only places it can write;
 *  - its own /proc (its pid namespace) and a minimal /dev;
 * and nothing else: no checkout, no other submission, no suite, no home, no grader /tmp, no network.
 *
 *   [meter prefix: join the cgroups] prlimit --fsize --core=0 [--data: the memory backstop where
 *   no cgroup holds the limit, meters/memory-backstop.ts] -- bwrap … -- [setpriv: drop to SANDBOX_UID] ARGV
 *
 * In the weak mode (no bwrap; the instructor chose it) only the meter, prlimit and
 * `setpriv --pdeathsig` remain, and the command runs in a host folder the caller made. A root
 * grader still drops the process to SANDBOX_UID there, so that a submission reads only what
 * other users may (a suite kept `chmod go-rwx` stays out of its reach), and the host folders it
 * writes are handed to that user first (sandbox-user.ts).
 */
import { existsSync, lstatSync, readdirSync, readlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { SANDBOX_UID, type Mechanisms, type SandboxMode } from './machine.ts';
import { isInside } from '../paths.ts';
import { dropsOutsideJail } from './sandbox-user.ts';
import type { ResourceMeter } from '../meters/resource-meter.ts';
import { backstopArgs } from '../meters/memory-backstop.ts';
import { keyringFilter } from './seccomp.ts';

export interface JailSpec {
  /** the command; its first word an absolute path (programs/runtimes.ts resolves interpreters) */
  argv: string[];
  /** the working folder (inside the sandbox) */
  cwd: string;
  env: Record<string, string>;
  /** host files and folders the process may read, bound at the same paths */
  readOnly: readonly string[];
  /** tmpfs folders the process may write, each with its size cap */
  writable: readonly { path: string; sizeBytes: number }[];
  /** the largest file the process may write (RLIMIT_FSIZE) */
  fileSizeBytes: number;
  /**
   * argv is a supervisor that runs the submission's processes itself, case after case, each
   * dropped to SANDBOX_UID by `dropToSandboxUser` (programs/jail-session.ts): it stays root in the
   * jail with what it needs to end a case and clear its folders, and nothing else. Root graders only.
   */
  supervised?: boolean;
}

/** Folders the system keeps at the root; a link on the host (usr-merge) stays a link inside. */
const ROOT_SYSTEM = ['/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32'];
/** What runtimes read from /etc; nothing with secrets or the machine's identity. */
const ETC_FILES = ['/etc/alternatives', '/etc/ld.so.cache', '/etc/ld.so.conf', '/etc/ld.so.conf.d', '/etc/localtime', '/etc/passwd', '/etc/group', '/etc/nsswitch.conf'];
/** /etc folders of runtimes, by prefix (e.g. java-17-openjdk, python3.11). */
const ETC_RUNTIME_PREFIXES = ['java-', 'python3'];

/** Mounted by systemArgs(): nothing is created or bound again inside them. */
const SYSTEM_MOUNTS = ['/usr', '/proc', '/dev', '/etc'];

let systemArgsCache: string[] | undefined;

/** bwrap arguments for the read-only system (computed once). */
function systemArgs(): string[] {
  if (systemArgsCache !== undefined) return systemArgsCache;
  const args = ['--ro-bind', '/usr', '/usr'];
  for (const path of ROOT_SYSTEM) {
    const info = lstatSync(path, { throwIfNoEntry: false });
    if (info === undefined) continue;
    if (info.isSymbolicLink()) args.push('--symlink', readlinkSync(path), path);
    else if (info.isDirectory()) args.push('--ro-bind', path, path);
  }
  args.push('--perms', '0755', '--dir', '/etc');
  const etc = [...ETC_FILES];
  try {
    for (const name of readdirSync('/etc')) if (ETC_RUNTIME_PREFIXES.some((p) => name.startsWith(p))) etc.push(join('/etc', name));
  } catch {
    // no /etc: nothing to add
  }
  for (const path of etc) if (existsSync(path)) args.push('--ro-bind', path, path);
  args.push('--proc', '/proc', '--dev', '/dev');
  systemArgsCache = args;
  return args;
}

/** The folders bwrap must create (world-readable: its default is 0700) before it can mount at `path`. */
function parents(path: string, made: Set<string>): string[] {
  const out: string[] = [];
  const chain: string[] = [];
  for (let p = dirname(path); p !== '/' && p !== '.'; p = dirname(p)) chain.unshift(p);
  for (const p of chain) {
    if (made.has(p) || SYSTEM_MOUNTS.some((c) => isInside(c, p))) continue;
    made.add(p);
    out.push('--perms', '0755', '--dir', p);
  }
  return out;
}

/**
 * A supervisor's one capability in the jail beyond changing user: killing every process of the
 * case, which are another user's (CAP_KILL). Its pid namespace holds only the jail's processes.
 */
const SUPERVISOR_CAPS = ['CAP_KILL'];

function bwrapArgs(m: Mechanisms, spec: Pick<JailSpec, 'argv' | 'cwd' | 'env' | 'readOnly' | 'writable' | 'supervised'>): string[] {
  const args = [
    '--unshare-ipc',
    '--unshare-pid',
    '--unshare-net',
    '--unshare-uts',
    '--unshare-cgroup-try',
    '--hostname',
    'sandbox',
    '--die-with-parent',
    // A new session: the process cannot push input into the grader's terminal (TIOCSTI).
    '--new-session',
  ];
  if (m.privileged) {
    args.push('--cap-add', 'CAP_SETUID', '--cap-add', 'CAP_SETGID');
    if (spec.supervised === true) for (const cap of SUPERVISOR_CAPS) args.push('--cap-add', cap);
  } else {
    if (spec.supervised === true) throw new Error('internal: a supervised jail needs a root grader');
    args.push('--unshare-user');
  }
  args.push(...systemArgs());
  const made = new Set<string>();
  for (const w of spec.writable) {
    args.push(...parents(w.path, made));
    args.push('--perms', '01777', '--size', String(w.sizeBytes), '--tmpfs', w.path);
    made.add(w.path);
  }
  for (const path of spec.readOnly) {
    // Already visible (e.g. a JVM under /usr): binding it again would only cost a mount.
    if (SYSTEM_MOUNTS.some((c) => isInside(c, path))) continue;
    args.push(...parents(path, made));
    args.push('--ro-bind', path, path);
    made.add(path);
  }
  args.push('--chdir', spec.cwd, '--clearenv');
  for (const [k, v] of Object.entries(spec.env)) args.push('--setenv', k, v);
  args.push('--');
  // bwrap ran as root to mount; the submission runs as a user that owns nothing, with no capabilities
  // (a supervisor drops each process it starts itself).
  if (m.privileged && spec.supervised !== true) args.push(...dropToSandboxUser(JAIL_SETPRIV));
  args.push(...spec.argv);
  return args;
}

/** setpriv inside the jail (/usr is bound read-only). */
export const JAIL_SETPRIV = '/usr/bin/setpriv';

/** setpriv's words that make the rest of the command a user that owns nothing, with no capabilities. */
export function dropToSandboxUser(setpriv: string): string[] {
  return [setpriv, `--reuid=${SANDBOX_UID}`, `--regid=${SANDBOX_UID}`, '--clear-groups', '--inh-caps=-all', '--bounding-set=-all', '--no-new-privs', '--'];
}

/** bwrap's arguments for a trivial process: does the sandbox start here at all? */
export function probeArgs(m: Mechanisms): string[] {
  return bwrapArgs(m, { argv: ['/bin/true'], cwd: '/tmp', env: {}, readOnly: [], writable: [{ path: '/tmp', sizeBytes: 1 << 20 }] });
}

/** A jail's command line, and the system-call filter its spawn must hand bwrap on descriptor `fd` (seccomp.ts). */
export interface JailCommand {
  file: string;
  args: string[];
  cwd: string;
  filter?: { fd: number; bytes: Buffer };
}

/** Pipes for stdin, stdout, stderr and more. */
type Pipes = ['pipe', 'pipe', 'pipe', ...'pipe'[]];

/** `count` pipes (stdin, stdout, stderr, then the caller's), and one at the filter's descriptor, for the spawn of `command`. */
export function jailStdio(count: number, command: JailCommand): Pipes {
  const n = Math.max(3, count, command.filter === undefined ? 0 : command.filter.fd + 1);
  return Array<'pipe'>(n).fill('pipe') as Pipes;
}

/** Writes the filter into its pipe (bwrap reads it to the end before anything of the submission starts). */
export function sendFilter(child: { stdio: readonly unknown[] }, command: JailCommand): void {
  if (command.filter === undefined) return;
  const pipe = child.stdio[command.filter.fd] as NodeJS.WritableStream | undefined | null;
  if (pipe === undefined || pipe === null) return;
  // A jail that failed to start closes its end first: its exit says why.
  (pipe as NodeJS.WritableStream & { on(e: 'error', f: () => void): void }).on('error', () => {});
  pipe.end(command.filter.bytes);
}

/**
 * Closes every descriptor from $1 on, then runs the rest: a descriptor the grader inherited from
 * whatever started it (a shell's, a CI runner's; Node marks only its own close-on-exec) would
 * otherwise pass through the whole chain into the submission's processes (seen here: a shell's pipe
 * open in the program). bash, for descriptors past 9, which dash cannot name.
 */
const CLOSE_INHERITED = 'keep=$1; shift; for f in /proc/self/fd/* /dev/fd/*; do n=${f##*/}; case $n in *[!0-9]*|"") continue ;; esac; [ "$n" -ge "$keep" ] && eval "exec $n>&-" 2>/dev/null; done; exec "$@"';

let bashPath: string | null | undefined;
function bash(): string | undefined {
  if (bashPath === undefined) bashPath = ['/bin/bash', '/usr/bin/bash'].find((p) => existsSync(p)) ?? null;
  return bashPath ?? undefined;
}

/**
 * The full command line for `spec` under `mode` (file and arguments for spawn). `filterFd`: the
 * first descriptor the spawn leaves free, where the jail's system-call filter goes (jailStdio).
 */
export function jailCommand(m: Mechanisms, mode: SandboxMode, meter: ResourceMeter, spec: JailSpec, filterFd?: number): JailCommand {
  // Descriptors past the spawn's own (stdin, stdout, stderr, its channels, the filter) are closed first.
  const shell = bash();
  // --norc: bash reads ~/.bashrc when its stdin is a socket, as Node's pipes are.
  const words: string[] = shell === undefined ? [] : [shell, '--norc', '--noprofile', '-c', CLOSE_INHERITED, 'bash', String(filterFd === undefined ? 3 : filterFd + 1)];
  words.push(...meter.prefix());
  // No POSIX message queue may be made (--msgqueue=0): a queue outlives its processes in the jail's
  // ipc namespace, and nothing a case leaves may reach the next one (programs/jail-session.ts).
  const limits = m.prlimit === undefined ? [] : [m.prlimit, `--fsize=${spec.fileSizeBytes}`, '--core=0', '--msgqueue=0', ...backstopArgs(meter), '--'];
  if (mode === 'weak' || m.bwrap === undefined) {
    // The limits are set as root; the user dropped next; a change of user clears the
    // parent-death signal, so it is set last (by a setpriv the dropped user can run: a real path).
    words.push(...limits);
    if (dropsOutsideJail(m)) words.push(...dropToSandboxUser(m.setpriv!));
    if (m.setpriv !== undefined) words.push(m.setpriv, '--pdeathsig', 'KILL', '--');
    words.push(...spec.argv);
    return { file: words[0]!, args: words.slice(1), cwd: spec.cwd };
  }
  if (m.setpriv !== undefined) words.push(m.setpriv, '--pdeathsig', 'KILL', '--');
  words.push(...limits);
  const bytes = filterFd === undefined ? undefined : keyringFilter();
  words.push(m.bwrap, ...(bytes !== undefined ? ['--seccomp', String(filterFd)] : []), ...bwrapArgs(m, spec));
  // bwrap changes into spec.cwd itself; the host cwd only has to exist.
  return { file: words[0]!, args: words.slice(1), cwd: '/', ...(bytes !== undefined ? { filter: { fd: filterFd!, bytes } } : {}) };
}
