import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['framework/**/*.test.ts', 'agents/**/*.test.ts', 'graders/**/*.test.ts', 'testcases/**/*.test.ts'],
    // CLI tests spawn `node bin/mancala.js`; give them room on a busy 2-core machine.
    testTimeout: 60_000,
    pool: 'forks',
  },
});
