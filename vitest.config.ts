import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['framework/**/*.test.ts', 'agents/**/*.test.ts', 'graders/**/*.test.ts', 'testcases/**/*.test.ts'],
    // The slower suites (the packed package, the student kits, the built command under an
    // address-space cap, the other platforms' meters) run apart: npm run test:slow.
    exclude: [...configDefaults.exclude, '**/*.slow.test.ts'],
    // CLI tests spawn `node bin/mancala.js`; give them room on a busy 2-core machine.
    testTimeout: 60_000,
    pool: 'forks',
    // Measured on the 2-core machine (whole fast suite): one worker (Vitest's default here, cores
    // less one) 12.1 min; two 9.4; two without isolation 7.7, with 180 s less CPU, the modules
    // (bin/plugins.ts and what tests import) loaded once a worker instead of once a file. Most
    // files wait on the processes they start, so two workers overlap; three measured no better.
    // Without isolation a test file must not leave global state for the next (none does: the
    // registries are filled once, by the setup file).
    maxWorkers: 2,
    isolate: false,
    // The composition root: framework code under test finds agents and graders in its registries.
    setupFiles: ['bin/plugins.ts'],
    // Says once when ../shared is missing (the tests that read it skip), and fails a CI run then;
    // builds dist/, which the tests that spawn bin/mancala.js run.
    globalSetup: ['testcases/shared-data-check.ts', 'bin/build-before-tests.ts'],
  },
});
