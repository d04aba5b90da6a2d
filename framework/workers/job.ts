/**
 * What a job is (pool.ts runs them): something that plays items one at a time with resources of its
 * own (a match's players, a submission's sandboxed process), named so that a worker thread can find
 * it. Kept apart from the pool itself so that a job module, which every pool thread loads, does not
 * also load the pool's machinery (piscina, esbuild).
 */

/** Plays items one at a time with resources of its own; closed when the items run out or the run stops. */
export interface Job<Item, Result> {
  run(item: Item): Promise<Result>;
  close(): Promise<void>;
}

/**
 * Opens a job. `tell` sends the run an event while an item plays (grading's per-case progress); it
 * reaches the run's `onEvent` in order with the results, from this thread or from a pool thread.
 */
export type JobFactory<Setup, Item, Result, Event = never> = (
  setup: Setup,
  tell: (event: Event) => void,
) => Job<Item, Result> | Promise<Job<Item, Result>>;

/** A job factory and where a worker thread finds it: the module's URL (import.meta.url) and the export's name. */
export interface JobKind<Setup, Item, Result, Event = never> {
  module: string;
  name: string;
  factory: JobFactory<Setup, Item, Result, Event>;
}

/** Every job module named in this process: the threads' bundle holds them all, so one pool serves every kind. */
const jobModules = new Set<string>();

/** Names `factory`, exported as `name` by the module at `module` (pass import.meta.url). */
export function jobKind<Setup, Item, Result, Event = never>(
  module: string,
  name: string,
  factory: JobFactory<Setup, Item, Result, Event>,
): JobKind<Setup, Item, Result, Event> {
  jobModules.add(module);
  return { module, name, factory };
}

/** The job modules named so far in this process. */
export function namedJobModules(): ReadonlySet<string> {
  return jobModules;
}
