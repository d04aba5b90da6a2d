/**
 * `mancala csci561 [INPUT] [--out DIR]`: seed 000's program, file in, files out. Reads input.txt
 * (task, player, cut-off depth, board), writes next_state.txt and, for MiniMax and Alpha-Beta,
 * traverse_log.txt, exactly as the course's official graded cases have them. Task 4 (the
 * competition) plays a turn under --ms. A malformed input is one line naming the file and the
 * line (exit 2); the files are written only once everything is computed, each atomically.
 */
import { basename } from 'node:path';
import { Option, type Command } from 'commander';
import { existsSync, statSync } from 'node:fs';
import { UserError } from '../../errors.ts';
import { renderConsole } from '../../grading/reporters/console.ts';
import { limitsNote, overrideLimits, type VisibilityFilter } from '../../grading/runner.ts';
import { DEFAULT_COMPETITION_MS } from '../../packs/csci561/competition.ts';
import { INPUT_FILE, readInputFile, TRAVERSE_LOG_FILE, writeOutputs } from '../../packs/csci561/files.ts';
import { addCommonFailureNotes, checkReportFiles, printWarnings, writeReportFiles } from '../report-files.ts';
import { loadProgramSuite } from '../../packs/csci561/course-suite.ts';
import { gradePrograms } from '../../packs/csci561/grade-programs.ts';
import { readProgramSubmission } from '../../packs/csci561/program.ts';
import { MANIFEST_FILE } from '../../sandbox/program-build-plan.ts';
import { runCsci561, TASK_NAMES, type Csci561Run } from '../../packs/csci561/task.ts';
import { wholeNumber, type CliIo } from '../options.ts';
import { addLimitOptions, addWeakSandboxOption, announceSandbox, limitOverrides, sandboxMode, type LimitFlags, type SandboxFlags } from '../sandbox-options.ts';

interface ProgramGradeCliOptions extends SandboxFlags, LimitFlags {
  suite: string;
  json?: string;
  csv?: string;
  jobs: number;
  visibility: VisibilityFilter;
  verbose?: boolean;
  color: boolean;
}

interface Csci561Options {
  out: string;
  ms: number;
  optionalLines: 'print' | 'omit' | 'mark';
  quiet?: boolean;
}

/** "task 2 (MiniMax), player 1, cut-off depth 3, 5 pits a side: wrote out/next_state.txt, out/traverse_log.txt (120 lines)" */
export function describeRun(run: Csci561Run, written: readonly string[]): string {
  const what = [`task ${run.task} (${TASK_NAMES[run.task]})`, `player ${run.player}`];
  if (run.task === 2 || run.task === 3) what.push(`cut-off depth ${run.depth}`);
  what.push(`${run.pits} pits a side`);
  const files = written.map((path) => {
    const name = basename(path);
    const text = run.files[name];
    return name === TRAVERSE_LOG_FILE && text !== undefined ? `${path} (${text.split('\n').length - 1} lines)` : path;
  });
  const moves = run.moves === undefined ? '' : `; played ${run.moves.join(' ')}`;
  return `${what.join(', ')}${moves}: wrote ${files.join(', ')}\n`;
}

/** Adds `csci561` and `csci561-grade`. */
export function addCsci561Command(program: Command, io: CliIo): void {
  addCsci561RunCommand(program, io);
  addCsci561GradeCommand(program, io);
}

function addCsci561RunCommand(program: Command, io: CliIo): void {
  program
    .command('csci561')
    .summary("seed 000's program: input.txt in, next_state.txt and traverse_log.txt out")
    .description(
      "Run seed 000's homework as its reference solution: read INPUT (default ./input.txt: task, player, cut-off depth, " +
        'the two rows, the two stores) and write next_state.txt (the board after the whole turn, free-turn chain included) ' +
        'and, for task 2 (MiniMax) and 3 (Alpha-Beta), traverse_log.txt, by the conventions of the course\'s official graded ' +
        'cases. Task 1 (Greedy) writes no log. Task 4 (the competition) plays alpha-beta under --ms and writes next_state.txt.',
    )
    .argument('[input]', 'the input file', INPUT_FILE)
    .option('--out <dir>', 'the folder to write into (created if missing)', '.')
    .addOption(
      new Option('--ms <n>', 'task 4: the time budget of the whole turn in ms (the seed announces none)')
        .argParser(wholeNumber(10, 3_600_000, 'a time budget in ms'))
        .default(DEFAULT_COMPETITION_MS),
    )
    .addOption(
      new Option(
        '--optional-lines <how>',
        "a game-over node's first-visit line, which the official logs mark OPTIONAL: print it, omit it, or mark it as the official expected files do",
      )
        .choices(['print', 'omit', 'mark'])
        .default('print'),
    )
    .option('--quiet', 'print nothing on success')
    .addHelpText(
      'after',
      [
        '',
        'Examples:',
        '  $ mancala csci561                        # ./input.txt -> ./next_state.txt, ./traverse_log.txt',
        '  $ mancala csci561 cases/input3.txt --out results/3',
        '  $ mancala csci561 input.txt --ms 2000    # task 4: two seconds for the turn',
      ].join('\n'),
    )
    .action(async (input: string, opts: Csci561Options) => {
      const text = readInputFile(input);
      const run = await runCsci561(text, input, { optionalLines: opts.optionalLines, ms: opts.ms });
      const written = writeOutputs(opts.out, run.files);
      if (!opts.quiet) io.out(describeRun(run, written));
    });
}

/**
 * `mancala csci561-grade <submission...> --suite DIR`: submissions in any language, each a folder
 * with a one-line `command` file, run on every case's input.txt in a sandbox and graded by the
 * course's rule on their next_state.txt and traverse_log.txt (strict: extra lines or fields fail).
 */
export function addCsci561GradeCommand(program: Command, io: CliIo): void {
  const command = program
    .command('csci561-grade')
    .summary('grade file-in/file-out programs in any language on a csci561 suite')
    .description(
      "Grade seed 000 programs written in any language: each submission is a folder run as its one-line `command` file " +
        `(e.g. "python3 mancala.py") or its ${MANIFEST_FILE} (build: and run: lines) says, else as its sources say ` +
        '(Java, C++, C, Python: built once in the sandbox, not charged to the cases), in a fresh sandboxed folder holding the case\'s input.txt, under the ' +
        "case's time and memory limits; its next_state.txt and traverse_log.txt are compared with the reference " +
        "solution's by the course's rule, except that extra lines and extra fields fail. Exits 0 when grading completed, " +
        '2 when no submission given can be run (each folder\'s problem named).',
    )
    .argument('<submission...>', `submission folders: sources (built and run as inferred), a \`command\` file, or ${MANIFEST_FILE} (build: and run:)`)
    .requiredOption('--suite <dir>', "a csci561 suite folder (testcases/csci561-public, …), or a folder of the course's files (testInput_K.txt with next_state_K.txt and traverse_log_K.txt), graded on its own answers")
    .option('--json <file>', 'write the JSON report (the same schema as mancala grade)')
    .option('--csv <file>', 'write a CSV gradebook (one row per submission)')
    .option('--jobs <n>', 'submissions graded at once', wholeNumber(1, 64, '--jobs'), 1)
    .addOption(new Option('--visibility <which>', 'grade all cases, or only those students may see').choices(['all', 'visible']).default('all'))
    .option('--verbose', 'show every case and full messages')
    .option('--no-color', 'no colours in the console report');
  addLimitOptions(addWeakSandboxOption(command))
    .addHelpText(
      'after',
      [
        '',
        'Examples:',
        '  $ mancala csci561-grade agents/examples/csci561-reference/program --suite testcases/csci561-public',
        '  $ mancala csci561-grade agents/examples/csci561-reference/program --suite ../shared/conformance/csci561-official   # the course\'s 30 cases',
        '  $ mancala csci561-grade submissions/* --suite testcases/csci561-public --time-limit 5000 --memory 1024 --csv grades.csv',
      ].join('\n'),
    )
    .action(async (submissions: string[], opts: ProgramGradeCliOptions) => {
      if (!existsSync(opts.suite) || !statSync(opts.suite).isDirectory()) throw new UserError(`--suite ${opts.suite}: expected a suite folder`);
      for (const s of submissions) {
        if (!existsSync(s) || !statSync(s).isDirectory()) throw new UserError(`submission ${s}: expected a folder with a \`command\` file`);
      }
      // Nothing that can run is an error (exit 2), never a report of zeros; one bad folder among good ones is graded as errors.
      const unloadable = submissions.map(loadProblem).filter((p) => p !== undefined);
      if (unloadable.length === submissions.length) {
        throw new UserError(`no submission could be loaded: ${unloadable.join('; ')}`);
      }
      const overrides = limitOverrides(opts);
      const suite = overrideLimits(await loadProgramSuite(opts.suite), overrides);
      const files = { ...(opts.json ? { json: opts.json } : {}), ...(opts.csv ? { csv: opts.csv } : {}) };
      checkReportFiles(files);
      const sandbox = sandboxMode(opts);
      await announceSandbox(io, sandbox);
      // gradePrograms puts the same line in the report's isolation note.
      const report = await gradePrograms({ suite, submissions, visibility: opts.visibility, jobs: opts.jobs, sandbox });
      const overridden = limitsNote(overrides);
      if (overridden !== undefined) report.notes = [...(report.notes ?? []), overridden];
      const warnings = addCommonFailureNotes(report, (s) => interpreterOf(s.path));
      const color = opts.color && process.stdout.isTTY === true && process.env.NO_COLOR === undefined;
      io.out(renderConsole(report, { color, verbose: opts.verbose === true }));
      writeReportFiles(io, report, files);
      printWarnings(io, warnings);
    });
}

/** Why the submission in `dir` cannot be run (undefined: it can). */
function loadProblem(dir: string): string | undefined {
  try {
    readProgramSubmission(dir);
    return undefined;
  } catch (e) {
    if (e instanceof UserError) return e.message;
    throw e;
  }
}

/** A program's kind: the first word of its command ("python3", "java"); undefined when it has no readable command. */
function interpreterOf(dir: string): string | undefined {
  try {
    const argv = readProgramSubmission(dir).argv;
    return argv[0] === undefined ? undefined : basename(argv[0]);
  } catch (e) {
    if (e instanceof UserError) return undefined;
    throw e;
  }
}
