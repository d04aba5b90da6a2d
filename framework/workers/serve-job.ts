/**
 * The worker thread's side of a pooled job (pool.ts): opens the job from its module (one of those
 * bundled into the thread: worker-bundle.ts), plays the items the parent sends over the task's
 * port one at a time, and closes the job when told or when an item fails. A failure is the task's
 * result, not a thrown error: a thrown error crosses the thread as a plain Error and a UserError
 * would lose its class.
 */
import { receiveMessageOnPort, type MessagePort } from 'node:worker_threads';
import { UserError } from '../errors.ts';
import type { Job, JobFactory } from './job.ts';
import type { FromJob, JobFailure, JobTask, ToJob } from './pool.ts';

function failureOf(e: unknown): JobFailure {
  return {
    user: e instanceof UserError,
    message: e instanceof Error ? e.message : String(e),
    stack: e instanceof Error ? (e.stack ?? '') : '',
  };
}

/**
 * Items from `port`, played one at a time in the order sent, until the parent says done (and the
 * items held are played) or stop (the item in play is the last). Items are asked for by `ready`
 * once the job is open; short ones come one ahead, so the next is here when a result goes out:
 * waiting for the parent, which needs a core the jobs keep busy, left each thread idle a fifth of
 * the time.
 */
function playItems(job: Job<unknown, unknown>, port: MessagePort): Promise<JobFailure | undefined> {
  return new Promise((resolve) => {
    const held: unknown[] = [];
    let ending = false;
    let playing = false;
    const receive = (m: ToJob<unknown>) => {
      if (m.type === 'item') held.push(m.item);
      else ending = true;
      if (m.type === 'stop') held.length = 0;
    };
    const playNext = () => {
      // Messages that came while the last item played: a stop must be seen before the next item starts.
      for (let m = receiveMessageOnPort(port); m !== undefined; m = receiveMessageOnPort(port)) receive(m.message as ToJob<unknown>);
      playing = held.length > 0;
      if (!playing) {
        if (ending) resolve(undefined);
        return;
      }
      job.run(held.shift()).then(
        (result) => {
          port.postMessage({ type: 'result', result } satisfies FromJob<unknown>);
          playNext();
        },
        (e: unknown) => resolve(failureOf(e)),
      );
    };
    port.on('message', (m: ToJob<unknown>) => {
      receive(m);
      if (!playing) playNext();
    });
    port.postMessage({ type: 'ready' } satisfies FromJob<unknown>);
  });
}

/** The job modules a thread can serve, by URL (the thread's bundle imports them: worker-bundle.ts). */
export type JobModules = Readonly<Record<string, Readonly<Record<string, unknown>>>>;

export async function serveJob(task: JobTask, modules: JobModules): Promise<JobFailure | undefined> {
  let job: Job<unknown, unknown>;
  try {
    const module = modules[task.module];
    if (module === undefined) throw new Error(`${task.module} is not among this thread's job modules`);
    const factory = module[task.name] as JobFactory<unknown, unknown, unknown, unknown> | undefined;
    if (typeof factory !== 'function') throw new Error(`${task.module} exports no job factory ${task.name}`);
    const tell = (event: unknown) => task.port.postMessage({ type: 'event', event } satisfies FromJob<unknown>);
    job = await factory(task.setup, tell);
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
