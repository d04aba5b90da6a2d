/**
 * `--shard i/n` on the commands that take it (grade, check, csci561-grade, gauntlet, tournament):
 * the option, the line a shard says on stderr before it starts, and its report files, which
 * record the shard (framework/shards/record.ts) so that `mancala merge` can put the run together:
 *
 *  - --json: the report with a `shard` field after `version`;
 *  - --csv: a last column `shard` ("2/3 3f9a1c2b7d4e") on every row;
 *  - --junit, --gradescope: the report's notes carry the shard's note (a `run-note` property; a
 *    line of the top-level output); Gradescope files are named as in the whole run (one a
 *    submission when the run has several, whatever the shard holds).
 */
import { join, parse } from 'node:path';
import { InvalidArgumentError, Option } from 'commander';
import type { GradeReport } from '../grading/report.ts';
import { csvText, toCsv } from '../grading/reporters/csv.ts';
import { toGradescope } from '../grading/reporters/gradescope.ts';
import { toJson } from '../grading/reporters/json.ts';
import { toJUnit } from '../grading/reporters/junit.ts';
import { parseShardSpec, shardLabel, type ShardSpec } from '../shard-spec.ts';
import { describeShard, withShardField, type ShardRecord } from '../shards/record.ts';
import { writeFileAtomically } from '../write-file.ts';
import type { CliIo } from './options.ts';
import type { ReportFiles } from './report-files.ts';

export interface ShardFlag {
  shard?: ShardSpec;
}

function shardValue(value: string): ShardSpec {
  const parsed = parseShardSpec(value);
  if ('error' in parsed) throw new InvalidArgumentError(`${parsed.error.charAt(0).toUpperCase()}${parsed.error.slice(1)}.`);
  return parsed;
}

/** The option; `units` says what is shared out ("submissions", "cases", "scheduled games"). */
export function shardOption(units: string): Option {
  return new Option(
    '--shard <i/n>',
    `do shard i of n of this run: every n-th of its ${units} starting with the i-th, with the seeds of the whole run; ` +
      "the reports record the shard and the run, and mancala merge puts the shards' reports together into the whole run's",
  ).argParser(shardValue);
}

/** The help text's lines on sharding, with the command's own example. */
export function shardHelp(example: string): string[] {
  return ['', 'Sharding (a run split across machines or CI jobs, then merged):', example];
}

/** What the shard says on stderr before it starts; without a --json report (`mergeable` false) it cannot be merged, and says so. */
export function announceShard(io: CliIo, record: ShardRecord, did: string, mergeable = true): void {
  io.err(`${describeShard(record)}: ${did}${mergeable ? '' : '; no --json report is asked for, so mancala merge will not have this shard'}\n`);
}

/** "1 of the 3 submissions (agents/examples/bob)" */
export function shareOf(mine: readonly string[], all: number, noun: string): string {
  const shown = mine.length === 0 ? '' : ` (${mine.length > 4 ? `${mine.slice(0, 4).join(', ')}, …` : mine.join(', ')})`;
  return `${mine.length} of the ${all} ${noun}${shown}`;
}

/** The CSV gradebook with a last column naming the shard and its run. */
export function withShardColumn(csv: string, record: ShardRecord): string {
  const cell = csvText(`${shardLabel(record)} ${record.run}`);
  const rows = csv.split('\r\n').filter((r) => r !== '');
  return rows.map((row, k) => `${row},${k === 0 ? 'shard' : cell}\r\n`).join('');
}

/**
 * A shard's report files (grade, csci561-grade, gauntlet), as writeReportFiles writes a whole
 * run's, each recording the shard. `runSubmissions`: how many the whole run grades (Gradescope's
 * file names).
 */
export function writeShardReportFiles(io: CliIo, report: GradeReport, files: ReportFiles, record: ShardRecord, runSubmissions: number): void {
  if (files.json) writeFileAtomically(files.json, withShardField(toJson(report), record));
  if (files.junit) writeFileAtomically(files.junit, toJUnit(report));
  if (files.csv) writeFileAtomically(files.csv, withShardColumn(toCsv(report), record));
  if (files.gradescope) {
    report.submissions.forEach((s, k) => {
      const file = runSubmissions > 1 ? withId(files.gradescope!, s.id) : files.gradescope!;
      writeFileAtomically(file, JSON.stringify(toGradescope(report, k), null, 2) + '\n');
    });
  }
  const written = [files.json, files.gradescope, files.junit, files.csv].filter((f) => f !== undefined);
  if (written.length > 0) io.err(`wrote ${written.join(', ')} (shard ${shardLabel(record)})\n`);
}

/** results.json → results.alice.json, as report-files.ts names them. */
function withId(file: string, id: string): string {
  const p = parse(file);
  return join(p.dir, `${p.name}.${id.replace(/[^\w.-]+/g, '_')}${p.ext}`);
}
