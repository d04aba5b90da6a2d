/**
 * How many `mancala worker` processes are connected to a queue right now: what an arena's
 * /metrics reports under --queue. BullMQ names each worker's connection in Redis (CLIENT
 * SETNAME), so the count is Redis's own list of clients, not a worker's say-so.
 */
import { Queue } from 'bullmq';
import { bullConnection } from './connection.ts';
import { QUEUE_NAME, QUEUE_PREFIX } from './protocol.ts';
import { parseQueueUrl } from './queue-url.ts';

export class QueueWorkerCounter {
  private queue: Queue | undefined;

  constructor(private readonly url: string) {}

  /** The workers connected now; undefined when Redis cannot be asked (down, or refusing CLIENT LIST). */
  async count(): Promise<number | undefined> {
    try {
      this.queue ??= this.open();
      return await this.queue.getWorkersCount();
    } catch {
      return undefined;
    }
  }

  async close(): Promise<void> {
    const q = this.queue;
    this.queue = undefined;
    await q?.close().catch(() => {});
  }

  private open(): Queue {
    const q = new Queue(QUEUE_NAME, { connection: bullConnection(parseQueueUrl(this.url)), prefix: QUEUE_PREFIX });
    // A dropped connection is an 'error' event; count() says undefined meanwhile.
    q.on('error', () => {});
    return q;
  }
}
