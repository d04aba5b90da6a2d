/**
 * What this machine offers to confine a submission, probed once per grader process, and the
 * policy for what is missing: the full sandbox, or — only when the instructor asks for it — a
 * weaker one that says what it no longer enforces. Nothing here ever runs a submission
 * unconfined without being told to.
 *
 * The full sandbox (command.ts builds its command line):
 *  - bubblewrap: an allow-list file system (read-only system folders, the runtime the submission
 *    needs, its own copy; a size-capped tmpfs as the only writable place), and new pid, ipc,
 *    network, uts and cgroup namespaces; `--die-with-parent`, so the tree dies with the grader.
 *  - an unprivileged user: as root, bwrap sets up the mounts and `setpriv` then drops to
 *    SANDBOX_UID with no capabilities at all; as another user, bwrap's user namespace maps the
 *    grader's own user (it cannot drop further) and the start message says so.
 *  - cgroup v1 (meters/cgroup-meter.ts): CPU time, peak memory, a memory limit and a process limit,
 *    kept by the kernel; where no group can be made, the process tree is polled instead.
 *  - prlimit: a cap on the size of any one file, no core dumps; where memory is polled, a cap on
 *    each process's data as a hard backstop (meters/memory-backstop.ts).
 */
import { accessSync, constants, mkdirSync, readFileSync, realpathSync, rmdirSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { execa } from 'execa';
import { UserError } from '../../errors.ts';
import { probeArgs } from './command.ts';
import { SANDBOX_UID, type Mechanisms, type SandboxMode } from './machine.ts';
import { THREAD_TAG } from '../../thread-tag.ts';
import { studentKitCourse } from '../../plugins/student-kit.ts';
import { CgroupMeter, type CgroupRoots } from '../meters/cgroup-meter.ts';
import { PollingMeter } from '../meters/polling-meter.ts';
import type { MeterLimits, ResourceMeter } from '../meters/resource-meter.ts';
import { PsMeter, WallClockMeter } from '../meters/portable-meters.ts';

export { SANDBOX_UID, type Mechanisms, type SandboxMode } from './machine.ts';

export function findExecutable(name: string): string | undefined {
  return findExecutables(name)[0];
}

/** Every executable `name` on the PATH, in its order. */
export function findExecutables(name: string): string[] {
  const out: string[] = [];
  for (const dir of (process.env.PATH ?? '/usr/bin:/bin').split(delimiter)) {
    if (dir === '') continue;
    const candidate = join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      out.push(candidate);
    } catch {
      // not here
    }
  }
  return out;
}

function realPath(path: string | undefined): string | undefined {
  if (path === undefined) return undefined;
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

async function run(file: string, args: string[]): Promise<{ ok: true } | { ok: false; why: string }> {
  const r = await execa(file, args, { reject: false, timeout: 15_000, extendEnv: false, env: {}, stdin: 'ignore' });
  if (r.exitCode === 0) return { ok: true };
  return { ok: false, why: String(r.stderr ?? '').trim().split('\n')[0] || `exit code ${r.exitCode ?? r.signal}` };
}

/** The cgroup v1 folders this process may make groups in (its own groups, where it can write). */
function cgroupRoots(): { roots?: CgroupRoots; why?: string } {
  let own: Map<string, string>;
  try {
    own = new Map();
    for (const line of readFileSync('/proc/self/cgroup', 'utf8').split('\n')) {
      const [, controllers, path] = line.split(':');
      if (controllers === undefined || path === undefined) continue;
      for (const c of controllers.split(',')) own.set(c, path);
    }
  } catch {
    return { why: 'no /proc/self/cgroup' };
  }
  const folder = (controller: string) => {
    const path = own.get(controller);
    return path === undefined ? undefined : join('/sys/fs/cgroup', controller, path);
  };
  const memory = folder('memory');
  const cpuacct = folder('cpuacct');
  if (memory === undefined || cpuacct === undefined) {
    return { why: own.has('') && own.size === 1 ? 'only cgroup v2 here (not supported yet)' : 'no cgroup v1 memory and cpuacct controllers' };
  }
  const pids = folder('pids');
  const usable = (dir: string) => {
    const probe = join(dir, `mancala-probe-${THREAD_TAG}`);
    try {
      mkdirSync(probe);
      rmdirSync(probe);
      return true;
    } catch {
      return false;
    }
  };
  if (!usable(memory) || !usable(cpuacct)) return { why: `cannot make a group in ${memory} (needs root, or a delegated cgroup)` };
  return { roots: { memory, cpuacct, ...(pids !== undefined && usable(pids) ? { pids } : {}) } };
}

let cached: Promise<Mechanisms> | undefined;

/** What works here (probed once per process). */
export function mechanisms(): Promise<Mechanisms> {
  cached ??= detect();
  return cached;
}

async function detect(): Promise<Mechanisms> {
  const missing: string[] = [];
  const privileged = process.getuid?.() === 0;
  // Real paths: in the weak mode setpriv runs again after the drop to SANDBOX_UID (command.ts).
  let setpriv = realPath(findExecutable('setpriv'));
  if (setpriv !== undefined && !(await run(setpriv, ['--pdeathsig', 'KILL', '--', 'true'])).ok) setpriv = undefined;
  const prlimit = realPath(findExecutable('prlimit'));
  if (prlimit === undefined) missing.push('prlimit not found: no cap on the size of a file, and without cgroups no hard memory backstop');

  let bwrap = findExecutable('bwrap');
  if (bwrap === undefined) {
    missing.push('bubblewrap (bwrap) not found');
  } else {
    const probe = await run(bwrap, probeArgs({ bwrap, privileged, setpriv, missing: [] }));
    if (!probe.ok) {
      missing.push(`bubblewrap does not work here (${probe.why})`);
      bwrap = undefined;
    }
  }
  if (privileged && setpriv === undefined) {
    missing.push('setpriv not found: submissions would keep the uid of root');
    bwrap = undefined;
  }
  const cg = cgroupRoots();
  if (cg.roots === undefined) missing.push(`no cgroup (${cg.why}): CPU time and memory are polled from /proc every 20 ms`);
  return { ...(bwrap ? { bwrap } : {}), privileged, ...(setpriv ? { setpriv } : {}), ...(prlimit ? { prlimit } : {}), ...(cg.roots ? { cgroups: cg.roots } : {}), missing };
}

/** A meter for one process tree: a cgroup where one can be made, else polling. */
export function createMeter(m: Mechanisms, limits: MeterLimits): ResourceMeter {
  if (m.cgroups !== undefined && !meterForced()) {
    try {
      return new CgroupMeter(m.cgroups, limits);
    } catch {
      // a group could be made at start but not now (e.g. a limit on groups): poll instead
    }
  }
  const kind = pollingMeterKind();
  if (kind === 'proc') return new PollingMeter(limits);
  return kind === 'ps' ? new PsMeter(limits, { forcePs: process.platform === 'linux' }) : new WallClockMeter(limits);
}

/**
 * Forces the meter of another machine on this one, cgroups set aside (tests): `proc` (a Linux
 * machine without usable cgroups, e.g. cgroup v2 only), `ps` or `wall-clock`.
 */
export const POLLING_METER_ENV = 'MANCALA_POLLING_METER';

const FORCIBLE = ['proc', 'ps', 'wall-clock'] as const;

function forcedMeter(): (typeof FORCIBLE)[number] | undefined {
  const forced = process.env[POLLING_METER_ENV];
  return FORCIBLE.find((k) => k === forced);
}

function meterForced(): boolean {
  return forcedMeter() !== undefined;
}

/**
 * How a tree is measured without cgroups: /proc on Linux; ps on macOS and the other Unixes; the
 * wall clock on Windows (meters/portable-meters.ts). Only a student kit's check runs off Linux.
 */
export function pollingMeterKind(platform: NodeJS.Platform = process.platform): 'proc' | 'ps' | 'wall-clock' {
  // Tests on Linux take the other machines' paths: MANCALA_POLLING_METER=proc, ps or wall-clock.
  const forced = forcedMeter();
  if (forced !== undefined) return forced;
  if (platform === 'linux') return 'proc';
  return platform === 'win32' ? 'wall-clock' : 'ps';
}

const POLLED_WITH: Record<ReturnType<typeof pollingMeterKind>, string> = {
  proc: 'CPU time and memory polled from /proc every 20 ms',
  ps: 'CPU time and memory polled with ps (coarse: a tenth of a second; short-lived children may go uncounted)',
  'wall-clock': 'no CPU time or memory measure on Windows: time limits count wall-clock time, memory is not limited',
};

/** One line for the start of a run: what confines the submissions here. */
export function describeMechanisms(m: Mechanisms, mode: SandboxMode): string {
  const parts: string[] = [];
  if (m.bwrap !== undefined && mode === 'full') {
    parts.push('bubblewrap (read-only system, a private size-capped tmpfs, no network, own pid/ipc/uts namespaces)');
    parts.push(m.privileged ? `unprivileged user ${SANDBOX_UID}` : "the grader's own user (not root: it cannot drop to another)");
  } else if (studentKitCourse() !== undefined) {
    parts.push("none on this machine: your own code runs unconfined here (no bubblewrap, as on macOS and Windows); your instructor's grading runs it in the sandbox");
  } else {
    const who = m.privileged && m.setpriv !== undefined ? `run as user ${SANDBOX_UID}, read whatever any user may` : 'read whatever the grader may';
    parts.push(`WEAK: no bubblewrap (submissions ${who} and reach the network; TypeScript agents still run under Node's permission model)`);
  }
  if (m.cgroups !== undefined && !meterForced()) parts.push('cgroup v1 (CPU time, memory, processes)');
  else {
    const kind = pollingMeterKind();
    const backstop = m.prlimit !== undefined && kind !== 'wall-clock' ? ", each process's data capped at its memory limit plus a margin (RLIMIT_DATA)" : '';
    parts.push(POLLED_WITH[kind] + backstop);
  }
  return `sandbox: ${parts.join('; ')}${m.missing.length > 0 ? ` — missing: ${m.missing.join('; ')}` : ''}`;
}

/**
 * The mechanisms for a run in `mode`, or a UserError when the full sandbox is asked for and this
 * machine cannot give it: the instructor must install what is missing or choose `--weak-sandbox`.
 */
export async function sandboxFor(mode: SandboxMode): Promise<Mechanisms> {
  const m = await mechanisms();
  if (mode === 'full' && m.bwrap === undefined) {
    throw new UserError(
      `the sandbox cannot confine submissions here: ${m.missing.join('; ')}. ` +
        'Install bubblewrap (Debian: apt-get install -y bubblewrap), or pass --weak-sandbox to run submissions without it (no file-system or network isolation)',
    );
  }
  return m;
}
