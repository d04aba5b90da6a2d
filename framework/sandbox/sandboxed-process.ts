/**
 * One running child process of a submission, seen from the grader: started detached (its own
 * process group) with an empty environment, in the jail (jail.ts) and inside a resource meter
 * (resource-meter.ts), spoken to over stdin / fd 3, killed as a whole tree.
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
import { performance } from 'node:perf_hooks';
import { execa } from 'execa';
import { AllocationTrend, type ResourceMeter } from './resource-meter.ts';
import { childMessageSchema, decodeLine, encodeBoot, encodeMessage, LineSplitter, MAX_MESSAGE_BYTES, newToken, tokenPayload, type ParentMessage, type ParsedChildMessage } from './protocol.ts';
import type { ChildRuntime } from './runtime.ts';

/** Bytes of stdout and of stderr kept (the end of each stream). */
export const OUTPUT_TAIL_BYTES = 16 * 1024;
/** stdout and stderr together, in the life of one process: past this it is stopped (`output-limit`). */
export const OUTPUT_LIMIT_BYTES = 8 * 1024 * 1024;
/** How often the CPU time of a request is read while it runs. */
const CPU_POLL_MS = 10;

type Reply = Extract<ParsedChildMessage, { type: 'loaded' | 'result' | 'failed' }>;
export type Reported = { move: number; value?: number };

export type CallOutcome =
  | { kind: 'reply'; message: Reply }
  /** `cpu`: it used more CPU time than allowed; `wall`: it used little, but did not answer in the backstop's time */
  | { kind: 'timeout'; by: 'cpu' | 'wall'; reported?: Reported }
  /**
   * `heldBytes`: it was stopped for time short of its memory limit, while allocating fast
   * enough to reach it soon (resource-meter.ts, headingOverMemory); what it held then
   */
  | { kind: 'exit'; code: number | null; signal: string | null; outOfMemory: boolean; peakMemoryBytes: number; stderr: string; reported?: Reported; heldBytes?: number }
  | { kind: 'output-limit'; bytes: number; reported?: Reported }
  | { kind: 'malformed'; problem: string; reported?: Reported };

/** A call's outcome with what it cost, as the meter saw it. */
export interface CallResult {
  outcome: CallOutcome;
  /** CPU time of the process tree while the request was out */
  cpuMs: number;
  wallMs: number;
}

export interface CallLimits {
  /** CPU time the request may use */
  cpuMs: number;
  /** the wall-clock backstop: a request that waits rather than works ends here */
  wallMs: number;
}

export interface Launch {
  file: string;
  args: string[];
  cwd: string;
  /** measures (and caps the memory of) the process tree; the process owns it from start() on */
  meter: ResourceMeter;
  /** the runtime the bootstrap receives first on stdin (its code never touches the child's disk) */
  runtime: Pick<ChildRuntime, 'name' | 'code'>;
}

function spawnChild(launch: Launch) {
  return execa(launch.file, launch.args, {
    cwd: launch.cwd,
    // Nothing of the grader's environment (tokens, paths) reaches the submission.
    extendEnv: false,
    env: {},
    stdio: ['pipe', 'pipe', 'pipe', 'pipe'],
    // Its own process group, so the whole group can be killed, and a kill(0) inside hits only it.
    detached: true,
    // We read the streams ourselves and keep their tails: nothing is buffered whole.
    buffer: false,
    reject: false,
    // Sessions kill their processes themselves (close(), and on exit below).
    cleanup: false,
  });
}

/** The end of a stream: at most `max` bytes, whatever the stream's length. */
export class OutputTail {
  private buffer = Buffer.alloc(0);
  /** bytes seen in all */
  total = 0;

  constructor(private readonly max: number) {}

  push(chunk: Buffer): void {
    this.total += chunk.length;
    if (chunk.length >= this.max) this.buffer = Buffer.from(chunk.subarray(chunk.length - this.max));
    else {
      const joined = Buffer.concat([this.buffer, chunk]);
      this.buffer = joined.length > this.max ? joined.subarray(joined.length - this.max) : joined;
    }
  }

  get bytesKept(): number {
    return this.buffer.length;
  }

  text(): string {
    return this.buffer.toString('utf8');
  }
}

/** What V8 and Node print when the heap (or the address space) runs out. */
const OUT_OF_MEMORY = /JavaScript heap out of memory|Reached heap limit|Fatal process out of memory|Fatal process OOM|Allocation failed/;

function toBuffer(chunk: unknown): Buffer {
  return Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
}

interface Pending {
  id: number;
  resolve: (o: CallOutcome) => void;
  /** the meter's CPU reading when the request was sent */
  cpuAtStart: number;
  reported?: Reported;
  onReport?: (r: Reported) => void;
}

export class SandboxedProcess {
  readonly stdout = new OutputTail(OUTPUT_TAIL_BYTES);
  readonly stderr = new OutputTail(OUTPUT_TAIL_BYTES);
  /** roles whose module this process has loaded */
  readonly loaded = new Set<string>();
  private readonly sub: ReturnType<typeof spawnChild>;
  private readonly pid: number | undefined;
  private readonly meter: ResourceMeter;
  private overOutput = false;
  private pending: Pending | undefined;
  private whenReady: ((problem?: string) => void) | undefined;
  private sawOutOfMemory = false;
  private stderrOverlap = '';
  private closed = false;
  /** kill() was called: the process is as good as gone */
  private killed = false;
  private exit: { code: number | null; signal: string | null } | undefined;
  private readonly closedPromise: Promise<void>;
  /** the runtime's lines on fd 3 start with it (protocol.ts); a line without it is the student's and is dropped */
  private readonly token = newToken();

  private constructor(launch: Launch) {
    this.meter = launch.meter;
    this.sub = spawnChild(launch);
    this.pid = this.sub.pid;
    if (this.pid !== undefined) this.meter.attach(this.pid);
    this.sub.stdout?.on('data', (c: unknown) => {
      this.stdout.push(toBuffer(c));
      this.countOutput();
    });
    this.sub.stderr?.on('data', (c: unknown) => {
      this.onStderr(toBuffer(c));
      this.countOutput();
    });
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
    this.closedPromise = this.sub.then(
      (result) => this.onClose(result.exitCode ?? null, result.signal ?? null),
      () => this.onClose(null, null),
    );
    live.add(this);
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
      if (proc.closed) proc.whenReady(proc.exitDescription());
    });
    if (problem !== undefined) {
      await proc.kill();
      return { problem: `${problem}${excerpt(proc.stderr.text())}` };
    }
    return { process: proc, ms: performance.now() - started };
  }

  get alive(): boolean {
    return !this.closed && !this.killed;
  }

  /**
   * Sends one request and waits for its final answer: until it has used `limits.cpuMs` of CPU
   * time, or `limits.wallMs` have passed; on a timeout, too much output or a malformed message
   * the process is killed. `onReport` sees every ctx.report of the request.
   */
  async call(message: ParentMessage & { id: number }, limits: CallLimits, onReport?: (r: Reported) => void): Promise<CallResult> {
    const began = performance.now();
    if (!this.alive) return { outcome: this.exitOutcome(undefined), cpuMs: 0, wallMs: 0 };
    if (this.pending !== undefined) throw new Error('internal: one request at a time per sandboxed process');
    const cpuAtStart = this.meter.cpuMs();
    const trend = new AllocationTrend(this.meter, limits.cpuMs);
    let wallTimer: NodeJS.Timeout | undefined;
    let cpuTimer: NodeJS.Timeout | undefined;
    let outcome = await new Promise<CallOutcome>((resolve) => {
      this.pending = { id: message.id, resolve, onReport, cpuAtStart };
      wallTimer = setTimeout(() => resolve({ kind: 'timeout', by: 'wall', reported: this.pending?.reported }), limits.wallMs);
      cpuTimer = setInterval(() => {
        const cpuMs = this.meter.cpuMs();
        trend.note(cpuMs);
        if (cpuMs - cpuAtStart > limits.cpuMs) resolve({ kind: 'timeout', by: 'cpu', reported: this.pending?.reported });
      }, CPU_POLL_MS);
      this.sub.stdin?.write(encodeMessage(message));
    });
    clearTimeout(wallTimer);
    clearInterval(cpuTimer);
    // At its memory limit, or allocating fast enough to reach it soon, a tree stopped for time is
    // judged by its memory: which limit fires first is a matter of the machine's speed.
    if (outcome.kind === 'timeout' && trend.headingOverMemory()) outcome = this.outOfMemoryOutcome(outcome.reported);
    this.pending = undefined;
    // Read before a kill releases the meter.
    const cpuMs = Math.max(0, this.meter.cpuMs() - cpuAtStart);
    const wallMs = performance.now() - began;
    if (outcome.kind !== 'reply' && !this.closed) await this.kill();
    return { outcome, cpuMs, wallMs };
  }

  /** Kills the whole tree (SIGKILL), waits until the process is gone, and releases its meter. */
  async kill(): Promise<void> {
    this.killed = true;
    live.delete(this);
    if (!this.closed && this.pid !== undefined) {
      try {
        // The negative pid names the group: the jail's chain (bwrap dies with its parent, and the
        // submission's tree with bwrap); the meter then takes whatever is left in its group.
        process.kill(-this.pid, 'SIGKILL');
      } catch {
        // already gone
      }
      this.meter.killAll();
    }
    await this.closedPromise;
    await this.meter.dispose();
  }

  /** Stops a process that writes more than the grader keeps: the request it serves is `output-limit`. */
  private countOutput(): void {
    const total = this.stdout.total + this.stderr.total;
    if (total <= OUTPUT_LIMIT_BYTES || this.overOutput) return;
    this.overOutput = true;
    if (this.pending !== undefined) this.pending.resolve({ kind: 'output-limit', bytes: total, reported: this.pending.reported });
    else void this.kill();
  }

  private onStderr(chunk: Buffer): void {
    this.stderr.push(chunk);
    // Scanned as it streams (with a little overlap for a marker split across chunks): the tail
    // alone could lose V8's message under a long stack dump.
    const text = this.stderrOverlap + chunk.toString('latin1');
    if (OUT_OF_MEMORY.test(text)) this.sawOutOfMemory = true;
    this.stderrOverlap = text.slice(-64);
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
      this.pending.resolve({ kind: 'malformed', problem, reported: this.pending.reported });
    } else if (this.whenReady !== undefined) {
      this.whenReady(`the sandbox's message channel broke: ${problem}`);
    } else {
      // Between requests, nobody to blame: the process is out of step, so it goes.
      void this.kill();
    }
  }

  private onClose(code: number | null, signal: string | null): void {
    this.closed = true;
    this.exit = { code, signal };
    live.delete(this);
    this.whenReady?.(this.exitDescription());
    if (this.pending !== undefined) this.pending.resolve(this.exitOutcome(this.pending.reported));
    // Dead by itself: its group goes too (killed processes release it in kill()).
    if (!this.killed) void this.meter.dispose();
  }

  private exitOutcome(reported: Reported | undefined): CallOutcome {
    return {
      kind: 'exit',
      code: this.exit?.code ?? null,
      signal: this.exit?.signal ?? null,
      // V8's own message (heap limit), or the kernel's kill at the tree's memory limit.
      outOfMemory: this.sawOutOfMemory || this.meter.overMemory(),
      peakMemoryBytes: this.meter.peakMemoryBytes(),
      stderr: this.stderr.text(),
      ...(reported ? { reported } : {}),
    };
  }

  private outOfMemoryOutcome(reported: Reported | undefined): CallOutcome {
    const reached = this.meter.reachedMemoryLimit();
    return {
      ...(reached ? {} : { heldBytes: this.meter.memoryBytes() }),
      kind: 'exit',
      code: null,
      signal: 'SIGKILL',
      outOfMemory: true,
      peakMemoryBytes: this.meter.peakMemoryBytes(),
      stderr: this.stderr.text(),
      ...(reported ? { reported } : {}),
    };
  }

  private exitDescription(): string {
    const e = this.exit;
    if (e === undefined) return 'the sandboxed process ended';
    return e.signal ? `the sandboxed process was killed by ${e.signal}` : `the sandboxed process exited with code ${e.code}`;
  }
}

/** The last lines of a stream, for a message. */
export function excerpt(text: string, maxChars = 600): string {
  const trimmed = text.trim();
  if (trimmed === '') return '';
  const tail = trimmed.length > maxChars ? '…' + trimmed.slice(trimmed.length - maxChars) : trimmed;
  return `; its stderr ended with: ${tail}`;
}

/** Processes still running, killed if the grader exits without closing its sessions. */
const live = new Set<SandboxedProcess>();
process.once('exit', () => {
  for (const p of live) void p.kill();
});
