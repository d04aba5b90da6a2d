/**
 * The worker thread's side of a pooled job (pool.ts): opens the job from its module, plays the
 * items the parent sends over the task's port one at a time, and closes the job when told or when
 * an item fails. A failure is the task's result, not a thrown error: a thrown error crosses the
 * thread as a plain Error and a UserError would lose its class.
 */
import type { MessagePort } from 'node:worker_threads';
import { UserError } from '../errors.ts';
import type { Job, JobFailure, JobTask, ToJob } from './pool.ts';

function failureOf(e: unknown): JobFailure {
  return {
    user: e instanceof UserError,
    message: e instanceof Error ? e.message : String(e),
    stack: e instanceof Error ? (e.stack ?? '') : '',
  };
}

/** Items from `port` until the parent says done; each is played after the previous one's result is posted. */
function playItems(job: Job<unknown, unknown>, port: MessagePort): Promise<JobFailure | undefined> {
  return new Promise((resolve) => {
    port.on('message', (m: ToJob<unknown>) => {
      if (m.type === 'done') return resolve(undefined);
      job.run(m.item).then(
        (result) => port.postMessage({ type: 'result', result }),
        (e: unknown) => resolve(failureOf(e)),
      );
    });
  });
}

export async function serveJob(task: JobTask): Promise<JobFailure | undefined> {
  let job: Job<unknown, unknown>;
  try {
    const module = (await import(task.module)) as Record<string, (setup: unknown) => Job<unknown, unknown> | Promise<Job<unknown, unknown>>>;
    const factory = module[task.name];
    if (typeof factory !== 'function') throw new Error(`${task.module} exports no job factory ${task.name}`);
    job = await factory(task.setup);
  } catch (e) {
    task.port.close();
    return failureOf(e);
  }
  try {
    return await playItems(job, task.port);
  } finally {
    task.port.close();
    await job.close();
  }
}
