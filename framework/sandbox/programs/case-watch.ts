/**
 * The watch of one case in a jail kept for a submission's cases (jail-session.ts): its stdout and
 * stderr up to the nonce the supervisor writes after it, its CPU time between `start` and `exit`,
 * its limits (CPU, wall clock, output), and, once the supervisor said `end`, what the grader reads
 * of its folders (jail-files.ts). Anything it is stopped for kills the whole jail.
 */
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { LimitWatch } from './limit-watch.ts';
import { ALLOCATION_FAILED } from '../meters/memory-backstop.ts';
import type { ResourceMeter } from '../meters/resource-meter.ts';
import type { OutputTail } from '../sandboxed-process.ts';
import { notePhase } from './case-phases.ts';
import { newExecution, type Execution, type Plan } from './execution-types.ts';
import type { readCase } from './jail-files.ts';

/** The case being run in a session: what its streams are routed to. */
export interface CaseWatch {
  nonce: string;
  x: Execution;
  onStdout(chunk: Buffer): void;
  onStderr(chunk: Buffer): void;
  onReport(chunk: Buffer): void;
  onExit(code: number | null): void;
}

/** The watch of one case: its output until the nonce, its report until complete, its limits. */
export function watchCase(plan: Plan, meter: ResourceMeter, killJail: () => void): CaseWatch & { done: Promise<Execution>; readonly last: boolean; reading(read: () => ReturnType<typeof readCase>): void; went(): void; setupFailed(): void } {
  const nonce = randomBytes(16).toString('hex');
  const x = newExecution();

  const begin = performance.now();
  /** when the go was sent: the jail's phase runs from there to \`start\` (the folders and meter before it are their own) */
  let wentAt: number | undefined;
  let finish: (() => void) | undefined;
  const finished = new Promise<void>((resolve) => (finish = resolve));
  const limits = new LimitWatch(plan, meter, x, killJail);
  const stop = (why: NonNullable<Execution['stoppedFor']>) => limits.stop(why);
  // Each stream's bytes are the case's up to the nonce (the last bytes held back until they cannot
  // be its start); the case is over when both streams said it and the report is complete.
  const mark = Buffer.from(nonce, 'latin1');
  const stream = (tail: OutputTail, scan: boolean) => {
    let held = Buffer.alloc(0);
    let overlap = '';
    let closed = false;
    const take = (mine: Buffer) => {
      tail.push(mine);
      if (scan) {
        const text = overlap + mine.toString('latin1');
        if (ALLOCATION_FAILED.test(text)) x.sawOutOfMemory = true;
        overlap = text.slice(-64);
      }
    };
    return {
      get closed() {
        return closed;
      },
      push(chunk: Buffer) {
        if (closed) return;
        const data = held.length === 0 ? chunk : Buffer.concat([held, chunk]);
        const at = data.indexOf(mark);
        if (at >= 0) {
          closed = true;
          held = Buffer.alloc(0);
          take(data.subarray(0, at));
        } else {
          const keep = Math.min(data.length, mark.length - 1);
          held = Buffer.from(data.subarray(data.length - keep));
          take(data.subarray(0, data.length - keep));
        }
        if (x.stdout.total + x.stderr.total > plan.outputBytes) stop('output');
        check();
      },
      /** the jail ended without the nonce: what was held is the case's */
      flush() {
        if (!closed && held.length > 0) take(held);
        held = Buffer.alloc(0);
      },
    };
  };
  const out = stream(x.stdout, false);
  const err = stream(x.stderr, true);
  // fd 3 is the supervisor's alone (the program's is closed): `start`, `exit CODE`, `end`, no more.
  let said = '';
  let cpuAtStart: number | undefined;
  let cpuAtExit: number | undefined;
  let startedAt: number | undefined;
  let exitedAt: number | undefined;
  let exitCode: number | undefined;
  let reportDone = false;
  /** the supervisor said this case is its last (it left what only a new jail clears) */
  let last = false;
  let setupFailed = false;
  let jailEnded = false;
  let jailCode: number | null = null;
  let read: (() => ReturnType<typeof readCase>) | undefined;
  function check(): void {
    if (jailEnded || setupFailed || (reportDone && out.closed && err.closed)) finish?.();
  }
  const watch: CaseWatch = {
    nonce,
    x,
    onStdout: (chunk) => out.push(chunk),
    onStderr: (chunk) => err.push(chunk),
    onReport(chunk) {
      said += chunk.toString('latin1');
      if (said.length > 256) return stop('report');
      if (cpuAtStart === undefined && said.startsWith('start\n')) {
        cpuAtStart = meter.cpuMs();
        startedAt = performance.now();
      }
      const exit = /^start\nexit (\d+)\n/.exec(said);
      if (cpuAtExit === undefined && exit !== null) {
        cpuAtExit = meter.cpuMs();
        exitedAt = performance.now();
        exitCode = Number(exit[1]);
      }
      const end = /^start\nexit \d+\nend( last)?\n$/.exec(said);
      if (end !== null) {
        reportDone = true;
        if (end[1] !== undefined) last = true;
      }
      check();
    },
    onExit(code) {
      jailEnded = true;
      jailCode = code;
      out.flush();
      err.flush();
      check();
    },
  };
  const done = (async () => {
    limits.begin(() => ({ start: cpuAtStart, exit: cpuAtExit }));
    try {
      await finished;
    } finally {
      limits.end();
    }
    const end = meter.cpuMs();
    const over = performance.now();
    x.wallMs = over - begin;
    notePhase('jail', (startedAt ?? over) - (wentAt ?? over));
    notePhase('program', (exitedAt ?? over) - (startedAt ?? over));
    notePhase('report', over - (exitedAt ?? over));
    x.started = cpuAtStart !== undefined;
    x.measuredCpuMs = cpuAtStart === undefined ? 0 : (cpuAtExit ?? end) - cpuAtStart;
    x.peakMemoryBytes = meter.peakMemoryBytes();
    x.overMemory ||= meter.overMemory();
    // The jail's exit code, when it ended during the case (a case it outlived has none).
    x.jailExit = jailCode;
    const nothing = { left: [], files: {}, sizes: {}, notFiles: [] };
    if (setupFailed) x.report = { setupFailed: true, ...nothing, complete: true };
    else if (x.stoppedFor === undefined) {
      if (reportDone && read !== undefined) x.report = { setupFailed: false, exitCode, ...read(), complete: true };
      else if (x.started) {
        x.report = { setupFailed: false, ...(exitCode !== undefined ? { exitCode } : {}), ...nothing, complete: false };
        x.malformed = 'the sandbox ended during the run';
      }
    }
    return x;
  })();
  return {
    ...watch,
    done,
    get last() {
      return last;
    },
    reading(r) {
      read = r;
    },
    went() {
      wentAt = performance.now();
    },
    setupFailed() {
      setupFailed = true;
      check();
    },
  };
}
