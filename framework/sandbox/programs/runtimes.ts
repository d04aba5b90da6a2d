/**
 * The program behind the first word of a submission's command (`python3`, `java`, `node`,
 * `./a.out`, `sh` …), as the jail must see it: an absolute path to the real executable and the
 * host folders it needs read-only. The jail is an allow-list (jail/command.ts), so an interpreter that
 * lives outside /usr (a version manager's, /opt's) is invisible there unless bound.
 *
 * The grader's PATH decides which interpreter a word means, so that a submission runs on the
 * same Python the instructor tested with. Version managers put a shim first on PATH (pyenv's
 * costs about a second of CPU at every start, more under load); Python is therefore asked once
 * where its real interpreter is (`sys.executable`, `sys.base_prefix`), and the jail runs that.
 *
 * The JVM sizes its heap from the machine, not from the sandbox's memory limit, so it is given
 * `-Xmx` from that limit (JAVA_TOOL_OPTIONS, which reaches a `java` started by a script too).
 */
import { existsSync, readdirSync, realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, isAbsolute, join, normalize } from 'node:path';
import { execa } from 'execa';
import { SANDBOX_UID } from '../jail/machine.ts';
import { findExecutable, findExecutables } from '../jail/mechanisms.ts';
import { blockedForSandboxUser } from '../jail/sandbox-user.ts';
import { isInside, PROJECT_ROOT } from '../paths.ts';

export type RuntimeKind = 'python' | 'java' | 'node' | 'native';

export interface Runtime {
  /** the word as the command gives it */
  word: string;
  kind: RuntimeKind;
  /**
   * What to run: an absolute path on the host (the jail shows it at the same path), or, for a
   * file of the submission (`./a.out`, `bin/run`), a path relative to the work folder.
   */
  executable: string;
  /** the executable is the submission's own file */
  local: boolean;
  /** host folders or files the executable needs, bound read-only at the same paths */
  readOnly: string[];
  /** folders to put first on PATH inside the jail, so that a script finds the same runtime by name */
  pathDirs: string[];
  /** a trivial run whose CPU time is this runtime's start-up (none: its start-up counts as 0) */
  startupArgs?: string[];
}

/** What the JVM needs besides its heap under a cgroup limit: metaspace, code cache, GC, thread stacks. */
const JVM_NON_HEAP_MB = 112;
const JVM_MIN_HEAP_MB = 16;

/**
 * The JVM options for a memory limit: a heap that leaves room for the rest of the JVM under the
 * limit (so running out is an OutOfMemoryError the student can read, not a kill), the serial
 * collector (one GC thread, the smallest footprint), and no perf-data file.
 */
export function javaToolOptions(memoryBytes: number): string {
  const limitMb = Math.floor(memoryBytes / (1024 * 1024));
  const heapMb = Math.max(JVM_MIN_HEAP_MB, Math.min(limitMb - JVM_NON_HEAP_MB, Math.floor(limitMb * 0.75)));
  return `-Xmx${heapMb}m -XX:+UseSerialGC -XX:-UsePerfData`;
}

/** The environment a runtime needs under `memoryBytes` (added to the program's environment). */
export function runtimeEnv(memoryBytes: number): Record<string, string> {
  return { JAVA_TOOL_OPTIONS: javaToolOptions(memoryBytes) };
}

/** The line the JVM prints on stderr whenever JAVA_TOOL_OPTIONS is set: noise in a student's message. */
export const JAVA_OPTIONS_NOTICE = /^Picked up JAVA_TOOL_OPTIONS:.*$/gm;

function kindOf(name: string): RuntimeKind {
  if (/^python(\d+(\.\d+)?)?$/.test(name)) return 'python';
  if (name === 'java') return 'java';
  if (name === 'node' || name === 'nodejs') return 'node';
  return 'native';
}

/**
 * What to bind for an executable outside /usr: its install prefix (the folder above `bin/`), or
 * the file alone where that prefix would expose too much (the root, a home, the project).
 */
function installPrefix(executable: string): string {
  const dir = dirname(executable);
  const prefix = basename(dir) === 'bin' ? dirname(dir) : undefined;
  const unsafe = (p: string) => p === '/' || p === homedir() || isInside(p, PROJECT_ROOT);
  return prefix !== undefined && !unsafe(prefix) ? prefix : executable;
}

function realpathOrSelf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/** Asks Python (through the grader's PATH, shims included) where its real interpreter and its library are. */
async function pythonLocation(command: string): Promise<{ executable: string; prefixes: string[]; version: string } | { problem: string }> {
  // getattr: Python 2 (an instructor's --python) has no base_prefix.
  const r = await execa(command, ['-c', 'import sys;print(sys.executable);print(getattr(sys, "base_prefix", sys.prefix));print(sys.prefix);print("%d.%d" % sys.version_info[:2])'], {
    reject: false,
    timeout: 30_000,
    stdin: 'ignore',
  });
  const [executable, basePrefix, prefix, version] = String(r.stdout ?? '').split('\n').map((l) => l.trim());
  if (r.exitCode !== 0 || !executable || !isAbsolute(executable) || !basePrefix || !prefix || !version) {
    return { problem: `${basename(command)} on the grader did not say where its interpreter is (${r.exitCode === 0 ? 'unexpected output' : `exit code ${r.exitCode ?? r.signal}`})` };
  }
  return { executable, prefixes: [...new Set([basePrefix, prefix])], version };
}

function uniqueBinds(paths: readonly string[]): string[] {
  // /usr is always in the jail; a path inside another bound one needs no mount of its own.
  const outside = [...new Set(paths.map((p) => normalize(p)))].filter((p) => !isInside('/usr', p));
  return outside.filter((p) => !outside.some((o) => o !== p && isInside(o, p)));
}

/**
 * The environment variable naming the Python interpreter that `python`, `python3` (and `python2`)
 * mean for submissions, instead of the grader's PATH: set by `--python PATH` (cli/sandbox-options.ts)
 * or by an instructor's environment. An environment variable so that the pool's worker threads,
 * which copy the environment when they start, resolve the same interpreter.
 */
export const PYTHON_OVERRIDE_ENV = 'MANCALA_PYTHON';

/** The same for `python2` and `python2.7` (--python2 PATH): Python 2 programs never run on a Python 3. */
export const PYTHON2_OVERRIDE_ENV = 'MANCALA_PYTHON2';

/**
 * The interpreters given for this process (--python, --python2 or the instructor's environment):
 * part of what a result depends on, so a journal entry graded on one is never reused on another.
 */
export function interpreterOverrides(): { python?: string; python2?: string } {
  const python = process.env[PYTHON_OVERRIDE_ENV] || undefined;
  const python2 = process.env[PYTHON2_OVERRIDE_ENV] || undefined;
  return { ...(python !== undefined ? { python } : {}), ...(python2 !== undefined ? { python2 } : {}) };
}

/** `python2`, `python2.7`: a command that asks for Python 2. */
export function isPython2Word(word: string): boolean {
  return !word.includes('/') && /^python2(\.\d+)?$/.test(word);
}

/** Where none is found: what to do. */
export const NO_PYTHON2 = 'no Python 2.7 found (python2.7 or python2 on PATH, or a pyenv version 2.7): install one or pass --python2';

/**
 * The interpreters a Python 2 word may mean, best first: those of that name on PATH, python2.7 and
 * python2, and the 2.7 versions of pyenv (whose shims refuse to run one unless PYENV_VERSION names
 * it): found beside its shims on PATH, at $PYENV_ROOT or at ~/.pyenv.
 */
function python2Candidates(word: string): string[] {
  const onPath = [...new Set([word, 'python2.7', 'python2'].flatMap((w) => findExecutables(w)))];
  const roots = [process.env.PYENV_ROOT, ...onPath.filter((p) => basename(dirname(p)) === 'shims').map((p) => dirname(dirname(p))), join(homedir(), '.pyenv')];
  const versions: string[] = [];
  for (const root of new Set(roots.filter((r): r is string => r !== undefined && r !== ''))) {
    let names: string[];
    try {
      names = readdirSync(join(root, 'versions'));
    } catch {
      continue;
    }
    const found = names
      .filter((n) => /^2\.7(\.\d+)?$/.test(n))
      .sort((a, b) => b.localeCompare(a, 'en', { numeric: true }))
      .map((n) => join(root, 'versions', n, 'bin', 'python2.7'))
      .filter((p) => existsSync(p));
    versions.push(...found);
  }
  return [...new Set([...onPath, ...versions])];
}

async function resolveUncached(word: string, onHost: boolean): Promise<Runtime | { problem: string }> {
  if (word === '') return { problem: 'the command is empty' };
  if (!isAbsolute(word) && word.includes('/')) {
    // The submission's own file: it will be in the work folder, nothing of the host to bind.
    const rel = normalize(word);
    if (rel.startsWith('..')) return { problem: `${word}: a program of the submission must be inside its folder` };
    return { word, kind: 'native', executable: rel.startsWith('.') ? rel : `./${rel}`, local: true, readOnly: [], pathDirs: [] };
  }
  const kind = kindOf(basename(word));
  const python2 = isPython2Word(word);
  const override = python2 ? process.env[PYTHON2_OVERRIDE_ENV] || undefined : kind === 'python' && !isAbsolute(word) ? process.env[PYTHON_OVERRIDE_ENV] || undefined : undefined;
  const candidates = override !== undefined ? [override] : isAbsolute(word) ? [word] : python2 ? python2Candidates(word) : findExecutables(word);
  if (candidates.length === 0) return { problem: python2 ? `${word}: ${NO_PYTHON2}` : `${word}: no such program on the grader (is the runtime installed?)` };
  const blocked: string[] = [];
  const refused: string[] = [];
  for (const found of candidates) {
    const r = await runtimeAt(word, kind, found, python2);
    // A Python 2 word tries each candidate: a pyenv shim that refuses, or a python2 that is a 3, is passed over.
    if ('problem' in r && python2 && override === undefined) {
      refused.push(r.problem);
      continue;
    }
    if ('problem' in r) return r;
    // On the host as SANDBOX_UID (jail/sandbox-user.ts): only a runtime that user can reach will start.
    const blocker = onHost && !r.local ? blockedForSandboxUser(r.executable) : undefined;
    if (blocker === undefined) return r;
    blocked.push(`${r.executable} (${blocker} is closed to other users)`);
  }
  if (blocked.length === 0) return { problem: `${word}: ${NO_PYTHON2} (tried: ${refused.join('; ')})` };
  return {
    problem:
      `${word}: the weak sandbox runs submissions as user ${SANDBOX_UID}, who cannot reach ${blocked.join(' nor ')}; ` +
      `install the runtime where any user can run it (e.g. Debian's python3 or default-jdk-headless)${kind === 'python' ? ' or give --python PATH' : ''}`,
  };
}

async function runtimeAt(word: string, kind: RuntimeKind, found: string, python2 = false): Promise<Runtime | { problem: string }> {
  const real = realpathOrSelf(found);
  if (kind === 'python') {
    const where = await pythonLocation(found);
    if ('problem' in where) return where;
    if (python2 && !where.version.startsWith('2.')) return { problem: `${found} is Python ${where.version}` };
    return {
      word,
      kind,
      executable: where.executable,
      local: false,
      readOnly: uniqueBinds([...where.prefixes, installPrefix(realpathOrSelf(where.executable))]),
      pathDirs: [dirname(where.executable)],
      startupArgs: [where.executable, '-c', 'pass'],
    };
  }
  const readOnly = uniqueBinds([installPrefix(real)]);
  const startupArgs = kind === 'java' ? [real, '-version'] : kind === 'node' ? [real, '-e', '0'] : undefined;
  return { word, kind, executable: real, local: false, readOnly, pathDirs: [dirname(real)], ...(startupArgs ? { startupArgs } : {}) };
}

const cache = new Map<string, Promise<Runtime | { problem: string }>>();

/**
 * The runtime behind a command's first word (resolved once per grader process). `onHost`: the
 * process will run on the host as SANDBOX_UID (the weak mode as root), so the runtime must be one
 * that user can reach.
 */
export function resolveRuntime(word: string, onHost = false): Promise<Runtime | { problem: string }> {
  const key = `${onHost ? 'host' : 'jail'}:${word}`;
  let r = cache.get(key);
  if (r === undefined) {
    r = resolveUncached(word, onHost);
    cache.set(key, r);
  }
  return r;
}

/** Runtimes a script may call by name (`sh -c 'python3 x.py'`): the jail binds those the grader has. */
export const COMPANION_RUNTIMES = ['python3', 'java', 'node'] as const;

/** The companion runtimes present on the grader (resolved once); `onHost` as for resolveRuntime. */
export async function companionRuntimes(onHost = false): Promise<Runtime[]> {
  const out: Runtime[] = [];
  for (const word of COMPANION_RUNTIMES) {
    if (findExecutable(word) === undefined) continue;
    const r = await resolveRuntime(word, onHost);
    if (!('problem' in r)) out.push(r);
  }
  return out;
}
