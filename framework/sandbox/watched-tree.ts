/**
 * What the grader watches of a running process tree, whatever speaks over its pipes (a Node child
 * in sandboxed-process.ts, a program over stdio in stdio-agents/process.ts): the tails of its stdout
 * and stderr, their total against OUTPUT_LIMIT_BYTES, an out-of-memory message on stderr, how it
 * ended, and the kill of the whole tree.
 */
import { AllocationTrend } from './meters/allocation-trend.ts';
import type { ResourceMeter } from './meters/resource-meter.ts';
import type { CallLimits, CallOutcome, Reported } from './call-outcome.ts';
import { studentText } from '../student-text.ts';

/** How often the CPU time of a request is read while it runs. */
const CPU_POLL_MS = 10;

/** Bytes of stdout and of stderr kept (the end of each stream). */
export const OUTPUT_TAIL_BYTES = 16 * 1024;
/** stdout and stderr together, in the life of one process: past this it is stopped (`output-limit`). */
export const OUTPUT_LIMIT_BYTES = 8 * 1024 * 1024;
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
export const OUT_OF_MEMORY = /JavaScript heap out of memory|Reached heap limit|Fatal process out of memory|Fatal process OOM|Allocation failed/;

type ExitOutcome = Extract<CallOutcome, { kind: 'exit' }>;
type TimeoutOutcome = Extract<CallOutcome, { kind: 'timeout' }>;

export const withReported = (reported: Reported | undefined): { reported?: Reported } => (reported === undefined ? {} : { reported });

/**
 * What the grader watches of a running process tree, whatever speaks over its pipes (a Node
 * child here, a program over stdio in stdio-agents/process.ts): the tails of its stdout and
 * stderr, their total against OUTPUT_LIMIT_BYTES, an out-of-memory message on stderr, how it
 * ended, and the kill of the whole tree. The meter is its own from here on.
 */
export class WatchedTree {
  readonly stdout = new OutputTail(OUTPUT_TAIL_BYTES);
  readonly stderr = new OutputTail(OUTPUT_TAIL_BYTES);
  closed = false;
  /** kill() was called: the process is as good as gone */
  killed = false;
  exit: { code: number | null; signal: string | null } | undefined;
  private overOutput = false;
  private sawOutOfMemory = false;
  private stderrOverlap = '';
  private readonly closedPromise: Promise<void>;

  /**
   * `ended` settles when the process does; `hooks.overOutput` hears the first time the output
   * passes the limit, `hooks.closed` when the process ends (after `closed` and `exit` are set).
   */
  constructor(
    readonly meter: ResourceMeter,
    private readonly pid: number | undefined,
    ended: Promise<{ exitCode?: number; signal?: string }>,
    private readonly outOfMemory: RegExp,
    private readonly hooks: { overOutput: (bytes: number) => void; closed: () => void },
  ) {
    if (pid !== undefined) meter.attach(pid);
    this.closedPromise = ended.then(
      (r) => this.onClose(r.exitCode ?? null, r.signal ?? null),
      () => this.onClose(null, null),
    );
    live.add(this);
  }

  onStdout(chunk: Buffer): void {
    this.stdout.push(chunk);
    this.countOutput();
  }

  onStderr(chunk: Buffer): void {
    this.stderr.push(chunk);
    // Scanned as it streams (with a little overlap for a marker split across chunks): the tail
    // alone could lose the runtime's message under a long stack dump.
    const text = this.stderrOverlap + chunk.toString('latin1');
    if (this.outOfMemory.test(text)) this.sawOutOfMemory = true;
    this.stderrOverlap = text.slice(-64);
    this.countOutput();
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

  /** How it ended, as a request's outcome. */
  exitOutcome(reported: Reported | undefined): ExitOutcome {
    return {
      kind: 'exit',
      code: this.exit?.code ?? null,
      signal: this.exit?.signal ?? null,
      // The runtime's own message, or the kernel's kill at the tree's memory limit.
      outOfMemory: this.sawOutOfMemory || this.meter.overMemory(),
      peakMemoryBytes: this.meter.peakMemoryBytes(),
      stderr: this.stderr.text(),
      ...withReported(reported),
    };
  }

  /** A request stopped for time while at (or heading for) its memory limit, as a memory kill. */
  outOfMemoryOutcome(reported: Reported | undefined): ExitOutcome {
    return {
      ...(this.meter.reachedMemoryLimit() ? {} : { heldBytes: this.meter.memoryBytes() }),
      kind: 'exit',
      code: null,
      signal: 'SIGKILL',
      outOfMemory: true,
      peakMemoryBytes: this.meter.peakMemoryBytes(),
      stderr: this.stderr.text(),
      ...withReported(reported),
    };
  }

  /**
   * One request: `send` starts it and hands over the resolver its answer calls; it ends there, or
   * when it has used `limits.cpuMs` of the tree's CPU time, or `limits.wallMs` have passed.
   * `reported` is the request's last report, for a timeout. Read before any kill releases the meter.
   */
  async request<O>(limits: CallLimits, reported: () => Reported | undefined, send: (resolve: (o: O | TimeoutOutcome) => void) => void): Promise<{ outcome: O | TimeoutOutcome | ExitOutcome; cpuMs: number; wallMs: number }> {
    const began = performance.now();
    this.meter.beginRequest?.(limits.cpuMs);
    const cpuAtStart = this.meter.cpuMs();
    const trend = new AllocationTrend(this.meter, limits.cpuMs);
    let wallTimer: NodeJS.Timeout | undefined;
    let cpuTimer: NodeJS.Timeout | undefined;
    let outcome: O | TimeoutOutcome | ExitOutcome = await new Promise<O | TimeoutOutcome>((resolve) => {
      wallTimer = setTimeout(() => resolve({ kind: 'timeout', by: 'wall', ...withReported(reported()) }), limits.wallMs);
      cpuTimer = setInterval(() => {
        const cpuMs = this.meter.cpuMs();
        trend.note(cpuMs);
        if (cpuMs - cpuAtStart > limits.cpuMs) resolve({ kind: 'timeout', by: 'cpu', ...withReported(reported()) });
      }, CPU_POLL_MS);
      send(resolve);
    });
    clearTimeout(wallTimer);
    clearInterval(cpuTimer);
    // At its memory limit, or allocating fast enough to reach it soon, a tree stopped for time is
    // judged by its memory: which limit fires first is a matter of the machine's speed.
    const o = outcome as { kind?: unknown; by?: 'cpu' | 'wall'; reported?: Reported };
    if (o.kind === 'timeout' && trend.headingOverMemory(o.by ?? 'cpu')) outcome = this.outOfMemoryOutcome(o.reported);
    return { outcome, cpuMs: Math.max(0, this.meter.cpuMs() - cpuAtStart), wallMs: performance.now() - began };
  }

  /** Stops a process that writes more than the grader keeps. */
  private countOutput(): void {
    const total = this.stdout.total + this.stderr.total;
    if (total <= OUTPUT_LIMIT_BYTES || this.overOutput) return;
    this.overOutput = true;
    this.hooks.overOutput(total);
  }

  private onClose(code: number | null, signal: string | null): void {
    this.closed = true;
    this.exit = { code, signal };
    live.delete(this);
    this.hooks.closed();
    // Dead by itself: its group goes too (killed processes release it in kill()).
    if (!this.killed) void this.meter.dispose();
  }
}

export function toBuffer(chunk: unknown): Buffer {
  return Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
}

/** The last lines of a stream, for a message. */
export function excerpt(text: string, maxChars = 600): string {
  const trimmed = text.trim();
  if (trimmed === '') return '';
  const tail = trimmed.length > maxChars ? '…' + trimmed.slice(trimmed.length - maxChars) : trimmed;
  return `; its stderr ended with: ${studentText(tail)}`;
}

/** Processes still running, killed if the grader exits without closing its sessions. */
const live = new Set<WatchedTree>();
process.once('exit', () => {
  for (const p of live) void p.kill();
});
