import { defineConfig } from 'vitest/config';

/**
 * The slower suites `.ci/run` runs after `npm test` (`npm run test:slow`): the package as npm
 * packs it, installed into a fresh folder from the registry. Not in `npm test`, which stays
 * within minutes and needs no network beyond `npm ci`.
 */
export default defineConfig({
  test: {
    include: ['{framework,agents,graders,testcases}/**/*.slow.test.ts'],
    testTimeout: 600_000,
    hookTimeout: 600_000,
    pool: 'forks',
    setupFiles: ['bin/plugins.ts'],
    globalSetup: ['bin/build-before-tests.ts'],
  },
});
