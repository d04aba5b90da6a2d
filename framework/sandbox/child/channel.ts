/**
 * The child's side of the channel (protocol.ts): requests read from stdin (fd 0), answers written
 * to fd 3, each answer as `\n<token> <json>\n`. Everything here runs on the captured built-ins of
 * intrinsics.ts, so student code that replaces globals cannot change what is read or sent.
 *
 * Requests are read from fd 0 through a socket of the channel's own, not process.stdin: the
 * listeners of process.stdin could be listed and called by student code, which would let it feed
 * the runtime requests the grader never sent. The bootstrap hides what could still lead to this
 * socket (process._getActiveHandles) and gives student code an empty process.stdin.
 */
import { Socket } from 'node:net';
import {
  bytesIndexOf,
  bytesSet,
  fsWriteSync,
  isArray,
  isFinite,
  objectKeys,
  quote,
  toStr,
  U8,
  utf8Bytes,
  utf8Text,
} from './intrinsics.ts';

const IN_FD = 0;
const OUT_FD = 3;

/** What the bootstrap hands the runtime it compiled (child/bootstrap.ts). */
export interface RuntimeHost {
  /** what each line to fd 3 must start with; only the runtime's closure holds it */
  token: string;
  /** `import()` of a role's module: the runtime is compiled from memory, where `import()` is not available */
  importModule(url: string): Promise<Record<string, unknown>>;
}

/** The runtime's entry point (the `start` export of main.ts): returns its request handler. */
export type StartRuntime = (host: RuntimeHost) => (line: string) => void;

/**
 * Calls `onLine` for each line arriving on fd 0, then `onEnd` once the parent closes it (or it
 * fails). A stream, not reads in libuv's thread pool: a thread blocked in read() would keep the
 * process from exiting (process.exit waits for the pool) until the parent closed stdin.
 */
export function readRequests(onLine: (line: string) => void, onEnd: () => void): void {
  const input = new Socket({ fd: IN_FD, readable: true, writable: false });
  let pending = new U8(0);
  input.on('data', (chunk: Uint8Array) => {
    const joined = new U8(pending.length + chunk.length);
    bytesSet(joined, pending, 0);
    bytesSet(joined, chunk, pending.length);
    let start = 0;
    for (let nl = bytesIndexOf(joined, 10, start); nl !== -1; nl = bytesIndexOf(joined, 10, start)) {
      const line = utf8Text(new U8(joined.buffer, start, nl - start));
      start = nl + 1;
      onLine(line);
    }
    pending = new U8(joined.buffer, start, joined.length - start);
  });
  input.on('end', onEnd);
  input.on('error', onEnd);
}

/** Nesting deeper than any message has (result → observation → trace → event → field) means a cycle. */
const MAX_DEPTH = 8;

/**
 * JSON text of a message, written here rather than by JSON.stringify: that one calls toJSON
 * methods (Object.prototype.toJSON is the student's to define) and would hand them the message.
 * Non-finite numbers become "Infinity", "-Infinity", "NaN" (protocol.ts); undefined fields and
 * functions are left out, as JSON.stringify leaves them out.
 */
export function encodeJson(value: unknown, depth = 0): string {
  if (depth > MAX_DEPTH) throw new RangeError('the message nests too deeply (a cycle?)');
  switch (typeof value) {
    case 'number':
      return isFinite(value) ? toStr(value) : `"${toStr(value)}"`;
    case 'string':
      return quote(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'object': {
      if (value === null) return 'null';
      if (isArray(value)) {
        let out = '[';
        for (let k = 0; k < value.length; k++) out += (k === 0 ? '' : ',') + encodeJson(value[k] === undefined ? null : value[k], depth + 1);
        return out + ']';
      }
      const record = value as Record<string, unknown>;
      const keys = objectKeys(record);
      let out = '{';
      for (let k = 0; k < keys.length; k++) {
        const field = record[keys[k]!];
        if (field === undefined || typeof field === 'function') continue;
        out += (out.length === 1 ? '' : ',') + quote(keys[k]!) + ':' + encodeJson(field, depth + 1);
      }
      return out + '}';
    }
    default:
      return 'null';
  }
}

/** A function that writes one message to fd 3 with `token`, synchronously (a report sent before an endless loop arrives). */
export function tokenWriter(token: string): (json: string) => void {
  return (json) => {
    const bytes = utf8Bytes(`\n${token} ${json}\n`);
    let offset = 0;
    while (offset < bytes.length) {
      try {
        offset += fsWriteSync(OUT_FD, bytes, offset, bytes.length - offset);
      } catch (e) {
        // The parent reads continuously; a full pipe only means: try again.
        if ((e as NodeJS.ErrnoException).code !== 'EAGAIN') throw e;
      }
    }
  };
}
