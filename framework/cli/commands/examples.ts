/**
 * `mancala examples` (what `npm start` runs): grades the bundled example submissions on the
 * bundled suites they were written for and prints the reports — the quickest way to see what
 * grading looks like, including failures that name the bug. The same as running `mancala grade`
 * once per suite; the table below says which examples go with which suite.
 */
import { join, relative } from 'node:path';
import type { Command } from 'commander';
import { UserError } from '../../errors.ts';
import { gradeSubmissions, startGradingWorkers } from '../../grading/runner.ts';
import { renderConsole } from '../../grading/reporters/console.ts';
import { loadSuite } from '../../suites/load.ts';
import { cleanUpOnInterrupt } from '../interrupt.ts';
import { PROJECT_ROOT } from '../../sandbox/paths.ts';
import type { CliIo } from '../options.ts';
import { jobsOption } from '../jobs-option.ts';

/** Each bundled suite with the example submissions (agents/examples/) written for it. */
export const EXAMPLE_RUNS: ReadonlyArray<{ suite: string; examples: readonly string[] }> = [
  { suite: 'kalah-basics', examples: ['alice', 'bob', 'carol'] },
  { suite: 'hidden-example', examples: ['alice', 'bob', 'carol'] },
  { suite: 'csci561-public', examples: ['csci561-reference', 'csci561-off-by-one'] },
  { suite: 'csc384-hidden', examples: ['csc384-reference', 'csc384-no-caching'] },
  { suite: 'cpsc4610-public', examples: ['cpsc4610-reference', 'cpsc4610-strict-pruning'] },
  { suite: 'tictactoe-public', examples: ['cpsc4610-reference', 'cpsc4610-strict-pruning'] },
];

export function addExamplesCommand(program: Command, io: CliIo): void {
  program
    .command('examples')
    .description('grade the bundled example submissions on the suites they were written for (what npm start runs)')
    .option('--suite <name...>', `only these suites (${EXAMPLE_RUNS.map((r) => r.suite).join(', ')})`)
    .addOption(jobsOption('submissions graded at once'))
    .action(async (opts: { suite?: string[]; jobs: number }) => {
      const runs = opts.suite === undefined ? EXAMPLE_RUNS : opts.suite.map(pick);
      startGradingWorkers(opts.jobs, Math.max(...runs.map((r) => r.examples.length)));
      cleanUpOnInterrupt(io);
      for (const run of runs) {
        const suite = await loadSuite(join(PROJECT_ROOT, 'testcases', run.suite));
        // Paths as the user would type them from where they stand.
        const submissions = run.examples.map((e) => relative(process.cwd(), join(PROJECT_ROOT, 'agents', 'examples', e)) || '.');
        io.out(`$ mancala grade ${submissions.join(' ')} --suite ${relative(process.cwd(), suite.manifest.dir)}\n`);
        const report = await gradeSubmissions({ suite, submissions, visibility: 'all', jobs: opts.jobs });
        io.out(renderConsole(report, { color: process.stdout.isTTY === true && process.env.NO_COLOR === undefined, verbose: false }) + '\n');
      }
    });
}

function pick(name: string): (typeof EXAMPLE_RUNS)[number] {
  const run = EXAMPLE_RUNS.find((r) => r.suite === name);
  if (run === undefined) throw new UserError(`--suite ${name}: expected one of ${EXAMPLE_RUNS.map((r) => r.suite).join(', ')}`);
  return run;
}
