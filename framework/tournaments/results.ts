/**
 * The results file (`<out>/results.jsonl`): what makes a tournament resumable. JSON lines: a header
 * recording the tournament's parameters, then one line per finished game, appended as it finishes
 * (in completion order; the index says where it belongs in the schedule).
 *
 *   {"type":"tournament","version":1,"params":{"format":"round-robin","agents":[…],…}}
 *   {"type":"game","index":3,"A":"greedy","B":"random","first":"B","winner":"A","score":[14,10],…}
 *
 * Reopening checks the header against the parameters asked for now (a difference is refused,
 * naming the flags that differ) and every game line against the schedule. A last line cut short
 * (the process was killed while writing it) is dropped and its game played again; anything else
 * malformed is an error naming the file and line, since guessing would corrupt the standings.
 */
import { closeSync, existsSync, mkdirSync, openSync, readSync, statSync } from 'node:fs';
import { join } from 'node:path';
import * as z from 'zod';
import { located, UserError } from '../errors.ts';
import { appendJsonLines, parseJsonLine as parseLine, readJsonLines } from '../json-lines.ts';
import type { GameRecord } from '../matches/types.ts';
import { inShard, shardLabel, type ShardSpec } from '../shard-spec.ts';
import { canonicalParams, describeDifferences, FORMATS, type TournamentParams } from './params.ts';
import type { ScheduledGame } from './schedule.ts';

export const RESULTS_FILE = 'results.jsonl';
export const RESULTS_VERSION = 1;

/** A finished game with the names of its sides. */
export interface PlayedGame extends GameRecord {
  A: string;
  B: string;
}

const side = z.enum(['A', 'B']);
const paramsSchema = z.strictObject({
  format: z.enum(FORMATS),
  agents: z.array(z.string()).min(1),
  vs: z.array(z.string()),
  gamesPerPair: z.number().int().min(1),
  seed: z.number().int(),
  rules: z.string(),
  pits: z.number().int(),
  seeds: z.number().int(),
  timePerMoveMs: z.number().positive(),
  openings: z.string(),
  openingsSha256: z.nullable(z.string()),
  forfeit: z.enum(['loss', 'random-move']),
  timeBankMs: z.number().positive().optional(),
});
/** A shard's results (`--shard i/n`) say so in their header; a whole tournament's header has no `shard`. */
const shardSchema = z.strictObject({ index: z.number().int().min(1), count: z.number().int().min(1) }).refine((s) => s.index <= s.count, { error: 'expected index ≤ count' });
const headerSchema = z.strictObject({ type: z.literal('tournament'), version: z.literal(RESULTS_VERSION), params: paramsSchema, shard: shardSchema.optional() });
const gameSchema = z.strictObject({
  type: z.literal('game'),
  index: z.number().int().min(1),
  A: z.string(),
  B: z.string(),
  first: side,
  winner: z.enum(['A', 'B', 'draw']),
  score: z.tuple([z.number().int(), z.number().int()]),
  moves: z.array(z.number().int().min(0)),
  openingPlies: z.number().int().min(0),
  forfeit: z.nullable(z.strictObject({ side, reason: z.enum(['crash', 'timeout', 'illegal-move', 'memory', 'output-limit']), message: z.string() })),
  time: z.tuple([z.number().min(0), z.number().min(0)]),
  decisions: z.tuple([z.number().int().min(0), z.number().int().min(0)]).optional(),
  maxMoveMs: z.tuple([z.number().min(0), z.number().min(0)]).optional(),
  randomMoves: z.tuple([z.number().int().min(0), z.number().int().min(0)]).optional(),
  deadlineMoves: z.tuple([z.number().int().min(0), z.number().int().min(0)]).optional(),
  startPosition: z.number().int().min(1).optional(),
  truncated: z.boolean().optional(),
});

export interface ResultsStore {
  file: string;
  /** games recorded by earlier runs, by schedule index */
  recorded: Map<number, PlayedGame>;
  /** what the reader should know, e.g. a torn last line was dropped */
  notes: string[];
  /** writes one finished game as one line (one write call, so a kill tears at most this line) */
  append(game: PlayedGame): void;
  close(): void;
}

export function headerLine(params: TournamentParams, shard?: ShardSpec): string {
  const sharded = shard === undefined ? {} : { shard: { index: shard.index, count: shard.count } };
  return JSON.stringify({ type: 'tournament', version: RESULTS_VERSION, params: canonicalParams(params), ...sharded }) + '\n';
}

/** The most a header line may take: its agents' names and options (thousands of agents fit). */
export const HEADER_LINE_MAX_BYTES = 4 * 1024 * 1024;

/**
 * A file's first line, read up to its newline only: the header of a results file of millions of
 * games is all a standings page or a shard's check needs, and reading the whole file for it cost
 * the file's size in memory.
 */
function readFirstLine(file: string): string {
  const fd = openSync(file, 'r');
  try {
    const chunks: Buffer[] = [];
    let total = 0;
    const chunk = Buffer.alloc(64 * 1024);
    for (;;) {
      const n = readSync(fd, chunk, 0, chunk.length, total);
      if (n === 0) break;
      const newline = chunk.subarray(0, n).indexOf(0x0a);
      chunks.push(Buffer.from(chunk.subarray(0, newline === -1 ? n : newline)));
      total += n;
      if (newline !== -1) break;
      if (total > HEADER_LINE_MAX_BYTES) throw located(file, 1, `the header line is longer than ${HEADER_LINE_MAX_BYTES / 1024 / 1024} MB: expected a header line {"type":"tournament","version":1,"params":{…}}`);
    }
    return Buffer.concat(chunks).toString('utf8');
  } finally {
    closeSync(fd);
  }
}

/** A results file's header: the tournament's parameters and, for a shard's file, which shard. */
export function readResultsHeader(file: string): { params: TournamentParams; shard?: ShardSpec } {
  const first = readFirstLine(file);
  if (first.trim() === '') throw located(file, 1, 'empty: expected a header line {"type":"tournament","version":1,"params":{…}}');
  const header = parseLine(file, 1, first, headerSchema, 'a header line {"type":"tournament","version":1,"params":{…}}');
  return { params: header.params, ...(header.shard !== undefined ? { shard: header.shard } : {}) };
}

export function gameLine(g: PlayedGame): string {
  // A fixed key order keeps files diffable between runs; times rounded to 0.1 ms.
  const { index, A, B, first, winner, score, moves, openingPlies, forfeit } = g;
  const ms = (t: [number, number]): [number, number] => [Math.round(t[0] * 10) / 10, Math.round(t[1] * 10) / 10];
  return (
    JSON.stringify({
      type: 'game',
      index,
      A,
      B,
      first,
      winner,
      score,
      moves,
      openingPlies,
      forfeit,
      time: ms(g.time),
      ...(g.decisions !== undefined ? { decisions: g.decisions } : {}),
      ...(g.maxMoveMs !== undefined ? { maxMoveMs: ms(g.maxMoveMs) } : {}),
      ...(g.randomMoves !== undefined ? { randomMoves: g.randomMoves } : {}),
      ...(g.deadlineMoves !== undefined ? { deadlineMoves: g.deadlineMoves } : {}),
      ...(g.startPosition !== undefined ? { startPosition: g.startPosition } : {}),
      ...(g.truncated === true ? { truncated: true } : {}),
    }) + '\n'
  );
}

/** Opens (or starts) `<dir>/results.jsonl` for this tournament (or for its shard `shard`, whose games alone it holds). */
export function openResults(dir: string, params: TournamentParams, schedule: readonly ScheduledGame[], shard?: ShardSpec): ResultsStore {
  if (existsSync(dir) && !statSync(dir).isDirectory()) throw new UserError(`--out ${dir}: not a folder`);
  try {
    mkdirSync(dir, { recursive: true });
  } catch (e) {
    throw new UserError(`--out ${dir}: cannot create the folder (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
  const file = join(dir, RESULTS_FILE);
  const notes: string[] = [];
  const recorded = existsSync(file) ? readResults(file, params, schedule, notes, shard === undefined ? {} : { shard }) : new Map<number, PlayedGame>();
  const writer = appendJsonLines(file, headerLine(params, shard));
  return {
    file,
    recorded,
    notes,
    append(game) {
      writer.append(gameLine(game));
    },
    close() {
      writer.close();
    },
  };
}

/** How readResults reads: the shard the file must be (none: a whole tournament's), and whether it may repair the file. */
export interface ReadResultsOptions {
  shard?: ShardSpec;
  /** default true: a torn last line is cut off the file (false: only left out, for a reader such as mancala merge) */
  repair?: boolean;
}

/**
 * Reads an existing results file; may truncate a torn last line (or add the newline a complete
 * last line lacks) so that appending continues a well-formed file.
 */
export function readResults(
  file: string,
  params: TournamentParams,
  schedule: readonly ScheduledGame[],
  notes: string[] = [],
  options: ReadResultsOptions = {},
): Map<number, PlayedGame> {
  const repair = options.repair !== false;
  const { lines: numbered, tornLine } = readJsonLines(file, { repair });
  const lines = numbered.map((l) => l.text);
  if (tornLine !== undefined) notes.push(`${file}:${tornLine}: dropped a last line cut short (an interrupted run); its game is ${repair ? 'played again' : 'left out'}`);
  const recorded = new Map<number, PlayedGame>();
  const lineOf = new Map<number, number>();
  if (lines.length === 0) return recorded;

  const header = parseLine(file, 1, lines[0]!, headerSchema, 'a header line {"type":"tournament","version":1,"params":{…}}');
  const differences = describeDifferences(header.params, params);
  if (differences !== '') {
    throw new UserError(
      `${file} records a different tournament (${differences}): rerun with the same parameters to resume it, or choose another --out folder`,
    );
  }
  const problem = shardProblem(file, header.shard, options.shard);
  if (problem !== undefined) throw new UserError(problem);
  for (let k = 1; k < lines.length; k++) {
    const lineNo = k + 1;
    const line = lines[k]!;
    if (line.trim() === '') continue;
    const g = parseLine(file, lineNo, line, gameSchema, 'a game line {"type":"game","index":…}');
    const planned = schedule[g.index - 1];
    if (planned === undefined) throw located(file, lineNo, `game ${g.index} is not in the schedule (it has games 1 to ${schedule.length})`);
    if (options.shard !== undefined && !inShard(g.index - 1, options.shard)) throw located(file, lineNo, `game ${g.index} is not one of shard ${shardLabel(options.shard)}'s games`);
    if (planned.A !== g.A || planned.B !== g.B || planned.first !== g.first) {
      throw located(file, lineNo, `game ${g.index} is recorded as ${g.A} vs ${g.B} (first ${g.first}), but the schedule has ${planned.A} vs ${planned.B} (first ${planned.first})`);
    }
    const earlier = lineOf.get(g.index);
    if (earlier !== undefined) throw located(file, lineNo, `game ${g.index} is recorded twice (also on line ${earlier})`);
    lineOf.set(g.index, lineNo);
    const { type: _type, ...game } = g;
    recorded.set(g.index, game as PlayedGame);
  }
  return recorded;
}

/** Why a file whose header records shard `recorded` (none: the whole tournament) cannot be resumed as `now`. */
function shardProblem(file: string, recorded: ShardSpec | undefined, now: ShardSpec | undefined): string | undefined {
  if (recorded === undefined && now === undefined) return undefined;
  if (recorded !== undefined && now !== undefined && recorded.index === now.index && recorded.count === now.count) return undefined;
  if (recorded === undefined) return `${file} records this tournament whole, not a shard: --shard ${shardLabel(now!)} needs another --out folder`;
  const label = shardLabel(recorded);
  if (now === undefined) return `${file} records shard ${label} of this tournament: rerun with --shard ${label} to resume it, merge the shards with mancala merge, or choose another --out folder`;
  return `${file} records shard ${label} of this tournament, not --shard ${shardLabel(now)}: give each shard its own --out folder`;
}
