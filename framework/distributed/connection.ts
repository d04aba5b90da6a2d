/**
 * Connections to the queue's Redis: BullMQ's (its Queue and Worker make their own, through the
 * client factory installed here: BullMQ's adapter for Bun's client over resp.ts), and the
 * coordinator's and worker's own commands (a RedisLink: reconnects on the next command after the
 * connection dropped, e.g. Redis restarted; a command that fails meanwhile rejects, and the caller
 * tries again later).
 */
import { createBunRedisClient, RedisConnection, type BunRedisRawClient, type RedisOptions } from 'bullmq';
import type { QueueTarget } from './queue-url.ts';
import { RespConnection, type RespTarget } from './resp.ts';

/** BullMQ's connections go through resp.ts (no ioredis here). Idempotent. */
function installClientFactory(): void {
  RedisConnection.clientFactory ??= (opts: RedisOptions) => {
    const raw = new RespConnection({
      host: opts.host ?? '127.0.0.1',
      port: opts.port ?? 6379,
      ...(opts.username !== undefined ? { username: opts.username } : {}),
      ...(opts.password !== undefined ? { password: opts.password } : {}),
      ...(opts.db !== undefined ? { db: opts.db } : {}),
    });
    return createBunRedisClient(raw as unknown as BunRedisRawClient);
  };
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
  private conn: RespConnection | undefined;
  private opening: Promise<RespConnection> | undefined;
  private closed = false;

  constructor(private readonly target: RespTarget) {}

  private connection(): Promise<RespConnection> {
    if (this.conn?.connected === true) return Promise.resolve(this.conn);
    this.opening ??= (async () => {
      this.conn?.close();
      const c = new RespConnection({ connectTimeoutMs: 3000, ...this.target });
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
