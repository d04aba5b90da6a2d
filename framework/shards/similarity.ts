/**
 * A shard of `mancala similarity` (--shard i/n --json FILE) and its merge. The shard's file is
 * its part of the run as the report is made of it (similarity/run.ts): every n-th pair's source,
 * compared by this shard, and every n-th submission's behaviour fingerprint, taken by this shard:
 *
 *   {"version": 1, "shard": {…, "command": "similarity", "units": [its submissions]},
 *    "similarity": {…}, "submissions": […], "asked": […], "pairs": [{"a", "b", "source", …}],
 *    "fingerprints": [{"submission", "role", "answers": […]}] | null, "notes": […]}
 *
 * The merge assembles the report from the shards' parts with the code the unsharded run uses, so
 * it is the same report. A missing shard's pairs are not in the merge (--allow-missing), and its
 * submissions' behaviour is not compared: the report says which.
 */
import { UserError } from '../errors.ts';
import { shardItems, shardLabel } from '../shard-spec.ts';
import { parseWith, type SimilarityReport } from '../similarity/report.ts';
import { assembleReport, partSchema, runPairs, type SimilarityPart } from '../similarity/run.ts';
import type { RunIdentity } from './identity.ts';
import type { ShardRecord } from './record.ts';

/** A shard of similarity as `mancala merge` reads it (read.ts): its part of the run. */
export interface SimilarityShard {
  kind: 'similarity';
  /** the path as given */
  given: string;
  record: ShardRecord;
  part: SimilarityPart;
}

/** The shards of one run, checked (merge.ts's ShardSet). */
interface SimilarityShardSet {
  count: number;
  identity: RunIdentity;
  shards: SimilarityShard[];
  missing: number[];
}

/** A shard's JSON file: its record after `version`, then its part. */
export function similarityShardJson(part: SimilarityPart, record: ShardRecord): string {
  return `${JSON.stringify({ version: 1, shard: record, ...part }, null, 2)}\n`;
}

/** The part a shard's file holds (`rest`: the file less `shard`), checked: one line naming the file and field. */
export function parseSimilarityPart(given: string, rest: Record<string, unknown>): SimilarityPart {
  const { version, ...part } = rest;
  if (version !== 1) throw new UserError(`${given}: field "version": expected 1`);
  return parseWith(partSchema, part, given) as SimilarityPart;
}

const pairKey = (a: string, b: string) => JSON.stringify([a, b]);

export interface MergedSimilarity {
  report: SimilarityReport;
  /** pairs not in the merge (missing shards), as "a | b" */
  absent: string[];
}

export function mergeSimilarityShards(set: SimilarityShardSet): MergedSimilarity {
  const submissions = (set.identity['submissions'] as string[] | undefined) ?? [];
  const all = runPairs(submissions);
  for (const s of set.shards) {
    // Each shard holds exactly its own pairs, and fingerprints of its own submissions only.
    const expected = shardItems(all, s.record).map(([a, b]) => pairKey(a, b));
    const got = s.part.pairs.map((p) => pairKey(p.a, p.b));
    if (JSON.stringify(expected) !== JSON.stringify(got)) {
      throw new UserError(`${s.given}: its pairs (${got.length}) are not those of shard ${shardLabel(s.record)} of its run (${expected.length}): use the file as its run wrote it`);
    }
    const stranger = (s.part.fingerprints ?? []).find((f) => !s.record.units.includes(f.submission));
    if (stranger !== undefined) throw new UserError(`${s.given}: a fingerprint of ${stranger.submission}, which is not its shard's`);
  }
  const present = new Set(set.shards.map((s) => s.record.index));
  const absent = all.filter((_, k) => !present.has((k % set.count) + 1)).map(([a, b]) => `${a} | ${b}`);
  const notes =
    set.missing.length === 0
      ? []
      : [`incomplete: shard${set.missing.length === 1 ? '' : 's'} ${set.missing.map((k) => `${k}/${set.count}`).join(', ')} not merged (--allow-missing): ${absent.length} pairs are not in this report`];
  const unmerged = `its shard (${set.missing.map((k) => `${k}/${set.count}`).join(', ')}) is not merged`;
  return { report: assembleReport(set.shards.map((s) => s.part), notes, unmerged), absent };
}
