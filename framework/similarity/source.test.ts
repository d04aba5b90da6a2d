/**
 * Source similarity on submissions of the project's own (testcases/fixtures/similarity/): in each
 * of Java, Python and C++, a minimax or alpha-beta program and its copy with every name changed,
 * reformatted and commented anew, among unrelated programs for the same task (greedy players
 * written differently); two submissions that share only the course's given code; a folder of
 * notes; a Ruby program Dolos does not parse. Real Dolos, real tree-sitter parsers.
 */
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import type { SimilarityReport } from './report.ts';
import { assembleReport, computeSimilarity } from './run.ts';
import { sideOf } from './source.ts';
import { readSubmissionSource, sourceText } from './source-files.ts';

const fixtures = resolve(dirname(fileURLToPath(import.meta.url)), '../../testcases/fixtures/similarity');
const at = (name: string) => join(fixtures, name);
const names = (r: SimilarityReport, k: number) => [r.pairs[k]!.a, r.pairs[k]!.b].map((p) => p.slice(fixtures.length + 1));

async function compare(subs: string[], extra: { ignore?: string; rules?: string } = {}): Promise<SimilarityReport> {
  return assembleReport([await computeSimilarity({ submissions: subs.map(at), rules: extra.rules ?? 'kalah', ...(extra.ignore !== undefined ? { ignore: at(extra.ignore) } : {}) })]);
}

describe('source similarity (Dolos)', () => {
  let r: SimilarityReport;
  beforeAll(async () => {
    // The copies are not next to their originals in the class list: ranking, not order, must find them.
    r = await compare(['java-alice', 'python-dan', 'cpp-gus', 'java-carol', 'python-fay', 'cpp-ivy', 'java-bob', 'python-erin', 'cpp-hal', 'notes-only', 'ruby-kim']);
  });

  it('ranks the renamed, reformatted copy first in Java, Python and C++, far above the unrelated pairs', () => {
    const top = [0, 1, 2].map((k) => names(r, k).sort().join(' '));
    expect(new Set(top)).toEqual(new Set(['java-alice java-bob', 'python-dan python-erin', 'cpp-gus cpp-hal']));
    for (const k of [0, 1, 2]) expect(r.pairs[k]!.source).toBeGreaterThan(0.9);
    // Every other pair compared by source is unrelated code for the same task.
    for (const p of r.pairs.slice(3)) expect(p.source ?? 0).toBeLessThan(0.2);
  });

  it("shows a copy's matching fragments side by side, with each side's own file and lines", () => {
    const java = r.pairs.find((p) => p.a.endsWith('java-alice') && p.b.endsWith('java-bob'))!;
    expect(java.fragments.length).toBeGreaterThan(0);
    const f = java.fragments[0]!;
    expect(f.a.file).toBe('mancala.java');
    expect(f.b.file).toBe('mancala.java');
    // The copy is reformatted (a brace a line): the same code spans more of its lines.
    expect(f.b.end - f.b.start).toBeGreaterThan(f.a.end - f.a.start);
    expect(f.a.text).toContain('static int minimax(int[] board, int depth, boolean max)');
    expect(f.b.text).toContain('static int search(int[] state, int plies, boolean maximizing)');
    // Unrelated pairs carry no fragments.
    expect(r.pairs.find((p) => p.a.endsWith('java-alice') && p.b.endsWith('java-carol'))!.fragments).toEqual([]);
  });

  it('compares within a language only, and lists the folders it cannot compare, naming a language Dolos does not parse', () => {
    const cross = r.pairs.find((p) => p.a.endsWith('java-alice') && p.b.endsWith('python-dan'))!;
    expect(cross.source).toBeNull();
    expect(cross.note).toContain('not compared by source: java and python');
    const notes = r.submissions.find((s) => s.path.endsWith('notes-only'))!;
    expect(notes.language).toBeNull();
    expect(notes.note).toBe('no source file of a language Dolos parses (found only notes.txt); not compared');
    const ruby = r.submissions.find((s) => s.path.endsWith('ruby-kim'))!;
    expect(ruby.note).toBe('Ruby (mancala.rb): a language Dolos does not parse; not compared');
    expect(r.submissions.find((s) => s.path.endsWith('cpp-hal'))).toMatchObject({ language: 'cpp', files: ['mancala.cpp'] });
  });

  it('leaves the starter code out: a pair sharing only the given code scores low, and high when nothing is ignored', async () => {
    const ignored = await compare(['starter-sam', 'starter-tom', 'python-dan'], { ignore: 'starter' });
    const withStarter = await compare(['starter-sam', 'starter-tom', 'python-dan']);
    const pair = (x: SimilarityReport) => x.pairs.find((p) => p.a.endsWith('starter-sam') && p.b.endsWith('starter-tom'))!;
    expect(pair(withStarter).source).toBeGreaterThan(0.7);
    expect(pair(ignored).source).toBeLessThan(0.1);
    expect(ignored.similarity.template).toBe(at('starter'));
  });

  it("takes the course's starter by default, and says when it has no file of a submission's language", async () => {
    const csci561 = await compare(['java-alice', 'java-bob'], { rules: 'csci561' });
    expect(csci561.similarity.template).toMatch(/^the csci561 starter \(/);
    expect(csci561.notes ?? []).toEqual([]);
    const kalah = await compare(['java-alice', 'java-bob']);
    expect(kalah.notes).toEqual([expect.stringMatching(/^java: the template \(the kalah starter .*\) has no java file: nothing is ignored in java submissions$/)]);
  });
});

describe('the compared text', () => {
  it("maps a fragment's rows back to its file and lines, within the file it starts in", () => {
    const s = readSubmissionSource(at('starter-sam'), undefined).source!;
    expect(s.files).toEqual(['game.py', 'player.py']);
    const game = s.parts[0]!.lines;
    expect(sideOf(s, game + 1, game + 3)).toMatchObject({ file: 'player.py', start: 2, end: 4 });
    // A fragment running over the end of game.py stops at its last line.
    expect(sideOf(s, game - 2, game + 3)).toMatchObject({ file: 'game.py', start: game - 1, end: game });
    expect(sourceText(at('java-alice'), ['mancala.java'], 'java').parts).toEqual([{ file: 'mancala.java', firstRow: 0, lines: 66 }]);
  });
});
