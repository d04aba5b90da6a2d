/**
 * A runtime's start-up, left out of every case's CPU time: the median of three trivial runs in
 * the same jail (the runtime's `startupArgs`), measured once per grader process for each runtime,
 * sandbox mode and memory limit. A loaded machine or a slow interpreter start then costs no case.
 */
import type { SandboxMode } from '../jail/mechanisms.ts';
import { execute, type Plan } from './execution.ts';
import { withEmptyFiles } from './staging.ts';
import { timeWhole } from './case-phases.ts';

export interface Startup {
  /** the runtime's word, e.g. python3 */
  runtime: string;
  mode: SandboxMode;
  /** median CPU ms of a trivial run (from start to exit), not charged to cases */
  cpuMs: number;
  /** median wall ms of a whole trivial run (jail start, wrapper and report included) */
  wallMs: number;
}

/** A plan before its program and files are known: what a start-up is measured under. */
export type RuntimePlan = Omit<Plan, 'files' | 'inputs' | 'outputs' | 'argv' | 'startupCpuMs'>;

/** Start-ups by runtime, mode and memory limit; a promise, so concurrent runs share one measurement. */
const startups = new Map<string, Promise<Startup>>();

export const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function measureStartup(base: RuntimePlan): Promise<Startup> {
  const argv = base.runtime.startupArgs ?? [];
  return withEmptyFiles(async (files) => {
    const cpu: number[] = [];
    const wall: number[] = [];
    for (let i = 0; i < 3; i++) {
      const x = await execute({ ...base, files, inputs: {}, outputs: [], argv, startupCpuMs: 0, cpuMs: 30_000, wallMs: 60_000 });
      // A runtime that cannot start here starts at no cost: the program's own run will say why.
      cpu.push(x.report?.exitCode === 0 ? x.measuredCpuMs : 0);
      wall.push(x.wallMs);
    }
    return { runtime: base.runtime.word, mode: base.mode, cpuMs: median(cpu), wallMs: median(wall) };
  });
}

/** The start-up of `base`'s runtime (invoked as `word`), measured on first use. */
export function startupOf(base: RuntimePlan, word: string): Promise<Startup> {
  // A native program starts at the cost of an exec: nothing to measure or to leave out.
  if (base.runtime.startupArgs === undefined) return Promise.resolve({ runtime: word, mode: base.mode, cpuMs: 0, wallMs: 0 });
  const key = `${base.runtime.executable}\0${base.mode}\0${base.memoryBytes}`;
  let startup = startups.get(key);
  if (startup === undefined) {
    startup = timeWhole('start-up', () => measureStartup(base));
    startups.set(key, startup);
  }
  return startup;
}

/** The start-ups measured in this thread, by key, to hand to other threads (seedStartups). */
export async function knownStartups(): Promise<[string, Startup][]> {
  return Promise.all([...startups].map(async ([key, s]) => [key, await s] as [string, Startup]));
}

/** Start-ups another thread measured (knownStartups): this thread takes them as its own and measures none of them again. */
export function seedStartups(entries: readonly [string, Startup][]): void {
  for (const [key, s] of entries) if (!startups.has(key)) startups.set(key, Promise.resolve(s));
}

/** The start-ups measured so far in this grader process, for a report. */
export async function measuredStartups(): Promise<Startup[]> {
  return Promise.all([...startups.values()]);
}
