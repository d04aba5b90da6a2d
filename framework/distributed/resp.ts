/**
 * A small Redis client over RESP2 (node:net), for BullMQ. BullMQ 6 brings no Redis driver of its
 * own: ioredis, node-redis and Bun's built-in client are optional peers, and none is a dependency
 * here. BullMQ's adapter for Bun's client (createBunRedisClient) asks of the raw client only what
 * this class has: `send(command, args)`, `connected`, `connect()`, `close()`, `duplicate()`, and
 * the `onconnect`/`onclose` callbacks. The adapter does the rest as it does for Bun: Lua scripts
 * (EVALSHA, falling back to EVAL), MULTI/EXEC, reply shapes, and reconnecting with a backoff when
 * the connection drops (a new raw client from `duplicate()`).
 *
 * Replies as ioredis gives them by default: simple and bulk strings as strings, integers as
 * numbers, nil as null, arrays as arrays; an error reply rejects the command (an error inside an
 * array, as EXEC returns them, is an Error in the array).
 */
import { connect as netConnect, type Socket } from 'node:net';

export interface RespTarget {
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

type Reply = string | number | null | Error | Reply[];
type Arg = string | Buffer | number;

/** Thrown by a command when the connection is (or becomes) closed: BullMQ's adapter recognises the wording. */
const CLOSED = 'Connection closed';

class Incomplete extends Error {}
const INCOMPLETE = new Incomplete('incomplete reply');

/** Parses one reply from `buf` at `at`; throws INCOMPLETE when the buffer ends first. */
function parseReply(buf: Buffer, at: number): { value: Reply; next: number } {
  if (at >= buf.length) throw INCOMPLETE;
  const end = buf.indexOf('\r\n', at);
  if (end < 0) throw INCOMPLETE;
  const type = buf[at];
  const line = buf.toString('utf8', at + 1, end);
  switch (type) {
    case 0x2b: // +
      return { value: line, next: end + 2 };
    case 0x2d: // -
      return { value: new Error(line), next: end + 2 };
    case 0x3a: // :
      return { value: Number(line), next: end + 2 };
    case 0x24: {
      // $
      const n = Number(line);
      if (n < 0) return { value: null, next: end + 2 };
      if (buf.length < end + 2 + n + 2) throw INCOMPLETE;
      return { value: buf.toString('utf8', end + 2, end + 2 + n), next: end + 2 + n + 2 };
    }
    case 0x2a: {
      // *
      const n = Number(line);
      if (n < 0) return { value: null, next: end + 2 };
      const items: Reply[] = [];
      let next = end + 2;
      for (let k = 0; k < n; k++) {
        const r = parseReply(buf, next);
        items.push(r.value);
        next = r.next;
      }
      return { value: items, next };
    }
    default:
      throw new Error(`Redis protocol error: unexpected reply type ${JSON.stringify(String.fromCharCode(type!))}`);
  }
}

function encode(command: string, args: readonly Arg[]): Buffer {
  const parts: Buffer[] = [Buffer.from(`*${args.length + 1}\r\n$${Buffer.byteLength(command)}\r\n${command}\r\n`)];
  for (const a of args) {
    const b = Buffer.isBuffer(a) ? a : Buffer.from(String(a));
    parts.push(Buffer.from(`$${b.length}\r\n`), b, Buffer.from('\r\n'));
  }
  return Buffer.concat(parts);
}

interface Pending {
  resolve(v: Reply): void;
  reject(e: Error): void;
}

/** One connection to Redis (see the module comment). */
export class RespConnection {
  connected = false;
  onconnect: (() => void) | undefined;
  onclose: ((error?: Error) => void) | undefined;
  onerror: ((error: Error) => void) | undefined;

  private socket: Socket | undefined;
  private connecting: Promise<void> | undefined;
  private closedByUser = false;
  private buffer: Buffer = Buffer.alloc(0);
  private readonly pending: Pending[] = [];
  /** commands sent while the connection was being made: written once it is ready */
  private readonly queued: { data: Buffer; pending: Pending }[] = [];

  constructor(readonly target: RespTarget) {}

  /** A new, unconnected client for the same server (BullMQ's adapter makes its blocking connections and reconnects with it). */
  async duplicate(): Promise<RespConnection> {
    return new RespConnection(this.target);
  }

  connect(): Promise<void> {
    if (this.connected) return Promise.resolve();
    this.connecting ??= this.open().finally(() => {
      this.connecting = undefined;
    });
    return this.connecting;
  }

  private open(): Promise<void> {
    this.closedByUser = false;
    return new Promise<void>((resolve, reject) => {
      const socket = netConnect({ host: this.target.host, port: this.target.port });
      this.socket = socket;
      socket.setNoDelay(true);
      let settled = false;
      const timer = setTimeout(() => fail(new Error(`connection to ${this.target.host}:${this.target.port} timed out after ${this.target.connectTimeoutMs ?? 5000} ms`)), this.target.connectTimeoutMs ?? 5000);
      const fail = (e: Error) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        socket.destroy();
        this.dropped(e);
        reject(e);
      };
      socket.on('data', (chunk: Buffer) => this.received(chunk));
      socket.on('error', (e) => {
        if (!settled) fail(e);
        else this.onerror?.(e);
      });
      socket.on('close', () => {
        if (!settled) fail(new Error(`${CLOSED} before it was ready`));
        else if (this.socket === socket) this.dropped(this.closedByUser ? undefined : new Error(`${CLOSED} by the server`));
      });
      socket.once('connect', () => {
        const hello: Promise<Reply>[] = [];
        if (this.target.password !== undefined) {
          const auth = this.target.username !== undefined ? [this.target.username, this.target.password] : [this.target.password];
          hello.push(this.write('AUTH', auth));
        }
        if (this.target.db !== undefined && this.target.db !== 0) hello.push(this.write('SELECT', [this.target.db]));
        Promise.all(hello).then(
          () => {
            if (settled) return;
            settled = true;
            clearTimeout(timer);
            this.connected = true;
            for (const q of this.queued.splice(0)) {
              this.pending.push(q.pending);
              socket.write(q.data);
            }
            this.onconnect?.();
            resolve();
          },
          (e: Error) => fail(e),
        );
      });
    });
  }

  /** The connection ended (or never started): every command waiting fails, and the owner hears of it. */
  private dropped(error: Error | undefined): void {
    const wasUp = this.connected || error !== undefined;
    this.connected = false;
    this.socket = undefined;
    this.buffer = Buffer.alloc(0);
    const why = new Error(CLOSED);
    for (const p of this.pending.splice(0)) p.reject(why);
    for (const q of this.queued.splice(0)) q.pending.reject(why);
    if (wasUp && !this.closedByUser) this.onclose?.(error);
  }

  private received(chunk: Buffer): void {
    this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
    let at = 0;
    for (;;) {
      let r: { value: Reply; next: number };
      try {
        r = parseReply(this.buffer, at);
      } catch (e) {
        if (e === INCOMPLETE) break;
        this.socket?.destroy(e as Error);
        return;
      }
      at = r.next;
      const p = this.pending.shift();
      if (p === undefined) continue; // a reply nobody waits for (cannot happen in RESP2 without pub/sub)
      if (r.value instanceof Error) p.reject(r.value);
      else p.resolve(r.value);
    }
    this.buffer = at >= this.buffer.length ? Buffer.alloc(0) : this.buffer.subarray(at);
  }

  /** Writes a command on the open socket (used while connecting, for AUTH and SELECT). */
  private write(command: string, args: readonly Arg[]): Promise<Reply> {
    return new Promise((resolve, reject) => {
      this.pending.push({ resolve, reject });
      this.socket!.write(encode(command, args));
    });
  }

  /** Sends one command; its reply (an error reply rejects). Commands sent while connecting wait for the connection. */
  send(command: string, args: readonly Arg[] = []): Promise<Reply> {
    return new Promise((resolve, reject) => {
      const data = encode(command, args);
      if (this.connected && this.socket !== undefined) {
        this.pending.push({ resolve, reject });
        this.socket.write(data);
      } else if (this.connecting !== undefined) {
        this.queued.push({ data, pending: { resolve, reject } });
      } else {
        reject(new Error(CLOSED));
      }
    });
  }

  // The rest of Bun's client that BullMQ's adapter type names (the adapter itself sends everything through send()).
  async get(key: string): Promise<string | null> {
    return (await this.send('GET', [key])) as string | null;
  }

  async smembers(key: string): Promise<unknown[]> {
    return (await this.send('SMEMBERS', [key])) as unknown[];
  }

  async incr(key: string): Promise<number> {
    return (await this.send('INCR', [key])) as number;
  }

  close(): void {
    this.closedByUser = true;
    const socket = this.socket;
    this.dropped(undefined);
    socket?.destroy();
  }
}
