/**
 * The architecture rules, checked by `npm test` (`npm run depcheck`):
 *  - framework/ stands alone: agents/ and graders/ are plugins the composition root
 *    (bin/plugins.ts) registers in framework's registries (framework/plugins/; the graders' one is
 *    framework/grading/grader-plugin.ts); framework never imports them, nor testcases/;
 *  - the top-level folders depend one way (bin -> graders -> agents -> framework), so no cycle
 *    between them;
 *  - no cycles between modules, nor between folders;
 *  - product code never imports test code (test files, testcases/fixtures/).
 * Type-only imports count (tsPreCompilationDeps): a type from agents/ couples framework to it too.
 *
 * framework/'s folders are layers. Bottom to top, each imports only from the layers below it:
 *   framework/*.ts          errors, random, field paths, writing a file whole, an append-and-resume
 *                           JSON-lines file (they import no folder)
 *   files/                  reading what a student handed in without trusting it: no-follow, capped
 *                           reads of regular files, safe folder snapshots, bounded archives
 *   intake/                 submissions as an LMS gives them: layouts, rosters, the Submission record
 *   contracts/              Game, Agent, Heuristic; the search conventions and trace events agents see
 *   games/                  the Mancala engine, its profiles and board files; Tic-Tac-Toe
 *   search/, heuristics/,   running an agent, perft, the specification search, traverse logs; the
 *   modules/                course-given heuristics; loading a user's agent or heuristic module
 *   plugins/                the registries: agents and heuristics, the csci561 solver, the player
 *                           runtime, the composition root
 *   suites/                 suite and case files (they look agents up in plugins/)
 *   sandbox/                running untrusted code; what a submission is asked and answers. Inside,
 *                           bottom to top: meters/ (CPU and memory, measured from outside), jail/
 *                           (the confinement), submissions/ (a submission's copy and bundles),
 *                           programs/ (file programs in any language), stdio-agents/ (agents over
 *                           stdio); child/ runs inside the sandboxed Node process; the top holds
 *                           the Node session, its protocol and what the subfolders share
 *   grading/                the runner, the graders' contract and registry, reports
 *   workers/                the one worker pool
 *   matches/                playGame, players, openings, replays (their jobs run on workers/)
 *   packs/, tournaments/    each course pack's commands; schedules, results, ratings
 *   kit/                    a course's student kit: its package without the references, its folder
 *   similarity/             who copied whom: source similarity (Dolos, in process: it parses, runs
 *                           nothing) and behaviour fingerprints (run sandboxed); above sandbox/ and
 *                           grading/, whose submission files and report HTML it uses
 *   shards/, distributed/,  a run's shards and their merge; jobs on Redis for `mancala worker`s;
 *   export/, web/           the Gradescope autograder zip; `mancala serve` (server, API, front end)
 *   cli/                    the `mancala` command: nothing in framework/ imports it
 * A piece two layers share lives in the lower one. The folder rule below (no-folder-cycles) keeps
 * the layers from folding into each other; the order itself is this comment's.
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
        'through its registries (framework/plugins/, framework/grading/grader-plugin.ts), which the composition root bin/plugins.ts fills. ' +
        'Its tests may use them.',
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
      name: 'no-folder-cycles',
      severity: 'error',
      comment:
        'A cycle between folders (suites -> grading -> suites): neither layer can be understood without the other. Move the ' +
        'shared piece down to the lower layer (the layering is at the top of this file). Test code is out of the folder graph: ' +
        'tests may import across folders (doNotFollow below).',
      scope: 'folder',
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
    // Test code is not followed: no rule limits what it imports (every other rule's `from` leaves it
    // out, and nothing imports it, so it closes no module cycle), and so it stays out of the folders
    // the folder rule sees, which aggregate every module they hold. An import of test code from
    // product code is still seen (no-test-code-in-product).
    doNotFollow: { path: TEST_CODE },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default'],
      extensions: ['.ts', '.mjs', '.js', '.json'],
    },
  },
};
