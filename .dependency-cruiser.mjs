/**
 * The architecture rules, checked by `npm test` (`npm run depcheck`):
 *  - framework/ stands alone: agents/ and graders/ are plugins the composition root
 *    (bin/plugins.ts) registers in framework/plugins/; framework never imports them, nor testcases/;
 *  - the top-level folders depend one way (bin -> graders -> agents -> framework), so no cycle
 *    between them;
 *  - no cycles between modules;
 *  - product code never imports test code (test files, testcases/fixtures/).
 * Type-only imports count (tsPreCompilationDeps): a type from agents/ couples framework to it too.
 *
 * Folder cycles below the top level: dependency-cruiser can check them (a rule with
 * `scope: 'folder'`), but it aggregates every module of a folder, tests included, and framework/
 * has such cycles today (suites <-> grading, search <-> contracts, sandbox <-> sandbox/child,
 * cli <-> tournaments), so that rule is not on yet: `npx depcruise framework --config
 * .dependency-cruiser.mjs --exclude '\.test\.ts$' --output-type err` with it added lists them.
 */

/** Test code: test files, and the fixtures they run on. */
const TEST_CODE = ['\\.test\\.ts$', '^testcases/fixtures/'];

export default {
  forbidden: [
    {
      name: 'framework-stands-alone',
      severity: 'error',
      comment:
        'framework/ defines the contracts and imports nothing from agents/, graders/ or testcases/: it reaches agents and graders ' +
        'through its registries (framework/plugins/), which the composition root bin/plugins.ts fills. Its tests may use them.',
      from: { path: '^framework/', pathNot: TEST_CODE },
      to: { path: '^(agents|graders|testcases)/' },
    },
    {
      name: 'plugins-depend-one-way',
      severity: 'error',
      comment: 'agents/ knows the framework only; graders/ the framework and agents/; only the composition root (bin/) knows them all.',
      from: { path: '^(agents|graders)/', pathNot: TEST_CODE },
      to: { path: '^bin/' },
    },
    {
      name: 'agents-know-no-graders',
      severity: 'error',
      comment: 'Graders compare what an agent did with a reference; agents never depend on how they are graded.',
      from: { path: '^agents/', pathNot: TEST_CODE },
      to: { path: '^graders/' },
    },
    {
      name: 'no-module-cycles',
      severity: 'error',
      comment: 'A cycle of imports: the modules cannot be understood, tested or loaded one without the other.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'no-test-code-in-product',
      severity: 'error',
      comment: 'Product code must not import test files or fixtures: they are not shipped, and tests may change them at will.',
      from: { pathNot: TEST_CODE },
      to: { path: TEST_CODE },
    },
  ],
  options: {
    includeOnly: '^(framework|agents|graders|testcases|bin)/',
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default'],
      extensions: ['.ts', '.mjs', '.js', '.json'],
    },
  },
};
