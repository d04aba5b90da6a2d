/**
 * One running child process of a submission, seen from the grader: started detached (its own
 * process group) with an empty environment, in the jail (jail/command.ts) and inside a resource meter
 * (meters/resource-meter.ts), spoken to over stdin / fd 3, killed as a whole tree.
 *
 * Time is the CPU time the meter counts for the whole tree while a request is out, never a clock
 * of the child's: the parent polls it and stops the process when a request has used more than its
 * CPU limit, with a wall-clock backstop for a process that waits instead of working. Memory is
 * the meter's (the kernel's) too, and output is counted as it streams: over OUTPUT_LIMIT_BYTES the
 * process is stopped.
 *
 * The parent keeps only bounded state about it, whatever the child does: the last few KB of its
 * stdout and stderr, at most one unfinished protocol line (MAX_MESSAGE_BYTES), the last report.
 * Every outcome of a call is a value (`CallOutcome`), never an exception.
 */
import { jailStdio, sendFilter, type JailCommand } from './jail/command.ts';
import { performance } from 'node:perf_hooks';
import { execa } from 'execa';
import type { ResourceMeter } from './meters/resource-meter.ts';
import { childMessageSchema, decodeLine, encodeBoot, encodeMessage, LineSplitter, MAX_MESSAGE_BYTES, newToken, tokenPayload, type ParentMessage, type ParsedChildMessage } from './protocol.ts';
import type { ChildRuntime } from './runtime.ts';
import { excerpt, OUT_OF_MEMORY, OutputTail, toBuffer, WatchedTree, withReported } from './watched-tree.ts';

import type { CallLimits, CallOutcome, CallResult, Reported } from './call-outcome.ts';

export { excerpt, OUTPUT_LIMIT_BYTES, OUTPUT_TAIL_BYTES, OutputTail, WatchedTree } from './watched-tree.ts';
export type { CallLimits, CallOutcome, CallResult, Reported } from './call-outcome.ts';


export interface Launch extends Pick<JailCommand, 'filter'> {
  file: string;
  args: string[];
  cwd: string;
  /** measures (and caps the memory of) the process tree; the process owns it from start() on */
  meter: ResourceMeter;
  /** the runtime the bootstrap receives first on stdin (its code never touches the child's disk) */
  runtime: Pick<ChildRuntime, 'name' | 'code'>;
}

function spawnChild(launch: Launch) {
  const child = execa(launch.file, launch.args, {
    cwd: launch.cwd,
    // Nothing of the grader's environment (tokens, paths) reaches the submission.
    extendEnv: false,
    env: {},
    stdio: jailStdio(4, launch),
    // Its own process group, so the whole group can be killed, and a kill(0) inside hits only it.
    detached: true,
    // We read the streams ourselves and keep their tails: nothing is buffered whole.
    buffer: false,
    reject: false,
    // Sessions kill their processes themselves (close(), and on exit below).
    cleanup: false,
  });
  sendFilter(child, launch);
  return child;
}

interface Pending {
  id: number;
  resolve: (o: CallOutcome) => void;
  reported?: Reported;
  onReport?: (r: Reported) => void;
}

export class SandboxedProcess {
  /** roles whose module this process has loaded */
  readonly loaded = new Set<string>();
  private readonly sub: ReturnType<typeof spawnChild>;
  private readonly tree: WatchedTree;
  private pending: Pending | undefined;
  private whenReady: ((problem?: string) => void) | undefined;
  /** the runtime's lines on fd 3 start with it (protocol.ts); a line without it is the student's and is dropped */
  private readonly token = newToken();

  private constructor(launch: Launch) {
    this.sub = spawnChild(launch);
    this.tree = new WatchedTree(launch.meter, this.sub.pid, this.sub, OUT_OF_MEMORY, {
      // The request it serves is `output-limit`; between requests it simply goes.
      overOutput: (bytes) => (this.pending !== undefined ? this.pending.resolve({ kind: 'output-limit', bytes, ...withReported(this.pending.reported) }) : void this.kill()),
      closed: () => {
        this.whenReady?.(this.exitDescription());
        if (this.pending !== undefined) this.pending.resolve(this.tree.exitOutcome(this.pending.reported));
      },
    });
    this.sub.stdout?.on('data', (c: unknown) => this.tree.onStdout(toBuffer(c)));
    this.sub.stderr?.on('data', (c: unknown) => this.tree.onStderr(toBuffer(c)));
    this.sub.stdin?.on('error', () => {}); // EPIPE once the child is gone: the close handler reports it
    const splitter = new LineSplitter(
      MAX_MESSAGE_BYTES,
      (line) => this.onLine(line),
      () => this.onMalformed(`more than ${MAX_MESSAGE_BYTES / (1024 * 1024)} MB arrived on it without a line break`),
    );
    const channel = this.sub.stdio[3] as NodeJS.ReadableStream | undefined;
    channel?.on('data', (c: unknown) => splitter.push(toBuffer(c)));
    channel?.on('error', () => {});
    // First on stdin, before any request: the runtime's code and the token (runtime.ts, child/bootstrap.ts).
    this.sub.stdin?.write(encodeBoot({ type: 'boot', token: this.token, name: launch.runtime.name, code: launch.runtime.code }));
  }

  /** the last few KB of its stdout */
  get stdout(): OutputTail {
    return this.tree.stdout;
  }

  /** the last few KB of its stderr */
  get stderr(): OutputTail {
    return this.tree.stderr;
  }

  /**
   * Starts the process and waits for the runtime's `ready` (no student code has run by then).
   * `readyTimeoutMs` is generous: a loaded machine may take a second or more to start Node.
   */
  static async start(launch: Launch, readyTimeoutMs: number): Promise<{ process: SandboxedProcess; ms: number } | { problem: string }> {
    const started = performance.now();
    const proc = new SandboxedProcess(launch);
    const problem = await new Promise<string | undefined>((resolve) => {
      const timer = setTimeout(() => resolve(`the sandboxed process did not start within ${readyTimeoutMs} ms`), readyTimeoutMs);
      proc.whenReady = (p) => {
        clearTimeout(timer);
        proc.whenReady = undefined;
        resolve(p);
      };
      if (proc.tree.closed) proc.whenReady(proc.exitDescription());
    });
    if (problem !== undefined) {
      await proc.kill();
      return { problem: `${problem}${excerpt(proc.stderr.text())}` };
    }
    return { process: proc, ms: performance.now() - started };
  }

  get alive(): boolean {
    return !this.tree.closed && !this.tree.killed;
  }

  /**
   * Sends one request and waits for its final answer: until it has used `limits.cpuMs` of CPU
   * time, or `limits.wallMs` have passed; on a timeout, too much output or a malformed message
   * the process is killed. `onReport` sees every ctx.report of the request.
   */
  async call(message: ParentMessage & { id: number }, limits: CallLimits, onReport?: (r: Reported) => void): Promise<CallResult> {
    if (!this.alive) return { outcome: this.tree.exitOutcome(undefined), cpuMs: 0, wallMs: 0 };
    if (this.pending !== undefined) throw new Error('internal: one request at a time per sandboxed process');
    const result = await this.tree.request<CallOutcome>(limits, () => this.pending?.reported, (resolve) => {
      this.pending = { id: message.id, resolve, ...(onReport ? { onReport } : {}) };
      this.sub.stdin?.write(encodeMessage(message));
    });
    this.pending = undefined;
    if (result.outcome.kind !== 'reply' && !this.tree.closed) await this.kill();
    return result;
  }

  /** Kills the whole tree (SIGKILL), waits until the process is gone, and releases its meter. */
  kill(): Promise<void> {
    return this.tree.kill();
  }

  private onLine(line: string): void {
    // Without the token the line is the student's own (or the empty line before each of the
    // runtime's): dropped without a word, so forging teaches nothing and changes nothing.
    const payload = tokenPayload(line, this.token);
    if (payload === undefined) return;
    const decoded = decodeLine(payload, childMessageSchema);
    // The token proves the runtime wrote it: a line that does not decode is a bug of the runtime.
    if (!decoded.ok) return this.onMalformed(`a message of the sandbox runtime did not decode (a grader bug: ${decoded.problem})`);
    const m = decoded.message;
    if (m.type === 'ready') {
      this.whenReady?.();
      return;
    }
    const p = this.pending;
    // A late answer to a request we gave up on, or something the student wrote: ignored.
    if (p === undefined || m.id !== p.id) return;
    if (m.type === 'report') {
      p.reported = m.value === undefined ? { move: m.move } : { move: m.move, value: m.value };
      p.onReport?.(p.reported);
      return;
    }
    p.resolve({ kind: 'reply', message: m });
  }

  private onMalformed(problem: string): void {
    if (this.pending !== undefined) {
      this.pending.resolve({ kind: 'malformed', problem, ...withReported(this.pending.reported) });
    } else if (this.whenReady !== undefined) {
      this.whenReady(`the sandbox's message channel broke: ${problem}`);
    } else {
      // Between requests, nobody to blame: the process is out of step, so it goes.
      void this.kill();
    }
  }

  private exitDescription(): string {
    const e = this.tree.exit;
    if (e === undefined) return 'the sandboxed process ended';
    return e.signal ? `the sandboxed process was killed by ${e.signal}` : `the sandboxed process exited with code ${e.code}`;
  }
}
