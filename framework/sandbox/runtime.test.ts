/**
 * The build of the child runtimes refuses a bundle that takes project code from outside
 * framework/ it was not allowed: the guard that keeps reference searches away from student code.
 */
import { describe, expect, it } from 'vitest';
import { playerRuntime, registerPlayerRuntime } from '../plugins/player-runtime.ts';
import { childRuntime } from './runtime.ts';

describe('the runtime build', () => {
  it('refuses a player runtime whose bundle takes an agents/ file its plugin did not list', async () => {
    const real = playerRuntime();
    // The registered runtime, minus the alpha-beta it imports (this file's own module graph: the cache is empty).
    registerPlayerRuntime({ entry: real.entry, files: real.files.filter((f) => f !== 'agents/reference/alphabeta.ts') });
    try {
      await expect(childRuntime('player')).rejects.toThrow(/the player sandbox runtime must contain nothing outside framework\/ beyond .* but it bundles agents\/reference\/alphabeta\.ts/);
    } finally {
      registerPlayerRuntime(real);
    }
  });
});
