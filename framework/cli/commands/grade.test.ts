/**
 * `mancala grade` and `mancala check` through main(argv, io), as the command line runs them:
 * the report files, exit codes (grade: 0 whatever the scores; check: 1 when a visible case fails;
 * both: 2 for a user's mistake, on one `mancala: …` line), and what a student is (not) shown.
 * Real submissions in the real sandbox.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseReport } from '../../grading/reporters/json.ts';
import type { GradescopeResults } from '../../grading/reporters/gradescope.ts';
import { blessSuite, writeExpected } from '../../suites/bless.ts';
import { loadSuite } from '../../suites/load.ts';
import { runMain } from '../../../testcases/fixtures/run-main.ts';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const basics = join(root, 'testcases/kalah-basics');
const example = (name: string): string => join(root, 'agents/examples', name);
const work = mkdtempSync(join(tmpdir(), 'grade-cli-test-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const cli = runMain;

/** The line that says, on stderr before anything runs, what confines the submissions here. */
const SANDBOX_LINE = /^sandbox: [^\n]+\n/;

/** A user's mistake: exit 2, nothing on stdout, exactly one `mancala: …` line on stderr (so no sandbox line: nothing ran). */
function expectUsageError(r: { code: number; out: string; err: string }, says: string | RegExp): void {
  expect(r.code, r.err).toBe(2);
  expect(r.out).toBe('');
  expect(r.err).toMatch(/^mancala: [^\n]+\n$/);
  if (typeof says === 'string') expect(r.err).toContain(says);
  else expect(r.err).toMatch(says);
}

/** The ids of the hidden suite's cases: a student's check must never name one. */
async function hiddenIds(): Promise<string[]> {
  const hidden = await loadSuite(join(root, 'testcases/hidden-example'));
  expect(hidden.cases.every((c) => c.visibility !== 'visible')).toBe(true);
  return hidden.cases.map((c) => c.id);
}

/** A small blessed suite with one visible and one hidden case. */
async function mixedSuite(): Promise<string> {
  const dir = join(work, 'mixed');
  mkdirSync(join(dir, 'cases'), { recursive: true });
  writeFileSync(
    join(dir, 'suite.yaml'),
    `name: Mixed visibility
game: kalah
visibility: visible
roles:
  agent: {kind: agent, files: [agent.ts, agent.js], reference: alphabeta}
categories:
  - {name: search, weight: 10}
`,
  );
  writeFileSync(
    join(dir, 'cases/cases.yaml'),
    `- id: shown-depth-2
  category: search
  position: {start: true}
  options: {depth: 2}
  checks: {move: true, value: true}
- id: secret-case-depth-3
  description: a description students must not see
  category: search
  visibility: hidden
  position: {start: true, moves: [B0]}
  options: {depth: 3}
  checks: {move: true, value: true}
`,
  );
  writeExpected(dir, (await blessSuite(await loadSuite(dir))).expected);
  return dir;
}

describe('mancala grade', () => {
  it('writes --json, --junit, --csv and one --gradescope file per submission, and exits 0 though cases fail', async () => {
    const out = join(work, 'reports');
    mkdirSync(out);
    const files = { json: join(out, 'report.json'), junit: join(out, 'junit.xml'), csv: join(out, 'grades.csv'), gradescope: join(out, 'results.json') };
    const r = await cli([
      'grade', example('alice'), example('bob'),
      '--suite', basics,
      '--json', files.json, '--junit', files.junit, '--csv', files.csv, '--gradescope', files.gradescope,
      '--jobs', '2', '--no-color',
    ]);
    expect(r.code, r.err).toBe(0);
    expect(r.err).toMatch(SANDBOX_LINE);
    expect(r.err.replace(SANDBOX_LINE, '')).toBe(`wrote ${files.json}, ${files.gradescope}, ${files.junit}, ${files.csv}\n`);
    expect(r.out).toMatch(/^alice +100 \/ 100 +all 22 cases passed/m);
    expect(r.out).toMatch(/^bob +70 \/ 100 +14 of 22 cases passed/m);

    const report = parseReport(readFileSync(files.json, 'utf8'), files.json);
    expect(report.suite).toBe('Kalah basics');
    // The sandbox line of stderr is the report's isolation note; nothing was overridden.
    expect(report.isolation.note).toBe(r.err.split('\n')[0]);
    expect(report.notes).toBeUndefined();
    expect(report.submissions.map((s) => [s.id, s.score, s.maxScore])).toEqual([
      ['alice', 100, 100],
      ['bob', 70, 100],
    ]);

    // Gradescope grades one submission per container: one file each, named after the submission.
    expect(readdirSync(out).sort()).toEqual(['grades.csv', 'junit.xml', 'report.journal.jsonl', 'report.json', 'results.alice.json', 'results.bob.json']);
    for (const [id, score] of [['alice', 100], ['bob', 70]] as const) {
      const gs = JSON.parse(readFileSync(join(out, `results.${id}.json`), 'utf8')) as GradescopeResults;
      expect(gs.score).toBe(score);
      expect(gs.extra_data.submission).toBe(id);
      expect(gs.tests).toHaveLength(22);
    }

    const xml = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(readFileSync(files.junit, 'utf8'));
    expect(xml.testsuites).toMatchObject({ name: 'Kalah basics', tests: '44', failures: '5', errors: '3' });
    expect(xml.testsuites.testsuite.map((s: { name: string }) => s.name)).toEqual(['alice', 'bob']);

    const rows = readFileSync(files.csv, 'utf8').split('\r\n');
    expect(rows).toHaveLength(4); // header, alice, bob, and the empty string after the last CRLF
    expect(rows[0]).toMatch(/^id,path,score,max_score,/);
    expect(rows[1]).toMatch(/^alice,.*alice,100,100,/);
    expect(rows[2]).toMatch(/^bob,.*bob,70,100,/);
    expect(rows[3]).toBe('');
  });

  it('one submission: --gradescope writes exactly the file named; --visibility visible grades only visible cases', async () => {
    const suite = await mixedSuite();
    const file = join(work, 'single', 'results.json');
    mkdirSync(dirname(file));
    const r = await cli(['grade', join(example('carol'), 'agent.ts'), '--suite', suite, '--gradescope', file, '--visibility', 'visible']);
    expect(r.code, r.err).toBe(0);
    // and the run's journal beside it (class-run-options.ts)
    expect(readdirSync(dirname(file)).sort()).toEqual(['results.journal.jsonl', 'results.json']);
    const gs = JSON.parse(readFileSync(file, 'utf8')) as GradescopeResults;
    expect(gs.tests.map((t) => t.extra_data.id)).toEqual(['shown-depth-2']);
    expect(r.out).not.toContain('secret-case');
  });
});

describe('mancala grade: a run where no submission ran is no grading', () => {
  const empty = join(work, 'no-agent-here');
  mkdirSync(empty, { recursive: true });
  writeFileSync(join(empty, 'notes.txt'), 'my agent is on my laptop\n');

  it('a folder with no agent in it (notes only): exit 2 before anything runs, one line saying what to hand in', async () => {
    const json = join(work, 'no-agent.json');
    const r = await cli(['grade', empty, '--suite', basics, '--json', json, '--no-color']);
    expect(r.code).toBe(2);
    expect(r.out).toBe('');
    expect(r.err).toMatch(/^mancala: no submission here: [^\n]*no-agent-here \(found only notes\.txt\)\. A submission is a CS540 <name>Player\.java[^\n]*\n$/);
    expect(existsSync(json)).toBe(false);
  });

  it('every case of every submission an error (an agent that exits as it loads): the report as usual, then exit 1 and one line saying why', async () => {
    const json = join(work, 'exits.json');
    const r = await cli(['grade', join(root, 'testcases/fixtures/hostile-agents/exit-at-import'), '--suite', basics, '--json', json, '--no-color']);
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/^exit-at-import +0 \/ \d+/m);
    expect(r.err.replace(SANDBOX_LINE, '')).toMatch(/^wrote [^\n]*exits\.json\nmancala: no submission ran: every case of submission exit-at-import is an error \(exit-at-import, [\w-]+: [^\n]*\)\n$/);
    expect(parseReport(readFileSync(json, 'utf8'), json).submissions[0]!.cases.every((c) => c.status === 'error')).toBe(true);
  });

  it('one submission that ran is an ordinary run (exit 0): a class has broken submissions', async () => {
    const r = await cli(['grade', empty, example('alice'), '--suite', basics, '--no-color']);
    expect(r.code, r.err).toBe(0);
  });
});

describe('mancala check', () => {
  let hidden: string[];
  beforeAll(async () => {
    hidden = await hiddenIds();
  });

  it('alice: exit 0, every visible case of the bundled suites listed, and nothing hidden', async () => {
    const r = await cli(['check', example('alice'), '--no-color']);
    expect(r.err).toMatch(new RegExp(`${SANDBOX_LINE.source}$`));
    expect(r.code).toBe(0);
    const suite = await loadSuite(basics);
    for (const c of suite.cases) expect(r.out).toMatch(new RegExp(`✓ \\[${c.category}\\] ${c.id}\\b`));
    expect(r.out.match(/✓/g)).toHaveLength(suite.cases.length);
    expect(r.out).toContain('all 22 visible cases passed');
    for (const id of hidden) expect(r.out).not.toContain(id);
    expect(r.out).not.toContain('Kalah hidden example');
  });

  it('bob: exit 1 with the one-line summary on stderr; failures explained on stdout; nothing hidden', async () => {
    const r = await cli(['check', example('bob'), '--no-color']);
    expect(r.code).toBe(1);
    expect(r.err.replace(SANDBOX_LINE, '')).toBe('mancala: 8 of 22 visible cases did not pass\n');
    expect(r.out).toMatch(/✗ \[node counts\] nodes-exact-depth-3/);
    expect(r.out).toContain('no pruning');
    expect(r.out).toContain('8 of 22 cases failed');
    for (const id of hidden) expect(r.out + r.err).not.toContain(id);
  });

  it('a suite with a hidden case: only the visible one is run and shown', async () => {
    const suite = await mixedSuite();
    const r = await cli(['check', example('alice'), '--suite', suite, '--no-color']);
    expect(r.err).toMatch(new RegExp(`${SANDBOX_LINE.source}$`));
    expect(r.code).toBe(0);
    expect(r.out).toContain('shown-depth-2');
    expect(r.out).toContain('all 1 visible case passed');
    expect(r.out).not.toContain('secret-case');
    expect(r.out).not.toContain('students must not see');
  });
});

describe("--node-counts: the instructor's switch over a suite's node_counts", () => {
  const csc384 = join(root, 'testcases/csc384-public');
  const CACHING_CASES = ['alphabeta-caching-public', 'minimax-caching-public'];
  const FINDING = /^nodes: your search visited [\d,]+ nodes; the reference [\d,]+ \(informational, not graded; graded, it would need [^)]+\)\nlikely bug: Your search matches the reference with no transposition table/;

  it('grade: the csc384 suite as shipped passes right moves and values with wrong counts, telling the counts; --node-counts graded fails them, noted in the report', async () => {
    const json = join(work, 'node-counts', 'informational.json');
    let r = await cli(['grade', example('csc384-no-caching'), '--suite', csc384, '--json', json, '--no-color']);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(/^csc384-no-caching +95 \/ 95 +all 7 cases passed/m);
    expect(r.out).toContain('  info (alphabeta-caching-public, minimax-caching-public): nodes differ from the reference\'s in 2 cases (informational, not graded; --verbose shows each)\n');
    expect(r.out).toContain('  likely bug, not graded (alphabeta-caching-public, minimax-caching-public): Your search matches the reference with no transposition table');
    let report = parseReport(readFileSync(json, 'utf8'), json);
    expect(report.notes).toBeUndefined();
    const cases = report.submissions[0]!.cases;
    expect(cases.filter((c) => c.info !== undefined).map((c) => c.id)).toEqual(CACHING_CASES);
    for (const c of cases.filter((k) => k.info !== undefined)) {
      expect([c.status, c.message]).toEqual(['passed', '']);
      expect(c.info![0]).toMatch(FINDING);
    }

    const graded = join(work, 'node-counts', 'graded.json');
    r = await cli(['grade', example('csc384-no-caching'), '--suite', csc384, '--json', graded, '--node-counts', 'graded', '--no-color']);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(/^csc384-no-caching +75 \/ 95 +5 of 7 cases passed/m);
    expect(r.out).toContain('note: node counts graded for this run (--node-counts graded): in 6 cases whose suite has them informational, a wrong count fails the case\n');
    report = parseReport(readFileSync(graded, 'utf8'), graded);
    expect(report.notes).toEqual(['node counts graded for this run (--node-counts graded): in 6 cases whose suite has them informational, a wrong count fails the case']);
    const failed = report.submissions[0]!.cases.filter((c) => c.status !== 'passed');
    expect(failed.map((c) => [c.id, c.status, c.info])).toEqual(CACHING_CASES.map((id) => [id, 'failed', undefined]));
    for (const c of failed) expect(c.message).toMatch(/^nodes: expected (at most|[\d,]+ to [\d,]+) /);
  });

  it('check: exit 0 with the counts told under their cases; --node-counts graded: exit 1', async () => {
    let r = await cli(['check', example('csc384-no-caching'), '--suite', csc384, '--no-color']);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(/✓ \[minimax \+ depth limit \+ caching\] minimax-caching-public[^\n]*\n {6}nodes: your search visited [\d,]+ nodes; the reference [\d,]+ \(informational, not graded; graded, it would need at most [\d,]+\)\n/);
    expect(r.out).toContain('all 7 visible cases passed');

    r = await cli(['check', example('csc384-no-caching'), '--suite', csc384, '--node-counts', 'graded', '--no-color']);
    expect(r.code).toBe(1);
    expect(r.err.replace(SANDBOX_LINE, '')).toBe('mancala: 2 of 7 visible cases did not pass\n');
    expect(r.out).toMatch(/✗ \[minimax \+ depth limit \+ caching\] minimax-caching-public[^\n]*\n {6}nodes: expected at most/);
  });

  it('a bad value is one line naming the flag and the choices, on grade and check', async () => {
    expectUsageError(await cli(['grade', example('alice'), '--suite', csc384, '--node-counts', 'yes']), "option '--node-counts <how>' argument 'yes' is invalid. Allowed choices are graded, informational.");
    expectUsageError(await cli(['check', example('alice'), '--node-counts', 'exact']), "option '--node-counts <how>' argument 'exact' is invalid. Allowed choices are graded, informational.");
  });

  it('--help says what each value does', async () => {
    for (const command of ['grade', 'check']) {
      const r = await cli([command, '--help']);
      expect(r.code).toBe(0);
      expect(r.out.replace(/\s+/g, ' ')).toContain(
        "--node-counts <how> graded: a wrong node count fails its case; informational: it is only reported, and the case passes or fails on its other checks. For this run, over every suite's node_counts",
      );
    }
  });
});

describe('report files and limits for this run', () => {
  it('creates a missing report folder before grading and writes the report there; --time-limit and --memory are recorded', async () => {
    const json = join(work, 'not-yet', 'made', 'report.json');
    const suite = await mixedSuite();
    const r = await cli(['grade', example('alice'), '--suite', suite, '--json', json, '--time-limit', '4000', '--memory', '768', '--no-color']);
    expect(r.code, r.err).toBe(0);
    const report = parseReport(readFileSync(json, 'utf8'), json);
    expect(report.submissions[0]!.cases.map((c) => c.status)).toEqual(['passed', 'passed']);
    expect(report.notes).toEqual(["limits overridden for this run, for every case instead of the suite's: time 4000 ms (--time-limit), memory 768 MB (--memory)"]);
    expect(r.out).toContain('note: limits overridden for this run');
  });

  it('a report path under a regular file: exit 2 at once, before the sandbox line, progress or report', async () => {
    const blocker = join(work, 'plain-file');
    writeFileSync(blocker, 'not a folder');
    const json = join(blocker, 'report.json');
    const r = await cli(['grade', example('alice'), example('bob'), '--suite', basics, '--csv', join(work, 'fine.csv'), '--json', json]);
    expectUsageError(r, `--json ${json}: cannot create the folder ${blocker}: ${blocker} is a file, not a folder`);
    expect(existsSync(join(work, 'fine.csv'))).toBe(false);
  });

  it('an existing folder where a report file is expected: exit 2, nothing graded', async () => {
    const folder = join(work, 'a-folder.xml');
    mkdirSync(folder);
    expectUsageError(await cli(['grade', example('alice'), '--suite', basics, '--junit', folder]), `--junit ${folder}: is a folder; expected the name of a file to write`);
  });
});

describe('user mistakes: exit 2, one line', () => {
  it('grade without --suite', async () => {
    expectUsageError(await cli(['grade', example('alice')]), "required option '--suite <dir>' not specified");
  });

  it('a suite folder that does not exist', async () => {
    const missing = join(work, 'no-such-suite');
    expectUsageError(await cli(['grade', example('alice'), '--suite', missing]), `--suite ${missing}: expected a suite folder`);
    expectUsageError(await cli(['check', example('alice'), '--suite', missing]), `--suite ${missing}: expected a suite folder`);
  });

  it('a submission that does not exist', async () => {
    const missing = join(work, 'no-such-agent');
    expectUsageError(await cli(['grade', missing, '--suite', basics]), `submission ${missing}: no such file or folder`);
    expectUsageError(await cli(['check', missing]), `submission ${missing}: no such file or folder`);
  });

  it('a malformed suite names the file and line', async () => {
    const dir = join(work, 'malformed');
    mkdirSync(dir);
    writeFileSync(join(dir, 'suite.yaml'), 'name: Broken\ngame: kalah\nvisibility: sometimes\nroles:\n  agent: {kind: agent, files: agent.ts, reference: alphabeta}\ncategories: [{name: a, weight: 1}]\n');
    expectUsageError(await cli(['grade', example('alice'), '--suite', dir]), new RegExp(`^mancala: ${dir}/suite\\.yaml:3: visibility: `));
  });

  it('a suite that was never blessed points to `mancala suite bless`', async () => {
    const dir = join(work, 'unblessed');
    mkdirSync(join(dir, 'cases'), { recursive: true });
    writeFileSync(join(dir, 'suite.yaml'), 'name: Unblessed\ngame: kalah\nvisibility: visible\nroles:\n  agent: {kind: agent, files: agent.ts, reference: alphabeta}\ncategories: [{name: a, weight: 1}]\n');
    writeFileSync(join(dir, 'cases/one.yaml'), 'id: one\ncategory: a\noptions: {depth: 1}\nchecks: {move: true}\n');
    const r = await cli(['grade', example('alice'), '--suite', dir]);
    expectUsageError(r, `run \`mancala suite bless ${dir}\``);
    expect(existsSync(join(dir, 'expected.json'))).toBe(false);
  });

  it('--time-limit and --memory must be positive whole numbers, on grade and check', async () => {
    expectUsageError(await cli(['grade', example('alice'), '--suite', basics, '--time-limit', '0']), /option '--time-limit <ms>' argument '0' is invalid.*whole number from 1 to/);
    expectUsageError(await cli(['grade', example('alice'), '--suite', basics, '--time-limit', '1.5']), /--time-limit <ms>.*'1\.5' is invalid/);
    expectUsageError(await cli(['check', example('alice'), '--memory', 'lots']), /option '--memory <mb>' argument 'lots' is invalid.*whole number from 16 to/);
  });

  it('--jobs 0 and --visibility some', async () => {
    expectUsageError(await cli(['grade', example('alice'), '--suite', basics, '--jobs', '0']), /--jobs.*'0' is invalid.*whole number from 1 to 64/);
    expectUsageError(await cli(['grade', example('alice'), '--suite', basics, '--visibility', 'some']), /--visibility.*'some' is invalid.*all, visible/);
  });
});
