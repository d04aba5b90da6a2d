/**
 * `mancala csci561-grade`: seed 000's programs graded in the sandbox (a module of its own, so that
 * `mancala csci561`, one run of the reference, loads none of the grading code).
 */
import { basename, relative } from 'node:path';
import { InvalidArgumentError, Option, type Command } from 'commander';
import { existsSync, statSync } from 'node:fs';
import { UserError } from '../../errors.ts';
import { renderConsole } from '../../grading/reporters/console.ts';
import { limitsNote, overrideLimits, selectCases, type VisibilityFilter } from '../../grading/runner.ts';
import { addCommonFailureNotes, checkReportFiles, HTML_OPTION_HELP, printWarnings, REPORT_FILE_KEYS, writeHtmlReport, writeReportFiles, type ReportFiles } from '../report-files.ts';
import { cleanUpOnInterrupt } from '../interrupt.ts';
import { checkOutputFolder } from '../output-paths.ts';
import { noProgressOption, withProgressBar } from '../progress.ts';
import { checkReportsDir, writeStudentReports } from '../../packs/csci561/student-report.ts';
import { loadProgramSuite } from '../../packs/csci561/course-suite.ts';
import { gradeProgramsWithRuns, selectCaseIds } from '../../packs/csci561/grade-programs.ts';
import { programCases } from '../../packs/csci561/program-cases.ts';
import { readProgramSubmission } from '../../packs/csci561/program.ts';
import { MANIFEST_FILE } from '../../sandbox/programs/build-plan.ts';
import type { CourseLines } from '../../sandbox/programs/build-files.ts';
import { programRunLines } from '../../packs/csci561/course-run-lines.ts';
import { runArgsOption, runLinesOption } from '../run-line-options.ts';
import type { CliIo } from '../options.ts';
import { addLimitOptions, addWeakSandboxOption, announceSandbox, limitOverrides, sandboxMode, type LimitFlags, type SandboxFlags } from '../sandbox-options.ts';
import { shardItems } from '../../shard-spec.ts';
import { shardNote, shardRecord } from '../../shards/record.ts';
import { announceShard, shardHelp, shardOption, shareOf, writeShardReportFiles, type ShardFlag } from '../shard-option.ts';
import { csci561GradeIdentity } from '../shard-identity.ts';
import { courseHandIn } from '../../sandbox/submission-presence.ts';
import { jobsOption } from '../jobs-option.ts';
import { checkExitOption, failedCheck } from '../check-exit.ts';
import { addClassOptions, finishClassOutputs, prepareClassOutputs, shownInFeedback, type ClassFlags } from '../class-outputs.ts';
import { addClassRunOptions, finishJournal, journalFor, openClassJournal, stopRules, type ClassRunFlags } from '../class-run-options.ts';
import { classStudents } from '../../grading/class-students.ts';
import { intakeHelp, recordPaths, rosterOption, shownSources, sourceOf, takeInForCommand, withSourceNames } from '../intake.ts';

interface ProgramGradeCliOptions extends SandboxFlags, LimitFlags, ShardFlag, ClassFlags, ClassRunFlags {
  suite: string;
  python?: string;
  runArgs?: string;
  runLines?: string;
  json?: string;
  gradescope?: string;
  junit?: string;
  csv?: string;
  html?: string;
  reports?: string;
  case?: string[];
  jobs: number;
  visibility: VisibilityFilter;
  verbose?: boolean;
  progress: boolean;
  check?: boolean;
  color: boolean;
  roster?: string;
}

/**
 * `mancala csci561-grade <submission...> --suite DIR`: submissions in any language, each a folder
 * with a one-line `command` file, run on every case's input.txt in a sandbox and graded by the
 * course's rule on their next_state.txt and traverse_log.txt (strict: extra lines or fields fail).
 * --case grades some cases only; --reports DIR writes each student's report (student-report.ts);
 * the report files (--json, --gradescope, --junit, --csv) are `grade`'s (report-files.ts).
 */
export function addCsci561GradeCommand(program: Command, io: CliIo): void {
  const command = program
    .command('csci561-grade')
    .summary('grade file-in/file-out programs in any language on a csci561 suite')
    .description(
      "Grade CSCI-561 programs written in any language: each submission is a folder run as its one-line `command` file " +
        `(e.g. "python3 mancala.py") or its ${MANIFEST_FILE} (build: and run: lines) says, else as the course ran the file it holds ` +
        '(CSCI-561: mancala.java, mancala.cpp, mancala11.cpp, mancala.py as Python 2.7, mancala3.py, each run with -i input.txt; --run-lines, --run-args), ' +
        'else as its sources say (Java, C++, C, Python: built once in the sandbox, not charged to the cases), in a fresh sandboxed folder holding the case\'s input.txt, under the ' +
        "case's time and memory limits; its next_state.txt and traverse_log.txt are compared with the reference " +
        "solution's by the course's rule, except that extra lines and extra fields fail. Exits 0 when grading completed, " +
        '2 when no submission given can be run (each folder\'s problem named).',
    )
    .argument('<submission...>', intakeHelp(`submission folders: sources (built and run as inferred), a \`command\` file, or ${MANIFEST_FILE} (build: and run:)`))
    .addOption(rosterOption())
    .requiredOption('--suite <dir>', "a csci561 suite folder (testcases/csci561-public, …), or a folder of the course's files (testInput_K.txt with next_state_K.txt and traverse_log_K.txt), graded on its own answers")
    .option('--json <file>', 'write the JSON report (the same schema as mancala grade)')
    .option('--gradescope <file>', "write Gradescope's results.json (one file per submission: the name gets the submission's id when there are several)")
    .option('--junit <file>', 'write JUnit XML (one <testsuite> per submission)')
    .option('--csv <file>', 'write a CSV gradebook (one row per submission)')
    .option('--html <file>', HTML_OPTION_HELP)
    .option(
      '--reports <dir>',
      "the former name of --feedback DIR: with either, DIR/<submission>/report.txt is written too and, per failed case, a folder with the input, the program's own files, the expected files and diffs (the cases students may see) and a command re-running the program",
    )
    .option('--case <id>', 'grade only this case (repeat the flag, or separate ids by commas)', collectIds)
    .addOption(runArgsOption())
    .addOption(runLinesOption())
    .addOption(jobsOption('submissions graded at once'))
    .addOption(checkExitOption('a case did not pass'))
    .addOption(shardOption('submissions'))
    .addOption(new Option('--visibility <which>', 'grade all cases, or only those students may see').choices(['all', 'visible']).default('all'))
    .option('--verbose', 'show every case and full messages')
    .addOption(noProgressOption())
    .option('--no-color', 'no colours in the console report');
  addClassRunOptions(addLimitOptions(addWeakSandboxOption(addClassOptions(command))))
    .addHelpText(
      'after',
      [
        '',
        'Examples:',
        '  $ mancala csci561-grade agents/examples/csci561-reference/program --suite testcases/csci561-public',
        '  $ mancala csci561-grade agents/examples/csci561-reference/program --suite official-cases/   # the course\'s 30 official cases (testInput_K.txt, …)',
        '  $ mancala csci561-grade submissions/* --suite testcases/csci561-public --time-limit 5000 --memory 1024 --csv grades.csv',
        '  $ mancala csci561-grade submissions/* --suite testcases/csci561-public --feedback feedback/ --gradescope results.json',
        '  $ mancala csci561-grade submissions/* --suite testcases/csci561-public --html report.html   # the class as one page',
        '  $ mancala csci561-grade submissions/alice --suite testcases/csci561-public --case minimax-d2-3   # re-run one case',
        '  $ mancala csci561-grade submissions/* --suite testcases/csci561-public --python2 /opt/python2.7/bin/python2.7   # mancala.py is Python 2.7',
        "  $ mancala csci561-grade submissions/* --suite testcases/csci561-public --run-args 'input.txt'   # other arguments than the course's -i input.txt",
        ...shardHelp(
          [
            '  $ mancala csci561-grade submissions/* --suite testcases/csci561-hidden --shard 2/4 --json shard2.json --reports reports/',
            '  $ mancala merge shard1.json shard2.json shard3.json shard4.json --json report.json --gradescope results.json',
          ].join('\n'),
        ),
      ].join('\n'),
    )
    .action(async (given: string[], opts: ProgramGradeCliOptions) => {
      if (!existsSync(opts.suite) || !statSync(opts.suite).isDirectory()) throw new UserError(`--suite ${opts.suite}: expected a suite folder`);
      for (const s of given) if (!existsSync(s)) throw new UserError(`submission ${s}: no such folder`);
      // Zips and LMS exports in any layout: one snapshot (a folder) per student, graded in place of what was given.
      const intake = await takeInForCommand(io, given, opts.roster !== undefined ? { roster: opts.roster } : {});
      const notFolder = intake.records.find((r) => !statSync(r.path).isDirectory());
      if (notFolder !== undefined) throw new UserError(`submission ${notFolder.source}: expected a folder with a \`command\` file`);
      const submissions = recordPaths(intake);
      // The course's run lines are read, and refused when malformed, before anything runs.
      const runLines = programRunLines(opts.suite, opts.runLines);
      const course = { lines: runLines, ...(opts.runArgs !== undefined ? { args: opts.runArgs } : {}) };
      // Nothing that can run is an error (exit 2), never a report of zeros; one bad folder among good ones is graded as errors.
      const unloadable = submissions.map((s) => loadProblem(s, course)).filter((p) => p !== undefined);
      if (unloadable.length === submissions.length) {
        // Each folder by the name it was given, not by its snapshot's.
        throw new UserError(withSourceNames(`no submission could be loaded: ${unloadable.join('; ')}. ${courseHandIn('csci561')}`, intake));
      }
      const overrides = limitOverrides(opts);
      // --shard i/n: every n-th submission, from the i-th.
      const mine = shardItems(submissions, opts.shard);
      const loaded = await loadProgramSuite(opts.suite);
      const suite = overrideLimits(loaded, overrides);
      // Everything that can be refused is refused before any program runs: unknown cases, places that cannot be written.
      const caseIds = opts.case === undefined ? undefined : [...selectCaseIds(suite, opts.case)];
      const files: ReportFiles = {};
      for (const key of REPORT_FILE_KEYS) if (opts[key]) files[key] = opts[key];
      checkReportFiles(files);
      // --feedback and --reports (its former name) are one thing: the feedback files, and the course's case folders beside them.
      if (opts.reports !== undefined && opts.feedback !== undefined && opts.reports !== opts.feedback) throw new UserError('--reports is the former name of --feedback: give one of them');
      opts.reports ??= opts.feedback;
      if (opts.reports !== undefined) checkReportsDir(opts.reports, mine, checkOutputFolder);
      const students = classStudents(intake.records);
      const classOutputs = prepareClassOutputs({ ...opts, ...(opts.reports !== undefined ? { feedback: opts.reports } : {}) }, { suiteName: loaded.manifest.name, suiteDir: opts.suite, submissions: mine, students });
      const journal = openClassJournal(io, opts, { ...files, ...(opts.reports !== undefined ? { feedback: opts.reports } : {}), ...(opts.gradebook !== undefined ? { gradebook: opts.gradebook } : {}) }, mine, (s) => sourceOf(intake, s));
      const sandbox = sandboxMode(opts);
      await announceSandbox(io, sandbox, [opts.suite], opts.jobs);
      // The run's identity covers what the programs are run on and compared with: each case's input and expected files.
      const graded = selectCases(suite, opts.visibility).filter((c) => caseIds === undefined || caseIds.includes(c.id));
      const stop = await stopRules(opts, suite, graded);
      const shard =
        opts.shard === undefined
          ? undefined
          : shardRecord('csci561-grade', opts.shard, csci561GradeIdentity(loaded, programCases(suite, graded).map((pc) => ({ id: pc.c.id, input: pc.input, expected: pc.expected })), shownSources(intake, submissions), opts, sandbox), shownSources(intake, mine));
      if (shard !== undefined) announceShard(io, shard, shareOf(shownSources(intake, mine), submissions.length, 'submissions'), opts.json !== undefined);
      cleanUpOnInterrupt(io);
      // gradePrograms puts the same line in the report's isolation note.
      const grading = await withProgressBar(opts.progress, 'grading [{bar}] {value}/{total} cases | {submission} {caseId}', (bar) => {
        let done = 0;
        const total = (caseIds?.length ?? selectCases(suite, opts.visibility).length) * mine.length;
        return gradeProgramsWithRuns({
          suite,
          submissions: mine,
          visibility: opts.visibility,
          jobs: opts.jobs,
          sandbox,
          ...(caseIds !== undefined ? { caseIds } : {}),
          keepFailures: opts.reports !== undefined,
          runLines,
          ...(opts.runArgs !== undefined ? { runArgs: opts.runArgs } : {}),
          stop,
          ...journalFor(journal, 'program', mine),
          onCase: (submission, caseId) => bar?.update(++done, total, { submission, caseId }),
        });
      });
      const report = withSourceNames(grading.report, intake);
      const overridden = limitsNote(overrides);
      if (overridden !== undefined) report.notes = [...(report.notes ?? []), overridden];
      if (caseIds !== undefined) report.notes = [...(report.notes ?? []), `--case: only ${caseIds.join(', ')} graded (${caseIds.length} of the suite's ${suite.cases.length} cases); scores are over these`];
      const runNotes = [...(report.notes ?? [])];
      const warnings = [...grading.warnings, ...addCommonFailureNotes(report, (s) => interpreterOf(intake.records.find((r) => r.id === s.id)?.path ?? s.path, course))];
      if (shard !== undefined) report.notes = [shardNote(shard, shareOf(shownSources(intake, mine), submissions.length, 'submissions')), ...(report.notes ?? [])];
      finishClassOutputs(io, report, classOutputs, students);
      const color = opts.color && process.stdout.isTTY === true && process.env.NO_COLOR === undefined;
      // A student's check (--check, the kit's npm run check) lists each failed case.
      io.out(renderConsole(report, { color, verbose: opts.verbose === true, failedCases: opts.check === true }));
      if (shard === undefined) writeReportFiles(io, report, files);
      else {
        writeShardReportFiles(io, report, files, { ...shard, runNotes, kinds: mine.map((s) => interpreterOf(s, course) ?? null) }, submissions.length);
        writeHtmlReport(io, report, files.html);
      }
      if (opts.reports !== undefined) {
        // The programs' folders as given, too: a report's reproduce line copies the student's folder, not a snapshot gone at exit.
        const written = writeStudentReports(opts.reports, { ...grading, report, programs: withSourceNames(grading.programs, intake) }, shownInFeedback(classOutputs));
        const named = written.length <= 3 ? ` (${written.map((f) => relative(opts.reports!, f)).join(', ')})` : '';
        io.err(`wrote ${written.length} student report${written.length === 1 ? '' : 's'} in ${opts.reports}${named}\n`);
      }
      printWarnings(io, warnings);
      finishJournal(journal);
      const failed = opts.check === true ? failedCheck(report, 'cases') : undefined;
      if (failed !== undefined) throw failed;
    });
}

/** `--case a,b --case c` → ['a', 'b', 'c'] */
function collectIds(value: string, previous: string[] | undefined): string[] {
  const ids = value
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  if (ids.length === 0) throw new InvalidArgumentError('expected case ids, e.g. --case minimax-d2-3');
  return [...(previous ?? []), ...ids];
}

/** Why the submission in `dir` cannot be run (undefined: it can). */
function loadProblem(dir: string, course: CourseLines): string | undefined {
  try {
    readProgramSubmission(dir, course);
    return undefined;
  } catch (e) {
    if (e instanceof UserError) return e.message;
    throw e;
  }
}

/** A program's kind: the first word of its command ("python3", "java"); undefined when it has no readable command. */
function interpreterOf(dir: string, course: CourseLines): string | undefined {
  try {
    const argv = readProgramSubmission(dir, course).argv;
    return argv[0] === undefined ? undefined : basename(argv[0]);
  } catch (e) {
    if (e instanceof UserError) return undefined;
    throw e;
  }
}
