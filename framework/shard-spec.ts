/**
 * `--shard i/n`: which share of a run's work one machine (or CI job) does. A run's units of work
 * (submissions for grade, csci561-grade and gauntlet; cases for check; scheduled games for a
 * tournament) are numbered in the run's own order, and unit k (0-based) belongs to shard
 * (k mod n) + 1: shards take turns, so each gets an even share of early and late, cheap and dear
 * units, and which shard does what never depends on the machine or on time. Nothing else changes:
 * every seed is the unsharded run's, so a unit played in shard 2 of 3 is the same as in one run.
 *
 * Low in the layers (it imports nothing): the tournaments' runner, the grading commands and
 * framework/shards/ (merging) all use it.
 */

export interface ShardSpec {
  /** 1-based: this shard's number */
  index: number;
  /** how many shards the run is split into */
  count: number;
}

/** The most shards a run may be split into. */
export const MAX_SHARDS = 10_000;

/** "2/3" → { index: 2, count: 3 }; anything else → the reason, to be shown after the flag. */
export function parseShardSpec(text: string): ShardSpec | { error: string } {
  const m = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(text);
  const expected = `expected i/n (shard i of n, 1 ≤ i ≤ n ≤ ${MAX_SHARDS}, e.g. 2/3)`;
  if (m === null) return { error: `${expected}, got "${text}"` };
  const index = Number(m[1]);
  const count = Number(m[2]);
  if (count < 1 || count > MAX_SHARDS) return { error: `${expected}, got ${count} shards` };
  if (index < 1 || index > count) return { error: `${expected}: there is no shard ${index} of ${count}` };
  return { index, count };
}

/** "2/3" */
export function shardLabel(s: ShardSpec): string {
  return `${s.index}/${s.count}`;
}

/** Whether the unit at 0-based position `k` of the run belongs to shard `s`. */
export function inShard(k: number, s: ShardSpec): boolean {
  return k % s.count === s.index - 1;
}

/** The units of shard `s` (all of them without a shard), in the run's order. */
export function shardItems<T>(items: readonly T[], s: ShardSpec | undefined): T[] {
  return s === undefined ? [...items] : items.filter((_, k) => inShard(k, s));
}
