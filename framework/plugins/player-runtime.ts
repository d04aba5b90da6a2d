/**
 * The registry of the player sandbox runtime (framework/sandbox/runtime.ts): the reference
 * alpha-beta playing with a submission's heuristic role, for playoffs that grade a heuristic. Its
 * entry module holds a reference search, so it lives in agents/; runtime.ts bundles it and checks
 * that the bundle takes nothing outside framework/ beyond the files registered here.
 */
import { pluginSlot } from './slot.ts';

export interface PlayerRuntimePlugin {
  /** the entry module (an absolute path): exports `start: StartRuntime` (sandbox/child/channel.ts) */
  entry: string;
  /** the only project files outside framework/ its bundle may contain, relative to the project root */
  files: readonly string[];
}

const runtime = pluginSlot<PlayerRuntimePlugin>('the player sandbox runtime (the reference alpha-beta that plays games with a heuristic module)', 'registerPlayerRuntime');

export function registerPlayerRuntime(plugin: PlayerRuntimePlugin): void {
  runtime.set(plugin);
}

export function playerRuntime(): PlayerRuntimePlugin {
  return runtime.get();
}

/** Whether a player runtime was registered (a student kit holds none: it is the reference alpha-beta). */
export function hasPlayerRuntime(): boolean {
  return runtime.find() !== undefined;
}
