/**
 * A run's items played by `mancala worker`s through a BullMQ queue on Redis, instead of by local
 * jobs (workers/pool.ts runJobs): the same job kind, setup and items, the same onResult. Each item
 * is one job whose id is the run's id and the item's key, so adding it twice adds it once. The
 * run's id is a digest of everything that decides the results (the project's version, the job
 * kind, the setup, the caller's identity, the files shipped with it), so rerunning the same command
 * finds the same run: the results already in Redis are taken as they are (a coordinator killed and
 * restarted regrades or replays nothing that finished), and the rest are queued again.
 *
 * What can go wrong, and what happens:
 *  - a worker dies in the middle of an item (kill -9, a machine lost): the item's lock expires,
 *    and BullMQ's stalled-job check (run by every worker) puts it back in the queue for another;
 *  - a worker dies after recording a result but before the job was marked done: the job runs again,
 *    finds its result recorded and only says so; results are recorded once (HSETNX), and the
 *    coordinator records each item once, so nothing counts twice;
 *  - Redis restarts: the coordinator and the workers reconnect; when Redis lost the run (no
 *    persistence), the coordinator, which checks every second, stores it again and queues every item
 *    it has no result for; jobs lost otherwise (a snapshot older than the jobs) are found by a
 *    periodic check (every 10 s) and queued again. Redis needs no persistence;
 *  - a worker of another project version takes a job: it puts the job back, tells the coordinator
 *    (printed through onNotice) and stops.
 *
 * Once every item is in, the run's keys are deleted (a finished run leaves nothing in Redis).
 * Stopped (signal), the coordinator removes its jobs that have not started and keeps the results
 * for a rerun. A job's failure (the job threw, as runJobs would reject) stops the run with that error.
 */
import { hostname } from 'node:os';
import { Queue } from 'bullmq';
import { UserError } from '../errors.ts';
import type { JobKind } from '../workers/job.ts';
import { bullConnection, RedisLink } from './connection.ts';
import { packPath } from './files.ts';
import {
  ALIVE_TTL_SECONDS,
  aliveKey,
  BEAT_MS,
  bullFailedKey,
  bullJobKey,
  decode,
  encode,
  filesKey,
  jobId,
  kindId,
  outKey,
  QUEUE_NAME,
  QUEUE_PREFIX,
  resultsKey,
  RUN_TTL_SECONDS,
  runIdOf,
  runKey,
  type Outcome,
  type QueuedJob,
  type RunMeta,
} from './protocol.ts';
import { parseQueueUrl, probeRedis } from './queue-url.ts';
import { projectVersion } from './version.ts';

export interface QueueRunOptions<Setup, Item, Result, Event = never> {
  kind: JobKind<Setup, Item, Result, Event>;
  setup: Setup;
  items: readonly Item[];
  /** each item's key: the same for the same item whenever the run is made again (a game's schedule index) */
  keyOf(item: Item, index: number): string;
  /** what else decides the results, beyond the setup (grading: the submissions, in order) */
  identity?: readonly string[];
  /** the paths the jobs read, as given (relative to this folder, or absolute): sent to the workers with the run */
  files?: readonly string[];
  /** what the run is, in workers' lines: "tournament", "grade" */
  label: string;
  /** `redis://HOST:PORT` */
  queue: string;
  onResult(result: Result, item: Item, index: number): void;
  onEvent?(event: Event): void;
  /** a line on what happens to the run beyond its results: a worker refused it, Redis lost it, … */
  onNotice?(line: string): void;
  /** when aborted, the run's jobs that have not started are removed, and this returns */
  signal?: AbortSignal;
  /** ms between checks that every item left is queued (default 10 s) */
  reconcileMs?: number;
}

export interface QueueRunSummary {
  /** the run's id (its jobs are `<run>-<key>`) */
  run: string;
  /** results found in Redis when the run started: an earlier coordinator's */
  resumed: number;
}

/** Errors of a connection that dropped or cannot be made yet: waited out, never a reason to stop. */
function isConnectionTrouble(e: unknown): boolean {
  const m = e instanceof Error ? e.message : String(e);
  const code = (e as NodeJS.ErrnoException | undefined)?.code;
  return (
    /Connection (is )?closed|timed out|LOADING|MASTERDOWN|TRYAGAIN|BUSY /i.test(m) ||
    (code !== undefined && ['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN'].includes(code))
  );
}

function errorOf(o: Extract<Outcome<unknown>, { ok: false }>): Error {
  const message = `${o.message} (on worker ${o.worker})`;
  return o.user ? new UserError(message) : Object.assign(new Error(message), { stack: o.stack });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Plays every item through the queue (see the module comment); rejects with the first failure. */
export async function runJobsOnQueue<Setup, Item, Result, Event = never>(o: QueueRunOptions<Setup, Item, Result, Event>): Promise<QueueRunSummary> {
  const target = parseQueueUrl(o.queue);
  await probeRedis(target);
  const cwd = process.cwd();
  const version = projectVersion();
  const kind = kindId(o.kind);
  const setupText = encode(o.setup);
  const files = [...new Set(o.files ?? [])].map((path) => ({ path, ...packPath(path, cwd) }));
  const run = runIdOf([version, kind, setupText, cwd, ...(o.identity ?? []), ...files.flatMap((f) => [f.path, f.digest])]);
  const keys = o.items.map((item, k) => o.keyOf(item, k));
  const indexOf = new Map(keys.map((key, k) => [key, k]));
  if (indexOf.size !== keys.length) throw new Error('runJobsOnQueue: two items have the same key');
  const meta: RunMeta = { version, kind, setup: setupText, cwd, files: files.map((f) => f.path), label: o.label, coordinator: `${hostname()}:${process.pid}` };

  const link = new RedisLink(target);
  const blocking = new RedisLink(target);
  const queue = new Queue(QUEUE_NAME, { connection: bullConnection(target), prefix: QUEUE_PREFIX });
  // BullMQ reports a dropped connection as an 'error' event; the loop below notices and waits it out.
  queue.on('error', () => {});

  const pending = new Set(keys);
  /** keys whose recorded outcome is a failure: removed when the run stops, so that a rerun tries them again */
  const failedKeys: string[] = [];
  const eventsSeen = new Map<string, number>();
  let failure: unknown;
  const notices = new Set<string>();
  const notice = (line: string) => {
    if (notices.has(line)) return;
    notices.add(line);
    o.onNotice?.(line);
  };

  const deliver = (key: string, outcome: Outcome<Result>) => {
    if (!pending.has(key) || failure !== undefined || o.signal?.aborted === true) return;
    pending.delete(key);
    eventsSeen.delete(key);
    if (!outcome.ok) {
      failedKeys.push(key);
      failure = errorOf(outcome);
      return;
    }
    const index = indexOf.get(key)!;
    try {
      o.onResult(outcome.result, o.items[index]!, index);
    } catch (e) {
      failure = e;
    }
  };

  /** Takes the recorded results of `wanted` keys (those still pending). */
  const collect = async (wanted: readonly string[]) => {
    const keysLeft = wanted.filter((k) => pending.has(k));
    for (let at = 0; at < keysLeft.length; at += 200) {
      const chunk = keysLeft.slice(at, at + 200);
      const texts = (await link.send('HMGET', [resultsKey(run), ...chunk])) as (string | null)[];
      chunk.forEach((key, k) => {
        const text = texts[k];
        if (typeof text === 'string') deliver(key, decode<Outcome<Result>>(text));
      });
    }
  };

  const storeRun = async () => {
    const fields = Object.entries(meta).flatMap(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]);
    for (const f of files) await link.send('HSET', [filesKey(run), f.path, f.packed]);
    await link.send('HSET', [runKey(run), ...fields]);
    await refreshExpiry();
    await beat(true);
  };
  let lastBeat = 0;
  /** The heartbeat workers look for (protocol.ts): a run without one is dropped. */
  const beat = async (force = false) => {
    if (!force && performance.now() - lastBeat < BEAT_MS) return;
    lastBeat = performance.now();
    await link.send('SET', [aliveKey(run), meta.coordinator, 'EX', String(ALIVE_TTL_SECONDS)]);
  };
  const refreshExpiry = async () => {
    for (const key of [runKey(run), filesKey(run), resultsKey(run), outKey(run)]) await link.send('EXPIRE', [key, RUN_TTL_SECONDS]);
  };

  const enqueue = async (wanted: readonly string[]) => {
    for (let at = 0; at < wanted.length; at += 500) {
      const chunk = wanted.slice(at, at + 500).filter((k) => pending.has(k));
      await beat();
      await queue.addBulk(
        chunk.map((key) => {
          const data: QueuedJob = { run, key, item: encode(o.items[indexOf.get(key)!]) };
          return {
            name: o.label,
            data,
            opts: {
              jobId: jobId(run, key),
              removeOnComplete: true,
              removeOnFail: { age: RUN_TTL_SECONDS },
              // The job's own failures are recorded as outcomes, never thrown: a throw is the worker's trouble (its Redis).
              attempts: 5,
              backoff: { type: 'fixed', delay: 2000 },
            },
          };
        }),
      );
    }
  };

  /** Queues again every pending item whose job is gone; a job BullMQ gave up on (it stalled too often) fails the run. */
  const reconcile = async () => {
    const left = [...pending];
    const missing: string[] = [];
    for (let at = 0; at < left.length; at += 500) {
      const chunk = left.slice(at, at + 500);
      const [exists, failed] = await Promise.all([
        Promise.all(chunk.map((key) => link.send('EXISTS', [bullJobKey(jobId(run, key))]) as Promise<number>)),
        Promise.all(chunk.map((key) => link.send('ZSCORE', [bullFailedKey, jobId(run, key)]) as Promise<string | null>)),
      ]);
      for (let k = 0; k < chunk.length; k++) {
        const key = chunk[k]!;
        if (failed[k] !== null) {
          const reason = (await link.send('HGET', [bullJobKey(jobId(run, key)), 'failedReason'])) as string | null;
          throw new Error(`${o.label} item ${key}: the workers gave up on it: ${reason ?? 'no reason recorded'}`);
        }
        if (exists[k] === 0) missing.push(key);
      }
    }
    await collect(missing);
    const requeue = missing.filter((k) => pending.has(k));
    if (requeue.length > 0) {
      notice(`${requeue.length} job${requeue.length === 1 ? ' was' : 's were'} missing from the queue (Redis lost them?): queued again`);
      await enqueue(requeue);
    }
  };

  const removeJobs = async (which: readonly string[]) => {
    for (let at = 0; at < which.length; at += 200) {
      await Promise.all(which.slice(at, at + 200).map((key) => queue.remove(jobId(run, key)).catch(() => 0)));
    }
  };

  let resumed = 0;
  try {
    // Start: the run stored, the results an earlier coordinator left taken, the rest queued.
    await storeRun();
    await link.send('DEL', [outKey(run)]);
    const recorded = ((await link.send('HKEYS', [resultsKey(run)])) as string[]).filter((k) => pending.has(k));
    await collect(recorded);
    resumed = recorded.length;
    if (failure === undefined) await enqueue([...pending]);
    if (pending.size > 0 && failure === undefined) {
      const earlier = resumed > 0 ? ` (${resumed} recorded by an earlier run of the same command)` : '';
      notice(`${o.label}: ${pending.size} job${pending.size === 1 ? '' : 's'} on the queue at ${target.shown}${earlier}, run ${run.slice(0, 8)}; \`mancala worker --queue ${target.shown}\` plays them`);
    }

    let lastMetaCheck = performance.now();
    let lastExpiry = performance.now();
    let lastReconcile = performance.now();
    let down: string | undefined;
    /** Redis lost the run, and its items are not all queued again yet */
    let requeue = false;
    while (pending.size > 0 && failure === undefined && o.signal?.aborted !== true) {
      try {
        await beat();
        const popped = (await blocking.send('BLPOP', [outKey(run), '0.5'])) as [string, string] | null;
        if (popped !== null) {
          const entries = [popped[1], ...(((await link.send('LPOP', [outKey(run), '1000'])) as string[] | null) ?? [])];
          const results: string[] = [];
          for (const entry of entries) {
            const space = entry.indexOf(' ');
            const type = entry.slice(0, space);
            const rest = entry.slice(space + 1);
            if (type === 'r') results.push(rest);
            else if (type === 'x') notice(rest);
            else if (type === 'e') {
              // `e <key> <n> <event>`: an item's n-th event, passed on once (a job run again tells its events again).
              const [key, n, text] = rest.split(' ') as [string, string, string];
              if (pending.has(key) && Number(n) > (eventsSeen.get(key) ?? 0)) {
                // Results of the batch before this event are delivered first: the order the worker sent them in.
                await collect(results.splice(0));
                eventsSeen.set(key, Number(n));
                try {
                  o.onEvent?.(decode<Event>(text));
                } catch (e) {
                  failure ??= e;
                }
              }
            }
          }
          await collect(results);
        }
        const now = performance.now();
        if (requeue || now - lastMetaCheck > 1000) {
          lastMetaCheck = now;
          if (requeue || (await link.send('EXISTS', [runKey(run)])) === 0) {
            if (!requeue) notice(`Redis lost this run (restarted without persistence?): storing it again and queueing the ${pending.size} item${pending.size === 1 ? '' : 's'} left`);
            // Until every item is queued again this repeats (Redis may still be starting): the
            // run and its heartbeat first, so that workers take its jobs at once.
            requeue = true;
            await storeRun();
            await enqueue([...pending]);
            requeue = false;
            // What workers recorded since the restart (results outlive the run's description only then).
            await collect([...pending]);
            lastReconcile = performance.now();
          }
        }
        if (now - lastExpiry > 60_000) {
          lastExpiry = now;
          await refreshExpiry();
        }
        if (now - lastReconcile > (o.reconcileMs ?? 10_000)) {
          await reconcile();
          lastReconcile = performance.now();
        }
        if (down !== undefined) {
          o.onNotice?.(`Redis is back (${target.shown})`);
          notices.delete(down);
          down = undefined;
        }
      } catch (e) {
        if (!isConnectionTrouble(e)) throw e;
        down ??= `lost the connection to Redis at ${target.shown} (${e instanceof Error ? e.message : String(e)}): waiting for it`;
        notice(down);
        await sleep(500);
      }
    }
    if (failure !== undefined) throw failure;
    if (pending.size === 0) {
      // Done: a job left behind (run again after its result was in) is removed, then the run's keys.
      const lingering: string[] = [];
      for (let at = 0; at < keys.length; at += 500) {
        const chunk = keys.slice(at, at + 500);
        const exists = await Promise.all(chunk.map((key) => link.send('EXISTS', [bullJobKey(jobId(run, key))]) as Promise<number>));
        chunk.forEach((key, k) => exists[k] === 1 && lingering.push(key));
      }
      await removeJobs(lingering);
      await link.send('DEL', [aliveKey(run), runKey(run), filesKey(run), resultsKey(run), outKey(run)]);
    }
  } catch (e) {
    failure ??= e;
  } finally {
    if (pending.size > 0) {
      // Stopped or failed: what has not started is taken off the queue; recorded results stay for a rerun.
      await removeJobs([...pending]).catch(() => {});
    }
    if (failedKeys.length > 0) await link.send('HDEL', [resultsKey(run), ...failedKeys]).catch(() => {});
    // Gone: a job of this run still queued somewhere is dropped by the worker that takes it.
    await link.send('DEL', [aliveKey(run)]).catch(() => {});
    link.close();
    blocking.close();
    await queue.close().catch(() => {});
  }
  if (failure !== undefined) throw failure;
  return { run, resumed };
}
