/**
 * A similarity run, whole or one shard of it, and the report made from its parts.
 *
 * A run's units are its pairs for source similarity (pair k, in the run's order a<b, belongs to
 * shard (k mod n) + 1: every shard indexes every submission, which is quick, and compares its
 * pairs) and its submissions for behaviour (each shard fingerprints its share: running student
 * code is the dear part). The report is assembled from the parts, all of a run's pairs and
 * fingerprints: the unsharded run assembles its one part, `mancala merge` the shards' parts, by
 * the same code, so the merged report is the whole run's.
 *
 * Behaviour failures are a submission's (listed), never the run's: a submission that cannot be
 * fingerprinted, or fingerprints that cannot be compared, leave the pair's behaviour null.
 */
import * as z from 'zod';
import { courseHandIn } from '../sandbox/submission-presence.ts';
import { shardItems, type ShardSpec } from '../shard-spec.ts';
import { compareFingerprints, fingerprintSubmissions, type BehaviourAgreement, type BehaviourRun, type Fingerprint } from './behaviour.ts';
import { pairSchema, rankPairs, roundScore, runSchema, signalOf, submissionSchema, terminalSafeReport, type SimilarityPair, type SimilarityReport, type SimilarityRun, type SimilaritySubmission } from './report.ts';
import { indexSources, type SourcePair } from './source.ts';
import { readSubmissionSource, templateSource } from './source-files.ts';

export interface SimilarityOptions {
  /** the submission folders, as given, in the run's order */
  submissions: readonly string[];
  rules: string;
  language?: string;
  ignore?: string;
  /** undefined: --no-behaviour */
  behaviour?: Omit<BehaviourRun, 'onProgress'>;
  shard?: ShardSpec;
  onProgress?: (phase: 'source' | 'behaviour', done: number, total: number) => void;
}

/** What a run (or one shard of it) worked out: everything the report is made of. */
export interface SimilarityPart {
  similarity: SimilarityRun;
  /** every submission of the run, with its source */
  submissions: SimilaritySubmission[];
  /** the source of this part's pairs */
  pairs: SourcePair[];
  /** the submissions this part fingerprints (its share of the run) */
  asked: string[];
  /** the behaviour of this part's submissions; null: --no-behaviour */
  fingerprints: Fingerprint[] | null;
  /** why this part's submissions could not be fingerprinted at all (each is listed with it) */
  behaviourError?: string;
  notes: string[];
}

/** A part as a shard's report holds it (shards/similarity.ts reads it with this). */
export const partSchema = z.strictObject({
  similarity: runSchema,
  submissions: z.array(submissionSchema),
  asked: z.array(z.string()),
  pairs: z.array(pairSchema.pick({ a: true, b: true, source: true, longest: true, fragments: true, note: true })),
  // Loose: whatever else a fingerprint records is kept, for compareFingerprints to see in a merge as in the run.
  fingerprints: z
    .array(
      z.looseObject({
        submission: z.string(),
        role: z.string(),
        answers: z.array(z.looseObject({ move: z.string().nullable(), value: z.number().optional(), nodes: z.number().optional() })),
        failure: z.string().optional(),
      }),
    )
    .nullable(),
  behaviourError: z.string().optional(),
  notes: z.array(z.string()),
});

/** Every pair of the run, in its order: (0,1), (0,2), …, (1,2), … */
export function runPairs(submissions: readonly string[]): [string, string][] {
  const out: [string, string][] = [];
  for (let i = 0; i < submissions.length; i++) for (let j = i + 1; j < submissions.length; j++) out.push([submissions[i]!, submissions[j]!]);
  return out;
}

/** The part of shard `o.shard` (the whole run without one): its pairs' source, its submissions' fingerprints. */
export async function computeSimilarity(o: SimilarityOptions): Promise<SimilarityPart> {
  const template = templateSource(o.ignore, o.rules);
  // A folder with nothing to compare says what the course's students hand in (submission-presence.ts), as grading does.
  const handIn = courseHandIn(o.rules);
  const sources = o.submissions.map((s) => {
    const read = readSubmissionSource(s, o.language);
    return read.source === undefined && handIn !== undefined ? { ...read, note: `${read.note}. ${handIn}` } : read;
  });
  const index = await indexSources(sources, template);
  const pairs = shardItems(runPairs(o.submissions), o.shard);
  const compared: SourcePair[] = [];
  for (const [a, b] of pairs) {
    compared.push(index.pair(a, b));
    if (compared.length % 50 === 0 || compared.length === pairs.length) {
      o.onProgress?.('source', compared.length, pairs.length);
      // A class's pairs take a minute: let the progress bar draw and Ctrl-C be heard meanwhile.
      await new Promise((done) => setImmediate(done));
    }
  }
  // Behaviour after source, not beside it: a fingerprint's searches may be timed, and must not share the CPU with Dolos.
  let fingerprints: Fingerprint[] | null = null;
  let behaviourError: string | undefined;
  const mine = shardItems(o.submissions, o.shard);
  if (o.behaviour !== undefined) {
    try {
      fingerprints = await fingerprintSubmissions(mine, { ...o.behaviour, onProgress: (done, total) => o.onProgress?.('behaviour', done, total) });
    } catch (e) {
      fingerprints = [];
      behaviourError = `behaviour fingerprints failed: ${(e as Error).message}`;
    }
  }
  const submissions: SimilaritySubmission[] = sources.map((s) => ({
    path: s.path,
    language: s.source?.language ?? null,
    files: s.source?.files ?? [],
    lines: s.source?.parts.reduce((n, p) => n + p.lines, 0) ?? 0,
    ...(s.note !== undefined ? { note: s.note } : {}),
  }));
  return {
    similarity: {
      rules: o.rules,
      language: o.language ?? null,
      template: template.describe,
      behaviour: o.behaviour === undefined ? null : { positions: o.behaviour.positions, seed: o.behaviour.seed },
    },
    submissions,
    asked: mine,
    pairs: compared,
    fingerprints,
    ...(behaviourError !== undefined ? { behaviourError } : {}),
    notes: index.notes,
  };
}

const NO_AGREEMENT: BehaviourAgreement = { behaviour: null, sameValue: null, sameNodes: null, expectedAgreement: null };

/**
 * The report of a run from all its parts (one, or every shard's): each pair's source and
 * behaviour, ranked by the strongest signal; each submission that could not be fingerprinted
 * listed with why (`unfingerprinted`: why for one no part fingerprinted, e.g. its shard is not merged).
 */
export function assembleReport(parts: readonly SimilarityPart[], extraNotes: readonly string[] = [], unfingerprinted = 'no behaviour fingerprint came back for it'): SimilarityReport {
  const first = parts[0]!;
  const order = new Map(first.submissions.map((s, k) => [s.path, k]));
  const behaviourOn = first.similarity.behaviour !== null;
  const fingerprints = new Map<string, Fingerprint>();
  const failures = new Map<string, string>();
  for (const part of parts) {
    for (const f of part.fingerprints ?? []) {
      fingerprints.set(f.submission, f);
      if (f.failure !== undefined) failures.set(f.submission, f.failure);
    }
  }
  const errors = parts.filter((p) => p.behaviourError !== undefined);
  if (behaviourOn) {
    // A submission no fingerprint came back for: its part's error, or a silence the contract does not allow, said all the same.
    for (const s of first.submissions) {
      if (fingerprints.has(s.path) || failures.has(s.path)) continue;
      const error = errors.find((p) => p.asked.includes(s.path))?.behaviourError;
      failures.set(s.path, error ?? unfingerprinted);
    }
  }
  const pairs: SimilarityPair[] = parts.flatMap((part) =>
    part.pairs.map((p) => {
      const { agreement, note } = behaviourOn ? agreementOf(p.a, p.b, fingerprints, failures) : { agreement: NO_AGREEMENT, note: undefined };
      const notes = [p.note, note].filter((n) => n !== undefined);
      const pair = {
        a: p.a,
        b: p.b,
        signal: 0,
        source: p.source,
        behaviour: roundOrNull(agreement.behaviour),
        sameValue: roundOrNull(agreement.sameValue),
        sameNodes: roundOrNull(agreement.sameNodes),
        expectedAgreement: agreement.expectedAgreement,
        longest: p.longest,
        fragments: p.fragments,
        ...(notes.length > 0 ? { note: notes.join('; ') } : {}),
      };
      return { ...pair, signal: roundScore(signalOf(pair)) };
    }),
  );
  const submissions = first.submissions.map((s) => (failures.has(s.path) ? { ...s, behaviourFailure: failures.get(s.path)! } : s));
  const notes = [...new Set([...parts.flatMap((p) => p.notes), ...errors.map((p) => p.behaviourError!), ...extraNotes])];
  return terminalSafeReport({
    version: 1,
    similarity: first.similarity,
    submissions,
    pairs: rankPairs(pairs, order),
    ...(notes.length > 0 ? { notes } : {}),
  });
}

function roundOrNull(x: number | null): number | null {
  return x === null ? null : roundScore(x);
}

function agreementOf(a: string, b: string, fingerprints: ReadonlyMap<string, Fingerprint>, failures: ReadonlyMap<string, string>): { agreement: BehaviourAgreement; note?: string } {
  const failed = [a, b].filter((s) => failures.has(s));
  if (failed.length > 0) return { agreement: NO_AGREEMENT, note: `behaviour not compared: ${failed.join(' and ')} could not be run` };
  try {
    return { agreement: compareFingerprints(fingerprints.get(a)!, fingerprints.get(b)!) };
  } catch (e) {
    return { agreement: NO_AGREEMENT, note: `behaviour not compared: ${(e as Error).message}` };
  }
}
