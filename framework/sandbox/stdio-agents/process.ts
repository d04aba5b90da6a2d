/**
 * One running agent program spoken to over stdio (protocol 1, wire.ts), seen from the
 * grader: started detached in the jail and inside a resource meter, as SandboxedProcess starts a
 * Node child, but the channel is the program's own stdout (a program in any language cannot be
 * handed a token before its code runs), and stderr is its log, kept as a bounded tail.
 *
 * Time is the CPU time of the whole tree while a request is out (the meter's, never the program's
 * word), with a wall-clock backstop; start-up (the interpreter or JVM, the program's own set-up
 * until `ready`) has a limit of its own and is never charged to a move. Memory is the meter's;
 * output is counted as it streams and stopped past OUTPUT_LIMIT_BYTES. The watching (the tails,
 * the counts, an out-of-memory message, the kill of the tree, the timed request) is
 * SandboxedProcess's own, shared: WatchedTree in sandboxed-process.ts.
 * Every outcome is a value (StdioOutcome), never an exception.
 */
import { jailStdio, sendFilter, type JailCommand } from '../jail/command.ts';
import { execa } from 'execa';
import { LineSplitter } from '../protocol.ts';
import type { ResourceMeter } from '../meters/resource-meter.ts';
import { ALLOCATION_FAILED } from '../meters/memory-backstop.ts';
import { WatchedTree, type CallLimits, type CallOutcome, type Reported } from '../sandboxed-process.ts';
import { readProgramLine, type ProgramLine } from './wire.ts';

/** The longest line a program may write: a move answer is a few hundred bytes, a long pv or log a few KB, `visited` of a whole Tic-Tac-Toe search a few hundred KB. */
const MAX_LINE_BYTES = 4 * 1024 * 1024;

type Answer = Extract<ProgramLine, { kind: 'answer' }>;

/** What became of a request (or of the start): the sandbox's outcomes, plus the program's answer and its protocol mistakes. */
export type StdioOutcome = Exclude<CallOutcome, { kind: 'reply' | 'malformed' }> | { kind: 'answer'; answer: Answer } | { kind: 'ready'; name?: string } | { kind: 'bad'; problem: string; reported?: Reported };

export interface StdioCallResult {
  outcome: StdioOutcome;
  /** CPU time of the process tree while the request was out */
  cpuMs: number;
  wallMs: number;
}

export interface StdioLaunch extends Pick<JailCommand, 'filter'> {
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
  /** the name the program gave in `ready` */
  name: string | undefined;
  private readonly sub;
  private readonly tree: WatchedTree;
  private pending: Pending | undefined;
  /** a protocol mistake made between requests: the next request reports it */
  private strayProblem: string | undefined;

  private constructor(launch: StdioLaunch) {
    this.sub = execa(launch.file, launch.args, {
      cwd: launch.cwd,
      extendEnv: false,
      env: launch.env,
      stdio: jailStdio(3, launch),
      // Its own process group, killed as a whole.
      detached: true,
      buffer: false,
      reject: false,
      cleanup: false,
    });
    sendFilter(this.sub, launch);
    this.tree = new WatchedTree(launch.meter, this.sub.pid, this.sub, ALLOCATION_FAILED, {
      overOutput: (bytes) => (this.pending !== undefined ? this.pending.resolve({ kind: 'output-limit', bytes, ...reportedOf(this.pending) }) : void this.kill()),
      closed: () => {
        if (this.pending !== undefined) this.pending.resolve(this.tree.exitOutcome(this.pending.reported));
      },
    });
    const splitter = new LineSplitter(
      MAX_LINE_BYTES,
      (line) => this.onLine(line),
      () => this.onBad(`it wrote more than ${MAX_LINE_BYTES / 1024} KB on stdout without a line break`),
    );
    this.sub.stdout?.on('data', (c: Buffer) => {
      this.tree.onStdout(c);
      splitter.push(c);
    });
    this.sub.stderr?.on('data', (c: Buffer) => this.tree.onStderr(c));
    this.sub.stdin?.on('error', () => {}); // EPIPE once it is gone: the close handler reports it
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

  /** the last few KB of its stdout */
  get stdout() {
    return this.tree.stdout;
  }

  /** the last few KB of its stderr (its log) */
  get stderr() {
    return this.tree.stderr;
  }

  get alive(): boolean {
    return !this.tree.closed && !this.tree.killed;
  }

  /** Sends one move request (`line`, id `id`) and waits for its answer within `limits`. */
  call(line: string, id: number, limits: CallLimits, onReport?: (r: Reported) => void): Promise<StdioCallResult> {
    return this.exchange(line, id, limits, onReport);
  }

  private async exchange(line: string, id: number | undefined, limits: CallLimits, onReport?: (r: Reported) => void): Promise<StdioCallResult> {
    if (!this.alive) return { outcome: this.tree.exitOutcome(undefined), cpuMs: 0, wallMs: 0 };
    if (this.strayProblem !== undefined) {
      const problem = this.strayProblem;
      await this.kill();
      return { outcome: { kind: 'bad', problem: `between two requests ${problem}` }, cpuMs: 0, wallMs: 0 };
    }
    const result = await this.tree.request<StdioOutcome>(limits, () => this.pending?.reported, (resolve) => {
      this.pending = { resolve, ...(id !== undefined ? { id } : {}), ...(onReport ? { onReport } : {}) };
      this.sub.stdin?.write(line);
    });
    this.pending = undefined;
    // Anything but an answer leaves the program out of step (or gone): it is replaced next time.
    if (result.outcome.kind !== 'answer' && result.outcome.kind !== 'ready' && !this.tree.closed) await this.kill();
    return result;
  }

  /** Kills the whole tree, waits until it is gone, and releases the meter. */
  kill(): Promise<void> {
    return this.tree.kill();
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
}

function reportedOf(p: Pending | undefined): { reported?: Reported } {
  return p?.reported === undefined ? {} : { reported: p.reported };
}
