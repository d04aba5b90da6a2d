/**
 * The request loop both child runtimes share (main.ts: the agent runtime; player-main.ts: the
 * reference alpha-beta with a submission's heuristic). Bundled by framework/sandbox/runtime.ts,
 * started by framework/sandbox/session.ts.
 *
 * Requests arrive as JSON lines on stdin; answers leave as JSON lines on fd 3, written
 * synchronously, so a report sent just before an endless loop still reaches the parent. The
 * function that writes them is captured when this module loads, before any student module is
 * imported, so a student who replaces fs.writeSync or JSON.stringify cannot change what the
 * runtime sends (they can still write their own lines to fd 3: the parent validates everything
 * and treats anything malformed as the submission's error).
 *
 * Argument `--lock-kill`: the parent could not give this process its own pid namespace, so
 * process.kill is disabled here (it could otherwise reach the grader by pid).
 */
import { writeSync } from 'node:fs';
import { decodeLine, encodeMessage, LineSplitter, parentMessageSchema, MAX_TEXT_CHARS, type ChildMessage } from '../protocol.ts';
import { evaluate, failure, load, move, type RuntimeConfig } from './requests.ts';

const OUT_FD = 3;
const write = writeSync;
const toBytes = Buffer.from.bind(Buffer);

function send(message: ChildMessage): void {
  const bytes = toBytes(encodeMessage(message));
  let offset = 0;
  while (offset < bytes.length) {
    try {
      offset += write(OUT_FD, bytes, offset, bytes.length - offset);
    } catch (e) {
      // The parent reads continuously; a full pipe only means: try again.
      if ((e as NodeJS.ErrnoException).code !== 'EAGAIN') throw e;
    }
  }
}

function clip(s: string): string {
  return s.length > MAX_TEXT_CHARS ? s.slice(0, MAX_TEXT_CHARS - 1) + '…' : s;
}

function requestIdOf(line: string): number | undefined {
  try {
    const id = (JSON.parse(line) as { id?: unknown }).id;
    return typeof id === 'number' && Number.isInteger(id) && id > 0 ? id : undefined;
  } catch {
    return undefined;
  }
}

/** Serves the parent's requests, one at a time, in order, until stdin ends. */
export function serveRequests(config: RuntimeConfig): void {
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
    const f = failure(e, 'uncaught error in the submission\'s code: ');
    current.settle({ type: 'failed', id: current.id, status: f.status, message: clip(f.message) });
  }
  process.on('uncaughtException', reportStray);
  process.on('unhandledRejection', reportStray);

  /**
   * Serves one request; resolves once it is answered. That can be before the student's code is
   * done: an uncaught error answers a request whose chooseMove never settles, and the next request
   * must not wait for it.
   */
  function serve(line: string): Promise<void> {
    const decoded = decodeLine(line, parentMessageSchema);
    // The parent wrote this line: a bad one is a grader bug. Answer it, so the grader does not wait.
    if (!decoded.ok) {
      const id = requestIdOf(line);
      const message = `internal: the sandbox runtime cannot read the grader's request: ${decoded.problem}`;
      if (id !== undefined) send({ type: 'failed', id, status: 'error', message: clip(message) });
      else process.stderr.write(`sandbox runtime: ${message}\n`);
      return Promise.resolve();
    }
    const req = decoded.message;
    return new Promise<void>((answered) => {
      let settled = false;
      const settle = (m: ChildMessage) => {
        if (settled) return;
        settled = true;
        current = undefined;
        send(m);
        answered();
      };
      current = { id: req.id, settle };
      const work = async (): Promise<ChildMessage> => {
        switch (req.type) {
          case 'load':
            await load(req, config);
            return { type: 'loaded', id: req.id };
          case 'move':
            return { type: 'result', id: req.id, observation: await move(req, (m) => settled || send(m), config) };
          case 'evaluate':
            return { type: 'result', id: req.id, observation: evaluate(req) };
        }
      };
      work().then(settle, (e: unknown) => {
        const f = failure(e, '');
        settle({ type: 'failed', id: req.id, status: f.status, message: clip(f.message) });
      });
    });
  }

  let queue: Promise<void> = Promise.resolve();
  const splitter = new LineSplitter(
    Number.MAX_SAFE_INTEGER,
    (line) => {
      queue = queue.then(() => serve(line));
    },
    () => {},
  );
  process.stdin.on('data', (chunk: Buffer) => splitter.push(chunk));
  // The parent went away: nothing more to do.
  process.stdin.on('end', () => process.exit(0));

  send({ type: 'ready' });
}
