/**
 * Jobs on threads: a list of items (a match's games, a tournament's games, submissions to grade)
 * played by `jobs` jobs at once, each with resources of its own (its players: a sandboxed
 * submission's process, reused from item to item), the next item to whichever job is free.
 *
 * One job always runs in this thread; each further job runs in a worker thread of one pool
 * (piscina), one job a thread, so in-process reference agents search on every core. This thread
 * plays from the first moment while the pool's threads start: with every job on the pool, two
 * jobs on two cores lost most of their gain to the threads' start. The pool is made once per
 * process and reused by every later call
 * (a gauntlet's many matches): a thread loads the framework once, from one bundled file
 * (worker-bundle.ts), not once per match. Idle threads do not keep the process alive.
 *
 * A job is named by its module's URL and an export (a JobKind), so a worker thread can find it in
 * its bundle; the setup, items and results cross threads by structured clone (plain data). A
 * thread is sent one item beyond the one it plays (serve-job.ts).
 */
import { compositionRoot } from '../plugins/composition.ts';
import { MessageChannel, type MessagePort } from 'node:worker_threads';
import { Piscina } from 'piscina';
import { UserError } from '../errors.ts';
import { namedJobModules, type JobKind } from './job.ts';
import { workerBundle } from './worker-bundle.ts';

export interface RunJobsOptions<Setup, Item, Result, Event = never> {
  kind: JobKind<Setup, Item, Result, Event>;
  setup: Setup;
  items: readonly Item[];
  /** jobs at once: 1 plays in this thread, more in the pool's threads (at most the items) */
  jobs: number;
  /** each result as it comes (in any order with several jobs), with its item and the item's index; a throw stops the run with that error */
  onResult(result: Result, item: Item, index: number): void;
  /** each event a job tells while it plays (job.ts), in order with its results */
  onEvent?(event: Event): void;
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
/** done: no more items, play those sent; stop (an abort): play no other item. */
export type ToJob<Item> = { type: 'item'; item: Item } | { type: 'done' } | { type: 'stop' };
/** ready: the job is open in its thread, and items may come. */
export type FromJob<Result, Event = unknown> = { type: 'ready' } | { type: 'result'; result: Result } | { type: 'event'; event: Event };
/** Why a pooled job stopped early; a UserError stays one across the thread. */
export interface JobFailure {
  user: boolean;
  message: string;
  stack: string;
}

interface Pool {
  piscina: Piscina;
  /** the job modules its threads' bundle holds */
  modules: ReadonlySet<string>;
}

/** The process's pool; calls are chained on it, so two runs at once never make two. */
let shared: Promise<Pool | undefined> = Promise.resolve(undefined);

/** The process's pool, made (or remade) to at least `threads` threads that can serve `module`. */
function workerPool(threads: number, module: string): Promise<Piscina> {
  const pool = shared
    .catch(() => undefined) // a failed build is reported by the run that asked for it, and tried again
    .then(async (current) => {
      if (current !== undefined && current.piscina.maxThreads >= threads && current.modules.has(module)) return current;
      const modules = new Set(namedJobModules());
      const filename = await workerBundle(compositionRoot(), [...modules]);
      // A larger pool (or one with a new job module) replaces the old one, which finishes its jobs, then ends.
      void current?.piscina.close();
      const piscina = new Piscina({
        filename,
        // Started at once: the jobs' tasks wait for them.
        minThreads: threads,
        maxThreads: threads,
        // A job awaits its agents (timers, sandboxed processes): its thread must keep its event loop.
        atomics: 'disabled',
      });
      return { piscina, modules };
    });
  shared = pool;
  return pool.then((p) => p!.piscina);
}

/**
 * Starts the pool's threads for a run of `kind` with `jobs` jobs over `items` items, ahead of the
 * run: a command calls it as soon as it knows, so the threads load (a few hundred ms of a core)
 * while it reads its suite and prepares. Nothing when the run needs no thread; a failure is left
 * for the run itself to report.
 */
export function startWorkers<Setup, Item, Result, Event>(kind: JobKind<Setup, Item, Result, Event>, jobs: number, items: number): void {
  const threads = Math.min(jobs, items) - 1;
  if (threads > 0) void workerPool(threads, kind.module).catch(() => undefined);
}

function errorOf(f: JobFailure): Error {
  return f.user ? new UserError(f.message) : Object.assign(new Error(f.message), { stack: f.stack });
}

/** Plays every item (see the module comment); rejects with the first failure, after every job has closed. */
export async function runJobs<Setup, Item, Result, Event = never>(o: RunJobsOptions<Setup, Item, Result, Event>): Promise<void> {
  const jobs = Math.max(1, Math.min(o.jobs, o.items.length));
  if (o.items.length === 0 || o.signal?.aborted === true) return;
  let next = 0;
  let failure: unknown;
  const fail = (e: unknown) => {
    failure ??= e;
  };
  /** The next item's index, or undefined when there is none to start (all handed out, a failure, an abort). */
  const take = (): number | undefined => (failure === undefined && o.signal?.aborted !== true && next < o.items.length ? next++ : undefined);
  const deliver = (result: Result, index: number) => {
    if (o.signal?.aborted === true) return; // played after the abort: possibly cut short, not recorded
    try {
      o.onResult(result, o.items[index]!, index);
    } catch (e) {
      fail(e);
    }
  };
  const tell = (event: Event) => {
    if (o.signal?.aborted === true) return;
    try {
      o.onEvent?.(event);
    } catch (e) {
      fail(e);
    }
  };
  // The pool's threads are asked for first: they start (a few hundred ms) while this thread plays.
  const pool = jobs > 1 ? workerPool(jobs - 1, o.kind.module) : undefined;
  const pooled = pool === undefined ? [] : Array.from({ length: jobs - 1 }, () => jobInPool(pool, o, take, deliver, tell, fail));
  const all = Promise.all([jobInThisThread(o, take, deliver, tell, fail), ...pooled]);
  const aborted = new Promise<void>((resolve) => o.signal?.addEventListener('abort', () => resolve(), { once: true }));
  await Promise.race([all, aborted]);
  if (failure !== undefined) throw failure;
}

async function jobInThisThread<Setup, Item, Result, Event>(
  o: RunJobsOptions<Setup, Item, Result, Event>,
  take: () => number | undefined,
  deliver: (r: Result, index: number) => void,
  tell: (event: Event) => void,
  fail: (e: unknown) => void,
): Promise<void> {
  try {
    const job = await o.kind.factory(o.setup, tell);
    try {
      for (let k = take(); k !== undefined; k = take()) {
        deliver(await job.run(o.items[k]!), k);
        // Let the event loop turn: an in-process game may settle in microtasks alone, and the pool's
        // threads (their results, their next items), an abort or a progress bar would wait for the whole run.
        await new Promise((resolve) => setImmediate(resolve));
      }
    } finally {
      await job.close();
    }
  } catch (e) {
    fail(e);
  }
}

/** Items shorter than this (a game between reference agents) are sent one ahead of the one in play. */
const SHORT_ITEM_MS = 50;

/**
 * One job on a pool thread: items go over a port of its own, from the moment the job is open in
 * the thread (items sent to a thread still starting waited there while this thread could have
 * played them: a class of six submissions ended with one job idle for a whole submission). Short
 * items go one ahead of the one in play, so the thread never waits for this thread to answer
 * (serve-job.ts); long ones one at a time, so the last ones go to whichever job is free first.
 */
async function jobInPool<Setup, Item, Result, Event>(
  pool: Promise<Piscina>,
  o: RunJobsOptions<Setup, Item, Result, Event>,
  take: () => number | undefined,
  deliver: (r: Result, index: number) => void,
  tell: (event: Event) => void,
  fail: (e: unknown) => void,
): Promise<void> {
  const { port1, port2 } = new MessageChannel();
  const send = (m: ToJob<Item>) => port1.postMessage(m);
  /** the indices of the items the thread holds, in the order it plays them */
  const sent: number[] = [];
  let done = false;
  /** when the item in play started (as far as this thread knows), and whether items are short */
  let playingSince = 0;
  let short = false;
  const feed = () => {
    while (!done && sent.length < (short ? 2 : 1)) {
      const k = take();
      if (k === undefined) {
        done = true;
        send({ type: 'done' });
      } else {
        sent.push(k);
        send({ type: 'item', item: o.items[k]! });
      }
    }
  };
  port1.on('message', (m: FromJob<Result, Event>) => {
    if (m.type === 'event') return tell(m.event);
    const now = performance.now();
    if (m.type === 'result') {
      short = now - playingSince < SHORT_ITEM_MS;
      deliver(m.result, sent.shift()!);
    }
    playingSince = now;
    feed();
  });
  const stop = () => send({ type: 'stop' });
  o.signal?.addEventListener('abort', stop, { once: true });
  const closed = new Promise((resolve) => port1.once('close', resolve));
  try {
    const task: JobTask = { module: o.kind.module, name: o.kind.name, setup: o.setup, port: port2 };
    const failed = (await (await pool).run(task, { transferList: [port2] })) as JobFailure | undefined;
    // The task's end can overtake the last results; the thread closes its port after them.
    await closed;
    if (failed !== undefined) fail(errorOf(failed));
  } catch (e) {
    fail(e);
  } finally {
    o.signal?.removeEventListener('abort', stop);
    port1.close();
  }
}

export interface PoolThreadOptions {
  /** the pool's size at least (it is the process's one pool: a larger one asked for later replaces it) */
  threads: number;
  /** the most the item may take once its thread has it, ms: past it the thread is ended (a search that will not stop) */
  capMs: number;
}

/** Why runOnPoolThread gave up on an item: its thread ran past the cap and was ended. */
export class PoolThreadCapped extends Error {
  constructor(readonly capMs: number) {
    super(`stopped after ${capMs} ms, the most it may take`);
    this.name = 'PoolThreadCapped';
  }
}

/**
 * One item of `kind` played on a thread of the pool, never on this one: what a server runs so
 * that its event loop keeps answering (mancala serve's reference searches). Items wait in the
 * pool's queue while its threads are busy; the cap counts from the moment the item's thread has
 * opened its job, and past it the thread is ended (piscina ends a thread whose task is aborted),
 * so a search that ignores its deadline holds a core for the cap, never for good.
 */
export async function runOnPoolThread<Setup, Item, Result>(kind: JobKind<Setup, Item, Result>, setup: Setup, item: Item, o: PoolThreadOptions): Promise<Result> {
  const piscina = await workerPool(o.threads, kind.module);
  const { port1, port2 } = new MessageChannel();
  const abort = new AbortController();
  let result: { value: Result } | undefined;
  let capped = false;
  let timer: NodeJS.Timeout | undefined;
  port1.on('message', (m: FromJob<Result>) => {
    if (m.type === 'ready') {
      port1.postMessage({ type: 'item', item } satisfies ToJob<Item>);
      port1.postMessage({ type: 'done' } satisfies ToJob<Item>);
      timer = setTimeout(() => {
        capped = true;
        abort.abort();
      }, o.capMs);
    } else if (m.type === 'result') result = { value: m.result };
  });
  const closed = new Promise((resolve) => port1.once('close', resolve));
  try {
    const task: JobTask = { module: kind.module, name: kind.name, setup, port: port2 };
    let failed: JobFailure | undefined;
    try {
      failed = (await piscina.run(task, { transferList: [port2], signal: abort.signal })) as JobFailure | undefined;
    } catch (e) {
      if (capped) throw new PoolThreadCapped(o.capMs);
      throw e;
    }
    await closed;
    if (failed !== undefined) throw errorOf(failed);
    if (result === undefined) throw new Error(`${kind.name}: the pool's thread ended without a result`);
    return result.value;
  } finally {
    clearTimeout(timer);
    port1.close();
  }
}
