/**
 * The flags of every command that runs submitted code, defined once: `--weak-sandbox` (grade,
 * check, csci561-grade, gauntlet, match, tournament, play), `--python` and `--python2` (added by main.ts to each
 * command that has --weak-sandbox) and the limit overrides `--time-limit` and `--memory` (the
 * grading commands). Also the start of such a run: the sandbox this machine offers is checked,
 * and said on stderr, before any submission is touched.
 */
import { accessSync, constants, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { execaSync } from 'execa';
import { Option, type Command } from 'commander';
import { PYTHON2_OVERRIDE_ENV, PYTHON_OVERRIDE_ENV } from '../sandbox/programs/runtimes.ts';
import { UserError } from '../errors.ts';
import type { LimitOverrides } from '../grading/runner.ts';
import { addressSpaceCap, memoryLimitProblem } from '../sandbox/meters/address-space.ts';
import { studentKitCourse } from '../plugins/student-kit.ts';
import { describeMechanisms, findExecutable, SANDBOX_UID, sandboxFor, type SandboxMode } from '../sandbox/jail/mechanisms.ts';
import { blockedForSandboxUser, runsAsSandboxUserOnHost } from '../sandbox/jail/sandbox-user.ts';
import { wholeNumber, type CliIo } from './options.ts';

export interface SandboxFlags {
  weakSandbox?: boolean;
}

export interface LimitFlags {
  timeLimit?: number;
  memory?: number;
}

/** The range of --time-limit: up to an hour a case. */
export const TIME_LIMIT_RANGE = { min: 1, max: 3_600_000 } as const;
/** The range of --memory: a suite's own memory_mb starts at 16 too (suites/schema.ts). */
export const MEMORY_RANGE = { min: 16, max: 65_536 } as const;

export function weakSandboxOption(): Option {
  return new Option(
    '--weak-sandbox',
    'run submissions WITHOUT bubblewrap: no file-system or network isolation, only time, memory and process limits. ' +
      'Without this flag a machine lacking bubblewrap refuses to run submitted code',
  );
}

/**
 * `--python PATH`: the interpreter submissions' Python runs on (python, python3 in their commands
 * and the course bridges), instead of the grader's python3. `--python2 PATH`: the one `python2` and
 * `python2.7` mean (a course's line for its Python 2.7 programs, e.g. CSCI-561's mancala.py),
 * instead of the one found by itself (sandbox/programs/runtimes.ts). Each is checked before anything runs (a file
 * that runs as Python, of major version 2 for --python2), then set for the whole process, threads included.
 */
export function addPythonOption(cmd: Command): Command {
  return cmd
    .addOption(new Option('--python <path>', "the Python interpreter submissions run on (default: python3 on the grader's PATH), e.g. a Python 2.7 for old submissions"))
    .addOption(new Option('--python2 <path>', "the Python 2.7 that python2/python2.7 mean (a course's Python 2.7 programs; default: python2.7 or python2 on PATH, or pyenv's 2.7)"))
    .hook('preAction', (_command, action) => {
      const { python, python2 } = action.opts<{ python?: string; python2?: string }>();
      if (python !== undefined) process.env[PYTHON_OVERRIDE_ENV] = checkedPython(python);
      if (python2 !== undefined) process.env[PYTHON2_OVERRIDE_ENV] = checkedPython(python2, '--python2', 2);
    });
}

/** `path` as an absolute path to a program that runs as Python (of `major` version when given); a one-line UserError otherwise. */
export function checkedPython(path: string, flag = '--python', major?: number): string {
  const absolute = resolve(path);
  let isFile = false;
  try {
    isFile = statSync(absolute).isFile();
    accessSync(absolute, constants.X_OK);
  } catch {
    throw new UserError(`${flag} ${path}: ${isFile ? 'not executable' : 'no such file'}`);
  }
  if (!isFile) throw new UserError(`${flag} ${path}: not a file`);
  const r = execaSync(absolute, ['-c', 'import sys; print("%d.%d" % sys.version_info[:2])'], { reject: false, timeout: 30_000, stdin: 'ignore' });
  const version = String(r.stdout).trim();
  if (r.exitCode !== 0 || !/^\d+\.\d+$/.test(version)) {
    throw new UserError(`${flag} ${path}: it did not run as a Python interpreter (${r.exitCode === 0 ? 'unexpected output' : `exit code ${r.exitCode ?? r.signal}`})`);
  }
  if (major !== undefined && !version.startsWith(`${major}.`)) throw new UserError(`${flag} ${path}: it is Python ${version}; expected a Python ${major}`);
  return absolute;
}

export function addWeakSandboxOption(cmd: Command): Command {
  return cmd.addOption(weakSandboxOption());
}

export function timeLimitOption(description = "every case's time limit in ms for this run, over the suite's (recorded in the report)"): Option {
  return new Option('--time-limit <ms>', description).argParser(wholeNumber(TIME_LIMIT_RANGE.min, TIME_LIMIT_RANGE.max, 'ms'));
}

export function memoryOption(description = "every case's memory limit in MB for this run, over the suite's (recorded in the report)"): Option {
  return new Option('--memory <mb>', description).argParser(wholeNumber(MEMORY_RANGE.min, MEMORY_RANGE.max, 'MB'));
}

/** --time-limit and --memory, as the grading commands take them. */
export function addLimitOptions(cmd: Command): Command {
  return cmd.addOption(timeLimitOption()).addOption(memoryOption());
}

export function sandboxMode(flags: SandboxFlags): SandboxMode {
  if (flags.weakSandbox === true) return 'weak';
  // A student kit runs the student's own code on their machine: without bubblewrap (macOS,
  // Windows, many laptops) it runs unconfined, and the start line says so (describeMechanisms).
  if (studentKitCourse() !== undefined && findExecutable('bwrap') === undefined) return 'weak';
  return 'full';
}

/** The flags as the runner's overrides; an absent flag keeps the suite's limit. */
/** The overrides the flags ask for; a --memory the address-space cap makes impossible is a one-line error, before any work. */
export function limitOverrides(flags: LimitFlags, cap = addressSpaceCap()): LimitOverrides {
  const problem = flags.memory === undefined ? undefined : memoryLimitProblem(flags.memory, cap);
  if (problem !== undefined) throw new UserError(`--memory ${flags.memory}: ${problem}`);
  return { ...(flags.timeLimit !== undefined ? { ms: flags.timeLimit } : {}), ...(flags.memory !== undefined ? { memoryMb: flags.memory } : {}) };
}

/**
 * Checks that this machine can confine submissions as `mode` asks (a UserError naming the fix
 * when it cannot: sandboxFor), then says on stderr what confines them; stdout stays for the
 * command's own output (--json among it). Returns the line, for the report's isolation note.
 */
export async function announceSandbox(io: CliIo, mode: SandboxMode, answers: readonly string[] = [], jobs = 1): Promise<string> {
  const m = await sandboxFor(mode);
  const line = describeMechanisms(m, mode);
  io.err(`${line}\n`);
  // Outside bwrap the submissions meet the host's permissions (sandbox/jail/sandbox-user.ts): say which answers they could read.
  if (runsAsSandboxUserOnHost(m, mode)) {
    for (const dir of answers) {
      if (blockedForSandboxUser(dir, 'read') !== undefined) continue;
      io.err(`warning: ${dir} is open to other users: in the weak sandbox a submission (user ${SANDBOX_UID}) could read its expected answers; close it with chmod -R go-rwx ${dir}\n`);
    }
    // One user for every submission there: two at once could signal each other's processes or write each other's files.
    if (jobs > 1) {
      io.err(`warning: in the weak sandbox every submission runs as user ${SANDBOX_UID}, so with --jobs ${jobs} one submission could kill or tamper with another graded at the same time; --jobs 1 grades them one at a time\n`);
    }
  }
  return line;
}
