/**
 * `mancala grade` (the instructor's run: every case, many submissions, report files) and
 * `mancala check` (the student's run: visible cases only, friendly output, exit 1 on a failure).
 *
 * Exit codes: `grade` exits 0 whenever grading completed, whatever the scores; 2 when the grader
 * could not run (a malformed suite, unblessed cases, a bad flag, a report file that cannot be
 * written, no bubblewrap without --weak-sandbox), always before any submission runs. `check`
 * exits 1 when a case failed.
 */
import { existsSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Option, type Command } from 'commander';
import { UserError } from '../../errors.ts';
import { gradeSubmissions, overrideLimits, selectCases, startGradingWorkers, type LimitOverrides, type VisibilityFilter } from '../../grading/runner.ts';
import { renderCheck, renderConsole } from '../../grading/reporters/console.ts';
import { PROJECT_ROOT } from '../../sandbox/paths.ts';
import { presenceQuery, requireSomeSubmission, type PresenceQuery } from '../../sandbox/submission-presence.ts';
import { nodeCountsNote, withNodeCounts } from '../../suites/node-counts.ts';
import { NODE_COUNTS } from '../../suites/schema.ts';
import type { NodeCounts, Suite, SuiteCase } from '../../suites/types.ts';
import type { GradeReport } from '../../grading/report.ts';
import { toJson } from '../../grading/reporters/json.ts';
import { agentTable, parseAgentSpec } from '../../plugins/agents.ts';
import { withheldMessage } from '../../plugins/student-kit.ts';
import { graderSearchHere } from '../../grading/grader-search-player.ts';
import { writeFileAtomically } from '../../write-file.ts';
import { checkOutputFile } from '../output-paths.ts';
import { cleanUpOnInterrupt } from '../interrupt.ts';
import type { CliIo } from '../options.ts';
import { queueNotices, queueOption } from '../queue-option.ts';
import { noProgressOption, withProgressBar } from '../progress.ts';
import { AGENT_KIND } from '../../grading/common-failure.ts';
import { addCommonFailureNotes, checkReportFiles, HTML_OPTION_HELP, printWarnings, writeHtmlReport, writeReportFiles } from '../report-files.ts';
import { addLimitOptions, addWeakSandboxOption, announceSandbox, limitOverrides, sandboxMode, type LimitFlags, type SandboxFlags } from '../sandbox-options.ts';
import { shardItems } from '../../shard-spec.ts';
import { scoreAsWholeRun } from '../../shards/check-scores.ts';
import { shardNote, shardRecord } from '../../shards/record.ts';
import { announceShard, shardHelp, shardOption, shareOf, writeShardReportFiles, type ShardFlag } from '../shard-option.ts';
import { checkIdentity, gradeIdentity } from '../shard-identity.ts';
import { programRunLines } from '../../packs/csci561/course-run-lines.ts';
import { gradeProgramsWithRuns } from '../../packs/csci561/grade-programs.ts';
import { assertGradable, gradeMixed, isCsci561Suite, isProgramFolder } from '../../packs/csci561/program-folders.ts';
import { loadProgramSuite } from '../../packs/csci561/course-suite.ts';
import { runArgsOption, runLinesOption, type RunLineFlags } from '../run-line-options.ts';
import { addClassOptions, finishClassOutputs, prepareClassOutputs, type ClassFlags } from '../class-outputs.ts';
import { addClassRunOptions, finishJournal, journalFor, openClassJournal, stopRules, type ClassRunFlags } from '../class-run-options.ts';
import { jobsOption } from '../jobs-option.ts';
import { classStudents } from '../../grading/class-students.ts';
import { intakeHelp, onlySubmission, recordPaths, rosterOption, shownSources, sourceOf, stableIntakeRoot, takeInForCommand, withSourceNames } from '../intake.ts';

/** The suites that ship with the project: what `mancala check` runs when no --suite is given. */
export const BUNDLED_SUITES = ['kalah-basics', 'hidden-example'];

/** `--node-counts`: over what the suite's `node_counts` says, for this run. */
interface NodeCountsFlag {
  nodeCounts?: NodeCounts;
}

function nodeCountsOption(): Option {
  return new Option(
    '--node-counts <how>',
    'graded: a wrong node count fails its case; informational: it is only reported, and the case passes or fails on its other checks. ' +
      "For this run, over every suite's node_counts (noted in the report); without it each suite's own holds: graded, unless it says informational as the csc384 suites do",
  ).choices(NODE_COUNTS);
}

/** The suite as --node-counts asks, and the report's note on it (undefined: the suite's own). */
function applyNodeCounts(suite: Suite, flags: NodeCountsFlag, visibleOnly: boolean): { suite: Suite; note?: string } {
  if (flags.nodeCounts === undefined) return { suite };
  const { suite: changed, changed: cases } = withNodeCounts(suite, flags.nodeCounts);
  const note = nodeCountsNote(flags.nodeCounts, cases, visibleOnly);
  return { suite: changed, ...(note !== undefined ? { note } : {}) };
}

/** The report with `note` among the run's notes. */
function withNote(report: GradeReport, note: string | undefined): GradeReport {
  return note === undefined ? report : { ...report, notes: [...(report.notes ?? []), note] };
}

interface GradeOptions extends SandboxFlags, LimitFlags, NodeCountsFlag, ShardFlag, RunLineFlags, ClassFlags, ClassRunFlags {
  suite: string;
  python?: string;
  json?: string;
  gradescope?: string;
  junit?: string;
  csv?: string;
  html?: string;
  jobs: number;
  visibility: VisibilityFilter;
  verbose?: boolean;
  progress: boolean;
  color: boolean;
  queue?: string;
  roster?: string;
}

interface CheckOptions extends SandboxFlags, LimitFlags, NodeCountsFlag, ShardFlag, RunLineFlags {
  suite?: string[];
  python?: string;
  json?: string;
  html?: string;
  color: boolean;
}

export function addGradeCommands(program: Command, io: CliIo): void {
  const grade = program
    .command('grade')
    .description('grade submissions (agent files or folders) on a suite; exits 0 when grading completed, whatever the scores')
    .argument('<submission...>', intakeHelp('agent files or submission folders'))
    .requiredOption('--suite <dir>', 'the suite folder (with suite.yaml and expected.json)')
    .addOption(rosterOption())
    .option('--json <file>', 'write the JSON report (its schema: docs/reports.md)')
    .option('--gradescope <file>', "write Gradescope's results.json (one file per submission: the name gets the submission's id when there are several)")
    .option('--junit <file>', 'write JUnit XML (one <testsuite> per submission)')
    .option('--csv <file>', 'write a CSV gradebook (one row per submission; the same file as --gradebook csv FILE)')
    .option('--html <file>', HTML_OPTION_HELP)
    .addOption(jobsOption('submissions graded at once'))
    .addOption(queueOption('grade the submissions'))
    .addOption(new Option('--visibility <which>', 'grade all cases, or only those students may see').choices(['all', 'visible']).default('all'))
    .option('--verbose', 'show every case and full messages')
    .addOption(nodeCountsOption())
    .addOption(shardOption('submissions'))
    .addOption(runArgsOption())
    .addOption(runLinesOption())
    .addOption(noProgressOption())
    .option('--no-color', 'no colours in the console report');
  addClassRunOptions(addLimitOptions(addWeakSandboxOption(addClassOptions(grade))))
    .addHelpText(
      'after',
      [
        '',
        'Before any submission runs, the report files\' folders are created (or refused) and the',
        'sandbox is checked and described on stderr. When 2 or more submissions all failed every case',
        'with the same message, a WARNING on stderr (and in the report) says the machine is likely at fault.',
        '',
        'Examples:',
        '  $ mancala grade agents/examples/alice --suite testcases/kalah-basics',
        '  $ mancala grade submissions/* --suite testcases/hidden-example --csv grades.csv --jobs 2',
        '  $ mancala grade submissions/* --suite testcases/kalah-basics --html report.html   # open report.html in a browser',
        '  $ mancala grade submissions/* --suite testcases/kalah-basics --time-limit 3000 --memory 1024 --json out/report.json',
        '  $ mancala grade submissions/* --suite testcases/csc384-hidden --node-counts graded   # node counts fail cases, as the other suites',
        "  $ mancala grade submissions/* --suite testcases/hidden-example --due 2026-10-12T23:59:00-04:00 --late-policy late-policy.yaml --feedback out/feedback --gradebook canvas out/canvas-import.csv --assignment 'Mancala 1 (12345)'",
        '  $ mancala grade submissions/* --suite testcases/hidden-example --queue redis://10.0.0.5:6379   # graded by `mancala worker --queue redis://10.0.0.5:6379` anywhere',
        ...shardHelp(
          [
            '  $ mancala grade submissions/* --suite testcases/hidden-example --shard 1/3 --json shard1.json   # on machine 1; 2/3 and 3/3 on the others',
            '  $ mancala merge shard1.json shard2.json shard3.json --json report.json --csv grades.csv',
          ].join('\n'),
        ),
      ].join('\n'),
    )
    .action(async (given: string[], opts: GradeOptions) => {
      const suiteDir = existingDir(opts.suite, '--suite');
      // Zips and LMS exports in any layout: one snapshot per student, graded in place of what was given.
      // With --queue the workers' results outlive this process: the same command again must name the same paths.
      const intake = await takeInForCommand(io, given, { ...(opts.roster !== undefined ? { roster: opts.roster } : {}), ...(opts.queue !== undefined ? { root: stableIntakeRoot(given) } : {}) });
      const submissions = recordPaths(intake);
      const limits = limitOverrides(opts);
      // --shard i/n: every n-th submission, from the i-th.
      const mine = shardItems(submissions, opts.shard);
      if (opts.queue === undefined) startGradingWorkers(opts.jobs, mine.length);
      // A suite folder, or (programs only) a folder of the course's own files: testInput_K.txt, next_state_K.txt, …
      const loaded = await loadProgramSuite(suiteDir);
      const { suite, note } = applyNodeCounts(loaded, opts, opts.visibility === 'visible');
      // On a csci561 suite, a folder of sources (mancala.java, …) is a program, run as the course ran it.
      const lines = isCsci561Suite(loaded) ? programRunLines(suiteDir, opts.runLines) : undefined;
      const programs = new Set(lines === undefined ? [] : mine.filter((s) => isProgramFolder(s, loaded, lines)));
      assertGradable(suite, selectCases(suite, opts.visibility), mine, programs);
      if (programs.size > 0 && opts.queue !== undefined) throw new UserError(`--queue: ${[...programs][0]} is a program, graded here only: drop --queue, or grade programs with csci561-grade`);
      // A program folder is a submission; otherwise some folder must hold an agent (one line naming what this course's students hand in).
      if (programs.size === 0) await requireSomeSubmission(submissions, presenceQuery(suite.manifest.game, suite.manifest.roles));
      checkReportFiles(opts);
      const students = classStudents(intake.records);
      const classOutputs = prepareClassOutputs(opts, { suiteName: loaded.manifest.name, suiteDir, submissions: mine, students });
      const journal = openClassJournal(io, opts, opts, mine, (s) => sourceOf(intake, s));
      const stop = await stopRules(opts, suite, selectCases(overrideLimits(suite, limits), opts.visibility));
      const sandbox = sandboxMode(opts);
      // With --queue the submissions run in the workers' sandboxes, each worker says which.
      if (opts.queue === undefined) await announceSandbox(io, sandbox, [opts.suite], opts.jobs);
      const shard = opts.shard === undefined ? undefined : shardRecord('grade', opts.shard, gradeIdentity(loaded, shownSources(intake, submissions), opts, sandbox), shownSources(intake, mine));
      if (shard !== undefined) announceShard(io, shard, shareOf(shownSources(intake, mine), submissions.length, 'submissions'), opts.json !== undefined);
      cleanUpOnInterrupt(io);
      const gradeAgents = (agents: readonly string[]) =>
        withProgressBar(opts.progress, 'grading [{bar}] {value}/{total} cases | {submission} {caseId}', (bar) =>
          gradeSubmissions({
            suite,
            submissions: agents,
            visibility: opts.visibility,
            jobs: opts.jobs,
            sandbox,
            limits,
            stop,
            ...journalFor(journal, 'agent', agents),
            ...(opts.queue !== undefined ? { queue: opts.queue, onNotice: queueNotices(io) } : {}),
            onProgress: (e) => bar?.update(e.done, e.total, { submission: e.submission, caseId: e.caseId }),
          }),
        );
      const mixed =
        programs.size === 0
          ? { report: await gradeAgents(mine), warnings: [] }
          : await gradeMixed({ suite: overrideLimits(suite, limits), submissions: mine, programs, visibility: opts.visibility, jobs: opts.jobs, sandbox, lines: lines!, ...(opts.runArgs !== undefined ? { runArgs: opts.runArgs } : {}), stop, ...journalFor(journal, 'program', [...programs]), gradeAgents });
      const report = withSourceNames(withNote(mixed.report, note), intake);
      const runNotes = [...(report.notes ?? [])];
      const warnings = [...mixed.warnings, ...addCommonFailureNotes(report, (s) => (programs.has(intake.records.find((r) => r.id === s.id)?.path ?? '') ? 'program' : AGENT_KIND))];
      if (shard !== undefined) report.notes = [shardNote(shard, shareOf(shownSources(intake, mine), submissions.length, 'submissions')), ...(report.notes ?? [])];
      finishClassOutputs(io, report, classOutputs, students);
      io.out(renderConsole(report, { color: opts.color && colorWanted(), verbose: opts.verbose === true }));
      if (shard === undefined) writeReportFiles(io, report, opts);
      else {
        writeShardReportFiles(io, report, opts, { ...shard, runNotes, kinds: mine.map(() => AGENT_KIND) }, submissions.length);
        writeHtmlReport(io, report, opts.html);
      }
      printWarnings(io, warnings);
      finishJournal(journal);
      const none = noSubmissionRan(report);
      // A shard of one submission in a class is that student's, not the machine's: its reports say so.
      if (none !== undefined && (shard === undefined || mine.length > 1 || submissions.length === 1)) throw new UserError(none, 1);
    });

  const check = program
    .command('check')
    .description("a student's check before the deadline: the visible cases of the bundled suites (or --suite); exit 1 if one fails")
    .argument('[path]', 'your agent file or submission folder (or a zip of it)', '.')
    .option('--suite <dir...>', 'suite folders (default: the bundled suites)')
    .option('--json <file>', 'also write the reports as JSON: {"version": 1, "reports": [one grade --json report per suite]}')
    .option('--html <file>', 'also write one self-contained HTML report of every suite (opens from disk; each failing case with its position drawn)')
    .addOption(nodeCountsOption())
    .addOption(shardOption('cases (over all the suites)'))
    .addOption(runArgsOption())
    .addOption(runLinesOption())
    .option('--no-color', 'no colours');
  addLimitOptions(addWeakSandboxOption(check))
    .addHelpText(
      'after',
      [
        '',
        'Your agent runs in the same sandbox as in grading, which needs bubblewrap (Linux); elsewhere pass --weak-sandbox.',
        '',
        'Examples:',
        '  $ mancala check agents/my-agent',
        '  $ mancala check my-agent.ts --suite testcases/kalah-basics',
        '  $ mancala check agents/me --html check.html   # the same, as a page to open in a browser',
        '  $ mancala check agents/me --suite testcases/csc384-public --node-counts graded   # do my node counts match too?',
        ...shardHelp(
          [
            '  $ mancala check agents/me --shard 1/2 --json part1.json   # and --shard 2/2 --json part2.json, in another CI job',
            '  $ mancala merge part1.json part2.json --json check.json',
          ].join('\n'),
        ),
      ].join('\n'),
    )
    .action(async (given: string, opts: CheckOptions) => {
      const limits = limitOverrides(opts);
      if (opts.json !== undefined) checkOutputFile('--json', opts.json);
      if (opts.html !== undefined) checkOutputFile('--html', opts.html);
      const intake = await takeInForCommand(io, [given]);
      const path = onlySubmission(intake, given);
      const dirs = opts.suite ?? BUNDLED_SUITES.map((s) => join(PROJECT_ROOT, 'testcases', s));
      // Every suite is read and checked before the agent runs on any of them.
      const suites: { suite: Suite; loaded: Suite; note?: string }[] = [];
      let isProgram = false;
      for (const dir of dirs) {
        const original = await loadProgramSuite(existingDir(dir, '--suite'));
        const loaded = applyNodeCounts(original, opts, true);
        if (!loaded.suite.cases.some((c) => c.visibility === 'visible')) continue;
        const lines = isCsci561Suite(original) ? programRunLines(original.manifest.dir, opts.runLines) : undefined;
        const programs = new Set(lines !== undefined && isProgramFolder(path, original, lines) ? [path] : []);
        if (programs.size > 0) isProgram = true;
        assertGradable(loaded.suite, selectCases(loaded.suite, 'visible'), [path], programs);
        suites.push({ ...loaded, loaded: original });
      }
      if (suites.length === 0) throw new UserError('no visible cases in the given suites: nothing to check');
      if (!isProgram) await requireSomeSubmission([path], checkPresence(suites.map((s) => s.suite)));
      const sandbox = sandboxMode(opts);
      await announceSandbox(io, sandbox);
      // The run's cases (K:CASE, K the suite's place), those each suite can run here; --shard i/n: every n-th from the i-th.
      const plan = suites.map((s) => ({ ...s, ...runnableHere(s.suite) }));
      const units = plan.flatMap((p, k) => selectCases(p.runnable, 'visible').map((c) => `${k + 1}:${c.id}`));
      const mine = new Set(shardItems(units, opts.shard));
      const shard = opts.shard === undefined ? undefined : shardRecord('check', opts.shard, checkIdentity(suites.map((s) => s.loaded), shownSources(intake, [path])[0]!, units, opts, sandbox), [...mine]);
      if (shard !== undefined) announceShard(io, shard, `${mine.size} of the run's ${units.length} cases`, opts.json !== undefined);
      const shares: number[] = [];
      const reportSuites: number[] = [];
      let failed = 0;
      let graded = 0;
      cleanUpOnInterrupt(io);
      const reports: GradeReport[] = [];
      for (const [k, { suite, note, runnable, withheld }] of plan.entries()) {
        if (withheld.length > 0) io.err(`${withheldCasesNote(suite, withheld)}\n`);
        if (runnable.cases.length === 0) continue;
        const all = selectCases(runnable, 'visible');
        const shardCases = all.filter((c) => mine.has(`${k + 1}:${c.id}`));
        if (shard !== undefined && shardCases.length === 0) continue;
        const part = shardCases.length === all.length ? runnable : { ...runnable, cases: shardCases };
        let report = withSourceNames(withNote(await checkOne(part, path, { sandbox, limits, flags: opts }), note), intake);
        if (shard !== undefined) {
          // Scored as in the whole run: a case's points are its share of its category over all the suite's cases.
          const scored = scoreAsWholeRun(runnable, all, report.submissions[0]!);
          report = { ...report, submissions: [scored.report] };
          shares.push(...scored.shares);
          reportSuites.push(k + 1);
        }
        reports.push(report);
        io.out(renderCheck(report, { color: opts.color && colorWanted() }));
        const cases = report.submissions[0]!.cases;
        graded += cases.length;
        failed += cases.filter((c) => c.status !== 'passed').length;
      }
      if (opts.json !== undefined) {
        const sharded = shard === undefined ? {} : { shard: { ...shard, shares, suites: reportSuites } };
        writeFileAtomically(opts.json, `${JSON.stringify({ version: 1, ...sharded, reports: reports.map((r) => JSON.parse(toJson(r)) as unknown) }, null, 2)}\n`);
      }
      // The student's view: visible cases only, as printed above.
      writeHtmlReport(io, reports, opts.html, { audience: 'student' });
      // Exit 1, not 2: the check ran; the submission is what failed.
      if (failed > 0) throw new UserError(`${failed} of ${graded} visible cases did not pass`, 1);
    });
}

/**
 * One submission checked on one suite: a program folder on a csci561 suite as the course ran it
 * (with the suite's run lines, --run-args, --run-lines), anything else as an agent.
 */
async function checkOne(suite: Suite, path: string, o: { sandbox: ReturnType<typeof sandboxMode>; limits: LimitOverrides; flags: RunLineFlags }): Promise<GradeReport> {
  const lines = isCsci561Suite(suite) ? programRunLines(suite.manifest.dir, o.flags.runLines) : undefined;
  if (lines === undefined || !isProgramFolder(path, suite, lines)) return gradeSubmissions({ suite, submissions: [path], visibility: 'visible', jobs: 1, sandbox: o.sandbox, limits: o.limits });
  const runArgs = o.flags.runArgs !== undefined ? { runArgs: o.flags.runArgs } : {};
  return (await gradeProgramsWithRuns({ suite: overrideLimits(suite, o.limits), submissions: [path], visibility: 'visible', jobs: 1, sandbox: o.sandbox, runLines: lines, ...runArgs })).report;
}

/**
 * Why the run graded nothing, when no submission ran at all: every case of every submission an
 * error (no agent found, a build that failed, a program that never started). Such a run is no
 * grading: the command exits nonzero (after writing its reports) instead of passing zeros on as
 * scores. One submission that ran is enough for an ordinary exit: a class has broken submissions.
 */
export function noSubmissionRan(report: GradeReport): string | undefined {
  const subs = report.submissions;
  if (subs.length === 0 || !subs.every((s) => s.cases.length > 0 && s.cases.every((c) => c.status === 'error'))) return undefined;
  const first = subs[0]!;
  const why = first.cases[0]!.message.split('\n')[0]!;
  const who = subs.length === 1 ? `submission ${first.id}` : `any of the ${subs.length} submissions`;
  return `no submission ran: every case of ${who} is an error (${first.id}, ${first.cases[0]!.id}: ${why})`;
}

/**
 * The suite's cases this tool can run. A student kit holds neither the course's reference
 * alpha-beta (which plays a heuristic's games, grading/grader-search-player.ts) nor the reference agents
 * the course keeps: a playoff that needs one is left to the instructor's grading, and said so,
 * rather than reported as an error.
 */
function runnableHere(suite: Suite): { runnable: Suite; withheld: SuiteCase[] } {
  const needsWithheld = (c: SuiteCase) => {
    const playoff = c.checks.playoff;
    if (playoff === undefined) return false;
    if (suite.manifest.roles[c.role]!.kind === 'heuristic' && !graderSearchHere()) return true;
    return agentTable()[parseAgentSpec(playoff.opponent).name]?.withheld === true;
  };
  const withheld = suite.cases.filter(needsWithheld);
  return { runnable: withheld.length === 0 ? suite : { ...suite, cases: suite.cases.filter((c) => !withheld.includes(c)) }, withheld: withheld.filter((c) => c.visibility === 'visible') };
}

function withheldCasesNote(suite: Suite, cases: readonly SuiteCase[]): string {
  return `${suite.manifest.name}: not run here, ${cases.length} case${cases.length === 1 ? '' : 's'} (${cases.map((c) => c.id).join(', ')}): ${withheldMessage('the reference agent these games are played with')}`;
}

/** What `check` looks for: every suite's roles, in the words of their course when they share one. */
function checkPresence(suites: readonly Suite[]): PresenceQuery {
  const queries = suites.map((s) => presenceQuery(s.manifest.game, s.manifest.roles));
  const profiles = new Set(queries.map((q) => q.profile));
  return { ...(profiles.size === 1 && queries[0]!.profile !== undefined ? { profile: queries[0]!.profile } : {}), rolePatterns: queries.flatMap((q) => q.rolePatterns) };
}

function colorWanted(): boolean {
  return process.stdout.isTTY === true && process.env.NO_COLOR === undefined;
}

function existingDir(path: string, flag: string): string {
  if (!existsSync(path) || !statSync(path).isDirectory()) throw new UserError(`${flag} ${path}: expected a suite folder`);
  return resolve(path);
}
