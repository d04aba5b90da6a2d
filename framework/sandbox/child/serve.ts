/**
 * The child runtime's request loop (main.ts starts it). Bundled by framework/sandbox/runtime.ts, compiled and started by child/bootstrap.ts, which
 * hands each request line to the function serveRequests returns.
 *
 * Answers leave on fd 3 with the token of the boot message (child/channel.ts), written
 * synchronously, so a report sent just before an endless loop still reaches the parent. The token
 * lives only in this closure: student code can write to fd 3, but the parent drops its lines.
 *
 * Requests come from the parent, so they are not validated again here (no zod on this side: its
 * internals use globals student code can replace); they are parsed with the captured JSON.parse.
 * A request id the runtime has seen before is ignored: only a replay could bring it.
 *
 * Argument `--lock-kill`: the parent could not give this process its own pid namespace, so
 * process.kill is disabled here (it could otherwise reach the grader by pid).
 */
import { MAX_TEXT_CHARS } from '../protocol-limits.ts';
import type { ChildMessage, parentMessageSchema } from '../protocol.ts';
import type * as z from 'zod';
import { encodeJson, tokenWriter, type RuntimeHost } from './channel.ts';
import { isSafeInteger, logError, nextTurn, parseJson, PromiseCtor, stringSlice } from './intrinsics.ts';
import { evaluate, evaluateMany, failure, load, move } from './requests.ts';

type Request = z.output<typeof parentMessageSchema>;

function clip(s: string): string {
  return s.length > MAX_TEXT_CHARS ? stringSlice(s, 0, MAX_TEXT_CHARS - 1) + '…' : s;
}

/** Serves the parent's requests, one at a time, in order; returns the handler for each request line. */
export function serveRequests(host: RuntimeHost): (line: string) => void {
  const write = tokenWriter(host.token);

  /** Sends a message; one that cannot be encoded (a cyclic trace event, a throwing getter) fails its request instead. */
  function send(message: ChildMessage): void {
    let json: string;
    try {
      json = encodeJson(message);
    } catch (e) {
      if (!('id' in message)) throw e;
      const f = failure(e, 'the answer could not be sent: ');
      json = encodeJson({ type: 'failed', id: message.id, status: 'error', message: clip(f.message) } satisfies ChildMessage);
    }
    write(json);
  }

  // Node writes to a stdout/stderr pipe asynchronously: an agent printing in a tight loop would
  // queue everything in its own heap and die of it. Blocking writes make it wait for the parent,
  // which keeps only a bounded tail, so a flood costs time (a timeout), not memory.
  for (const stream of [process.stdout, process.stderr]) {
    (stream as unknown as { _handle?: { setBlocking?: (b: boolean) => void } })._handle?.setBlocking?.(true);
  }

  if (process.argv.includes('--lock-kill')) {
    const refuse = () => {
      throw new Error('process.kill is not allowed in the sandbox');
    };
    const proc = process as unknown as Record<string, unknown>;
    proc.kill = refuse;
    proc._kill = refuse;
  }

  /** The request being served; an uncaught error of the student's async code fails it. */
  let current: { id: number; settle: (m: ChildMessage) => void } | undefined;

  function reportStray(e: unknown): void {
    if (current === undefined) return; // between requests: nobody to tell; the next request runs normally
    const f = failure(e, "uncaught error in the submission's code: ");
    current.settle({ type: 'failed', id: current.id, status: f.status, message: clip(f.message) });
  }
  process.on('uncaughtException', reportStray);
  process.on('unhandledRejection', reportStray);

  /**
   * Serves one request; resolves once it is answered. That can be before the student's code is
   * done: an uncaught error answers a request whose chooseMove never settles, and the next request
   * must not wait for it.
   */
  function serve(req: Request): Promise<void> {
    return new PromiseCtor<void>((answered) => {
      let settled = false;
      const settle = (m: ChildMessage) => {
        if (settled) return;
        settled = true;
        current = undefined;
        send(m);
        answered();
      };
      current = { id: req.id, settle };
      // An async function rather than .then(): the student may have replaced Promise.prototype.then.
      void (async () => {
        try {
          switch (req.type) {
            case 'load':
              await load(req, host.importModule);
              return settle({ type: 'loaded', id: req.id });
            case 'move':
              return settle({ type: 'result', id: req.id, observation: await move(req, (m) => settled || send(m)) });
            case 'evaluate':
              return settle({ type: 'result', id: req.id, observation: evaluate(req) });
            case 'evaluate-many':
              return settle({ type: 'result', id: req.id, observation: evaluateMany(req) });
          }
        } catch (e) {
          const f = failure(e, '');
          settle({ type: 'failed', id: req.id, status: f.status, message: clip(f.message) });
        }
      })();
    });
  }

  // A queue of parsed requests as a linked list: no Array.prototype method the student could replace.
  type Queued = { req: Request; next: Queued | undefined };
  let head: Queued | undefined;
  let tail: Queued | undefined;
  let running = false;
  let lastId = 0;

  async function drain(): Promise<void> {
    while (head !== undefined) {
      const req = head.req;
      head = head.next;
      if (head === undefined) tail = undefined;
      await serve(req);
    }
    running = false;
  }

  send({ type: 'ready' });

  return (line) => {
    let req: Request;
    try {
      req = parseJson(line) as Request;
    } catch {
      // The parent writes only JSON lines: this is a grader bug, and there is no id to answer.
      logError(`sandbox runtime: a request line is not JSON (${line.length} characters)\n`);
      return;
    }
    if (req === null || typeof req !== 'object' || !isSafeInteger(req.id) || req.id <= lastId) return;
    lastId = req.id;
    const queued: Queued = { req, next: undefined };
    if (tail === undefined) head = queued;
    else tail.next = queued;
    tail = queued;
    // On a turn of its own: student code must not run inside the stdin socket's callback, where
    // async_hooks.executionAsyncResource() would hand it the socket.
    if (!running) {
      running = true;
      nextTurn(() => void drain());
    }
  };
}
