/**
 * One running agent program spoken to over stdio (protocol 1, stdio-agent-wire.ts), seen from the
 * grader: started detached in the jail and inside a resource meter, as SandboxedProcess starts a
 * Node child, but the channel is the program's own stdout (a program in any language cannot be
 * handed a token before its code runs), and stderr is its log, kept as a bounded tail.
 *
 * Time is the CPU time of the whole tree while a request is out (the meter's, never the program's
 * word), with a wall-clock backstop; start-up (a build, the interpreter or JVM, the program's own
 * set-up until `ready`) has a limit of its own and is never charged to a move. Memory is the
 * meter's; output is counted as it streams and stopped past OUTPUT_LIMIT_BYTES.
 * Every outcome is a value (StdioOutcome), never an exception.
 */
import { performance } from 'node:perf_hooks';
import { execa } from 'execa';
import { LineSplitter } from './protocol.ts';
import { AllocationTrend, type ResourceMeter } from './resource-meter.ts';
import { OUTPUT_LIMIT_BYTES, OUTPUT_TAIL_BYTES, OutputTail, type CallLimits, type CallOutcome, type Reported } from './sandboxed-process.ts';
import { readProgramLine, type ProgramLine } from './stdio-agent-wire.ts';

/** The longest line a program may write: a move answer is a few hundred bytes, a long pv or log a few KB. */
const MAX_LINE_BYTES = 256 * 1024;
const CPU_POLL_MS = 10;
/** What Python, Java, C++ and Node print when an allocation fails. */
const OUT_OF_MEMORY = /MemoryError|OutOfMemoryError|std::bad_alloc|Cannot allocate memory|out of memory/i;

type Answer = Extract<ProgramLine, { kind: 'answer' }>;

/** What became of a request (or of the start): the sandbox's outcomes, plus the program's answer and its protocol mistakes. */
export type StdioOutcome = Exclude<CallOutcome, { kind: 'reply' | 'malformed' }> | { kind: 'answer'; answer: Answer } | { kind: 'ready'; name?: string } | { kind: 'bad'; problem: string; reported?: Reported };

export interface StdioCallResult {
  outcome: StdioOutcome;
  /** CPU time of the process tree while the request was out */
  cpuMs: number;
  wallMs: number;
}

export interface StdioLaunch {
  file: string;
  args: string[];
  cwd: string;
  env: Record<string, string>;
  /** measures (and caps the memory of) the process tree; the process owns it from start() on */
  meter: ResourceMeter;
}

interface Pending {
  resolve: (o: StdioOutcome) => void;
  /** the id of the request, or undefined while waiting for `ready` */
  id?: number;
  reported?: Reported;
  onReport?: (r: Reported) => void;
}

export class StdioAgentProcess {
  readonly stdout = new OutputTail(OUTPUT_TAIL_BYTES);
  readonly stderr = new OutputTail(OUTPUT_TAIL_BYTES);
  /** the name the program gave in `ready` */
  name: string | undefined;
  private readonly sub;
  private readonly pid: number | undefined;
  private pending: Pending | undefined;
  /** a protocol mistake made between requests: the next request reports it */
  private strayProblem: string | undefined;
  private overOutput = false;
  private sawOutOfMemory = false;
  private stderrOverlap = '';
  private closed = false;
  private killed = false;
  private exit: { code: number | null; signal: string | null } | undefined;
  private readonly closedPromise: Promise<void>;

  private constructor(private readonly launch: StdioLaunch) {
    this.sub = execa(launch.file, launch.args, {
      cwd: launch.cwd,
      extendEnv: false,
      env: launch.env,
      stdio: ['pipe', 'pipe', 'pipe'],
      // Its own process group, killed as a whole.
      detached: true,
      buffer: false,
      reject: false,
      cleanup: false,
    });
    this.pid = this.sub.pid;
    if (this.pid !== undefined) launch.meter.attach(this.pid);
    const splitter = new LineSplitter(
      MAX_LINE_BYTES,
      (line) => this.onLine(line),
      () => this.onBad(`it wrote more than ${MAX_LINE_BYTES / 1024} KB on stdout without a line break`),
    );
    this.sub.stdout?.on('data', (c: Buffer) => {
      this.stdout.push(c);
      this.countOutput();
      splitter.push(c);
    });
    this.sub.stderr?.on('data', (c: Buffer) => this.onStderr(c));
    this.sub.stdin?.on('error', () => {}); // EPIPE once it is gone: the close handler reports it
    this.closedPromise = this.sub.then(
      (r) => this.onClose(r.exitCode ?? null, r.signal ?? null),
      () => this.onClose(null, null),
    );
    live.add(this);
  }

  /**
   * Starts the program, sends `hello` and waits for its `ready` within the start-up limits.
   * A problem (it exited, never said ready, printed garbage) comes back with the outcome.
   */
  static async start(launch: StdioLaunch, hello: string, limits: CallLimits): Promise<{ process: StdioAgentProcess; result: StdioCallResult }> {
    const proc = new StdioAgentProcess(launch);
    const result = await proc.exchange(hello, undefined, limits);
    return { process: proc, result };
  }

  get alive(): boolean {
    return !this.closed && !this.killed;
  }

  /** Sends one move request (`line`, id `id`) and waits for its answer within `limits`. */
  call(line: string, id: number, limits: CallLimits, onReport?: (r: Reported) => void): Promise<StdioCallResult> {
    return this.exchange(line, id, limits, onReport);
  }

  private async exchange(line: string, id: number | undefined, limits: CallLimits, onReport?: (r: Reported) => void): Promise<StdioCallResult> {
    const began = performance.now();
    const meter = this.launch.meter;
    if (!this.alive) return { outcome: this.exitOutcome(undefined), cpuMs: 0, wallMs: 0 };
    if (this.strayProblem !== undefined) {
      const problem = this.strayProblem;
      await this.kill();
      return { outcome: { kind: 'bad', problem: `between two requests ${problem}` }, cpuMs: 0, wallMs: 0 };
    }
    const cpuAtStart = meter.cpuMs();
    const trend = new AllocationTrend(meter, limits.cpuMs);
    let wallTimer: NodeJS.Timeout | undefined;
    let cpuTimer: NodeJS.Timeout | undefined;
    let outcome = await new Promise<StdioOutcome>((resolve) => {
      this.pending = { resolve, ...(id !== undefined ? { id } : {}), ...(onReport ? { onReport } : {}) };
      wallTimer = setTimeout(() => resolve({ kind: 'timeout', by: 'wall', ...reportedOf(this.pending) }), limits.wallMs);
      cpuTimer = setInterval(() => {
        const cpuMs = meter.cpuMs();
        trend.note(cpuMs);
        if (cpuMs - cpuAtStart > limits.cpuMs) resolve({ kind: 'timeout', by: 'cpu', ...reportedOf(this.pending) });
      }, CPU_POLL_MS);
      this.sub.stdin?.write(line);
    });
    clearTimeout(wallTimer);
    clearInterval(cpuTimer);
    if (outcome.kind === 'timeout' && trend.headingOverMemory()) outcome = this.outOfMemoryOutcome(outcome.reported);
    this.pending = undefined;
    const cpuMs = Math.max(0, meter.cpuMs() - cpuAtStart);
    const wallMs = performance.now() - began;
    // Anything but an answer leaves the program out of step (or gone): it is replaced next time.
    if (outcome.kind !== 'answer' && outcome.kind !== 'ready' && !this.closed) await this.kill();
    return { outcome, cpuMs, wallMs };
  }

  /** Kills the whole tree, waits until it is gone, and releases the meter. */
  async kill(): Promise<void> {
    this.killed = true;
    live.delete(this);
    if (!this.closed && this.pid !== undefined) {
      try {
        process.kill(-this.pid, 'SIGKILL');
      } catch {
        // already gone
      }
      this.launch.meter.killAll();
    }
    await this.closedPromise;
    await this.launch.meter.dispose();
  }

  private onLine(line: string): void {
    if (line.trim() === '') return;
    const read = readProgramLine(line);
    const p = this.pending;
    if (p === undefined) {
      // A late answer to a request given up on was killed with its process; anything else is stray.
      this.strayProblem ??= read.kind === 'bad' ? read.problem : `it wrote ${read.kind === 'ready' ? 'a second ready' : 'a line'} nobody asked for`;
      return;
    }
    if (read.kind === 'bad') return p.resolve({ kind: 'bad', problem: read.problem, ...reportedOf(p) });
    if (p.id === undefined) {
      if (read.kind === 'ready') return p.resolve(read.name === undefined ? { kind: 'ready' } : { kind: 'ready', name: read.name });
      return p.resolve({ kind: 'bad', problem: 'it answered before saying {"type": "ready"}' });
    }
    if (read.kind === 'ready') return p.resolve({ kind: 'bad', problem: 'it said ready again in the middle of a game', ...reportedOf(p) });
    if (read.id !== undefined && read.id !== p.id) return p.resolve({ kind: 'bad', problem: `it answered request ${read.id} while request ${p.id} was out`, ...reportedOf(p) });
    if (read.kind === 'report') {
      p.reported = read.value === undefined ? { move: read.move } : { move: read.move, value: read.value };
      p.onReport?.(p.reported);
      return;
    }
    p.resolve({ kind: 'answer', answer: read });
  }

  private onBad(problem: string): void {
    if (this.pending !== undefined) this.pending.resolve({ kind: 'bad', problem, ...reportedOf(this.pending) });
    else this.strayProblem ??= problem;
  }

  private countOutput(): void {
    const total = this.stdout.total + this.stderr.total;
    if (total <= OUTPUT_LIMIT_BYTES || this.overOutput) return;
    this.overOutput = true;
    if (this.pending !== undefined) this.pending.resolve({ kind: 'output-limit', bytes: total, ...reportedOf(this.pending) });
    else void this.kill();
  }

  private onStderr(chunk: Buffer): void {
    this.stderr.push(chunk);
    this.countOutput();
    const text = this.stderrOverlap + chunk.toString('latin1');
    if (OUT_OF_MEMORY.test(text)) this.sawOutOfMemory = true;
    this.stderrOverlap = text.slice(-64);
  }

  private onClose(code: number | null, signal: string | null): void {
    this.closed = true;
    this.exit = { code, signal };
    live.delete(this);
    if (this.pending !== undefined) this.pending.resolve(this.exitOutcome(this.pending.reported));
    if (!this.killed) void this.launch.meter.dispose();
  }

  private exitOutcome(reported: Reported | undefined): StdioOutcome {
    return {
      kind: 'exit',
      code: this.exit?.code ?? null,
      signal: this.exit?.signal ?? null,
      outOfMemory: this.sawOutOfMemory || this.launch.meter.overMemory(),
      peakMemoryBytes: this.launch.meter.peakMemoryBytes(),
      stderr: this.stderr.text(),
      ...(reported ? { reported } : {}),
    };
  }

  private outOfMemoryOutcome(reported: Reported | undefined): StdioOutcome {
    const meter = this.launch.meter;
    return {
      ...(meter.reachedMemoryLimit() ? {} : { heldBytes: meter.memoryBytes() }),
      kind: 'exit',
      code: null,
      signal: 'SIGKILL',
      outOfMemory: true,
      peakMemoryBytes: meter.peakMemoryBytes(),
      stderr: this.stderr.text(),
      ...(reported ? { reported } : {}),
    };
  }
}

function reportedOf(p: Pending | undefined): { reported?: Reported } {
  return p?.reported === undefined ? {} : { reported: p.reported };
}

/** Programs still running, killed if the grader exits without closing them. */
const live = new Set<StdioAgentProcess>();
process.once('exit', () => {
  for (const p of live) void p.kill();
});
