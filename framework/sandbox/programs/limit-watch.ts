/**
 * The limits of one execution of a program, watched by the grader: its CPU time polled from the
 * program's `start` to its `exit` (the runtime's start-up left out), the wall-clock backstop, and
 * the allocation trend, which decides whether a run stopped for time was heading over its memory.
 * Shared by a jail of its own per run (execution.ts) and a case in a kept jail (case-watch.ts).
 */
import { performance } from 'node:perf_hooks';
import { AllocationTrend } from '../meters/allocation-trend.ts';
import type { ResourceMeter } from '../meters/resource-meter.ts';
import type { Execution, Plan } from './execution-types.ts';

/** How often the CPU time is compared with the limit while the program runs. */
const POLL_MS = 15;

export class LimitWatch {
  /** from the end of the runtime's start-up on: a JVM's first heap is no leak */
  private trend: AllocationTrend | undefined;
  private poll: NodeJS.Timeout | undefined;
  private backstop: NodeJS.Timeout | undefined;
  /** ms of the grader's thread the polls took */
  pollMs = 0;

  constructor(
    private readonly plan: Plan,
    private readonly meter: ResourceMeter,
    private readonly x: Execution,
    private readonly kill: () => void,
  ) {}

  /** Stops the run for `why`, having read first (which limit fires first is the machine's speed) whether it was heading over its memory. */
  stop(why: NonNullable<Execution['stoppedFor']>): void {
    const { x, meter } = this;
    if (x.stoppedFor === undefined && (why === 'cpu' || why === 'wall') && this.trend?.headingOverMemory(why)) {
      if (meter.reachedMemoryLimit()) x.overMemory = true;
      else x.heldBytes = meter.memoryBytes();
    }
    x.stoppedFor ??= why;
    this.kill();
  }

  /** Watches from now on; `span` gives the CPU readings at the program's start and exit, once seen. */
  begin(span: () => { start: number | undefined; exit: number | undefined }): void {
    const { plan, meter } = this;
    this.poll = setInterval(() => {
      const { start, exit } = span();
      if (start === undefined || exit !== undefined) return;
      const t = performance.now();
      const cpuMs = meter.cpuMs();
      if (this.trend !== undefined) this.trend.note(cpuMs);
      else if (cpuMs - start >= plan.startupCpuMs) this.trend = new AllocationTrend(meter, plan.cpuMs);
      if (cpuMs - start - plan.startupCpuMs > plan.cpuMs) this.stop('cpu');
      this.pollMs += performance.now() - t;
    }, POLL_MS);
    this.backstop = setTimeout(() => this.stop('wall'), plan.wallMs);
  }

  end(): void {
    clearInterval(this.poll);
    clearTimeout(this.backstop);
  }
}
