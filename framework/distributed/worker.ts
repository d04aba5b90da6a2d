/**
 * `mancala worker`'s loop: takes jobs from the queue one at a time and plays each with the job
 * kind its run names, opened with the run's setup exactly as runJobs opens a local job in its own
 * thread, and kept open for the run's next items (a tournament's players, a sandboxed submission's
 * process). The run's files are written under a folder of the worker's own (files.ts) and the job
 * runs from there. Each outcome is recorded once (protocol.ts RECORD_OUTCOME_LUA); a job's
 * failure is recorded as its outcome, as runJobs would reject with it.
 *
 * Locks: a job's lock lasts `lockMs` (default 60 s) and is renewed every half of it while the job
 * plays, so a worker that dies (kill -9, its machine lost) holds its job at most that long; the
 * stalled-job check, every half `lockMs` in every worker, then puts it back in the queue: another
 * worker takes it within 1.5 × lockMs. A single move that keeps this process's event loop busy
 * longer than half the lock (a reference search of minutes) would let the lock lapse and the game
 * be played twice (recorded once); raise --lock-ms for such games.
 *
 * Stopping (SIGINT/SIGTERM, the `stop` signal): no new job is taken, the one in play finishes and is
 * recorded, then the worker ends. A second signal (`release`) puts the job in play back in the
 * queue for another worker and ends at once.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { DelayedError, WaitingError, Worker, type Job as BullJob } from 'bullmq';
import { UserError } from '../errors.ts';
import type { Job, JobKind } from '../workers/job.ts';
import { bullConnection, RedisLink } from './connection.ts';
import { intoMirror, mapStrings, outOfMirror, unpackPath } from './files.ts';
import {
  aliveKey,
  decode,
  encode,
  filesKey,
  kindId,
  outKey,
  QUEUE_NAME,
  QUEUE_PREFIX,
  RECORD_OUTCOME_LUA,
  resultsKey,
  RUN_TTL_SECONDS,
  runKey,
  type Outcome,
  type QueuedJob,
  type RunMeta,
} from './protocol.ts';
import { parseQueueUrl, probeRedis, type QueueTarget } from './queue-url.ts';
import { projectVersion } from './version.ts';

/** A job kind this worker serves, and how its lines name an item and a result. */
export interface ServedKind {
  kind: JobKind<any, any, any, any>;
  /** "game 17: alice vs random" */
  describe(item: any): string;
  /** "alice won 30-18" */
  summarize(result: any, item: any): string;
  /** the setup as this worker runs it: its sandbox the stronger of the run's and the worker's own */
  withSandbox(setup: any, weakAllowed: boolean): any;
}

export interface ServeOptions {
  queue: string;
  kinds: readonly ServedKind[];
  /** the worker was started with --weak-sandbox: a run that asks for the weak sandbox gets it */
  weakAllowed: boolean;
  /** a job's lock, ms (see the module comment) */
  lockMs: number;
  /** a line of what the worker does (stdout) */
  log(line: string): void;
  /** stop after the job in play */
  stop: AbortSignal;
  /** put the job in play back in the queue and stop now */
  release: AbortSignal;
  /** the worker's name in lines and outcomes; default host:pid */
  name?: string;
  /** ms without an item after which a run's open job is closed (its processes ended); default 30 s */
  idleCloseMs?: number;
}

/** The lock's default: long enough for a move of seconds on a loaded machine, short enough that a lost worker's job is soon retried. */
export const DEFAULT_LOCK_MS = 60_000;

interface OpenRun {
  run: string;
  meta: RunMeta;
  served: ServedKind;
  job: Job<unknown, unknown>;
  dir: string;
  fsRoot: string;
  cwd: string;
  toMirror: (s: string) => string;
  fromMirror: (s: string) => string;
  lastUsed: number;
}

/** A job's failure as its outcome, the worker's folder for the run's files taken out of its message. */
function failureOf(e: unknown, worker: string, fromMirror: (s: string) => string = (s) => s): Outcome<never> {
  const message = fromMirror(e instanceof Error ? e.message : String(e));
  return { ok: false, user: e instanceof UserError, message, stack: fromMirror(e instanceof Error ? (e.stack ?? '') : ''), worker };
}

function clock(): string {
  return new Date().toTimeString().slice(0, 8);
}

function duration(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : ms < 120_000 ? `${(ms / 1000).toFixed(1)} s` : `${(ms / 60_000).toFixed(1)} min`;
}

/** The folders of workers that were killed (SIGKILL leaves no time to remove them), by the pid in their names. */
function removeDeadWorkersFolders(): void {
  let names: string[];
  try {
    names = readdirSync(tmpdir());
  } catch {
    return;
  }
  for (const name of names) {
    const pid = /^mancala-worker-(\d+)-/.exec(name)?.[1];
    if (pid === undefined || Number(pid) === process.pid) continue;
    try {
      process.kill(Number(pid), 0);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ESRCH') rmSync(join(tmpdir(), name), { recursive: true, force: true });
    }
  }
}

/** Serves the queue until stopped; resolves with the exit code (0 stopped, 2 refused a run of another version, 130 released). */
export async function serveQueue(o: ServeOptions): Promise<number> {
  const target: QueueTarget = parseQueueUrl(o.queue);
  await probeRedis(target);
  const name = o.name ?? `${hostname()}:${process.pid}`;
  const version = projectVersion();
  const kinds = new Map(o.kinds.map((k) => [kindId(k.kind), k]));
  const link = new RedisLink(target);
  const home = process.cwd();
  removeDeadWorkersFolders();
  // Real path: a job's messages name its files by their real paths, and the mirror's prefix is taken out of them.
  const workDir = realpathSync(mkdtempSync(join(tmpdir(), `mancala-worker-${process.pid}-`)));
  const metas = new Map<string, RunMeta | undefined>();
  let open: OpenRun | undefined;
  let exitCode = 0;
  /** the job in play, to release it on a second signal */
  let inPlay: { job: BullJob; token: string | undefined; what: string } | undefined;
  /** the item in play's key and its events so far (events are numbered per item: protocol.ts) */
  let telling: { run: string; key: string; n: number } | undefined;

  /** the last close of a run's job, which the next open waits for */
  let closing: Promise<void> = Promise.resolve();
  const closeRun = (): Promise<void> => {
    const was = open;
    open = undefined;
    if (was === undefined) return closing;
    closing = closing.then(async () => {
      await was.job.close().catch(() => {});
      if (open === undefined) process.chdir(home);
      rmSync(was.dir, { recursive: true, force: true });
    });
    return closing;
  };

  const metaOf = async (run: string): Promise<RunMeta | undefined> => {
    if (metas.get(run) !== undefined) return metas.get(run);
    const flat = (await link.send('HGETALL', [runKey(run)])) as string[];
    if (flat.length === 0) return undefined;
    const h: Record<string, string> = {};
    for (let k = 0; k < flat.length; k += 2) h[flat[k]!] = flat[k + 1]!;
    const meta: RunMeta = {
      version: h.version ?? '',
      kind: h.kind ?? '',
      setup: h.setup ?? '',
      cwd: h.cwd ?? '/',
      files: JSON.parse(h.files ?? '[]') as string[],
      label: h.label ?? 'run',
      coordinator: h.coordinator ?? '?',
    };
    metas.set(run, meta);
    return meta;
  };

  const openRun = async (run: string, meta: RunMeta, served: ServedKind): Promise<OpenRun> => {
    if (open?.run === run) return open;
    await closeRun();
    // A folder of its own each time: a run closed for idling and opened again never shares one with the close still under way.
    const dir = mkdtempSync(join(workDir, `${run.slice(0, 8)}-`));
    const fsRoot = join(dir, 'fs');
    for (const path of meta.files) {
      const packed = (await link.send('HGET', [filesKey(run), path])) as string | null;
      if (packed === null) throw new Error(`the run's file ${path} is missing from Redis`);
      unpackPath(packed, fsRoot, meta.cwd, path);
    }
    const cwd = join(fsRoot, meta.cwd);
    mkdirSync(cwd, { recursive: true });
    process.chdir(cwd);
    const toMirror = intoMirror(fsRoot, meta.files);
    const setup: unknown = served.withSandbox(mapStrings(decode(meta.setup), toMirror), o.weakAllowed);
    const tell = (event: unknown) => {
      const t = telling;
      if (t === undefined || t.run !== run) return;
      t.n++;
      void link.send('RPUSH', [outKey(run), `e ${t.key} ${t.n} ${encode(event)}`]).catch(() => {});
    };
    try {
      const job = await served.kind.factory(setup, tell);
      open = { run, meta, served, job, dir, fsRoot, cwd, toMirror, fromMirror: outOfMirror(fsRoot), lastUsed: performance.now() };
      return open;
    } catch (e) {
      process.chdir(home);
      rmSync(dir, { recursive: true, force: true });
      throw e;
    }
  };

  const recordSha = createHash('sha1').update(RECORD_OUTCOME_LUA).digest('hex');
  const record = async (run: string, key: string, outcome: Outcome<unknown>) => {
    const args = ['2', resultsKey(run), outKey(run), key, encode(outcome), String(RUN_TTL_SECONDS)];
    // The script by its digest; sent whole only when Redis does not hold it yet (a new or restarted Redis).
    await link.send('EVALSHA', [recordSha, ...args]).catch((e: unknown) => {
      if (!(e instanceof Error && e.message.startsWith('NOSCRIPT'))) throw e;
      return link.send('EVAL', [RECORD_OUTCOME_LUA, ...args]);
    });
  };

  let stopping: Promise<void> | undefined;
  const stopWorker = (code: number) => {
    if (exitCode === 0) exitCode = code;
    stopping ??= worker.close().then(() => undefined);
  };

  const refuse = async (job: BullJob, token: string | undefined, run: string, meta: RunMeta): Promise<never> => {
    const why = kinds.has(meta.kind)
      ? `it was made by project version ${meta.version}, and this worker runs ${version}`
      : `its job kind ${meta.kind} is not one this worker runs (project version ${meta.version} there, ${version} here)`;
    const line = `worker ${name} refused the ${meta.label} run ${run.slice(0, 8)} from ${meta.coordinator}: ${why}; give that machine the same checkout (git pull, npm ci) and restart its worker`;
    await job.moveToWait(token).catch(() => {});
    await link.send('RPUSH', [outKey(run), `x ${line}`]).catch(() => {});
    o.log(`${clock()} ${line}`);
    stopWorker(2);
    throw new WaitingError();
  };

  /** runs whose jobs this worker dropped (said once a run) */
  const dropped = new Set<string>();

  const processor = async (job: BullJob, token?: string): Promise<void> => {
    const data = job.data as QueuedJob;
    const [alive, recorded] = (await Promise.all([link.send('EXISTS', [aliveKey(data.run)]), link.send('HEXISTS', [resultsKey(data.run), data.key])])) as [number, number];
    if (alive === 0) {
      // Its coordinator is gone (finished, stopped or killed): nothing waits for the result. Rerunning its command queues it again.
      if (!dropped.has(data.run)) o.log(`${clock()} dropping the jobs of run ${data.run.slice(0, 8)}: its coordinator is gone (rerun its command to resume it)`);
      dropped.add(data.run);
      return;
    }
    const meta = await metaOf(data.run);
    if (meta === undefined) {
      // Redis lost the run (restarted without persistence): its coordinator stores it again within a second.
      // A job from before the restart is gone with it (the coordinator queued it again): nothing to put back.
      if (!(await job.moveToDelayed(Date.now() + 1000, token).then(() => true, () => false))) return;
      throw new DelayedError();
    }
    const served = kinds.get(meta.kind);
    if (meta.version !== version || served === undefined) return refuse(job, token, data.run, meta);
    let what = `${meta.label} ${data.run.slice(0, 8)} item ${data.key}`;
    if (recorded === 1) {
      // Played before by a worker that died before the job was marked done: counted once, so only said again.
      await link.send('RPUSH', [outKey(data.run), `r ${data.key}`]);
      o.log(`${clock()} ${what}: already recorded (a worker stopped after playing it)`);
      return;
    }
    const start = performance.now();
    let outcome: Outcome<unknown>;
    let run: OpenRun | undefined;
    let given: unknown;
    telling = { run: data.run, key: data.key, n: 0 };
    try {
      run = await openRun(data.run, meta, served);
      process.chdir(run.cwd);
      given = decode(data.item);
      const item = mapStrings(given, run.toMirror);
      what = `${meta.label} ${data.run.slice(0, 8)} ${served.describe(given)}`;
      inPlay = { job, token, what };
      const result = await run.job.run(item);
      outcome = { ok: true, result: mapStrings(result, run.fromMirror), worker: name, ms: performance.now() - start };
    } catch (e) {
      outcome = failureOf(e, name, run?.fromMirror);
      await closeRun();
    } finally {
      telling = undefined;
      inPlay = undefined;
    }
    if (o.release.aborted) throw new WaitingError();
    await record(data.run, data.key, outcome);
    if (open !== undefined) open.lastUsed = performance.now();
    const ms = performance.now() - start;
    o.log(`${clock()} ${what}: ${outcome.ok ? served.summarize(outcome.result, given) : `FAILED: ${outcome.message.split('\n')[0]}`} (${duration(ms)})`);
  };

  const worker = new Worker(QUEUE_NAME, processor, {
    connection: bullConnection(target),
    prefix: QUEUE_PREFIX,
    // Kept on each job it takes (BullMQ's processedBy): who holds a job can be read in Redis.
    name,
    concurrency: 1,
    lockDuration: o.lockMs,
    stalledInterval: Math.max(1000, Math.round(o.lockMs / 2)),
    // A job whose workers died this many times is given up (the coordinator then stops with its reason).
    maxStalledCount: 5,
    // After a connection error (Redis restarted) try again in a second, not BullMQ's 15.
    runRetryDelay: 1000,
    autorun: false,
  });
  let lastError = '';
  worker.on('error', (e) => {
    const m = e instanceof Error ? e.message : String(e);
    if (m === lastError) return;
    lastError = m;
    o.log(`${clock()} queue: ${m}`);
  });
  worker.on('ready', () => {
    if (lastError !== '') o.log(`${clock()} queue: connected again to ${target.shown}`);
    lastError = '';
  });

  const idle = setInterval(() => {
    if (open !== undefined && inPlay === undefined && performance.now() - open.lastUsed > (o.idleCloseMs ?? 30_000)) void closeRun();
  }, 1000);
  idle.unref();

  o.stop.addEventListener(
    'abort',
    () => {
      o.log(`${clock()} stopping: ${inPlay !== undefined ? `finishing ${inPlay.what} first (signal again to put it back in the queue now)` : 'no job in play'}`);
      stopWorker(0);
    },
    { once: true },
  );
  const released = new Promise<void>((resolve) =>
    o.release.addEventListener(
      'abort',
      () => {
        const p = inPlay;
        if (p === undefined) return resolve();
        void p.job
          .moveToWait(p.token)
          .then(
            () => o.log(`${clock()} put ${p.what} back in the queue`),
            (e: unknown) => o.log(`${clock()} could not put ${p.what} back in the queue (${e instanceof Error ? e.message : String(e)}): it is retried once its lock lapses`),
          )
          .finally(resolve);
      },
      { once: true },
    ),
  );

  o.log(
    `mancala worker ${name}: serving ${target.shown} (project version ${version}; lock ${duration(o.lockMs)}: a job of a worker that dies is retried within ${duration(o.lockMs * 1.5)})`,
  );
  const running = worker.run();
  await Promise.race([
    running.then(() => stopping),
    released.then(() => {
      exitCode = 130;
    }),
  ]);
  if (exitCode !== 130) await stopping;
  clearInterval(idle);
  await closeRun();
  if (exitCode === 130) void worker.close(true).catch(() => {});
  link.close();
  rmSync(workDir, { recursive: true, force: true });
  return exitCode;
}
