import { threadId } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { UserError } from '../errors.ts';
import { PoolThreadCapped, runJobs, runOnPoolThread } from './pool.ts';
import { barrier, BROKEN_JOB, SPIN_JOB, WHERE_JOB, type Played, type Started, type WhereSetup } from '../../testcases/fixtures/pool-jobs.ts';

const items = Array.from({ length: 30 }, (_, k) => k);

async function run(jobs: number, setup: WhereSetup = {}): Promise<Played[]> {
  const played: Played[] = [];
  await runJobs({ kind: WHERE_JOB, setup, items, jobs, onResult: (p) => void played.push(p) });
  return played;
}

describe('runJobs', () => {
  it('plays every item once in this thread with one job, opened once', async () => {
    const played = await run(1);
    expect(played.map((p) => p.item)).toEqual(items);
    expect(new Set(played.map((p) => p.threadId))).toEqual(new Set([threadId]));
    expect(played.map((p) => p.before)).toEqual(items);
  });

  it("plays one job in this thread and each other on a pool thread of its own, and reuses the pool's threads for the next run", async () => {
    const first = await run(3, { barrier: barrier(3) });
    expect(first.map((p) => p.item).sort((a, b) => a - b)).toEqual(items);
    const threads = new Set(first.map((p) => p.threadId));
    expect(threads.size).toBe(3);
    expect(threads.has(threadId)).toBe(true);
    // One job a thread, kept from item to item.
    for (const t of threads) {
      const mine = first.filter((p) => p.threadId === t);
      expect(new Set(mine.map((p) => p.job)).size).toBe(1);
      expect(mine.map((p) => p.before)).toEqual(mine.map((_, k) => k));
    }
    const second = await run(3, { barrier: barrier(3) });
    expect(new Set(second.map((p) => p.threadId))).toEqual(threads);
    // The pool threads' second jobs: started once, not once per run.
    expect(new Set(second.filter((p) => p.threadId !== threadId).map((p) => p.job))).toEqual(new Set([2]));
  });

  it('sends no item to a job before it is open: a pool thread slow to start leaves the items to this one', async () => {
    // 30 items of 2 ms here, against a second in the pool's thread before its job opens.
    const played = await run(2, { slowToOpenOffThread: { thread: threadId, ms: 1000 } });
    expect(played.map((p) => p.item)).toEqual(items);
    expect(new Set(played.map((p) => p.threadId))).toEqual(new Set([threadId]));
  });

  it("passes each job's events on, each before its item's result, from this thread and from the pool's", async () => {
    const seen: string[] = [];
    const started: Started[] = [];
    await runJobs({
      kind: WHERE_JOB,
      setup: { barrier: barrier(2) },
      items,
      jobs: 2,
      onEvent: (e) => {
        started.push(e);
        seen.push(`start ${e.item}`);
      },
      onResult: (p) => void seen.push(`result ${p.item}`),
    });
    for (const item of items) expect(seen.indexOf(`start ${item}`)).toBeLessThan(seen.indexOf(`result ${item}`));
    expect(started.map((e) => e.item).sort((a, b) => a - b)).toEqual(items);
    expect(new Set(started.map((e) => e.threadId)).size).toBe(2);
  });

  it("stops at an item's failure and keeps a UserError a UserError across the thread", async () => {
    await expect(run(2, { failOn: 5 })).rejects.toThrow('item 5: refused');
    // Every item the pool's thread plays fails there.
    await expect(run(2, { failOffThread: threadId, barrier: barrier(2) })).rejects.toThrow(UserError);
    await expect(run(2, { failOffThread: threadId, barrier: barrier(2) })).rejects.toThrow(/refused in thread [1-9]/);
    await expect(run(1, { failOn: 5 })).rejects.toThrow(UserError);
  });

  it('reports a job that cannot open', async () => {
    const onResult = () => {};
    await expect(runJobs({ kind: BROKEN_JOB, setup: {}, items, jobs: 2, onResult })).rejects.toThrow(new UserError('no such agent'));
    await expect(runJobs({ kind: BROKEN_JOB, setup: {}, items, jobs: 1, onResult })).rejects.toThrow('no such agent');
  });

  it('starts no item once aborted', async () => {
    const stop = new AbortController();
    const played: number[] = [];
    await runJobs({
      kind: WHERE_JOB,
      setup: {},
      items,
      jobs: 2,
      signal: stop.signal,
      onResult: (p) => {
        played.push(p.item);
        if (played.length === 3) stop.abort();
      },
    });
    expect(played).toHaveLength(3);
  });
});

describe('runOnPoolThread', () => {
  it('plays an item on a pool thread, not this one, whose event loop keeps turning meanwhile', async () => {
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 20);
    try {
      const ran = await runOnPoolThread(SPIN_JOB, null, 1500, { threads: 1, capMs: 60_000 });
      expect(ran).not.toBe(threadId);
      // 1.5 s spun on the other thread: this one ticked along (a tick every 20 ms; a busy machine gets far fewer).
      expect(ticks).toBeGreaterThan(10);
    } finally {
      clearInterval(ticker);
    }
  });

  it('ends the thread of an item past its cap, and the pool serves the next item', async () => {
    const started = performance.now();
    await expect(runOnPoolThread(SPIN_JOB, null, 0, { threads: 1, capMs: 500 })).rejects.toBeInstanceOf(PoolThreadCapped);
    expect(performance.now() - started).toBeLessThan(30_000);
    expect(await runOnPoolThread(SPIN_JOB, null, 1, { threads: 1, capMs: 60_000 })).not.toBe(threadId);
  });
});
