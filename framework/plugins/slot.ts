/**
 * One thing a plugin provides to the framework (the agent catalog, the graders, …): filled by the
 * composition root (bin/plugins.ts) before any command runs, read by framework code. Reading an
 * empty slot is a wiring bug, never the user's: the error says which registration is missing.
 * In a student kit, though, an empty slot is a reference part the kit leaves out (student-kit.ts).
 */
import { UserError } from '../errors.ts';
import { studentKitCourse, withheldMessage } from './student-kit.ts';

export interface PluginSlot<T> {
  set(value: T): void;
  get(): T;
  /** the value, or undefined when nothing was registered */
  find(): T | undefined;
}

/** `what` names the plugin in the error; `register` is the function that fills the slot. */
export function pluginSlot<T>(what: string, register: string): PluginSlot<T> {
  let value: T | undefined;
  return {
    set(v: T) {
      value = v;
    },
    find(): T | undefined {
      return value;
    },
    get(): T {
      // A student kit leaves the course's reference parts out on purpose: say so, in one line.
      if (value === undefined && studentKitCourse() !== undefined) throw new UserError(withheldMessage(what));
      if (value === undefined) {
        // Registries are per thread: a worker thread must import the composition root itself.
        throw new Error(
          `internal: ${what} used before it was registered: the composition root (bin/plugins.ts) calls ${register}() ` +
            'before any command runs; a worker thread or a test must import it first (framework/plugins/composition.ts)',
        );
      }
      return value;
    },
  };
}
