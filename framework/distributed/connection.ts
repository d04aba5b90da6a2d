/**
 * Connections to the queue's Redis: BullMQ's (its Queue and Worker make their own ioredis clients
 * through the factory installed here), and the coordinator's and worker's own commands (a
 * RedisLink: reconnects on the next command after the connection dropped, e.g. Redis restarted; a
 * command that fails meanwhile rejects, and the caller tries again later).
 */
import { createIORedisClient, RedisConnection, type RedisOptions } from 'bullmq';
import { Redis } from 'ioredis';
import type { QueueTarget } from './queue-url.ts';
import { RedisCommands, type RedisTarget } from './redis-commands.ts';

/**
 * BullMQ's connections are ioredis clients. BullMQ loads ioredis with require(), which an ES
 * module build does not have, so the factory makes them. maxRetriesPerRequest null: a Worker's
 * blocking commands wait through a reconnection instead of failing (BullMQ requires it).
 * Idempotent.
 */
function installClientFactory(): void {
  RedisConnection.clientFactory ??= (opts: RedisOptions) => createIORedisClient(new Redis({ ...(opts as object), maxRetriesPerRequest: null }));
}

/** BullMQ's `connection` option for the target. */
export function bullConnection(t: QueueTarget): RedisOptions {
  installClientFactory();
  return {
    host: t.host,
    port: t.port,
    ...(t.username !== undefined ? { username: t.username } : {}),
    ...(t.password !== undefined ? { password: t.password } : {}),
    ...(t.db !== undefined ? { db: t.db } : {}),
  };
}

type Arg = string | Buffer | number;

/** Commands of our own on one connection, made again on the next command once it has dropped. */
export class RedisLink {
  private conn: RedisCommands | undefined;
  private opening: Promise<RedisCommands> | undefined;
  private closed = false;

  constructor(private readonly target: RedisTarget) {}

  private connection(): Promise<RedisCommands> {
    if (this.conn?.connected === true) return Promise.resolve(this.conn);
    this.opening ??= (async () => {
      this.conn?.close();
      const c = new RedisCommands({ connectTimeoutMs: 3000, ...this.target });
      try {
        await c.connect();
      } catch (e) {
        c.close();
        throw e;
      }
      if (this.closed) {
        c.close();
        throw new Error('Connection closed');
      }
      this.conn = c;
      return c;
    })().finally(() => {
      this.opening = undefined;
    });
    return this.opening;
  }

  async send(command: string, args: readonly Arg[] = []): Promise<unknown> {
    if (this.closed) throw new Error('Connection closed');
    return (await this.connection()).send(command, args);
  }

  close(): void {
    this.closed = true;
    this.conn?.close();
    this.conn = undefined;
  }
}
