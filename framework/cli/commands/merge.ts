/**
 * `mancala merge <shards...>`: the reports of a run split with `--shard i/n` (grade, check,
 * csci561-grade, gauntlet: their --json files; tournament: their --out folders) put back together
 * into what one run gives, timings aside — the same JSON report, CSV, JUnit and Gradescope files,
 * or the same results.jsonl, standings and crosstable. Shards of different runs, of different
 * commands, or given twice are refused in one line naming the difference; missing shards are
 * refused, naming them and their work, unless --allow-missing (framework/shards/merge.ts).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import { UserError } from '../../errors.ts';
import { renderCheck, renderConsole } from '../../grading/reporters/console.ts';
import { toJson } from '../../grading/reporters/json.ts';
import { shardLabel } from '../../shard-spec.ts';
import { checkShardSet, mergeCheckShards, mergeReportShards, mergeTournamentShards, showUnits, type ShardSet } from '../../shards/merge.ts';
import { readShardInput, type CheckShard, type ReportShard, type SimilarityShard, type TournamentShard } from '../../shards/read.ts';
import { mergeSimilarityShards } from '../../shards/similarity.ts';
import { renderCrosstable, renderForfeits, renderStandings, standingsJson, standingsJsonText } from '../../tournaments/crosstable.ts';
import { gameLine, headerLine, RESULTS_FILE } from '../../tournaments/results.ts';
import { writeFileAtomically } from '../../write-file.ts';
import type { CliIo } from '../options.ts';
import { checkOutputFile, checkOutputFolder } from '../output-paths.ts';
import { checkReportFiles, printWarnings, writeReportFiles, type ReportFiles } from '../report-files.ts';
import { renderSimilarityConsole, writeSimilarityFiles } from './similarity.ts';

interface MergeOptions extends ReportFiles {
  out?: string;
  allowMissing?: boolean;
  verbose?: boolean;
  color: boolean;
}

export function addMergeCommand(program: Command, io: CliIo): void {
  program
    .command('merge')
    .summary("put the shards of a run (--shard i/n) back together: the whole run's reports")
    .description(
      'Merge the reports of a run split with --shard i/n into what one run gives, timings aside. ' +
        'grade, csci561-grade and gauntlet shards: their --json reports; merge writes --json, --csv, --junit and --gradescope as the command does, ' +
        'submissions in the run\'s order, the warnings about common failures worked out over all of them. ' +
        "check shards: their --json reports; merge writes --json. tournament shards: their --out folders (results.jsonl); merge writes the whole " +
        "tournament's results folder (--out, which the tournament command resumes) and its standings (--json), and prints the standings and the crosstable. " +
        'similarity shards: their --json files; merge ranks every pair and writes --json, --csv and --html as mancala similarity does. ' +
        'Every shard records its run (the suite and its expected answers, the submissions or agents, the options that change results, the seed): ' +
        'shards of different runs or commands are refused, naming the difference, and so is a shard given twice. ' +
        'A missing shard (or a tournament shard with unplayed games) is refused, naming it and its work, unless --allow-missing: ' +
        'then the shards given are merged and the report says what is not in it.',
    )
    .argument('<shards...>', "the shards' JSON report files (--json of grade, check, csci561-grade, gauntlet, similarity with --shard), or tournament shards' --out folders")
    .option('--json <file>', "write the whole run's JSON report (a tournament: its standings)")
    .option('--csv <file>', 'write the CSV gradebook (grade, csci561-grade, gauntlet), or the pairs (similarity)')
    .option('--junit <file>', 'write JUnit XML (grade, csci561-grade, gauntlet)')
    .option('--gradescope <file>', "write Gradescope's results.json, one a submission when there are several (grade, csci561-grade, gauntlet)")
    .option('--html <file>', 'write the self-contained HTML page of the pairs (similarity)')
    .option('--out <dir>', "tournament: write the whole tournament's results folder (DIR/results.jsonl; a new folder)")
    .option('--allow-missing', 'merge the shards given even when some are missing or unfinished; the report names what is not in it')
    .option('--verbose', 'show every case and full messages')
    .option('--no-color', 'no colours in the console report')
    .addHelpText(
      'after',
      [
        '',
        'Examples:',
        '  $ mancala grade submissions/* --suite testcases/hidden-example --shard 1/3 --json shard1.json   # and 2/3, 3/3 elsewhere',
        '  $ mancala merge shard1.json shard2.json shard3.json --json report.json --csv grades.csv --gradescope results.json',
        '  $ mancala merge t-1 t-2 t-3 --out tournament --json standings.json   # tournament shards run with --shard i/3 --out t-i',
        '  $ mancala merge shard1.json shard2.json --allow-missing --csv partial.csv   # shard 3/3 failed: grade what is there',
        '  $ mancala merge sim1.json sim2.json --json similarity.json --html similarity.html   # mancala similarity --shard i/2 --json simI.json',
      ].join('\n'),
    )
    .action((inputs: string[], opts: MergeOptions) => {
      const set = checkShardSet(inputs.map(readShardInput), opts.allowMissing === true);
      checkFlags(set, opts);
      const color = opts.color && process.stdout.isTTY === true && process.env.NO_COLOR === undefined;
      const merged = `merged ${set.shards.length} of ${set.count} shards (${set.shards.map((s) => shardLabel(s.record)).join(', ')}) of run ${set.run} (mancala ${set.command})`;
      switch (set.command) {
        case 'similarity': {
          for (const [flag, file] of [['--json', opts.json], ['--csv', opts.csv], ['--html', opts.html]] as const) if (file !== undefined) checkOutputFile(flag, file);
          const { report, absent } = mergeSimilarityShards(set as ShardSet<SimilarityShard>);
          io.err(`${merged}: ${report.pairs.length} pairs${absent.length === 0 ? '' : `; NOT in it (--allow-missing): ${absent.length} pairs`}\n`);
          io.out(renderSimilarityConsole(report));
          writeSimilarityFiles(io, report, opts);
          return;
        }
        case 'tournament':
          return mergeTournament(io, set as ShardSet<TournamentShard>, opts, merged);
        case 'check': {
          const { reports, absent } = mergeCheckShards(set as ShardSet<CheckShard>);
          if (opts.json !== undefined) checkOutputFile('--json', opts.json);
          io.err(`${merged}: ${reports.reduce((n, r) => n + r.submissions[0]!.cases.length, 0)} cases${missingText(set, absent)}\n`);
          for (const r of reports) io.out(renderCheck(r, { color }));
          if (opts.json !== undefined) {
            writeFileAtomically(opts.json, `${JSON.stringify({ version: 1, reports: reports.map((r) => JSON.parse(toJson(r)) as unknown) }, null, 2)}\n`);
            io.err(`wrote ${opts.json}\n`);
          }
          return;
        }
        default: {
          const { report, warnings, absent } = mergeReportShards(set as ShardSet<ReportShard>);
          checkReportFiles(opts);
          io.err(`${merged}: ${report.submissions.length} submission${report.submissions.length === 1 ? '' : 's'}${missingText(set, absent)}\n`);
          io.out(renderConsole(report, { color, verbose: opts.verbose === true }));
          writeReportFiles(io, report, opts);
          printWarnings(io, warnings);
        }
      }
    });
}

function missingText(set: ShardSet, absent: readonly string[]): string {
  return absent.length === 0 ? '' : `; NOT in it (--allow-missing): ${showUnits(set.command, absent)}`;
}

/** Each command's shards merge into the report files that command writes: anything else is one line. */
function checkFlags(set: ShardSet, opts: MergeOptions): void {
  const given = (['json', 'csv', 'junit', 'gradescope', 'html', 'out'] as const).filter((k) => opts[k] !== undefined);
  const allowed: readonly string[] =
    set.command === 'tournament' ? ['json', 'out'] : set.command === 'check' ? ['json'] : set.command === 'similarity' ? ['json', 'csv', 'html'] : ['json', 'csv', 'junit', 'gradescope'];
  const wrong = given.find((k) => !allowed.includes(k));
  if (wrong === undefined) return;
  const what =
    set.command === 'tournament'
      ? "tournament shards merge into a results folder (--out DIR) and standings (--json FILE)"
      : set.command === 'check'
        ? 'check shards merge into a JSON report (--json FILE), as mancala check writes'
        : set.command === 'similarity'
          ? 'similarity shards merge into --json, --csv and --html, as mancala similarity writes'
          : `${set.command} shards merge into --json, --csv, --junit and --gradescope reports`;
  throw new UserError(`--${wrong}: ${what}; not --${wrong}`);
}

function mergeTournament(io: CliIo, set: ShardSet<TournamentShard>, opts: MergeOptions, merged: string): void {
  const t = mergeTournamentShards(set, opts.allowMissing === true);
  // Before anything is written: both places, and a results folder that already holds results is never overwritten.
  const file = opts.out === undefined ? undefined : join(opts.out, RESULTS_FILE);
  if (opts.out !== undefined) {
    checkOutputFolder('--out', opts.out);
    if (existsSync(file!)) throw new UserError(`--out ${opts.out}: it already holds ${RESULTS_FILE}: merge into a new folder`);
  }
  if (opts.json !== undefined) checkOutputFile('--json', opts.json);
  const p = t.params;
  io.err(`${merged}: ${t.games.length} of ${t.schedule.length} games${missingText(set, t.absent)}\n`);
  const who = p.format === 'gauntlet' ? `${p.agents.length} agent${p.agents.length === 1 ? '' : 's'} against ${p.vs.length} reference${p.vs.length === 1 ? '' : 's'}` : `${p.agents.length} agents`;
  const lines = [
    `${p.format} of ${who}, ${p.gamesPerPair} game${p.gamesPerPair === 1 ? '' : 's'} a pair, ${p.rules}(${p.pits},${p.seeds}), ${p.timePerMoveMs} ms a move, seed ${p.seed}`,
    `${t.games.length} of ${t.schedule.length} games, from ${set.shards.length} of ${set.count} shards${file !== undefined ? `, recorded in ${file}` : ''}`,
    ...t.notes,
  ];
  io.out(
    [lines.join('\n') + '\n', renderStandings(t.standings), renderCrosstable(t.standings.map((s) => s.agent), t.games), renderForfeits(t.games)]
      .filter((s) => s !== '')
      .join('\n'),
  );
  if (file !== undefined) writeFileAtomically(file, headerLine(p) + t.games.map(gameLine).join(''));
  if (opts.json !== undefined) writeFileAtomically(opts.json, standingsJsonText(standingsJson(t.games.length, t.standings)));
  const written = [file, opts.json].filter((f) => f !== undefined);
  if (written.length > 0) io.err(`wrote ${written.join(', ')}\n`);
}
