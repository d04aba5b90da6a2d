/**
 * Reading what `mancala merge` is given: a shard's JSON report (grade, csci561-grade, gauntlet:
 * a grade report with a `shard` field; check: {"version":1,"shard":…,"reports":[…]}; similarity:
 * its part of the run, shards/similarity.ts), or a
 * tournament shard's results folder (its results.jsonl, whose header names the shard). Anything
 * else is one line naming the file and what was expected.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import * as z from 'zod';
import { UserError } from '../errors.ts';
import { formatPath } from '../field-path.ts';
import type { GradeReport } from '../grading/report.ts';
import { parseReport } from '../grading/reporters/json.ts';
import { shardItems, shardLabel, type ShardSpec } from '../shard-spec.ts';
import type { TournamentParams } from '../tournaments/params.ts';
import { readResultsHeader, RESULTS_FILE } from '../tournaments/results.ts';
import { buildSchedule } from '../tournaments/schedule.ts';
import type { RunIdentity } from './identity.ts';
import { shardRecord, shardRecordSchema, type ShardRecord } from './record.ts';
import { parseSimilarityPart, type SimilarityShard } from './similarity.ts';

export type { SimilarityShard } from './similarity.ts';

interface Input {
  /** the path as given */
  given: string;
  record: ShardRecord;
}

/** A shard of grade, csci561-grade or gauntlet. */
export interface ReportShard extends Input {
  kind: 'report';
  report: GradeReport;
}

/** A shard of check: one report per suite it graded cases of. */
export interface CheckShard extends Input {
  kind: 'check';
  reports: GradeReport[];
}

/** A tournament shard's results folder. */
export interface TournamentShard extends Input {
  kind: 'tournament';
  /** its results.jsonl */
  file: string;
  params: TournamentParams;
}

export type ShardInput = ReportShard | CheckShard | TournamentShard | SimilarityShard;

/** A tournament's identity: its parameters, by flag. */
export function tournamentIdentity(p: TournamentParams): RunIdentity {
  return {
    '--format': p.format,
    agents: p.agents,
    '--vs': p.vs,
    '--games-per-pair': p.gamesPerPair,
    '--seed': p.seed,
    '--rules': p.rules,
    '--pits': p.pits,
    '--seeds': p.seeds,
    '--time-per-move': p.timePerMoveMs,
    '--openings': p.openings,
    'the --openings file': p.openingsSha256 === null ? null : `sha256 ${p.openingsSha256.slice(0, 12)}`,
    '--forfeit': p.forfeit,
    ...(p.timeBankMs !== undefined ? { '--time-bank': p.timeBankMs } : {}),
  };
}

/**
 * The record of shard `shard` of the tournament `params`. Its units, every n-th game of the
 * schedule from the i-th, follow from the parameters: they are not listed (a class tournament
 * has a hundred thousand games).
 */
export function tournamentShardRecord(params: TournamentParams, shard: ShardSpec): ShardRecord {
  return shardRecord('tournament', shard, tournamentIdentity(params), []);
}

/** The numbers of shard `shard`'s games. */
export function tournamentShardGames(params: TournamentParams, shard: ShardSpec): string[] {
  return shardItems(buildSchedule(params), shard).map((g) => String(g.index));
}

/** Reads one input of mancala merge. */
export function readShardInput(given: string): ShardInput {
  if (!existsSync(given)) throw new UserError(`${given}: no such file or folder`);
  if (statSync(given).isDirectory()) {
    const file = join(given, RESULTS_FILE);
    if (!existsSync(file)) throw new UserError(`${given}: a folder without ${RESULTS_FILE}: expected a tournament shard's --out folder, or give a shard's JSON report file`);
    return tournamentInput(given, file);
  }
  const text = readFileSync(given, 'utf8').replace(/^\uFEFF/, '');
  if (basename(given).endsWith('.jsonl') || text.startsWith('{"type":"tournament"')) return tournamentInput(given, given);
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw new UserError(`${given}: not JSON: expected a shard's JSON report (written with --shard i/n --json FILE) or a tournament shard's results folder`);
  }
  if (data === null || typeof data !== 'object' || Array.isArray(data)) throw new UserError(`${given}: expected a shard's JSON report (an object with a "shard" field)`);
  const { shard, ...rest } = data as Record<string, unknown>;
  if (shard === undefined) {
    throw new UserError(`${given}: not a shard's report (it has no "shard" field): only reports of runs with --shard i/n are merged`);
  }
  const record = parseRecord(given, shard);
  if (record.command === 'tournament') {
    throw new UserError(`${given}: the standings of tournament ${shardLabel(record)} (its --json): merge the shards' --out folders, which hold their results.jsonl`);
  }
  if (record.command === 'similarity') return { kind: 'similarity', given, record, part: parseSimilarityPart(given, rest) };
  if (record.command === 'check') {
    const { version, reports, ...other } = rest;
    const unknown = Object.keys(other)[0];
    if (version !== 1) throw new UserError(`${given}: field "version": expected 1`);
    if (unknown !== undefined) throw new UserError(`${given}: field "${unknown}": unknown field`);
    if (!Array.isArray(reports)) throw new UserError(`${given}: field "reports": expected a list of grade reports`);
    const parsed = reports.map((r, k) => parseReportIn(`${given}: reports[${k}]`, r));
    if ((record.suites ?? []).length !== parsed.length) throw new UserError(`${given}: field "shard.suites": expected one suite number for each of the ${parsed.length} reports`);
    return { kind: 'check', given, record, reports: parsed };
  }
  return { kind: 'report', given, record, report: parseReportIn(given, rest) };
}

function parseRecord(given: string, value: unknown): ShardRecord {
  const parsed = shardRecordSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new UserError(`${given}: field "${formatPath(['shard', ...issue.path])}": ${issue.message}`);
  }
  return parsed.data as ShardRecord;
}

function parseReportIn(where: string, value: unknown): GradeReport {
  // parseReport names the file and the field of any problem.
  return parseReport(JSON.stringify(value), where);
}

function tournamentInput(given: string, file: string): TournamentShard {
  const { params, shard } = readResultsHeader(file);
  if (shard === undefined) throw new UserError(`${file}: the results of a whole tournament, not of a shard (--shard i/n): nothing to merge`);
  return { kind: 'tournament', given, file, params, record: tournamentShardRecord(params, shard) };
}
