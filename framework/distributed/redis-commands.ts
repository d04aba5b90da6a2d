/**
 * One connection to Redis for the coordinator's and workers' own commands (results, files, the
 * run's heartbeat), through ioredis, the well-kept Node driver BullMQ itself is built around.
 * `connect()` once; `send()` runs a command and rejects at once while there is no connection (no
 * offline queue, no automatic reconnection: RedisLink in connection.ts makes a new one on the next
 * command, and callers try again later). Replies as ioredis gives them: strings, numbers, null,
 * arrays.
 */
import { Redis } from 'ioredis';

export interface RedisTarget {
  host: string;
  port: number;
  /** AUTH after connecting: a password (and a user name, Redis 6 ACLs) */
  username?: string;
  password?: string;
  /** SELECT after connecting */
  db?: number;
  /** ms before a connection attempt gives up; default 5000 */
  connectTimeoutMs?: number;
}

type Arg = string | Buffer | number;

/** A command that has no answer by then fails (the largest is a submission's files, up to 64 MB). */
const COMMAND_TIMEOUT_MS = 60_000;

export class RedisCommands {
  private readonly client: Redis;
  private lastError: Error | undefined;

  constructor(readonly target: RedisTarget) {
    this.client = new Redis({
      host: target.host,
      port: target.port,
      ...(target.username !== undefined ? { username: target.username } : {}),
      ...(target.password !== undefined ? { password: target.password } : {}),
      ...(target.db !== undefined ? { db: target.db } : {}),
      lazyConnect: true,
      connectTimeout: target.connectTimeoutMs ?? 5000,
      // Connected is enough (a server that never answers is found by the first command's timeout).
      enableReadyCheck: false,
      commandTimeout: COMMAND_TIMEOUT_MS,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
    });
    // A dropped connection shows as the next command's rejection; remember why for connect().
    this.client.on('error', (e: Error) => {
      this.lastError = e;
    });
  }

  get connected(): boolean {
    return this.client.status === 'ready';
  }

  /** Connects (and authenticates, selects the database); rejects with the socket's or Redis's error. */
  async connect(): Promise<void> {
    try {
      await this.client.connect();
    } catch (e) {
      throw this.lastError ?? e;
    }
  }

  send(command: string, args: readonly Arg[] = []): Promise<unknown> {
    return this.client.call(command, ...args.map((a) => (typeof a === 'number' ? String(a) : a)));
  }

  close(): void {
    this.client.disconnect();
  }
}
