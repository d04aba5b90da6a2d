import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['framework/**/*.test.ts', 'agents/**/*.test.ts', 'graders/**/*.test.ts', 'testcases/**/*.test.ts'],
    // The slower suites (the packed package, the student kits) run apart: npm run test:slow.
    exclude: [...configDefaults.exclude, '**/*.slow.test.ts'],
    // CLI tests spawn `node bin/mancala.js`; give them room on a busy 2-core machine.
    testTimeout: 60_000,
    pool: 'forks',
    // The composition root: framework code under test finds agents and graders in its registries.
    setupFiles: ['bin/plugins.ts'],
    // Says once when ../shared is missing (the tests that read it skip), and fails a CI run then;
    // builds dist/, which the tests that spawn bin/mancala.js run.
    globalSetup: ['testcases/shared-data-check.ts', 'bin/build-before-tests.ts'],
  },
});
