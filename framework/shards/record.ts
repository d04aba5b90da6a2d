/**
 * The shard record: what a shard's reports say about it, so that `mancala merge` can put the
 * shards of one run back together, and refuse anything else. In a JSON report it is the `shard`
 * field, right after `version`:
 *
 *   {"version": 1, "shard": {"index": 2, "count": 3, "command": "grade", "run": "3f9a1c2b7d4e",
 *    "identity": {"suite": "Kalah basics (sha256 …)", "submissions": […], "--time-limit": null, …},
 *    "units": ["agents/examples/bob"], "runNotes": […], "kinds": […]}, "suite": …, …}
 *
 * A tournament shard's results.jsonl says `"shard": {"index": 2, "count": 3}` in its header (its
 * parameters are its identity), and its standings JSON carries the whole record. Without a
 * `shard` field a report is an ordinary run's, and every reader of the report schema reads it as
 * before; a merged report has none.
 */
import * as z from 'zod';
import { shardLabel, type ShardSpec } from '../shard-spec.ts';
import { runId, SHARDED_COMMANDS, type RunIdentity, type ShardedCommand } from './identity.ts';

export interface ShardRecord extends ShardSpec {
  command: ShardedCommand;
  /** the run's id: a digest of the command and its identity (identity.ts) */
  run: string;
  identity: RunIdentity;
  /**
   * this shard's units of work, in the run's order: submission paths (grade, csci561-grade,
   * gauntlet), `K:CASE` for check (K the suite's 1-based place in identity.suites), game numbers
   * for a tournament
   */
  units: string[];
  /** grade, csci561-grade, gauntlet: the run's notes before those about common failures, which a merge works out again over every submission */
  runNotes?: string[];
  /** grade, csci561-grade, gauntlet: each unit's kind (language or runtime), for the common-failure warning; null: not a student's */
  kinds?: (string | null)[];
  /** check: each unit's share of its category's weight, unrounded, so that merged totals add up as in one run */
  shares?: number[];
  /** check: the 1-based suite (identity.suites) of each report in the file's `reports` */
  suites?: number[];
}

const identityValue = z.union([z.string(), z.number(), z.boolean(), z.null(), z.array(z.union([z.string(), z.number()]))]);

export const shardRecordSchema = z
  .strictObject(
    {
      index: z.int({ error: 'expected a whole number ≥ 1' }).min(1, { error: 'expected a whole number ≥ 1' }),
      count: z.int({ error: 'expected a whole number ≥ 1' }).min(1, { error: 'expected a whole number ≥ 1' }),
      command: z.enum(SHARDED_COMMANDS, { error: `expected one of ${SHARDED_COMMANDS.join(', ')}` }),
      run: z.string({ error: 'expected the run id (a string)' }),
      identity: z.record(z.string(), identityValue, { error: 'expected the run identity {"key": value, …}' }),
      units: z.array(z.string(), { error: 'expected a list of strings' }),
      runNotes: z.array(z.string(), { error: 'expected a list of strings' }).optional(),
      kinds: z.array(z.string().nullable(), { error: 'expected a list of strings or null' }).optional(),
      shares: z.array(z.number(), { error: 'expected a list of numbers' }).optional(),
      suites: z.array(z.int().min(1), { error: 'expected a list of whole numbers ≥ 1' }).optional(),
    },
    { error: 'expected a shard record {"index", "count", "command", "run", "identity", "units", …}' },
  )
  .refine((r) => r.index <= r.count, { error: 'index: expected a shard number ≤ count' });

/** A record for shard `shard` of a run of `command` with `identity`. */
export function shardRecord(command: ShardedCommand, shard: ShardSpec, identity: RunIdentity, units: readonly string[], extra: Pick<ShardRecord, 'runNotes' | 'kinds' | 'shares' | 'suites'> = {}): ShardRecord {
  return { index: shard.index, count: shard.count, command, run: runId(command, identity), identity, units: [...units], ...extra };
}

/** "shard 2/3 of run 3f9a1c2b7d4e (mancala grade)" */
export function describeShard(r: ShardRecord): string {
  return `shard ${shardLabel(r)} of run ${r.run} (mancala ${r.command})`;
}

/**
 * The note a shard's report carries (console, Gradescope's output, JUnit's properties): which
 * shard of which run, what it did, and how the shards come together.
 */
export function shardNote(r: ShardRecord, did: string): string {
  return `${describeShard(r)}: ${did}; merge every shard's --json report with mancala merge`;
}

/** A JSON report's text with the record as its `shard` field, right after `version` (2-space indent, as the reports). */
export function withShardField(json: string, record: ShardRecord): string {
  const { version, ...rest } = JSON.parse(json) as { version: unknown } & Record<string, unknown>;
  return `${JSON.stringify({ version, shard: record, ...rest }, null, 2)}\n`;
}
