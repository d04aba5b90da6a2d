/**
 * The build of the child runtime refuses a bundle that takes project code from outside framework/:
 * the guard that keeps reference searches away from student code.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from './paths.ts';
import { bundle, childRuntime } from './runtime.ts';

describe('the runtime build', () => {
  it('refuses an entry that takes an agents/ file, and the runtime it builds takes none', async () => {
    await expect(bundle(join(PROJECT_ROOT, 'agents/alphabeta.ts'), 'cjs', 'a test runtime')).rejects.toThrow(
      /^a test runtime must contain nothing outside framework\/, but it bundles .*agents\/reference\/alphabeta\.ts.*agents\/alphabeta\.ts/,
    );
    expect((await childRuntime()).code).not.toContain('agents/');
  });
});
