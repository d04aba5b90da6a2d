/**
 * Submissions in any language, run the way the course ran them: the submission's `command` file
 * (one line, e.g. `python3 mancala.py`) is run in a fresh folder holding a copy of the submission
 * and input.txt, under a time limit, and what it leaves in next_state.txt and traverse_log.txt is
 * read back. Student code is untrusted, so the run is wrapped in the sandbox's limits
 * (framework/sandbox/isolation.ts explains each):
 *
 *   setpriv --pdeathsig KILL -- prlimit --as=… --fsize=… --cpu=… --
 *     unshare -rnpm --fork --kill-child -- /bin/sh -c 'mount -t tmpfs … (each hidden folder); exec "$@"' -- COMMAND…
 *
 * - no network (a new network namespace), no signal reaches the grader (a new pid namespace), and
 *   the grader's own folders (the project, with the suites' expected answers and the reference
 *   solutions, and the suite) are covered by empty tmpfs mounts in a new mount namespace;
 * - an address-space cap (a MemoryError / bad_alloc becomes `memory`), a cap on the size of any
 *   file it writes, a CPU-seconds backstop, and the wall-clock limit, after which its whole
 *   process group is killed;
 * - an environment of PATH, HOME (the run folder) and LANG only; stdout and stderr kept as 16 KB tails.
 * Where a namespace is unavailable the run goes on without it and the note says what is missing.
 */
import { accessSync, constants, existsSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { execa } from 'execa';
import { UserError } from '../../errors.ts';
import { copySubmission } from '../../sandbox/copy.ts';
import { addressSpaceBytes } from '../../sandbox/isolation.ts';
import { isInside, PROJECT_ROOT } from '../../sandbox/paths.ts';
import { OutputTail, OUTPUT_TAIL_BYTES } from '../../sandbox/sandboxed-process.ts';
import { INPUT_FILE, NEXT_STATE_FILE, TRAVERSE_LOG_FILE } from './files.ts';

/** The file in a submission folder that says how to run it. */
export const COMMAND_FILE = 'command';
/** An output file larger than this is refused (and the process cannot write a larger one). */
export const MAX_OUTPUT_FILE_BYTES = 64 * 1024 * 1024;

export interface ProgramSubmission {
  /** the folder, as given */
  dir: string;
  /** the command's words, e.g. ['python3', 'mancala.py'] */
  argv: string[];
}

/**
 * Splits a command line into words as a shell would for plain commands: white space separates,
 * single and double quotes group, a backslash escapes the next character. Nothing else (no
 * variables, globs, pipes or `;`) means anything: the words are run as they are.
 */
export function splitCommand(line: string): string[] | undefined {
  const words: string[] = [];
  let word: string | undefined;
  let quote: '"' | "'" | undefined;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (quote !== undefined) {
      if (ch === quote) quote = undefined;
      else if (ch === '\\' && quote === '"' && i + 1 < line.length) word += line[++i];
      else word += ch;
    } else if (ch === '"' || ch === "'") {
      quote = ch;
      word ??= '';
    } else if (ch === '\\' && i + 1 < line.length) {
      word = (word ?? '') + line[++i];
    } else if (/\s/.test(ch)) {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else {
      word = (word ?? '') + ch;
    }
  }
  if (quote !== undefined) return undefined;
  if (word !== undefined) words.push(word);
  return words;
}

/** Reads `DIR/command`: its first line that is neither blank nor a `#` comment. */
export function readProgramSubmission(dir: string): ProgramSubmission {
  const file = join(dir, COMMAND_FILE);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file: a submission in any language has a one-line `command` file, e.g. "python3 mancala.py"' : (code ?? (e as Error).message);
    throw new UserError(`${file}: cannot read the command file: ${why}`);
  }
  const lines = text.split(/\r?\n/);
  const index = lines.findIndex((l) => l.trim() !== '' && !l.trim().startsWith('#'));
  if (index < 0) throw new UserError(`${file}: expected the command that runs the program (e.g. "python3 mancala.py"), but the file has none`);
  const argv = splitCommand(lines[index]!.trim());
  if (argv === undefined) throw new UserError(`${file}:${index + 1}: a quote is not closed`);
  return { dir, argv };
}

// ---- the sandbox -------------------------------------------------------------------------------

interface Wrapper {
  /** words that go before the program's command */
  prefix: (hidden: readonly string[], limits: ProgramLimits) => string[];
  notes: string[];
  network: boolean;
}

function findExecutable(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? '/usr/bin:/bin').split(delimiter)) {
    if (dir === '') continue;
    try {
      accessSync(join(dir, name), constants.X_OK);
      return join(dir, name);
    } catch {
      // not here
    }
  }
  return undefined;
}

async function probe(file: string, args: string[]): Promise<boolean> {
  const r = await execa(file, args, { reject: false, timeout: 15_000, extendEnv: false, env: {}, stdin: 'ignore' });
  return r.exitCode === 0;
}

/** Inside the namespaces: cover each hidden folder ($1 … before "--") with an empty tmpfs, then run the rest. */
const MOUNT_SCRIPT =
  'while [ "$1" != "--" ]; do mount -t tmpfs -o size=1m,mode=0555 none "$1" || exit 125; shift; done; shift; exec "$@"';

let wrapper: Promise<Wrapper> | undefined;

async function detectWrapper(): Promise<Wrapper> {
  const notes: string[] = [];
  const setpriv = findExecutable('setpriv');
  const usePdeathsig = setpriv !== undefined && (await probe(setpriv, ['--pdeathsig', 'KILL', '--', 'true']));
  if (!usePdeathsig) notes.push('setpriv --pdeathsig unavailable: a program stuck in a loop may outlive a grader that is killed');
  const prlimit = findExecutable('prlimit');
  if (prlimit === undefined) notes.push('prlimit not found: no memory, file-size or CPU caps');
  const unshare = findExecutable('unshare');
  const sh = findExecutable('sh') ?? '/bin/sh';
  let namespaces: 'all' | 'no-mount' | 'none' = 'none';
  if (unshare !== undefined) {
    const hideTest = await mkdtemp(join(tmpdir(), 'csci561-probe-'));
    try {
      if (await probe(unshare, ['-rnpm', '--fork', '--kill-child', '--', sh, '-c', MOUNT_SCRIPT, 'sh', hideTest, '--', 'true'])) namespaces = 'all';
      else if (await probe(unshare, ['-rnp', '--fork', '--kill-child', '--', 'true'])) namespaces = 'no-mount';
    } finally {
      await rm(hideTest, { recursive: true, force: true });
    }
  }
  if (namespaces === 'no-mount') notes.push('no mount namespace here: programs can read the grader\'s files, expected answers included');
  if (namespaces === 'none') notes.push('unshare -rnp does not work here: programs can reach the network and read the grader\'s files');
  return {
    notes,
    network: namespaces !== 'none',
    prefix(hidden, limits) {
      const words: string[] = [];
      if (usePdeathsig) words.push(setpriv!, '--pdeathsig', 'KILL', '--');
      if (prlimit !== undefined) {
        const cpuSeconds = Math.ceil(limits.ms / 1000) + 1;
        words.push(prlimit, `--as=${addressSpaceBytes(limits.memoryMb)}`, `--fsize=${MAX_OUTPUT_FILE_BYTES}`, `--cpu=${cpuSeconds}`, '--');
      }
      if (namespaces === 'all') words.push(unshare!, '-rnpm', '--fork', '--kill-child', '--', sh, '-c', MOUNT_SCRIPT, 'sh', ...hidden, '--');
      if (namespaces === 'no-mount') words.push(unshare!, '-rnp', '--fork', '--kill-child', '--');
      return words;
    },
  };
}

/** How the programs are isolated on this machine (probed once). */
export async function programIsolation(): Promise<{ network: boolean; notes: string[] }> {
  wrapper ??= detectWrapper();
  const w = await wrapper;
  return { network: w.network, notes: w.notes };
}

// ---- one run -----------------------------------------------------------------------------------

export interface ProgramLimits {
  /** wall-clock ms */
  ms: number;
  memoryMb: number;
}

export interface ProgramRun {
  status: 'ok' | 'error' | 'timeout' | 'memory';
  /** what went wrong, for a student (empty when ok) */
  message: string;
  ms: number;
  /** the files the program left (undefined: not written) */
  nextState?: string;
  traverseLog?: string;
  /** what copying the submission noted (refused symlinks, …) */
  notes: string[];
}

/** What C++, Java and Python print when an allocation fails under the address-space cap. */
const OUT_OF_MEMORY = /MemoryError|std::bad_alloc|OutOfMemoryError|Cannot allocate memory|out of memory/i;

function tailLines(text: string, count: number): string {
  const lines = text.trimEnd().split('\n');
  return lines.slice(-count).join('\n');
}

function readOutput(dir: string, name: string): { text?: string; problem?: string } {
  const path = join(dir, name);
  if (!existsSync(path)) return {};
  const info = statSync(path);
  if (!info.isFile()) return { problem: `${name} is not a file` };
  if (info.size > MAX_OUTPUT_FILE_BYTES) return { problem: `${name} is larger than ${MAX_OUTPUT_FILE_BYTES / (1024 * 1024)} MB` };
  return { text: readFileSync(path, 'utf8') };
}

/**
 * Runs the submission once on `input` (input.txt's text) in a fresh folder; `hidden` are the
 * folders the program must not see (the project and the suite are always hidden).
 */
export async function runProgram(submission: ProgramSubmission, input: string, limits: ProgramLimits, hidden: readonly string[] = []): Promise<ProgramRun> {
  const w = await (wrapper ??= detectWrapper());
  const work = await mkdtemp(join(tmpdir(), 'csci561-run-'));
  const notes: string[] = [];
  try {
    await copySubmission(realpathSync(submission.dir), work, notes);
    // Left-over answers in the submission must not count as this run's.
    await rm(join(work, NEXT_STATE_FILE), { force: true, recursive: true });
    await rm(join(work, TRAVERSE_LOG_FILE), { force: true, recursive: true });
    await writeFile(join(work, INPUT_FILE), input);
    // A folder inside another hidden one is hidden with it (and its mount point would be gone).
    const candidates = [...new Set([PROJECT_ROOT, ...hidden.filter((h) => existsSync(h)).map((h) => realpathSync(h))])];
    const hide = candidates.filter((h) => !isInside(h, work) && !candidates.some((o) => o !== h && isInside(o, h)));
    const words = [...w.prefix(hide, limits), ...submission.argv];
    const begin = performance.now();
    const child = execa(words[0]!, words.slice(1), {
      cwd: work,
      extendEnv: false,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: work, LANG: 'C.UTF-8' },
      stdin: 'ignore',
      detached: true,
      buffer: false,
      reject: false,
      cleanup: false,
    });
    const stdout = new OutputTail(OUTPUT_TAIL_BYTES);
    const stderr = new OutputTail(OUTPUT_TAIL_BYTES);
    child.stdout?.on('data', (c: Buffer) => stdout.push(c));
    child.stderr?.on('data', (c: Buffer) => stderr.push(c));
    const killGroup = () => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    };
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup();
    }, limits.ms);
    const result = await child;
    clearTimeout(timer);
    killGroup(); // whatever it left running in the background
    const ms = performance.now() - begin;
    const errText = tailLines(stderr.text(), 5);
    const said = errText === '' ? '' : `; its last words on stderr:\n${errText}`;
    if (timedOut) return { status: 'timeout', message: `no answer within the case's ${limits.ms} ms limit: the program was killed`, ms, notes };
    if (result.exitCode === 125 && errText.includes('mount')) throw new Error(`internal: hiding the grader's folders failed: ${errText}`);
    if (result.exitCode !== 0) {
      const how = result.exitCode === undefined || result.exitCode === null ? `was killed by ${result.signal ?? 'a signal'}` : `exited with code ${result.exitCode}`;
      if (result.signal === 'SIGXCPU') return { status: 'timeout', message: `the program used more CPU time than the case allows${said}`, ms, notes };
      if (result.signal === 'SIGXFSZ') return { status: 'error', message: `the program wrote a file over ${MAX_OUTPUT_FILE_BYTES / (1024 * 1024)} MB${said}`, ms, notes };
      const status = OUT_OF_MEMORY.test(stderr.text()) ? 'memory' : 'error';
      return { status, message: `the program ${how}${status === 'memory' ? ` (out of memory: the limit is ${limits.memoryMb} MB)` : ''}${said}`, ms, notes };
    }
    const next = readOutput(work, NEXT_STATE_FILE);
    const log = readOutput(work, TRAVERSE_LOG_FILE);
    const problem = next.problem ?? log.problem;
    if (problem !== undefined) return { status: 'error', message: problem, ms, notes };
    return {
      status: 'ok',
      message: '',
      ms,
      notes,
      ...(next.text !== undefined ? { nextState: next.text } : {}),
      ...(log.text !== undefined ? { traverseLog: log.text } : {}),
    };
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
