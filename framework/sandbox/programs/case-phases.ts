/**
 * Where a program run's wall-clock time goes beyond the program itself, for `mancala bench`:
 * cheap timers (performance.now) in the grader's own code, never in the student's process, summed
 * per phase in this thread. Always on: a timer costs well under a microsecond, and the figures
 * then describe the grading path exactly as it runs for a class.
 */
import { performance } from 'node:perf_hooks';

/** The phases of a case, in the order they happen. */
export const CASE_PHASES = [
  'plan', // the request resolved: mechanisms, runtime
  'start-up', // the runtime's start-up measured (three trivial runs, once per runtime and thread)
  'folders', // the run's folders: its host folder and inputs, or (a jail kept for the submission) its work folder and /tmp emptied, the submission and inputs copied in
  'meter', // the cgroups made (or the poller set up), or reset for the next case in a kept jail
  'jail', // to the wrapper's `start`: the process chain, bwrap's namespaces and mounts, copying in; in a kept jail, the wait for it (once) and the go
  'program', // `start` to `exit`: the program, its runtime's start-up included
  'report', // `exit` to the jail's end (or the case's end in a kept jail): killing what is left, the file list, reading back
  'polling', // the CPU-time polls while it runs (inside 'program': the grader's thread, not its wall)
  'clean', // the meter and the run's folder removed, or a kept jail ended
  'compare', // the outputs compared with the expected files
] as const;

export type CasePhase = (typeof CASE_PHASES)[number];

const totals = new Map<CasePhase, number>();
let runs = 0;
/** inside a phase that holds whole runs (the start-up's): their own phases are not counted apart */
let within = 0;

/** Adds `ms` to `phase`. */
export function notePhase(phase: CasePhase, ms: number): void {
  if (within === 0) totals.set(phase, (totals.get(phase) ?? 0) + ms);
}

/** Times `f`, whose runs count as `phase` alone. */
export async function timeWhole<T>(phase: CasePhase, f: () => Promise<T>): Promise<T> {
  const t = performance.now();
  within++;
  try {
    return await f();
  } finally {
    within--;
    notePhase(phase, performance.now() - t);
  }
}

/** One execution of a program in the sandbox ended (the start-up's trivial runs count too). */
export function noteRun(): void {
  if (within === 0) runs++;
}

export interface PhaseTimes {
  /** executions counted */
  runs: number;
  /** ms summed per phase */
  ms: Record<CasePhase, number>;
}

/** The sums so far in this thread, then zero again. */
export function takePhaseTimes(): PhaseTimes {
  const ms = Object.fromEntries(CASE_PHASES.map((p) => [p, totals.get(p) ?? 0])) as Record<CasePhase, number>;
  const out = { runs, ms };
  totals.clear();
  runs = 0;
  return out;
}
