/**
 * `mancala similarity` as the command line runs it, on submissions of the project's own
 * (testcases/fixtures/similarity/), source only (--no-behaviour: the behaviour run has its own
 * tests): the JSON, CSV and HTML reports; a run split with --shard i/n and put together by
 * `mancala merge` gives the unsharded run's files byte for byte; the mistakes refused in one line.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runMain } from '../../../testcases/fixtures/run-main.ts';
import { parseSimilarityReport, type SimilarityReport } from '../../similarity/report.ts';
import { assembleReport, type SimilarityPart } from '../../similarity/run.ts';
import { parseSimilarityPart, similarityShardJson } from '../../shards/similarity.ts';
import { shardRecord } from '../../shards/record.ts';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const fixtures = join(root, 'testcases/fixtures/similarity');
const work = mkdtempSync(join(tmpdir(), 'similarity-cli-test-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const at = (name: string) => join(work, name);
const read = (file: string) => readFileSync(file, 'utf8');

const CLASS = ['java-alice', 'python-dan', 'java-carol', 'python-erin', 'java-bob', 'notes-only', 'python-fay'].map((s) => join(fixtures, s));

/** A user's mistake: exit 2, exactly one `mancala: …` line on stderr. */
function expectRefused(r: { code: number; out: string; err: string }, says: string): void {
  expect(r.code, r.err).toBe(2);
  expect(r.err).toMatch(/^mancala: [^\n]+\n$/);
  expect(r.err).toContain(says);
}

describe('mancala similarity', () => {
  let whole: { code: number; out: string; err: string };
  let report: SimilarityReport;
  beforeAll(async () => {
    whole = await runMain(['similarity', ...CLASS, '--no-behaviour', '--no-progress', '--json', at('whole.json'), '--csv', at('whole.csv'), '--html', at('whole.html')]);
    report = parseSimilarityReport(read(at('whole.json')), 'whole.json');
  });

  it('writes the pairs, strongest first, as JSON, one CSV line a pair and an HTML page with the fragments side by side', () => {
    expect(whole.code, whole.err).toBe(0);
    expect(whole.err).toContain(`wrote ${at('whole.json')}, ${at('whole.csv')}, ${at('whole.html')}`);
    expect(report.pairs).toHaveLength((7 * 6) / 2);
    expect([report.pairs[0]!.a, report.pairs[0]!.b]).toEqual([CLASS[0], CLASS[4]]);
    expect(report.pairs[1]).toMatchObject({ a: CLASS[1], b: CLASS[3], behaviour: null });
    expect(report.similarity).toEqual({ rules: 'kalah', language: null, template: expect.stringMatching(/^the kalah starter/), behaviour: null });
    const signals = report.pairs.map((p) => p.signal);
    expect(signals).toEqual([...signals].sort((x, y) => y - x));
    // The console: the strongest pair first, the folder it could not compare listed.
    expect(whole.out).toContain(`  1 100%   100%       —  ${CLASS[0]}  ${CLASS[4]}`);
    expect(whole.out).toContain(`${CLASS[5]}: no source file of a language Dolos parses (found only notes.txt); not compared`);

    const csv = read(at('whole.csv')).split('\r\n');
    expect(csv[0]).toBe('rank,a,b,signal,source,behaviour,same_value,same_nodes,expected_agreement,longest_fragment,fragments,note');
    expect(csv).toHaveLength(report.pairs.length + 2);
    expect(csv[1]).toMatch(new RegExp(`^1,${CLASS[0]},${CLASS[4]},1,1,,,,,\\d+,[1-9]\\d*,$`));

    const html = read(at('whole.html'));
    expect(html).toContain('<h1>Similarity: 7 submissions, 21 pairs</h1>');
    expect(html).toContain('<section class="pair" id="pair-1"');
    // Both sides of the first fragment, escaped (Java's generics and comparisons are markup's < and >).
    expect(html).toContain('static int search(int[] state, int plies, boolean maximizing)');
    expect(html).toContain('if (depth == 0) return evaluate(board);');
    expect(html).not.toMatch(/<script/);
    expect(html).toContain('if (maximizing &amp;&amp; v &gt; result)');
  });

  it('split with --shard i/n and merged, gives the whole run byte for byte', async () => {
    const shards = [1, 2, 3].map((k) => at(`shard${k}.json`));
    for (const [k, file] of shards.entries()) {
      const r = await runMain(['similarity', ...CLASS, '--no-behaviour', '--no-progress', '--shard', `${k + 1}/3`, '--json', file]);
      expect(r.code, r.err).toBe(0);
      expect(r.err).toContain(`shard ${k + 1}/3 of run`);
      expect(r.err).toContain('7 of the 21 pairs');
    }
    const merged = await runMain(['merge', ...[shards[2]!, shards[0]!, shards[1]!], '--json', at('merged.json'), '--csv', at('merged.csv'), '--html', at('merged.html')]);
    expect(merged.code, merged.err).toBe(0);
    expect(merged.out).toBe(whole.out);
    for (const ext of ['json', 'csv', 'html']) expect(read(at(`merged.${ext}`)), ext).toBe(read(at(`whole.${ext}`)));
    // A missing shard is refused, naming it; with --allow-missing the report says what is not in it.
    expectRefused(await runMain(['merge', shards[0]!, shards[1]!, '--json', at('partial.json')]), 'shard 3/3');
    const partial = await runMain(['merge', shards[0]!, shards[1]!, '--allow-missing', '--json', at('partial.json')]);
    expect(partial.code, partial.err).toBe(0);
    const p = parseSimilarityReport(read(at('partial.json')), 'partial.json');
    expect(p.pairs).toHaveLength(14);
    expect(p.notes).toContain('incomplete: shard 3/3 not merged (--allow-missing): 7 pairs are not in this report');
    // Shards of runs with other options are refused, naming the difference.
    const other = at('other.json');
    expect((await runMain(['similarity', ...CLASS, '--no-behaviour', '--no-progress', '--language', 'java', '--shard', '3/3', '--json', other])).code).toBe(0);
    expectRefused(await runMain(['merge', shards[0]!, shards[1]!, other]), 'with --language java');
    expectRefused(await runMain(['merge', ...shards, '--junit', at('x.xml')]), 'similarity shards merge into --json, --csv and --html');
  });

  it('refuses in one line what cannot be compared or written, before any work', async () => {
    expectRefused(await runMain(['similarity', CLASS[0]!, '--no-behaviour']), 'give two submission folders or more');
    expectRefused(await runMain(['similarity', CLASS[0]!, CLASS[0]!, '--no-behaviour']), 'is given twice');
    expectRefused(await runMain(['similarity', CLASS[0]!, join(fixtures, 'nonesuch'), '--no-behaviour']), 'nonesuch: no such folder');
    expectRefused(await runMain(['similarity', CLASS[0]!, CLASS[1]!, '--no-behaviour', '--ignore', join(fixtures, 'nonesuch')]), '--ignore');
    expectRefused(await runMain(['similarity', CLASS[0]!, CLASS[1]!, '--no-behaviour', '--json', fixtures]), `--json ${fixtures}: is a folder`);
    expectRefused(await runMain(['similarity', CLASS[0]!, CLASS[1]!, '--no-behaviour', '--shard', '1/2', '--csv', at('s.csv')]), 'a shard writes its part as --json only');
    expectRefused(await runMain(['similarity', CLASS[0]!, CLASS[1]!, '--language', 'cobol']), "option '--language <language>' argument 'cobol' is invalid");
  });
});

describe('behaviour in the report', () => {
  const sub = (path: string) => ({ path, language: 'python', files: ['agent.py'], lines: 10 });
  const part = (over: Partial<SimilarityPart>): SimilarityPart => ({
    similarity: { rules: 'kalah', language: null, template: 'none', behaviour: { positions: 4, seed: 1 } },
    submissions: ['a', 'b', 'c'].map(sub),
    asked: ['a', 'b', 'c'],
    pairs: [
      { a: 'a', b: 'b', source: 0.2, longest: 3, fragments: [] },
      { a: 'a', b: 'c', source: 0.6, longest: 9, fragments: [] },
      { a: 'b', b: 'c', source: 0.1, longest: 1, fragments: [] },
    ],
    fingerprints: null,
    notes: [],
    ...over,
  });

  it('lists a submission that could not be run, and keeps its pairs by their source', () => {
    const failed = { submission: 'c', role: 'agent', answers: [], failure: 'exited with code 1 before its first answer' };
    // Only pairs with c: compareFingerprints is not asked about a pair with a submission that failed.
    const ran = (submission: string) => ({ submission, role: 'agent', answers: [{ move: 'a1' }] });
    const r = assembleReport([part({ pairs: part({}).pairs.slice(1), fingerprints: [ran('a'), ran('b'), failed] })]);
    expect(r.submissions.find((s) => s.path === 'c')?.behaviourFailure).toBe('exited with code 1 before its first answer');
    expect(r.pairs[0]).toMatchObject({ a: 'a', b: 'c', source: 0.6, signal: 0.6, behaviour: null, note: 'behaviour not compared: c could not be run' });
  });

  it("keeps a shard's fingerprints whole through its file, for merge to compare as the run would", () => {
    const fingerprints = [{ submission: 'a', role: 'agent', answers: [{ move: 'b3', value: -2, nodes: 140, depth: 4 }], seconds: 0.2 }];
    const p = part({ fingerprints: fingerprints as SimilarityPart['fingerprints'], asked: ['a'] });
    const text = similarityShardJson(p, shardRecord('similarity', { index: 1, count: 3 }, { submissions: ['a', 'b', 'c'] }, ['a']));
    const { shard: _shard, ...rest } = JSON.parse(text) as Record<string, unknown>;
    expect(parseSimilarityPart('shard1.json', rest)).toEqual(p);
    expect(() => parseSimilarityPart('shard1.json', { ...rest, pairs: [{ a: 'a' }] })).toThrow('shard1.json: field "pairs[0].b":');
  });

  it('lists every submission of a part whose fingerprinting failed as a whole, the run going on', () => {
    const r = assembleReport([part({ fingerprints: [], behaviourError: 'behaviour fingerprints failed: the sandbox is gone' })]);
    expect(r.submissions.map((s) => s.behaviourFailure)).toEqual(Array(3).fill('behaviour fingerprints failed: the sandbox is gone'));
    expect(r.notes).toEqual(['behaviour fingerprints failed: the sandbox is gone']);
    expect(r.pairs.map((p) => [p.a, p.b, p.signal])).toEqual([['a', 'c', 0.6], ['a', 'b', 0.2], ['b', 'c', 0.1]]);
  });
});
