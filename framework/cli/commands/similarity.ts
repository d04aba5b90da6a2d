/**
 * `mancala similarity <submission...>`: who copied whom, across a class. Source similarity with
 * Dolos over the files the course grades (framework/similarity/source*.ts), the course's starter
 * code left out; behaviour fingerprints, each submission answering the same seeded positions in
 * the sandbox (framework/similarity/behaviour.ts). Pairs ranked by the strongest signal; the
 * report as JSON, CSV and one HTML page; --shard i/n and `mancala merge` like the other
 * class-wide commands (framework/shards/similarity.ts).
 */
import { existsSync } from 'node:fs';
import { Option, type Command } from 'commander';
import { UserError } from '../../errors.ts';
import { PROFILE_NAMES } from '../../games/mancala/profiles.ts';
import { shardItems } from '../../shard-spec.ts';
import { given } from '../../shards/identity.ts';
import { shardRecord } from '../../shards/record.ts';
import { similarityShardJson } from '../../shards/similarity.ts';
import { similarityCsv } from '../../similarity/csv.ts';
import { renderSimilarityHtml } from '../../similarity/html.ts';
import { similarityJson, type SimilarityReport } from '../../similarity/report.ts';
import { assembleReport, computeSimilarity, runPairs } from '../../similarity/run.ts';
import { SOURCE_LANGUAGES } from '../../similarity/source-files.ts';
import { writeFileAtomically } from '../../write-file.ts';
import { intakeHelp, recordPaths, rosterName, rosterOption, rosterTakeIn, shownSources, takeInForCommand, withSourceNames } from '../intake.ts';
import { cleanUpOnInterrupt } from '../interrupt.ts';
import { wholeNumber, type CliIo } from '../options.ts';
import { checkOutputFile } from '../output-paths.ts';
import { noProgressOption, withProgressBar } from '../progress.ts';
import { addWeakSandboxOption, announceSandbox, sandboxMode, type SandboxFlags } from '../sandbox-options.ts';
import { DEFAULT_BEHAVIOUR_POSITIONS } from '../../similarity/behaviour.ts';
import { announceShard, shardHelp, shardOption, shareOf, type ShardFlag } from '../shard-option.ts';
import { jobsOption } from '../jobs-option.ts';

/** Positions each submission answers by default: the behaviour fingerprints' own, sized so a class of 300 agents takes minutes. */
export const DEFAULT_POSITIONS = DEFAULT_BEHAVIOUR_POSITIONS;
/** Pairs the console shows. */
const CONSOLE_PAIRS = 10;

interface SimilarityCliOptions extends SandboxFlags, ShardFlag {
  roster?: string;
  rules: string;
  language?: string;
  ignore?: string;
  json?: string;
  csv?: string;
  html?: string;
  jobs: number;
  behaviour: boolean;
  positions: number;
  seed: number;
  progress: boolean;
  /** from --python (main.ts adds it to every command with --weak-sandbox) */
  python?: string;
}

export function addSimilarityCommand(program: Command, io: CliIo): void {
  const command = program
    .command('similarity')
    .summary("who copied whom: source similarity (Dolos) and behaviour across a class's submissions")
    .description(
      'Compare every pair of submissions (folders of any language, as grade and csci561-grade take them). ' +
        "Source: Dolos parses each submission's files in its main language (Java, Python, C, C++, TypeScript, JavaScript and more) into tokens, " +
        'so renaming, reformatting and new comments do not hide a copy; the course\'s starter code (its kit\'s starter folder, or --ignore DIR) ' +
        'is left out of both sides. Behaviour: each submission answers the same seeded positions in the sandbox, and a pair scores the share ' +
        'of positions where both chose the same move (agreement two correct searches must have is marked expected and does not rank the pair). ' +
        'Pairs are ranked by the strongest signal. A folder with no source Dolos parses is listed, not fatal; a submission that cannot be run ' +
        'is listed with why, and its pairs keep their source score.',
    )
    .argument('<submission...>', intakeHelp('submission folders (two or more)'))
    .addOption(new Option('--rules <profile>', "the course: its rules for the positions, its kit's starter as the code to ignore").choices(PROFILE_NAMES).default('kalah'))
    .addOption(new Option('--language <language>', "compare this language's files in every submission (default: each submission's main language)").choices(SOURCE_LANGUAGES))
    .option('--ignore <dir>', "a folder of the code every student was given, left out of the source comparison (default: the course's starter, agents/starters/<rules>/, and the files its kit provides)")
    .addOption(rosterOption())
    .option('--json <file>', 'write the report as JSON: every pair with its scores and matching fragments, strongest first')
    .option('--csv <file>', 'write one line a pair, strongest first')
    .option('--html <file>', "write one self-contained HTML page: the ranked pairs and the top pairs' fragments side by side")
    .addOption(jobsOption('submissions fingerprinted at once'))
    .addOption(shardOption('pairs (source) and submissions (behaviour)'))
    .option('--no-behaviour', 'source similarity only: run no submission (e.g. programs that cannot run here)')
    .addOption(new Option('--positions <n>', 'positions each submission answers for its behaviour fingerprint').argParser(wholeNumber(1, 100_000, 'positions')).default(DEFAULT_POSITIONS))
    .addOption(new Option('--seed <n>', 'seed of the positions: the same seed, the same positions and report').argParser(wholeNumber(0, 2 ** 31 - 1, 'a seed')).default(1))
    .addOption(noProgressOption());
  addWeakSandboxOption(command)
    .addHelpText(
      'after',
      [
        '',
        'Examples:',
        '  $ mancala similarity submissions/* --rules csci561 --html similarity.html   # after csci561-grade',
        '  $ mancala similarity submissions/* --rules csc384 --json similarity.json --csv similarity.csv',
        '  $ mancala similarity submissions/* --no-behaviour --ignore handout/ --html similarity.html   # source only, your own starter',
        ...shardHelp(
          [
            '  $ mancala similarity submissions/* --rules cs540 --shard 2/4 --json sim2.json   # and 1/4, 3/4, 4/4 elsewhere',
            '  $ mancala merge sim1.json sim2.json sim3.json sim4.json --json similarity.json --html similarity.html',
          ].join('\n'),
        ),
      ].join('\n'),
    )
    .action(async (paths: string[], opts: SimilarityCliOptions) => {
      const twice = paths.find((s, k) => paths.indexOf(s) !== k);
      if (twice !== undefined) throw new UserError(`submission ${twice} is given twice: give each folder once`);
      const missing = paths.find((s) => !existsSync(s));
      if (missing !== undefined) throw new UserError(`submission ${missing}: no such folder`);
      // Before any long work: every place a report goes.
      for (const [flag, file] of [['--json', opts.json], ['--csv', opts.csv], ['--html', opts.html]] as const) if (file !== undefined) checkOutputFile(flag, file);
      if (opts.shard !== undefined && (opts.csv !== undefined || opts.html !== undefined)) {
        throw new UserError(`--shard ${opts.shard.index}/${opts.shard.count}: a shard writes its part as --json only; mancala merge writes the whole run's --csv and --html`);
      }
      // Zips and LMS exports in any layout: one snapshot per student, compared in place of what was given.
      const intake = await takeInForCommand(io, paths, rosterTakeIn(opts));
      const submissions = recordPaths(intake);
      if (submissions.length < 2) throw new UserError('similarity compares pairs: give two submission folders or more');
      const sandbox = sandboxMode(opts);
      if (opts.behaviour) {
        await announceSandbox(io, sandbox, [], opts.jobs);
        // Submissions run: Ctrl-C removes their sandbox copies.
        cleanUpOnInterrupt(io);
      }
      const mine = shardItems(submissions, opts.shard);
      const record =
        opts.shard === undefined
          ? undefined
          : shardRecord(
              'similarity',
              opts.shard,
              {
                submissions: shownSources(intake, submissions),
                '--rules': opts.rules,
                '--language': given(opts.language),
                '--ignore': given(opts.ignore),
                '--no-behaviour': opts.behaviour ? null : true,
                '--positions': opts.behaviour ? opts.positions : null,
                '--seed': opts.behaviour ? opts.seed : null,
                '--weak-sandbox': opts.behaviour && sandbox === 'weak' ? true : null,
                '--python': given(opts.python),
              },
              shownSources(intake, mine),
            );
      if (record !== undefined) {
        const pairs = shardItems(runPairs(submissions), opts.shard).length;
        announceShard(io, record, `${pairs} of the ${runPairs(submissions).length} pairs, and the behaviour of ${shareOf(shownSources(intake, mine), submissions.length, 'submissions')}`, opts.json !== undefined);
      }
      const part = await withProgressBar(opts.progress, 'comparing [{bar}] {value}/{total} {phase}', (bar) =>
        computeSimilarity({
          submissions,
          rules: opts.rules,
          ...(opts.language !== undefined ? { language: opts.language } : {}),
          ...(opts.ignore !== undefined ? { ignore: opts.ignore } : {}),
          ...(opts.behaviour ? { behaviour: { rules: opts.rules, positions: opts.positions, seed: opts.seed, jobs: opts.jobs, weakSandbox: sandbox === 'weak' } } : {}),
          ...(opts.shard !== undefined ? { shard: opts.shard } : {}),
          onProgress: (phase, done, total) => bar?.update(done, total, { phase: phase === 'source' ? 'pairs (source)' : 'submissions (behaviour)' }),
        }),
      );
      if (record !== undefined) {
        if (opts.json !== undefined) {
          writeFileAtomically(opts.json, similarityShardJson(withSourceNames(part, intake, rosterName), record));
          io.err(`wrote ${opts.json} (shard ${opts.shard!.index}/${opts.shard!.count})\n`);
        }
        io.out(`${part.pairs.length} pairs compared by source${part.fingerprints === null ? '' : `, ${part.fingerprints.length} submissions fingerprinted`}; mancala merge ranks them with the other shards'\n`);
        return;
      }
      const report = withSourceNames(assembleReport([part]), intake, rosterName);
      io.out(renderSimilarityConsole(report));
      writeSimilarityFiles(io, report, opts);
    });
}

/** The report's files, as asked (the run's and the merge's). */
export function writeSimilarityFiles(io: CliIo, report: SimilarityReport, files: { json?: string; csv?: string; html?: string }): void {
  if (files.json !== undefined) writeFileAtomically(files.json, similarityJson(report));
  if (files.csv !== undefined) writeFileAtomically(files.csv, similarityCsv(report));
  if (files.html !== undefined) writeFileAtomically(files.html, renderSimilarityHtml(report));
  const written = [files.json, files.csv, files.html].filter((f) => f !== undefined);
  if (written.length > 0) io.err(`wrote ${written.join(', ')}\n`);
}

const pc = (x: number | null) => (x === null ? '   —' : `${String(Math.round(x * 100)).padStart(3)}%`);

/** The console's summary: the strongest pairs and the submissions listed. */
export function renderSimilarityConsole(r: SimilarityReport): string {
  const lines = [`${r.submissions.length} submissions, ${r.pairs.length} pairs; starter code ignored: ${r.similarity.template}`];
  for (const n of r.notes ?? []) lines.push(`note: ${n}`);
  for (const s of r.submissions) {
    if (s.note !== undefined) lines.push(`${s.path}: ${s.note}`);
    // A failure of the whole run is its note already: not said again for each submission.
    if (s.behaviourFailure !== undefined && !(r.notes ?? []).includes(s.behaviourFailure)) lines.push(`${s.path}: behaviour not compared: ${s.behaviourFailure}`);
  }
  lines.push('', `  # signal source behaviour  pair`);
  r.pairs.slice(0, CONSOLE_PAIRS).forEach((p, k) => {
    const expected = p.expectedAgreement === null ? '' : ' (agreement expected)';
    lines.push(`${String(k + 1).padStart(3)} ${pc(p.signal)}   ${pc(p.source)}    ${pc(p.behaviour)}  ${p.a}  ${p.b}${expected}`);
  });
  if (r.pairs.length > CONSOLE_PAIRS) lines.push(`    … and ${r.pairs.length - CONSOLE_PAIRS} more pairs (--json, --csv, --html)`);
  return `${lines.join('\n')}\n`;
}
