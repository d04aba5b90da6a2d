/**
 * One jail for all of a submission's runs (a class's cases), where the grader is root: the jail is
 * started once, and a supervisor in it (SUPERVISOR below) runs each case. What a case costs beyond
 * its program is then a go and a few file operations, not a chain of processes, namespaces, mounts
 * and cgroups (jail/command.ts) and a shell's copies and report, which cost a C++ case several times its program.
 *
 * A case touches nothing of another, as in a jail of its own:
 *  - its processes: every one is killed (`kill -9 -1`, the supervisor's CAP_KILL) before its end,
 *    and the grader checks none is left before it touches the folders;
 *  - its files: the work folder and /tmp, the only writable places, are emptied by the grader
 *    through the jail's root and the submission and inputs written afresh (jail-files.ts);
 *  - what else outlives a process in the jail's namespaces: System V IPC objects end the session
 *    (the next case gets a new jail); POSIX message queues cannot be made (prlimit --msgqueue=0);
 *  - its figures: CPU time is the group's total at `exit` less at `start`, as for a jail of its own;
 *    the peak memory and the limit's events are counted from its go (meter.beginRun);
 *  - its output: stdout and stderr end at a nonce the supervisor writes after the kill, which the
 *    program never sees (it is on the supervisor's stdin; the supervisor runs as root and the
 *    program as SANDBOX_UID, which can neither trace, signal nor read it).
 * A case stopped by the grader (CPU, wall clock, output) kills the whole jail; the next case starts
 * a new one.
 */
import { readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { performance } from 'node:perf_hooks';
import { execa } from 'execa';
import { dropToSandboxUser, JAIL_SETPRIV, jailCommand, jailStdio, sendFilter } from '../jail/command.ts';
import { createMeter } from '../jail/mechanisms.ts';
import { isInside } from '../paths.ts';
import { notePhase, noteRun } from './case-phases.ts';
import { watchCase, type CaseWatch } from './case-watch.ts';
import { programJail, type Execution, type Plan } from './execution-types.ts';
import { openJailRoot, prepareCase, readCase, type CaseFolders } from './jail-files.ts';


/**
 * The supervisor (POSIX sh, run as `sh -c SUPERVISOR sh DROP… PROGRAM…`, DROP the setpriv words
 * that make the program SANDBOX_UID). It says `ready` on fd 4 and waits for `go NONCE` on stdin
 * (the grader has filled the case's folder by then, jail-files.ts); then, on fd 3, `start`, the
 * program run, `exit CODE`, every other process killed, `end` (`end last` when the case left what
 * only a new jail clears); then the nonce on stdout and on stderr. It ends at EOF, or at once when
 * a process could not be killed (the grader then touches none of the case's folders).
 */
export const SUPERVISOR = `set -f
# System V IPC objects outlive their processes in the jail's ipc namespace.
ipc_left() {
  for f in /proc/sysvipc/shm /proc/sysvipc/sem /proc/sysvipc/msg; do
    l=
    { read -r h; read -r l; } < "$f" 2>/dev/null
    [ -z "$l" ] || return 0
  done
  return 1
}
printf 'ready\\n' >&4
while read -r word nonce; do
  [ "$word" = go ] || exit 0
  printf 'start\\n' >&3
  "$@" </dev/null 3>&- 4>&-
  code=$?
  printf 'exit %s\\n' "$code" >&3
  n=0
  # dash's kill: -9 before -1; it succeeds while zombies remain, so this also waits for them to be reaped.
  while [ $n -lt 100000 ] && kill -9 -1 2>/dev/null; do n=$((n+1)); done
  [ $n -lt 100000 ] || exit 0
  # The jail stays until the grader has read the case's folders; with IPC objects left it takes no other case.
  if ipc_left; then printf 'end last\\n' >&3; else printf 'end\\n' >&3; fi
  printf '%s' "$nonce"
  printf '%s' "$nonce" >&2
  printf 'ready\\n' >&4
done
`;

/** A jail started for a plan's runs, its supervisor preparing or waiting. */
export interface Session {
  key: string;
  /** its supervisor is still there (not killed, not ended) */
  alive: boolean;
  /** resolves true when the supervisor is ready for a case, false when the jail ended instead */
  nextReady(): Promise<boolean>;
  /** one case: its inputs, the program run, the report; the jail ends when it is stopped */
  run(plan: Plan, inputs: Plan['inputs']): Promise<Execution>;
  /** no more cases: the supervisor ends, the meter and folder are released (awaited) */
  close(): Promise<void>;
}

/** Can `plan`'s runs share a supervised jail? The full jail with a root grader, and a meter that counts per run. */
export function sessionable(plan: Plan): boolean {
  return plan.mode === 'full' && plan.m.bwrap !== undefined && plan.m.privileged;
}

let started = 0;

/** Sessions started in this thread so far (tests: a jail kept or started anew). */
export function sessionsStarted(): number {
  return started;
}

/** Starts a supervised jail for `plan`'s runs; its first `ready` comes once the jail is up. */
export function startSession(plan: Plan, key: string): Session {
  started++;
  let t = performance.now();
  const meter = createMeter(plan.m, { memoryBytes: plan.memoryBytes, maxProcesses: plan.maxProcesses });
  notePhase('meter', performance.now() - t);
  t = performance.now();
  const work = '/sandbox';
  const tmp = '/tmp';
  // The submission and the inputs are copied in by the grader (jail-files.ts): only the runtime is bound.
  const spec = programJail(plan, { argv: ['/bin/sh', '-c', SUPERVISOR, 'sh', ...dropToSandboxUser(JAIL_SETPRIV), ...plan.argv], work, tmp, readOnly: [], supervised: true });
  // A read-only bind under a writable folder (a runtime under the host's /tmp): the top folder
  // bwrap made for it stays (root's, 0755, in a sticky folder: a case cannot write in it or move it).
  const keep = new Set(spec.readOnly.flatMap((p) => [work, tmp].filter((w) => isInside(w, p) && p !== w).map((w) => join(w, relative(w, p).split(sep)[0]!))));
  const command = jailCommand(plan.m, plan.mode, meter, spec, 5);
  const child = execa(command.file, command.args, {
    cwd: command.cwd,
    extendEnv: false,
    env: spec.env,
    stdio: jailStdio(5, command),
    detached: true,
    buffer: false,
    reject: false,
    cleanup: false,
  });
  sendFilter(child, command);
  notePhase('folders', performance.now() - t);
  child.stdin?.on('error', () => {});
  if (child.pid !== undefined) meter.attach(child.pid);
  let current: CaseWatch | undefined;
  let alive = true;
  let readies = 0;
  let readyWaiter: ((ready: boolean) => void) | undefined;
  /** the jail's folders, once its root is opened (at the first case), and how many processes it has between cases */
  let folders: (CaseFolders & { close(): void }) | undefined;
  let idleProcesses = 0;
  const ended = child.then(
    (r) => r.exitCode ?? null,
    () => null,
  );
  const kill = () => {
    alive = false;
    meter.killAll();
    try {
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
    } catch {
      // gone already
    }
  };
  child.stdout?.on('data', (chunk: Buffer) => current?.onStdout(chunk));
  // What the jail says outside a case (bwrap refusing to start) is kept for the case that finds it ended.
  let between = Buffer.alloc(0);
  child.stderr?.on('data', (chunk: Buffer) => {
    if (current !== undefined) current.onStderr(chunk);
    else if (between.length < 4096) between = Buffer.concat([between, chunk.subarray(0, 4096 - between.length)]);
  });
  const report = child.stdio[3] as NodeJS.ReadableStream | undefined;
  report?.on('error', () => {});
  report?.on('data', (chunk: Buffer) => current?.onReport(chunk));
  const control = child.stdio[4] as NodeJS.ReadableStream | undefined;
  control?.on('error', () => {});
  let controlText = '';
  control?.on('data', (chunk: Buffer) => {
    controlText += chunk.toString('latin1');
    for (let i = controlText.indexOf('ready\n'); i >= 0; i = controlText.indexOf('ready\n')) {
      controlText = controlText.slice(i + 6);
      readies++;
    }
    if (readies > 0 && readyWaiter !== undefined) {
      readies--;
      const w = readyWaiter;
      readyWaiter = undefined;
      w(true);
    }
  });
  child.on('exit', () => {
    kill();
    readyWaiter?.(false);
    readyWaiter = undefined;
  });
  void ended.then((code) => current?.onExit(code));
  /** The processes in the jail now (a fresh reading). */
  const processes = () => {
    meter.memoryBytes();
    return meter.processCount();
  };
  /** The jail's folders, reached through its root: opened at the first case, while only the jail's own processes run. */
  const reach = (): CaseFolders => {
    if (folders !== undefined) return folders;
    const first = /\d+/.exec(readFileSync(`/proc/${child.pid}/task/${child.pid}/children`, 'utf8'));
    if (first === null) throw new Error('internal: the jail has no process');
    idleProcesses = processes();
    const opened = openJailRoot(Number(first[0]));
    folders = { root: opened.root, work, tmp, keep, close: opened.close };
    return folders;
  };
  let closed: Promise<void> | undefined;
  return {
    key,
    get alive() {
      return alive;
    },
    nextReady() {
      if (!alive) return Promise.resolve(false);
      if (readies > 0) {
        readies--;
        return Promise.resolve(true);
      }
      return new Promise((resolve) => (readyWaiter = resolve));
    },
    async run(p, inputs) {
      const watch = watchCase(p, meter, kill);
      current = watch;
      try {
        if (!alive) {
          watch.onStderr(between);
          watch.onExit(null);
          return await watch.done;
        }
        let t = performance.now();
        const f = reach();
        // No process of a case may be left while the grader works in its folders (links there would be raced).
        if (processes() > idleProcesses) throw new Error('internal: a process outlived its case in the jail');
        const fits = prepareCase(f, { src: p.files.dir, outputs: p.outputs, inputs });
        notePhase('folders', performance.now() - t);
        t = performance.now();
        meter.beginRun?.();
        notePhase('meter', performance.now() - t);
        if (!fits) watch.setupFailed();
        else {
          watch.reading(() => readCase(f, { outputs: p.outputs, cap: p.fileBytes }));
          watch.went();
          child.stdin?.write(`go ${watch.nonce}\n`);
        }
        const x = await watch.done;
        if (watch.last) alive = false;
        return x;
      } finally {
        current = undefined;
        noteRun();
      }
    },
    close() {
      closed ??= (async () => {
        const t = performance.now();
        child.stdin?.end();
        // A supervisor between cases ends at once on EOF; one that does not is killed.
        const timer = setTimeout(kill, 2000);
        await ended;
        clearTimeout(timer);
        kill();
        folders?.close();
        await meter.dispose();
        notePhase('clean', performance.now() - t);
      })();
      return closed;
    },
  };
}
