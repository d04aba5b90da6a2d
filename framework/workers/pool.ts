/**
 * Jobs on threads: a list of items (a match's games, a tournament's games, submissions to grade)
 * played by `jobs` jobs at once, each with resources of its own (its players: a sandboxed
 * submission's process, reused from item to item), the next item to whichever job is free.
 *
 * One job runs in this thread. Several run in the worker threads of one pool (piscina), one job a
 * thread, so in-process reference agents search on every core and a long search in one game never
 * holds up the clock of another. The pool is made once per process and reused by every later call
 * (a gauntlet's many matches): a thread loads the framework once, at its first job, not once per
 * match. Idle threads do not keep the process alive.
 *
 * A job is named by its module's URL and an export (a JobKind), so a worker thread can load it;
 * the setup, items and results cross threads by structured clone (plain data).
 */
import { compositionRoot } from '../plugins/composition.ts';
import { fileURLToPath } from 'node:url';
import { MessageChannel, type MessagePort } from 'node:worker_threads';
import { Piscina } from 'piscina';
import { UserError } from '../errors.ts';

/** Plays items one at a time with resources of its own; closed when the items run out or the run stops. */
export interface Job<Item, Result> {
  run(item: Item): Promise<Result>;
  close(): Promise<void>;
}

export type JobFactory<Setup, Item, Result> = (setup: Setup) => Job<Item, Result> | Promise<Job<Item, Result>>;

/** A job factory and where a worker thread finds it: the module's URL (import.meta.url) and the export's name. */
export interface JobKind<Setup, Item, Result> {
  module: string;
  name: string;
  factory: JobFactory<Setup, Item, Result>;
}

/** Names `factory`, exported as `name` by the module at `module` (pass import.meta.url). */
export function jobKind<Setup, Item, Result>(module: string, name: string, factory: JobFactory<Setup, Item, Result>): JobKind<Setup, Item, Result> {
  return { module, name, factory };
}

export interface RunJobsOptions<Setup, Item, Result> {
  kind: JobKind<Setup, Item, Result>;
  setup: Setup;
  items: readonly Item[];
  /** jobs at once: 1 plays in this thread, more in the pool's threads (at most the items) */
  jobs: number;
  /** each result as it comes (in any order with several jobs); a throw stops the run with that error */
  onResult(result: Result, item: Item): void;
  /** once aborted no item starts, and runJobs returns without waiting for the items in play */
  signal?: AbortSignal;
}

/** A pooled job's task (serve-job.ts): plain data and the port its items come over. */
export interface JobTask {
  module: string;
  name: string;
  setup: unknown;
  port: MessagePort;
}
export type ToJob<Item> = { type: 'item'; item: Item } | { type: 'done' };
export type FromJob<Result> = { type: 'result'; result: Result };
/** Why a pooled job stopped early; a UserError stays one across the thread. */
export interface JobFailure {
  user: boolean;
  message: string;
  stack: string;
}

let shared: Piscina | undefined;

/** The process's pool, made (or grown) to at least `threads` threads. */
function workerPool(threads: number): Piscina {
  if (shared !== undefined && shared.maxThreads >= threads) return shared;
  // A larger pool replaces a smaller one; the old one finishes the jobs it runs, then ends.
  void shared?.close();
  shared = new Piscina({
    filename: fileURLToPath(new URL('./job-worker.mjs', import.meta.url)),
    // Started at once, while the caller plans its items.
    minThreads: threads,
    maxThreads: threads,
    // A job awaits its agents (timers, sandboxed processes): its thread must keep its event loop.
    atomics: 'disabled',
    // Registries are per thread: each thread imports the composition root before its first job.
    workerData: { compositionRoot: compositionRoot() },
  });
  return shared;
}

function errorOf(f: JobFailure): Error {
  return f.user ? new UserError(f.message) : Object.assign(new Error(f.message), { stack: f.stack });
}

/** Plays every item (see the module comment); rejects with the first failure, after every job has closed. */
export async function runJobs<Setup, Item, Result>(o: RunJobsOptions<Setup, Item, Result>): Promise<void> {
  const jobs = Math.max(1, Math.min(o.jobs, o.items.length));
  if (o.items.length === 0 || o.signal?.aborted === true) return;
  let next = 0;
  let failure: unknown;
  const fail = (e: unknown) => {
    failure ??= e;
  };
  /** The next item, or undefined when there is none to start (all handed out, a failure, an abort). */
  const take = (): Item | undefined => (failure === undefined && o.signal?.aborted !== true && next < o.items.length ? o.items[next++] : undefined);
  const deliver = (result: Result, item: Item) => {
    if (o.signal?.aborted === true) return; // played after the abort: possibly cut short, not recorded
    try {
      o.onResult(result, item);
    } catch (e) {
      fail(e);
    }
  };
  const all = jobs === 1 ? jobInThisThread(o, take, deliver, fail) : Promise.all(Array.from({ length: jobs }, () => jobInPool(workerPool(jobs), o, take, deliver, fail)));
  const aborted = new Promise<void>((resolve) => o.signal?.addEventListener('abort', () => resolve(), { once: true }));
  await Promise.race([all, aborted]);
  if (failure !== undefined) throw failure;
}

async function jobInThisThread<Setup, Item, Result>(
  o: RunJobsOptions<Setup, Item, Result>,
  take: () => Item | undefined,
  deliver: (r: Result, item: Item) => void,
  fail: (e: unknown) => void,
): Promise<void> {
  try {
    const job = await o.kind.factory(o.setup);
    try {
      for (let item = take(); item !== undefined; item = take()) deliver(await job.run(item), item);
    } finally {
      await job.close();
    }
  } catch (e) {
    fail(e);
  }
}

/** One job on a pool thread: items go over a port of its own, one at a time, the next when a result comes back. */
async function jobInPool<Setup, Item, Result>(
  pool: Piscina,
  o: RunJobsOptions<Setup, Item, Result>,
  take: () => Item | undefined,
  deliver: (r: Result, item: Item) => void,
  fail: (e: unknown) => void,
): Promise<void> {
  const { port1, port2 } = new MessageChannel();
  let current: Item | undefined;
  const feed = () => {
    current = take();
    port1.postMessage((current === undefined ? { type: 'done' } : { type: 'item', item: current }) satisfies ToJob<Item>);
  };
  port1.on('message', (m: FromJob<Result>) => {
    deliver(m.result, current!);
    feed();
  });
  feed();
  try {
    const task: JobTask = { module: o.kind.module, name: o.kind.name, setup: o.setup, port: port2 };
    const failed = (await pool.run(task, { transferList: [port2] })) as JobFailure | undefined;
    if (failed !== undefined) fail(errorOf(failed));
  } catch (e) {
    fail(e);
  } finally {
    port1.close();
  }
}
