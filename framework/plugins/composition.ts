/**
 * Where the registries get filled. Module state is per thread, so a worker thread that runs
 * framework code needing plugins (a match or tournament game with a reference agent) starts by
 * importing the composition root, whose URL the main thread passes it from here.
 */
import { pluginSlot } from './slot.ts';

const root = pluginSlot<string>('the composition root', 'setCompositionRoot');

/** Called by the composition root with its own `import.meta.url`. */
export function setCompositionRoot(url: string): void {
  root.set(url);
}

/** The URL of the module that registers every plugin when imported. */
export function compositionRoot(): string {
  return root.get();
}

