/**
 * Jobs for pool.test.ts: small enough to show where an item ran and how often its job was opened.
 * Loaded by the pool's threads through their module URL, as real jobs are.
 */
import { threadId } from 'node:worker_threads';
import { UserError } from '../errors.ts';
import { jobKind, type Job } from './pool.ts';

export interface Played {
  item: number;
  /** the thread that ran the item */
  threadId: number;
  /** the job's serial number in its thread (1 for the thread's first job) */
  job: number;
  /** items this job ran before this one */
  before: number;
}

let jobsOpened = 0;

/** Doubles nothing: says where and by which job each item ran; item < 0 fails as a user's mistake. */
export function whereJob(setup: { failOn?: number }): Job<number, Played> {
  const job = ++jobsOpened;
  let ran = 0;
  return {
    async run(item) {
      if (item === setup.failOn) throw new UserError(`item ${item}: refused`);
      // A little work, so that both jobs get items.
      await new Promise((resolve) => setTimeout(resolve, 2));
      return { item, threadId, job, before: ran++ };
    },
    close: async () => {},
  };
}

export const WHERE_JOB = jobKind(import.meta.url, 'whereJob', whereJob);

/** A job whose factory fails: the item is never run. */
export function brokenJob(): Job<number, number> {
  throw new UserError('no such agent');
}

export const BROKEN_JOB = jobKind(import.meta.url, 'brokenJob', brokenJob);
