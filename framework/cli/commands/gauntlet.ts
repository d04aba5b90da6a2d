/**
 * `mancala gauntlet <submission...>`: seed 003's (cs540) grading — each submission plays the
 * random, the simple and the advanced agent under several stone counts and time limits, with the
 * anytime rule, and scores 50 / 100 / 100 + bonus for the strongest opponent it beats
 * (framework/packs/cs540/gauntlet.ts). `--match-rules course` plays the games as the course's own
 * Match does (packs/cs540/match-rules.ts). Prints a table per submission; --json, --gradescope,
 * --junit and --csv write the grading report formats (one case per opponent). Exits 0 whenever
 * the gauntlet ran, whatever the scores; 2 when no submission given holds a player.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { submissionId as gradedId } from '../../grading/runner.ts';
import { AGENT_KIND } from '../../grading/common-failure.ts';
import type { GradeReport } from '../../grading/report.ts';
import { InvalidArgumentError, Option, type Command } from 'commander';
import { UserError } from '../../errors.ts';
import { LIMITS } from '../../games/mancala/rules.ts';
import { describeOpenings, parseOpeningsOption } from '../../matches/openings.ts';
import { isPathSpec } from '../../matches/player.ts';
import { CS540_OPPONENTS, GAUNTLET_DEFAULTS, runGauntlet, type GauntletResult } from '../../packs/cs540/gauntlet.ts';
import { COURSE_GRACE_MS, MATCH_RULES, type MatchRules } from '../../packs/cs540/match-rules.ts';
import { checkOutputFolder } from '../output-paths.ts';
import { refuseRunWithoutSubmission } from '../no-submission.ts';
import { rosterOption, rosterTakeIn, shownSources, sourceOf, takeInAgentSpecs, withSourceNames } from '../intake.ts';
import { agentTable, parseAgentSpec } from '../../plugins/agents.ts';
import { withheldMessage } from '../../plugins/student-kit.ts';
import { gauntletReport, renderGauntlet } from '../../packs/cs540/report.ts';
import { cleanUpOnInterrupt } from '../interrupt.ts';
import { wholeNumber, type CliIo } from '../options.ts';
import { noProgressOption, withProgressBar } from '../progress.ts';
import { addCommonFailureNotes, checkReportFiles, HTML_OPTION_HELP, printWarnings, writeHtmlReport, writeReportFiles } from '../report-files.ts';
import { announceSandbox, limitOverrides, memoryOption, sandboxMode, timeLimitOption, weakSandboxOption, type LimitFlags, type SandboxFlags } from '../sandbox-options.ts';
import { shardItems } from '../../shard-spec.ts';
import { shardNote, shardRecord } from '../../shards/record.ts';
import { announceShard, shardHelp, shardOption, shareOf, writeShardReportFiles, type ShardFlag } from '../shard-option.ts';
import { gauntletIdentity } from '../shard-identity.ts';
import { studentPath } from '../../student-text.ts';
import { jobsOption } from '../jobs-option.ts';
import { checkExitOption, failedCheck } from '../check-exit.ts';

interface GauntletFlags extends SandboxFlags, LimitFlags, ShardFlag {
  python?: string;
  roster?: string;
  stones: number[];
  timePerMove: number[];
  games: number;
  seed: number;
  openings: string;
  matchRules: MatchRules;
  replays?: string;
  bonus: number;
  jobs: number;
  json?: string;
  gradescope?: string;
  junit?: string;
  csv?: string;
  html?: string;
  progress: boolean;
  check?: boolean;
}

/** "3,4,5" → [3, 4, 5], each a whole number in min..max. */
function numberList(min: number, max: number, what: string): (value: string) => number[] {
  const one = wholeNumber(min, max, what);
  return (value) => {
    const parts = value.split(',').map((p) => p.trim());
    if (parts.some((p) => p === '')) throw new InvalidArgumentError(`Expected a comma-separated list of ${what}s (whole numbers from ${min} to ${max}).`);
    const list = parts.map(one);
    if (new Set(list).size !== list.length) throw new InvalidArgumentError(`A value is given twice.`);
    return list;
  };
}

function points(value: string): number {
  const n = Number(value.trim());
  if (value.trim() === '' || !Number.isFinite(n) || n < 0 || n > 1000) throw new InvalidArgumentError('Expected a number of points from 0 to 1000.');
  return n;
}

export function addGauntletCommand(program: Command, io: CliIo): void {
  const d = GAUNTLET_DEFAULTS;
  program
    .command('gauntlet')
    .summary("CS540's grading: matches against the random, simple and advanced agents")
    .description(
      "Grade submissions as CS540 does: each plays the random, the simple and the advanced agent under every stone count and time per move " +
        '(cs540 rules, colours alternating, each opening from both seats, the anytime rule: a move that runs out of time is the last legal move the agent reported with ctx.report). ' +
        `--match-rules course plays as the course's own Match instead: every game from the initial board, a ${COURSE_GRACE_MS} ms grace after the time per move, and a side with no report that turn ` +
        "plays its previous move (the course's Java field move is never reset) if it is legal, else forfeits (the course does not say what it does then). " +
        'Beating an opponent (more wins than losses) earns random 50, simple 100, advanced 100 + the bonus; the score is that of the strongest opponent beaten. ' +
        'Exits 0 whenever the gauntlet ran, whatever the scores.',
    )
    .argument('<submission...>', 'agent files or submission folders (run sandboxed), an LMS\'s download as a zip or folder (one submission per student: mancala submissions shows how it is read), or reference agents such as strong:ms=200')
    .addOption(new Option('--stones <list>', 'stones a bin at the start, a comma-separated list').argParser(numberList(LIMITS.minSeeds, LIMITS.maxSeeds, 'stone count')).default([...d.stones], d.stones.join(',')))
    .addOption(
      new Option('--time-per-move <list>', 'ms a move, a comma-separated list (each a setting with every stone count)')
        .argParser(numberList(1, 3_600_000, 'ms a move'))
        .default([...d.timesPerMoveMs], d.timesPerMoveMs.join(',')),
    )
    .addOption(new Option('--games <n>', 'games against each opponent at each setting (stones, time)').argParser(wholeNumber(1, 10_000, 'a number of games')).default(d.gamesPerSetting))
    .addOption(new Option('--seed <n>', 'seed of the openings and of the agents\' random sources').argParser(wholeNumber(0, 2 ** 31 - 1, 'a seed')).default(d.seed))
    .addOption(
      new Option('--match-rules <rules>', `project: ${describeOpenings(d.openings)} openings, a side stopped at the sandbox's hard limit (a quarter of the time per move, 250 ms to 2 s), a late side plays its report of that turn; course: as the course's Match (initial board, ${COURSE_GRACE_MS} ms grace, else its previous move)`)
        .choices(MATCH_RULES)
        .default(d.matchRules),
    )
    .addOption(new Option('--openings <spec>', 'random:K (K seeded random moves open each pair of games) or FILE of start positions; match rules project only').default(describeOpenings(d.openings)))
    .addOption(rosterOption())
    .option('--replays <dir>', 'write each game as JSON lines to DIR/<submission>/<opponent>/<stones>-stones-<ms>ms/game-NNN.jsonl')
    .addOption(new Option('--bonus <points>', 'points above 100 for beating the advanced agent').argParser(points).default(d.bonus))
    .addOption(jobsOption('games played at once (worker threads)'))
    .addOption(checkExitOption('an opponent played was not beaten'))
    .addOption(shardOption('submissions'))
    .addOption(memoryOption(`memory cap of a submission's process, MB (default ${d.memoryMb}; recorded in the report when given)`))
    .addOption(timeLimitOption('every game\'s time per move in ms for this run, instead of --time-per-move\'s list (recorded in the report)'))
    .addOption(weakSandboxOption())
    .option('--json <file>', 'write the JSON grading report (one case per opponent)')
    .option('--gradescope <file>', "write Gradescope's results.json (one file per submission when there are several)")
    .option('--junit <file>', 'write JUnit XML')
    .option('--csv <file>', 'write a CSV gradebook')
    .option('--html <file>', HTML_OPTION_HELP)
    .addOption(noProgressOption())
    .addHelpText(
      'after',
      [
        '',
        'Examples:',
        '  $ mancala gauntlet agents/examples/cs540-reference',
        '  $ mancala gauntlet submissions/* --time-per-move 500,2000 --games 4 --jobs 2 --gradescope results.json',
        '  $ mancala gauntlet my-agent.ts --stones 4 --time-per-move 200',
        '  $ mancala gauntlet submissions/* --match-rules course --time-per-move 1000 --replays replays/',
        '  $ mancala gauntlet submissions/* --time-limit 2000 --memory 1024 --json out/gauntlet.json',
        '  $ mancala gauntlet submissions/* --time-per-move 500 --html gauntlet.html   # the class as a page: histogram, each submission\'s games',
        ...shardHelp(
          [
            '  $ mancala gauntlet submissions/* --time-per-move 500 --shard 3/8 --json gauntlet-3.json   # CI job 3 of 8',
            '  $ mancala merge gauntlet-*.json --json gauntlet.json --gradescope results.json --csv grades.csv',
          ].join('\n'),
        ),
      ].join('\n'),
    )
    .action(async (given: string[], flags: GauntletFlags, command: Command) => {
      const openingsGiven = command.getOptionValueSource('openings') === 'cli';
      if (openingsGiven && flags.matchRules === 'course') {
        throw new UserError('options --openings and --match-rules course: the course starts every game from the initial board; give one of them');
      }
      const openings = parseOpeningsOption(flags.openings);
      if (flags.replays !== undefined) checkOutputFolder('--replays', flags.replays);
      if (flags.timeLimit !== undefined && command.getOptionValueSource('timePerMove') === 'cli') {
        throw new UserError('options --time-limit and --time-per-move both set the time per move: give one of them');
      }
      const timesPerMoveMs = flags.timeLimit !== undefined ? [flags.timeLimit] : flags.timePerMove;
      limitOverrides(flags); // a --memory the address-space cap makes impossible stops here
      checkReportFiles(flags);
      const sandbox = sandboxMode(flags);
      // Zips and LMS exports in any layout: one snapshot per student, played in place of what was given.
      const { specs: submissions, intake } = await takeInAgentSpecs(io, given, rosterTakeIn(flags));
      await refuseRunWithoutSubmission(submissions, 'cs540');
      // Reference agents run in this process: the sandbox matters only when a submission runs.
      const confinement = submissions.some(isPathSpec) ? await announceSandbox(io, sandbox) : undefined;
      cleanUpOnInterrupt(io);
      // A student kit holds only the opponents the course gives its students: the rest are the instructor's to play.
      const held = CS540_OPPONENTS.filter((op) => agentTable()[parseAgentSpec(op.spec).name]?.withheld === true);
      const opponents = CS540_OPPONENTS.filter((op) => !held.includes(op));
      if (held.length > 0) io.err(`not played here, ${withheldMessage(`the ${held.map((op) => op.name).join(' and ')} agent${held.length === 1 ? '' : 's'}`)}\n`);
      // --shard i/n: every n-th submission, from the i-th, each played exactly as in the whole run.
      const mine = shardItems(submissions, flags.shard);
      const shard =
        flags.shard === undefined
          ? undefined
          : shardRecord(
              'gauntlet',
              flags.shard,
              gauntletIdentity(
                shownSources(intake, submissions),
                {
                  ...flags,
                  timesPerMoveMs,
                  openings: openingsGiven ? flags.openings : null,
                  openingsFile: openingsGiven && openings.kind === 'file' ? createHash('sha256').update(readFileSync(openings.file)).digest('hex').slice(0, 12) : null,
                  opponents: opponents.map((op) => op.name),
                },
                sandbox,
              ),
              shownSources(intake, mine),
            );
      if (shard !== undefined) announceShard(io, shard, shareOf(shownSources(intake, mine), submissions.length, 'submissions'), flags.json !== undefined);
      const entries: { result: GauntletResult; id: string }[] = [];
      for (const submission of mine) {
        const result = withSourceNames(await withProgressBar(flags.progress, `gauntlet [{bar}] {value}/{total} games | ${studentPath(sourceOf(intake, submission))}`, (bar) =>
          runGauntlet({
            submission,
            opponents,
            stones: flags.stones,
            timesPerMoveMs,
            gamesPerSetting: flags.games,
            seed: flags.seed,
            ...(openingsGiven ? { openings } : {}),
            matchRules: flags.matchRules,
            ...(flags.replays !== undefined ? { replays: join(flags.replays, submissionId(submission)) } : {}),
            bonus: flags.bonus,
            jobs: flags.jobs,
            memoryMb: flags.memory ?? d.memoryMb,
            sandbox,
            ...(bar !== undefined ? { onGame: (done: number, total: number) => bar.update(done, total) } : {}),
          }),
        ), intake);
        io.out(renderGauntlet(result) + '\n');
        entries.push({ result, id: submissionId(submission) });
      }
      if (flags.replays !== undefined) io.err(`wrote the games' replays to ${flags.replays}\n`);
      if (mine.length > 1) {
        io.out(entries.map((e) => `${e.id}: ${e.result.score} / ${e.result.maxScore}`).join('\n') + '\n');
      }
      // Only reference agents: nothing ran outside this process, so nothing reached the network.
      const isolation: GradeReport['isolation'] = confinement === undefined ? { network: true } : { network: sandbox === 'full', note: confinement };
      const report = gauntletReport(entries, isolation);
      const overridden = overrideNote(flags);
      const runNotes = [
        ...(flags.matchRules === 'course' ? [`match rules course: every game played as the course's own Match (from the initial board, a ${COURSE_GRACE_MS} ms grace, a late side's previous move kept)`] : []),
        ...(overridden !== undefined ? [overridden] : []),
      ];
      if (runNotes.length > 0) report.notes = runNotes;
      const warnings = addCommonFailureNotes(report, (s) => (isPathSpec(s.path) ? AGENT_KIND : undefined));
      if (shard === undefined) writeReportFiles(io, report, flags);
      else {
        report.notes = [shardNote(shard, shareOf(shownSources(intake, mine), submissions.length, 'submissions')), ...(report.notes ?? [])];
        writeShardReportFiles(io, report, flags, { ...shard, runNotes, kinds: mine.map((s) => (isPathSpec(s) ? AGENT_KIND : null)) }, submissions.length);
        writeHtmlReport(io, report, flags.html);
      }
      printWarnings(io, warnings);
      const failed = flags.check === true ? failedCheck(report, 'opponents played (a case each: beat it)') : undefined;
      if (failed !== undefined) throw failed;
    });
}

/** The report's note on limits the flags set for this run, over the gauntlet's defaults. */
function overrideNote(flags: GauntletFlags): string | undefined {
  const parts = [
    ...(flags.timeLimit !== undefined ? [`time ${flags.timeLimit} ms a move (--time-limit)`] : []),
    ...(flags.memory !== undefined ? [`memory ${flags.memory} MB (--memory)`] : []),
  ];
  return parts.length === 0 ? undefined : `limits set for this run, for every game: ${parts.join(', ')}`;
}

/** The submission's name in reports: its folder or file name, as `mancala grade` names it. */
export function submissionId(path: string): string {
  return isPathSpec(path) ? gradedId(path) : path;
}
