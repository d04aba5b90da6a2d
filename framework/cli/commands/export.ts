/**
 * `mancala export gradescope`: a Gradescope autograder (framework/export/gradescope/export.ts),
 * and `mancala gradescope-run`, what that autograder's run_autograder runs for each submission
 * (framework/export/gradescope/run.ts).
 */
import { InvalidArgumentError, Option, type Command } from 'commander';
import { UserError } from '../../errors.ts';
import { courseNames } from '../../export/gradescope/courses.ts';
import { exportGradescope } from '../../export/gradescope/export.ts';
import { defaultRoot, gradescopeRun, graderVersion, runPaths, ROOT_ENV, selfCheck } from '../../export/gradescope/run.ts';
import { SANDBOX_POLICIES, type SandboxPolicy } from '../../export/gradescope/settings.ts';
import { dirname } from 'node:path';
import { checkOutputFile, checkOutputFolder } from '../output-paths.ts';
import { wholeNumber, type CliIo } from '../options.ts';
import { memoryOption, timeLimitOption } from '../sandbox-options.ts';

interface ExportFlags {
  course: string;
  suite?: string[];
  out: string;
  sandbox: SandboxPolicy;
  timeBudget: number;
  leaderboard: boolean;
  apt?: string[];
  timeLimit?: number;
  memory?: number;
}

function collect(value: string, previous: string[] | undefined): string[] {
  if (value.trim() === '') throw new InvalidArgumentError('expected a value');
  return [...(previous ?? []), value];
}

const mb = (bytes: number) => `${(bytes / (1024 * 1024)).toFixed(1)} MB`;

export function addExportCommands(program: Command, io: CliIo): void {
  const exporter = program.command('export').description('package the grader for a grading platform: `mancala export gradescope`');
  exporter
    .command('gradescope')
    .summary("write a Gradescope autograder (a zip: setup.sh, run_autograder, the grader, its packages and the suite)")
    .description(
      "Write the zip to upload as a Gradescope assignment's autograder. setup.sh installs what is missing (Node 20, the runtimes the course's " +
        'submissions need, bubblewrap); run_autograder grades /autograder/submission (in the course\'s own form) in the sandbox — the weak one, said in ' +
        "the results, where the machine cannot give the full one — and writes /autograder/results/results.json: a test per case, visibility from the suite, " +
        "the score, and the course's leaderboard. The grader and every package it runs are inside: grading needs no package registry. " +
        'cs540 is graded by the gauntlet: its --suite is the gauntlet\'s settings file (gauntlet.yaml), or left out for the defaults.',
    )
    .addOption(new Option('--course <course>', 'the course').choices(courseNames()).makeOptionMandatory())
    .option('--suite <dir>', "the suite folder (repeat for several); cs540: a gauntlet settings file (stones, time_per_move, games, seed, match_rules, bonus, memory_mb)", collect)
    .requiredOption('--out <file>', 'the zip to write, e.g. autograder.zip')
    .addOption(new Option('--sandbox <policy>', 'auto: the full sandbox where the machine gives it, else the weak one (said in the results); full: refuse to grade without it; weak: always the weak one').choices(SANDBOX_POLICIES).default('auto'))
    .addOption(
      new Option('--time-budget <s>', "seconds run_autograder gives the grading before it writes what it has (0: no budget); keep it under the assignment's timeout on Gradescope")
        .argParser(wholeNumber(0, 86_400, 'seconds'))
        .default(540),
    )
    .option('--no-leaderboard', "no leaderboard, even for a course that has one (cs540: the gauntlet's score; cpsc4610: a ladder of games)")
    .option('--apt <package>', 'another Ubuntu package setup.sh installs when missing (repeat the flag)', collect)
    .addOption(timeLimitOption("every case's CPU time limit in ms on Gradescope, over the suite's (noted in the results)"))
    .addOption(memoryOption("every case's memory limit in MB on Gradescope, over the suite's (noted in the results)"))
    .addHelpText(
      'after',
      [
        '',
        'In the zip: setup.sh and run_autograder at the root; autograder.json (what is graded, how), fallback-results.json (written when the grader',
        'writes nothing), suites/ and mancala/ (the grader: its sources, dist/ and the packages it runs). Upload it in Gradescope:',
        'the assignment → Configure Autograder → Zip file upload (Ubuntu base image). The grader runs with AUTOGRADER_ROOT to test it elsewhere.',
        '',
        'Examples:',
        '  $ mancala export gradescope --course csc384 --suite testcases/csc384-hidden --out csc384-autograder.zip',
        '  $ mancala export gradescope --course cpsc4610 --suite testcases/tictactoe-public --suite testcases/cpsc4610-hidden --out a2.zip',
        '  $ mancala export gradescope --course csci561 --suite testcases/csci561-hidden --out hw1.zip --time-budget 900',
        '  $ mancala export gradescope --course csc384 --suite testcases/csc384-hidden --out a2.zip --time-limit 5000   # 5 s a case, not 3 min',
        '  $ mancala export gradescope --course cs540 --suite gauntlet.yaml --out cs540.zip   # gauntlet.yaml: time_per_move: [500]',
        '  $ mancala export gradescope --course kalah --suite testcases/kalah-basics --out kalah.zip --sandbox full',
      ].join('\n'),
    )
    .action(async (flags: ExportFlags) => {
      checkOutputFile('--out', flags.out);
      const started = Date.now();
      const summary = await exportGradescope(
        {
          course: flags.course,
          suites: flags.suite ?? [],
          out: flags.out,
          sandbox: flags.sandbox,
          timeBudgetS: flags.timeBudget,
          leaderboard: flags.leaderboard,
          apt: flags.apt ?? [],
          limits: { ...(flags.timeLimit !== undefined ? { ms: flags.timeLimit } : {}), ...(flags.memory !== undefined ? { memoryMb: flags.memory } : {}) },
        },
        (line) => io.err(`${line}\n`),
      );
      for (const w of summary.warnings) io.err(`warning: ${w}\n`);
      const c = summary.config;
      const graded = c.grading === 'gauntlet' ? 'the gauntlet' : c.suites.join(', ');
      io.out(
        `wrote ${summary.zip}: ${mb(summary.bytes)}, ${summary.entries} files (the grader with ${summary.packages} packages), in ${((Date.now() - started) / 1000).toFixed(1)} s\n` +
          `course ${c.course}, ${graded}: ${summary.tests} tests, ${summary.maxScore} points; sandbox ${c.sandbox}; time budget ${c.timeBudgetS === 0 ? 'none' : `${c.timeBudgetS} s`}; ` +
          `leaderboard ${c.leaderboard === null ? 'none' : c.leaderboard.kind}\n` +
          "upload it on Gradescope: the assignment's Configure Autograder, Zip file upload\n",
      );
    });

  program
    .command('gradescope-run')
    .summary("grade /autograder/submission as an exported autograder (what its run_autograder runs)")
    .description(
      "Grade the submission of an exported Gradescope autograder: reads ROOT/source/autograder.json, grades ROOT/submission in the sandbox and " +
        'writes ROOT/results/results.json — always, with every test at 0 and the reason when the submission is empty or cannot be graded. ' +
        `ROOT is --root, else $${ROOT_ENV}, else /autograder. Exits 0 when the results are the submission's, 1 when the autograder itself is broken.`,
    )
    .option('--root <dir>', `where Gradescope's folders are (default: $${ROOT_ENV} or /autograder)`)
    .option('--self-check', "check the autograder instead (what setup.sh runs): its settings and suites load, and what the sandbox can do here")
    .addHelpText(
      'after',
      ['', 'Examples:', '  $ /autograder/run_autograder                     # on Gradescope: runs this', `  $ ${ROOT_ENV}=/tmp/ag mancala gradescope-run   # /tmp/ag/source is the unpacked zip, /tmp/ag/submission the files`].join('\n'),
    )
    .action(async (flags: { root?: string; selfCheck?: boolean }) => {
      const root = flags.root ?? defaultRoot();
      const log = (line: string) => io.err(`${line}\n`);
      if (flags.selfCheck === true) {
        await selfCheck(root, graderVersion(), log);
        return;
      }
      // Before any grading: the results can be written (the folder is made).
      checkOutputFolder(`--root ${root}: the results folder`, dirname(runPaths(root).results));
      const outcome = await gradescopeRun(root, graderVersion(), log);
      if (outcome.code !== 0) throw new UserError(`the autograder under ${root} is broken; ${outcome.results} says why`, outcome.code);
    });
}
