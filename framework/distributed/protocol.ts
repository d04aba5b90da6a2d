/**
 * What a coordinator and its workers share through Redis (coordinator.ts, worker.ts).
 *
 * BullMQ queue `jobs` (key prefix `mancala`): one job per item, its id `<run>-<item key>` (so
 * adding it again while it exists adds nothing), its data `{ run, key, item }`. The item is what
 * runJobs would hand a local job, serialized as the pool's threads receive theirs (structured
 * clone: v8.serialize), base64.
 *
 * Keys of a run (`mancala:run:<run>`…), each kept 7 days from the coordinator's last look:
 *   mancala:run:<run>           hash: version, kind, setup (the job's setup, serialized), cwd, files, label
 *   mancala:run:<run>:files     hash: path as the coordinator named it → the file or folder, packed (files.ts)
 *   mancala:run:<run>:results   hash: item key → the outcome, serialized; written once (HSETNX): a
 *                               second completion of the same item (a worker died after finishing it,
 *                               the job ran again) changes nothing
 *   mancala:run:<run>:alive     the coordinator's heartbeat (expires ALIVE_TTL_SECONDS after its last beat):
 *                               a job of a run without one is dropped by the worker that takes it (its
 *                               coordinator was killed; rerunning the command queues it again)
 *   mancala:run:<run>:out       list the coordinator drains: `r <key>` (a result is in), `e <key> <n> <event>`
 *                               (the n-th event an item's job told), `x <message>` (a worker refused the run)
 */
import { createHash } from 'node:crypto';
import { relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deserialize, serialize } from 'node:v8';
import type { JobKind } from '../workers/job.ts';
import { PROJECT_ROOT_DIR } from './version.ts';

/** BullMQ's key prefix and queue name: every run of every coordinator shares the one queue. */
export const QUEUE_PREFIX = 'mancala';
export const QUEUE_NAME = 'jobs';

/** How long a run's keys outlive the coordinator's last look at them (a coordinator killed and never rerun). */
export const RUN_TTL_SECONDS = 7 * 24 * 3600;

export const runKey = (run: string) => `${QUEUE_PREFIX}:run:${run}`;
export const filesKey = (run: string) => `${runKey(run)}:files`;
export const resultsKey = (run: string) => `${runKey(run)}:results`;
export const outKey = (run: string) => `${runKey(run)}:out`;
export const aliveKey = (run: string) => `${runKey(run)}:alive`;

/** A coordinator beats every 2 s; one silent this long is gone. */
export const ALIVE_TTL_SECONDS = 20;
export const BEAT_MS = 2000;
/** BullMQ's hash of a job, and its set of failed jobs. */
export const bullJobKey = (jobId: string) => `${QUEUE_PREFIX}:${QUEUE_NAME}:${jobId}`;
export const bullFailedKey = `${QUEUE_PREFIX}:${QUEUE_NAME}:failed`;

export const jobId = (run: string, key: string) => `${run}-${key}`;

/** A queued job's data. */
export interface QueuedJob {
  run: string;
  /** the item's key in its run: stable across restarts of the coordinator (a tournament game's schedule index, a submission's position) */
  key: string;
  /** the item, serialized (encode) */
  item: string;
}

/** What a worker records for an item: the job's result, or why it failed (a UserError stays one). */
export type Outcome<Result> = { ok: true; result: Result; worker: string; ms: number } | { ok: false; user: boolean; message: string; stack: string; worker: string };

/** A run's description, as the hash `mancala:run:<run>` holds it. */
export interface RunMeta {
  version: string;
  kind: string;
  setup: string;
  /** the coordinator's working folder: relative paths of the run are relative to it */
  cwd: string;
  /** the paths the run reads, as the coordinator named them (shipped in mancala:run:<run>:files) */
  files: string[];
  /** what the run is, for workers' lines: "tournament", "grade" */
  label: string;
  /** who coordinates, for workers' lines */
  coordinator: string;
}

/** Plain data as the pool's threads would receive it (structured clone), in base64. */
export function encode(value: unknown): string {
  return serialize(value).toString('base64');
}

export function decode<T>(text: string): T {
  return deserialize(Buffer.from(text, 'base64')) as T;
}

/**
 * A job kind's name on every machine: its module's path from the project's root and the
 * export's name (`framework/tournaments/executor.ts#tournamentJob`), never its URL, which names
 * this machine's folders.
 */
export function kindId(kind: JobKind<never, never, never, never> | JobKind<any, any, any, any>): string {
  const path = relative(PROJECT_ROOT_DIR, fileURLToPath(kind.module)).split(sep).join('/');
  return `${path}#${kind.name}`;
}

/** A run's id: the digest of everything that decides its items' results. */
export function runIdOf(parts: readonly string[]): string {
  const h = createHash('sha256');
  for (const p of parts) h.update(`${p.length}:${p}`);
  return h.digest('hex').slice(0, 20);
}

/**
 * Records an outcome once and tells the coordinator: HSETNX, and only when that set it, RPUSH,
 * atomically (a worker killed between the two would otherwise leave a result no one hears of).
 * Returns 1 when this call recorded it.
 */
export const RECORD_OUTCOME_LUA = `
if redis.call('HSETNX', KEYS[1], ARGV[1], ARGV[2]) == 1 then
  redis.call('RPUSH', KEYS[2], 'r ' .. ARGV[1])
  redis.call('EXPIRE', KEYS[1], ARGV[3])
  redis.call('EXPIRE', KEYS[2], ARGV[3])
  return 1
end
return 0`;
