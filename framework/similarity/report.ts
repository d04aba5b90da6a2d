/**
 * The similarity report: what `mancala similarity --json FILE` writes, `mancala merge` puts
 * together from shards, and the CSV, the HTML page and the web app's Reports page show.
 *
 *   {"version": 1,
 *    "similarity": {"rules", "language", "template", "behaviour": {"positions", "seed"} | null},
 *    "submissions": [{"path", "language", "files", "lines", "note"?, "behaviourFailure"?}, …],
 *    "pairs": [{"a", "b", "signal", "source", "behaviour", "sameValue", "sameNodes",
 *               "expectedAgreement", "longest", "fragments": [{"a": {"file", "start", "end", "text"},
 *               "b": {…}, "kgrams"}], "note"?}, …],
 *    "notes"?: […]}
 *
 * Pairs are ranked by their strongest signal: the larger of the source similarity and the
 * behaviour agreement, the latter counted only where agreement is not expected (two correct
 * searches agree by construction). Lines are 1-based, both ends included.
 */
import * as z from 'zod';
import { UserError } from '../errors.ts';
import { formatPath } from '../field-path.ts';
import { studentPath, studentText } from '../student-text.ts';

export interface FragmentSide {
  file: string;
  start: number;
  end: number;
  /** the lines, as the submission has them (at most MAX_FRAGMENT_LINES, then "…") */
  text: string;
}

export interface SourceFragment {
  a: FragmentSide;
  b: FragmentSide;
  /** the shared fingerprints (k-grams of tokens) it is made of: its length, in Dolos's unit */
  kgrams: number;
}

export interface SimilarityPair {
  a: string;
  b: string;
  /** what the pairs are ranked by: the strongest of the signals below */
  signal: number;
  /** Dolos's similarity over the compared files, 0..1; null: not compared (see note) */
  source: number | null;
  /** share of positions where both chose the same move; null: not compared */
  behaviour: number | null;
  sameValue: number | null;
  sameNodes: number | null;
  /** set when agreement is expected rather than suspicious */
  expectedAgreement: string | null;
  /** the longest shared fragment, in k-grams; null when the source was not compared */
  longest: number | null;
  /** the matching fragments side by side, longest first (kept for pairs of some similarity: FRAGMENTS_FROM) */
  fragments: SourceFragment[];
  note?: string;
}

export interface SimilaritySubmission {
  path: string;
  /** the language compared (Dolos's name); null: none */
  language: string | null;
  files: string[];
  lines: number;
  /** why it is not compared, or what of it is left out */
  note?: string;
  /** why it could not be fingerprinted by its behaviour */
  behaviourFailure?: string;
}

export interface SimilarityRun {
  rules: string;
  /** --language, or null: each submission's main language */
  language: string | null;
  /** the code not counted: where it came from */
  template: string;
  /** null: --no-behaviour */
  behaviour: { positions: number; seed: number } | null;
}

export interface SimilarityReport {
  version: 1;
  similarity: SimilarityRun;
  submissions: SimilaritySubmission[];
  pairs: SimilarityPair[];
  notes?: string[];
}

/** Scores keep four decimals: enough to rank, and the same in a merged run as in one. */
export function roundScore(x: number): number {
  return Math.round(x * 1e4) / 1e4;
}

/** The strongest signal of a pair: source, or behaviour where agreement is not expected. */
export function signalOf(p: Pick<SimilarityPair, 'source' | 'behaviour' | 'expectedAgreement'>): number {
  const behaviour = p.expectedAgreement === null ? (p.behaviour ?? 0) : 0;
  return Math.max(p.source ?? 0, behaviour);
}

/** Strongest first; ties by source, then in the run's order (a, then b), so the order never depends on timing. */
export function rankPairs(pairs: SimilarityPair[], order: ReadonlyMap<string, number>): SimilarityPair[] {
  const at = (s: string) => order.get(s) ?? Number.MAX_SAFE_INTEGER;
  return [...pairs].sort((x, y) => y.signal - x.signal || (y.source ?? -1) - (x.source ?? -1) || at(x.a) - at(y.a) || at(x.b) - at(y.b));
}

/**
 * The report with every string a student controls (folder and file names, their source's lines,
 * why a submission could not be run) terminal-safe (student-text.ts): the console, the CSV, the
 * JSON and the HTML are written from it. Idempotent, so a merge of merged reports is unchanged.
 */
export function terminalSafeReport(r: SimilarityReport): SimilarityReport {
  const side = (s: FragmentSide): FragmentSide => ({ ...s, file: studentPath(s.file), text: studentText(s.text) });
  const note = (n: string | undefined) => (n === undefined ? {} : { note: studentText(n) });
  return {
    ...r,
    submissions: r.submissions.map((s) => ({
      ...s,
      path: studentPath(s.path),
      files: s.files.map(studentPath),
      ...note(s.note),
      ...(s.behaviourFailure !== undefined ? { behaviourFailure: studentText(s.behaviourFailure) } : {}),
    })),
    pairs: r.pairs.map((p) => ({ ...p, a: studentPath(p.a), b: studentPath(p.b), fragments: p.fragments.map((f) => ({ ...f, a: side(f.a), b: side(f.b) })), ...note(p.note) })),
    ...(r.notes !== undefined ? { notes: r.notes.map((n) => studentText(n)) } : {}),
  };
}

/** The report as its file holds it (2-space indent, a newline at the end). */
export function similarityJson(report: SimilarityReport): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}

const score = z.number().min(0).max(1).nullable();
const side = z.strictObject({ file: z.string(), start: z.int().min(1), end: z.int().min(1), text: z.string() });
export const pairSchema = z.strictObject({
  a: z.string(),
  b: z.string(),
  signal: z.number().min(0).max(1),
  source: score,
  behaviour: score,
  sameValue: score,
  sameNodes: score,
  expectedAgreement: z.string().nullable(),
  longest: z.int().min(0).nullable(),
  fragments: z.array(z.strictObject({ a: side, b: side, kgrams: z.int().min(0) })),
  note: z.string().optional(),
});
export const submissionSchema = z.strictObject({
  path: z.string(),
  language: z.string().nullable(),
  files: z.array(z.string()),
  lines: z.int().min(0),
  note: z.string().optional(),
  behaviourFailure: z.string().optional(),
});
export const runSchema = z.strictObject({
  rules: z.string(),
  language: z.string().nullable(),
  template: z.string(),
  behaviour: z.strictObject({ positions: z.int().min(1), seed: z.int() }).nullable(),
});
const reportSchema = z.strictObject({
  version: z.literal(1, { error: 'expected 1' }),
  similarity: runSchema,
  submissions: z.array(submissionSchema),
  pairs: z.array(pairSchema),
  notes: z.array(z.string()).optional(),
});

/** Throws a UserError naming `where` and the field of the first problem. */
export function parseWith<T>(schema: z.ZodType<T>, value: unknown, where: string): T {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const field = issue.path.length === 0 ? '' : ` field "${formatPath(issue.path)}":`;
  throw new UserError(`${where}:${field} ${issue.message}`);
}

/** A similarity report's text, checked: one line naming the file and the field when it is not one. */
export function parseSimilarityReport(text: string, where: string): SimilarityReport {
  let data: unknown;
  try {
    data = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (e) {
    throw new UserError(`${where}: not JSON (${(e as Error).message}): expected a similarity report (mancala similarity --json FILE)`);
  }
  return parseWith(reportSchema, data, where) as SimilarityReport;
}
