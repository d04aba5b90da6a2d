/**
 * A job in a worker thread of its own (--jobs > 1). Reference agents search in-process, so jobs
 * sharing one thread would run their searches one after another and, worse, a long search in one
 * game would hold up the timers that time another game's sandboxed agent. A thread per job gives
 * each its own core and its own clock. The thread plays one game at a time (worker.ts).
 */
import { Worker } from 'node:worker_threads';
import { UserError } from '../errors.ts';
import type { GameRecord } from '../matches/types.ts';
import type { GameExecutor, JobSetup } from './executor.ts';
import type { ScheduledGame } from './schedule.ts';

export type ToWorker = { type: 'play'; game: ScheduledGame } | { type: 'close' };
export type FromWorker =
  | { type: 'played'; index: number; record: GameRecord }
  | { type: 'failed'; index: number; user: boolean; message: string; stack: string }
  | { type: 'closed' };

/** How long a closing job may take to close its players before its thread is stopped. */
const CLOSE_TIMEOUT_MS = 5000;

export function workerExecutor(setup: JobSetup): GameExecutor {
  const worker = new Worker(new URL('./worker-entry.mjs', import.meta.url), { workerData: setup });
  let pending: { resolve(r: GameRecord): void; reject(e: Error): void } | undefined;
  let closed: (() => void) | undefined;
  let dead: Error | undefined;

  const fail = (e: Error) => {
    dead = e;
    pending?.reject(e);
    pending = undefined;
    closed?.();
  };
  worker.on('message', (m: FromWorker) => {
    if (m.type === 'closed') return closed?.();
    const p = pending;
    pending = undefined;
    if (m.type === 'played') p?.resolve(m.record);
    else if (m.user) p?.reject(new UserError(m.message));
    else p?.reject(Object.assign(new Error(m.message), { stack: m.stack }));
  });
  worker.on('error', (e) => fail(e));
  worker.on('exit', (code) => fail(new Error(`a tournament job's thread stopped (exit code ${code})`)));

  return {
    play(game) {
      if (dead !== undefined) return Promise.reject(dead);
      if (pending !== undefined) return Promise.reject(new Error('internal: a job plays one game at a time'));
      return new Promise<GameRecord>((resolve, reject) => {
        pending = { resolve, reject };
        worker.postMessage({ type: 'play', game } satisfies ToWorker);
      });
    },
    async close() {
      if (dead === undefined) {
        const done = new Promise<void>((resolve) => (closed = resolve));
        worker.postMessage({ type: 'close' } satisfies ToWorker);
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([done, new Promise<void>((resolve) => (timer = setTimeout(resolve, CLOSE_TIMEOUT_MS)))]);
        clearTimeout(timer);
      }
      await worker.terminate();
    },
  };
}
