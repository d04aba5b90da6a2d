/**
 * Source similarity with Dolos (Ghent University's Dodona team; dolos-index.ts): each
 * submission's compared text is parsed by tree-sitter (WebAssembly) into tokens, winnowed into fingerprints
 * (k-grams of 23 tokens), and two submissions are as similar as the share of their fingerprints
 * they share, the template's (the starter code every student was given) left out of both. Names,
 * layout and comments do not count: a renamed, reformatted copy scores as the original.
 *
 * Dolos parses, it runs nothing: this runs in the grader's process. Submissions are compared
 * within a language (Dolos tokenizes one language at a time); a pair in two languages is not.
 *
 * Dolos is loaded when first used, not with the command line: every command's module is loaded for
 * `mancala --help`, and a parser is a WebAssembly module to compile.
 *
 * Dolos's own similarity subtracts the first file's ignored fingerprints twice (3.5.1's Pair):
 * the share is worked out here from its counts, each side's ignored k-grams its own.
 */
import type { File, Pair, TokenizedFile } from '@dodona/dolos-core';
import { analyze, makeFile, type DolosIndex } from './dolos-index.ts';
import { UserError } from '../errors.ts';
import { roundScore, type FragmentSide, type SimilarityPair, type SourceFragment } from './report.ts';
import { templateText, type SourceText, type SubmissionSource, type TemplateSource } from './source-files.ts';

/** Pairs at least this similar keep their fragments (every pair below would fill the report with chance matches of a few lines). */
export const FRAGMENTS_FROM = 0.3;
/** Fragments kept a pair: the longest. */
const MAX_FRAGMENTS = 20;
/** Lines of a fragment's text kept a side. */
const MAX_FRAGMENT_LINES = 60;

/** One pair's source part: what Dolos says of it. */
export type SourcePair = Pick<SimilarityPair, 'a' | 'b' | 'source' | 'longest' | 'fragments'> & { note?: string };

/** The submissions indexed by Dolos, one index a language, to be asked pair by pair. */
export interface SourceIndex {
  pair(a: string, b: string): SourcePair;
  /** per language: the template's note (none in that language, or how much it holds) */
  notes: string[];
}

interface Indexed {
  file: TokenizedFile;
  text: SourceText;
  report: DolosIndex;
  /** the submission's k-grams that are the template's (counted once per file, on first use) */
  ignored?: number;
}

/** Indexes every submission that has a source, a Dolos index per language (the template passed to each). */
export async function indexSources(subs: readonly SubmissionSource[], template: TemplateSource): Promise<SourceIndex> {
  const byLanguage = new Map<string, SubmissionSource[]>();
  for (const s of subs) if (s.source !== undefined) byLanguage.set(s.source.language, [...(byLanguage.get(s.source.language) ?? []), s]);
  const indexed = new Map<string, Indexed>();
  const notes: string[] = [];
  for (const [language, group] of [...byLanguage].sort((x, y) => x[0].localeCompare(y[0]))) {
    const ignored = templateText(template, language);
    if (ignored === undefined && template.files.length > 0) notes.push(`${language}: the template (${template.describe}) has no ${language} file: nothing is ignored in ${language} submissions`);
    // Dolos compares two files or more; a lone submission in its language has no pair to be in.
    if (group.length < 2) continue;
    const files: File[] = await Promise.all(group.map((s) => makeFile(s.path, s.source!.text)));
    let report: DolosIndex;
    try {
      report = await analyze(language, files, ignored === undefined ? undefined : await makeFile(`template.${language}`, ignored));
    } catch (e) {
      if (e instanceof UserError) throw e;
      throw new UserError(`Dolos could not compare the ${language} submissions: ${(e as Error).message}`);
    }
    const tokenized = new Map(report.files.map((f) => [f.path, f]));
    for (const s of group) indexed.set(s.path, { file: tokenized.get(s.path)!, text: s.source!, report });
  }
  const languageOf = new Map(subs.map((s) => [s.path, s.source?.language]));
  return {
    notes,
    pair(a, b) {
      const la = languageOf.get(a);
      const lb = languageOf.get(b);
      if (la === undefined || lb === undefined) {
        const none = [a, b].filter((p) => languageOf.get(p) === undefined);
        return { a, b, source: null, longest: null, fragments: [], note: `not compared by source: ${none.join(' and ')} ${none.length === 1 ? 'has' : 'have'} no source Dolos parses` };
      }
      if (la !== lb) return { a, b, source: null, longest: null, fragments: [], note: `not compared by source: ${la} and ${lb}` };
      return comparePair(a, b, indexed.get(a)!, indexed.get(b)!);
    },
  };
}

/** How many of `x`'s k-grams are the template's. */
function ignoredKgrams(x: Indexed, pair: Pair, left: boolean): number {
  if (x.ignored === undefined) {
    const entry = left ? pair.leftEntry : pair.rightEntry;
    let n = 0;
    for (const shared of entry.ignored) n += shared.occurrencesOf(x.file).length;
    x.ignored = n;
  }
  return x.ignored;
}

function comparePair(a: string, b: string, xa: Indexed, xb: Indexed): SourcePair {
  const pair = xa.report.index.getPair(xa.file, xb.file);
  const total = pair.leftTotal + pair.rightTotal - ignoredKgrams(xa, pair, true) - ignoredKgrams(xb, pair, false);
  const source = total > 0 ? roundScore(Math.min(1, (pair.leftCovered + pair.rightCovered) / total)) : 0;
  const fragments = source >= FRAGMENTS_FROM ? fragmentsOf(pair, xa.text, xb.text) : [];
  return { a, b, source, longest: pair.longest, fragments };
}

function fragmentsOf(pair: Pair, ta: SourceText, tb: SourceText): SourceFragment[] {
  return pair
    .buildFragments()
    .map((f) => ({ kgrams: f.pairs.length, left: f.leftSelection, right: f.rightSelection }))
    .sort((x, y) => y.kgrams - x.kgrams || x.left.startRow - y.left.startRow)
    .slice(0, MAX_FRAGMENTS)
    .map((f) => ({ a: sideOf(ta, f.left.startRow, f.left.endRow), b: sideOf(tb, f.right.startRow, f.right.endRow), kgrams: f.kgrams }));
}

/** Each compared text's lines, split once (a submission's text is in a pair with every other). */
const LINES = new WeakMap<SourceText, string[]>();

/** Rows of the compared text (0-based) as a file's lines (1-based), within the file the fragment starts in. */
export function sideOf(t: SourceText, startRow: number, endRow: number): FragmentSide {
  const part = [...t.parts].reverse().find((p) => p.firstRow <= startRow) ?? t.parts[0]!;
  const last = part.firstRow + Math.max(part.lines, 1) - 1;
  const end = Math.min(Math.max(endRow, startRow), last);
  let all = LINES.get(t);
  if (all === undefined) LINES.set(t, (all = t.text.split('\n')));
  const lines = all.slice(startRow, end + 1);
  const text = lines.length > MAX_FRAGMENT_LINES ? [...lines.slice(0, MAX_FRAGMENT_LINES), '…'].join('\n') : lines.join('\n');
  return { file: part.file, start: startRow - part.firstRow + 1, end: end - part.firstRow + 1, text };
}
