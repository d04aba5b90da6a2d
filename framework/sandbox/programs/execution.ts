/**
 * One execution of the wrapper (report.ts) in the jail, watched: the grader keeps only
 * bounded state, the tails of stdout and stderr (killed past `outputBytes` in all) and fd 3's
 * stream (killed past what an honest report can hold). Time is the CPU time of the whole process
 * tree, measured by the meter from `start` to `exit`; the poll stops a program once that, less
 * the runtime's start-up, passes the limit, and a wall-clock backstop ends one that sleeps or waits.
 *
 * Weak mode (the instructor chose it: no bubblewrap) runs the same wrapper in a host folder;
 * then nothing hides the machine's files, and the meter kills the tree when the wrapper is done.
 */
import { chmodSync, lstatSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { execa } from 'execa';
import { jailCommand, jailStdio, sendFilter, type JailCommand } from '../jail/command.ts';
import { handWritableFolders } from '../jail/sandbox-user.ts';
import { createMeter } from '../jail/mechanisms.ts';
import { LIST_ENTRIES, LIST_NAME_BYTES, parseReport, WRAPPER } from './report.ts';
import { LimitWatch } from './limit-watch.ts';
import type { ResourceMeter } from '../meters/resource-meter.ts';
import { makeTempFolderSync, removeTempFolder, removeTempFolderSync } from '../jail/temp-folders.ts';
import { ALLOCATION_FAILED } from '../meters/memory-backstop.ts';
import type { OutputTail } from '../sandboxed-process.ts';
import { notePhase, noteRun } from './case-phases.ts';
import { newExecution, programJail, type Execution, type Plan } from './execution-types.ts';
import { sessionable, startSession, type Session } from './jail-session.ts';

export type { Execution, Plan } from './execution-types.ts';

/** Does the submission's copy hold an entry named as a requested output (which the wrapper removes before the run)? */
function holdsAnOutput(plan: Plan): boolean {
  return plan.outputs.some((name) => lstatSync(join(plan.files.dir, name), { throwIfNoEntry: false }) !== undefined);
}

function killTree(meter: ResourceMeter, pid: number | undefined): void {
  meter.killAll();
  try {
    // The chain up to bwrap is one process group (detached); bwrap's children die with it.
    if (pid !== undefined) process.kill(-pid, 'SIGKILL');
  } catch {
    // gone already
  }
}

/**
 * Meters of finished runs in the full jail still being released (their groups removed) in the
 * background: the jail's pid namespace died with it, so nothing is left that could touch another
 * case, and the next case need not wait. settleCleanups() waits for them (a grading's end).
 */
const cleanups = new Set<Promise<void>>();

/** Kills the standby jail (nothing follows), ends the session, and waits until every finished run's meter is released. */
export async function settleCleanups(): Promise<void> {
  await discardStandby();
  endSession();
  while (cleanups.size > 0) await Promise.all([...cleanups]);
}

/** The supervised jail of the plan run last (jail-session.ts), kept while runs of the same plan follow. */
let session: Session | undefined;

/** Ends `s` in the background (settleCleanups waits for it). */
function closeInBackground(s: Session): void {
  const closed: Promise<void> = s
    .close()
    .catch(() => {})
    .finally(() => cleanups.delete(closed));
  cleanups.add(closed);
}

function endSession(): void {
  const s = session;
  session = undefined;
  if (s !== undefined) closeInBackground(s);
}

/** One run in the session for `plan`, started if there is none (or it ended); kept when `next`. */
async function runInSession(plan: Plan, key: string, next: boolean): Promise<Execution> {
  if (session !== undefined && (session.key !== key || !session.alive)) endSession();
  let s = session ?? startSession(plan, key);
  session = undefined;
  // The wait for the jail to be up is its phase; what starting it costs the grader, startSession notes.
  const waitReady = async (x: typeof s) => {
    const t = performance.now();
    const ready = await x.nextReady();
    notePhase('jail', performance.now() - t);
    return ready;
  };
  if (!(await waitReady(s))) {
    // It ended between cases (a case left what it cannot clear): a new jail.
    closeInBackground(s);
    s = startSession(plan, key);
    await waitReady(s);
  }
  try {
    return await s.run(plan, plan.inputs);
  } finally {
    if (next && s.alive) session = s;
    else closeInBackground(s);
  }
}

/** What a plan's runs share beyond their inputs: a standby jail serves only a run of the same. */
function standbyKey(plan: Plan): string {
  const { mode, files, argv, outputs, runtime, cpuMs, memoryBytes, maxProcesses, fileBytes, workBytes, tmpBytes, outputBytes, wallMs, startupCpuMs } = plan;
  return JSON.stringify([mode, files.dir, argv, outputs, runtime.executable, cpuMs, memoryBytes, maxProcesses, fileBytes, workBytes, tmpBytes, outputBytes, wallMs, startupCpuMs]);
}

/**
 * A jail started, its wrapper waiting for the grader's `go` on stdin (the submission copied in
 * already): go writes the run's inputs into its inputs folder and lets the program run.
 */
interface Launched {
  go(inputs: Plan['inputs']): Promise<Execution>;
  /** not needed after all: killed, its folder and meter released */
  discard(): Promise<void>;
}

/**
 * The next run's jail, started while this one runs (execute's `next`): in the full jail only,
 * where it has namespaces, tmpfs folders and cgroups of its own like any other, and the program
 * does not start before go. The jail's start (the process chain, bwrap's namespaces and mounts,
 * copying the submission in: about half of what a case costs beyond the program) then happens
 * while the previous case's program runs, on a core that is otherwise idle at --jobs 1.
 */
let standby: { key: string; launched: Promise<Launched> } | undefined;

/** Kills the standby jail, if any (a grading's end, or a run that needs another kind of jail). */
export async function discardStandby(): Promise<void> {
  const s = standby;
  standby = undefined;
  if (s !== undefined) await (await s.launched).discard();
}

/**
 * One execution of `plan`. `next`: another run of the same plan (other inputs) follows, whose
 * jail starts now (see `standby`).
 */
export async function execute(plan: Plan, next = false): Promise<Execution> {
  const key = standbyKey(plan);
  if (sessionable(plan)) {
    await discardStandby();
    return runInSession(plan, key, next);
  }
  endSession();
  let launched: Promise<Launched>;
  if (standby !== undefined && standby.key === key) {
    launched = standby.launched;
    standby = undefined;
  } else {
    await discardStandby();
    launched = launch(plan);
  }
  const jailed = plan.mode === 'full' && plan.m.bwrap !== undefined;
  if (next && jailed) {
    const ahead = launched.then(() => launch(plan));
    // A failure to start shows when the run that takes it goes; until then it must not be unhandled.
    ahead.catch(() => {});
    standby = { key, launched: ahead };
  }
  return (await launched).go(plan.inputs);
}

async function launch(plan: Plan): Promise<Launched> {
  const jailed = plan.mode === 'full' && plan.m.bwrap !== undefined;
  let t = performance.now();
  // Synchronous: a folder of the case's few small inputs, where the thread pool's round trips
  // cost more than the work on a busy machine (the weak mode's folder, which the program fills, is removed asynchronously).
  const run = makeTempFolderSync('program-run');
  notePhase('folders', performance.now() - t);
  t = performance.now();
  let meter: ResourceMeter;
  try {
    meter = createMeter(plan.m, { memoryBytes: plan.memoryBytes, maxProcesses: plan.maxProcesses });
  } catch (e) {
    removeTempFolderSync(run);
    throw e;
  }
  notePhase('meter', performance.now() - t);
  t = performance.now();
  /** released once: in the background after a full-jail run ended (its pid namespace is gone), else awaited */
  const release = async (ended: boolean) => {
    const t = performance.now();
    if (jailed && ended) {
      removeTempFolderSync(run);
      const released: Promise<void> = meter
        .dispose()
        .catch(() => {})
        .finally(() => cleanups.delete(released));
      cleanups.add(released);
    } else {
      await meter.dispose();
      await removeTempFolder(run);
    }
    notePhase('clean', performance.now() - t);
  };
  try {
    chmodSync(run, 0o755);
    const inputs = join(run, 'inputs');
    mkdirSync(inputs, { mode: 0o755 });
    let work = '/sandbox';
    let tmp = '/tmp';
    if (!jailed) {
      work = join(run, 'work');
      tmp = join(run, 'tmp');
      mkdirSync(work);
      mkdirSync(tmp);
    }
    const spec = programJail(plan, {
      argv: ['/bin/sh', '-c', WRAPPER, 'sh', plan.files.dir, inputs, work, tmp, jailed ? '1' : '0', String(plan.fileBytes), plan.outputs.join(' '), holdsAnOutput(plan) ? '1' : '0', ...plan.argv],
      work,
      tmp,
      readOnly: [plan.files.dir, inputs],
    });
    await handWritableFolders(plan.m, plan.mode, spec.writable);
    const command = jailCommand(plan.m, plan.mode, meter, spec, 4);
    notePhase('folders', performance.now() - t);
    const watched = spawnWatched(plan, meter, command, spec.env);
    return {
      async go(given) {
        let ended = false;
        try {
          // Into the folder the jail binds read-only: the wrapper copies them in after go.
          for (const [name, content] of Object.entries(given)) writeFileSync(join(inputs, name), content, { mode: 0o644 });
          const x = await watched.go();
          ended = true;
          return jailed ? x : { ...x, hostFolders: { run, work } };
        } finally {
          await release(ended);
          noteRun();
        }
      },
      async discard() {
        await watched.kill();
        await release(true);
      },
    };
  } catch (e) {
    await release(false);
    throw e;
  }
}

/** The jail's process, started and watched; its wrapper waits for go before it copies the inputs and runs the program. */
function spawnWatched(plan: Plan, meter: ResourceMeter, command: JailCommand, env: Record<string, string>): { go(): Promise<Execution>; kill(): Promise<void> } {
  const child = execa(command.file, command.args, {
    cwd: command.cwd,
    extendEnv: false,
    env,
    stdio: jailStdio(4, command),
    detached: true,
    buffer: false,
    reject: false,
    cleanup: false,
  });
  sendFilter(child, command);
  // A jail that died before go: its close says why, not a broken pipe.
  child.stdin?.on('error', () => {});
  // Without a pid nothing started (the close below says why); a polling meter must not watch pid 0.
  if (child.pid !== undefined) meter.attach(child.pid);
  const x = newExecution();

  const limits = new LimitWatch(plan, meter, x, () => killTree(meter, child.pid));
  const stop = (why: NonNullable<Execution['stoppedFor']>) => limits.stop(why);
  const onOutput = (tail: OutputTail) => (chunk: Buffer) => {
    tail.push(chunk);
    if (x.stdout.total + x.stderr.total > plan.outputBytes) stop('output');
  };
  child.stdout?.on('data', onOutput(x.stdout));
  let overlap = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    onOutput(x.stderr)(chunk);
    // Scanned as it streams: a long stack dump could push the marker out of the tail.
    const text = overlap + chunk.toString('latin1');
    if (ALLOCATION_FAILED.test(text)) x.sawOutOfMemory = true;
    overlap = text.slice(-64);
  });

  // fd 3: an honest report is at most this long; more can only be the program writing into it.
  const reportCap = plan.outputs.length * (plan.fileBytes + 512) + LIST_ENTRIES * (LIST_NAME_BYTES + 2) + 4096;
  const chunks: Buffer[] = [];
  let received = 0;
  /** the stream's first bytes, where the start and exit markers are */
  let head = '';
  let cpuAtStart: number | undefined;
  let cpuAtExit: number | undefined;
  /** when the wrapper said start and exit: the phases of the run (case-phases.ts) */
  let startedAt: number | undefined;
  let exitedAt: number | undefined;
  const channel = child.stdio[3] as NodeJS.ReadableStream | undefined;
  channel?.on('error', () => {});
  channel?.on('data', (chunk: Buffer) => {
    received += chunk.length;
    if (received > reportCap) return stop('report');
    chunks.push(chunk);
    if (cpuAtExit !== undefined) return;
    if (head.length < 32) head += chunk.subarray(0, 32).toString('latin1');
    if (cpuAtStart === undefined && head.startsWith('start\n')) {
      cpuAtStart = meter.cpuMs();
      startedAt = performance.now();
    }
    if (cpuAtStart !== undefined && /^start\nexit \d+\n/.test(head)) {
      cpuAtExit = meter.cpuMs();
      exitedAt = performance.now();
    }
  });

  // Once the wrapper is done, whatever is left (in the weak mode, a background child holding
  // stdout) goes, so that the streams close.
  child.on('exit', () => killTree(meter, child.pid));
  const ended = child.then(
    (r) => r,
    () => undefined,
  );

  return {
    async kill() {
      killTree(meter, child.pid);
      await ended;
    },
    async go() {
      const begin = performance.now();
      limits.begin(() => ({ start: cpuAtStart, exit: cpuAtExit }));
      child.stdin?.end('go\n');
      let result;
      try {
        result = await ended;
      } finally {
        limits.end();
      }
      const end = meter.cpuMs();
      const over = performance.now();
      x.wallMs = over - begin;
      const started = startedAt ?? over;
      const exited = exitedAt ?? over;
      notePhase('jail', started - begin);
      notePhase('program', exited - started);
      notePhase('report', over - exited);
      notePhase('polling', limits.pollMs);
      x.started = cpuAtStart !== undefined;
      x.measuredCpuMs = cpuAtStart === undefined ? 0 : (cpuAtExit ?? end) - cpuAtStart;
      x.peakMemoryBytes = meter.peakMemoryBytes();
      x.overMemory ||= meter.overMemory();
      x.jailExit = result?.exitCode ?? null;
      if (x.stoppedFor === undefined) {
        const parsed = parseReport(Buffer.concat(chunks));
        if ('problem' in parsed) x.malformed = parsed.problem;
        else x.report = parsed;
      }
      return x;
    },
  };
}
