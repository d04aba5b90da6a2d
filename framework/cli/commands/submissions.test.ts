/**
 * LMS exports built here from the project's example submissions, the way each LMS names files, and
 * graded by the real `mancala grade` on a small blessed suite: every student found under their id,
 * the course's file names restored (a heuristic that keeps Canvas's `-1` name would not be found),
 * and each score equal to grading the example's folder alone. Also `mancala submissions` and its
 * roster mapping through the command line, and a program graded from a Canvas export by
 * csci561-grade as from its folder.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { buffer } from 'node:stream/consumers';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZipFile } from 'yazl';
import { parseReport } from '../../grading/reporters/json.ts';
import { blessSuite, writeExpected } from '../../suites/bless.ts';
import { loadSuite } from '../../suites/load.ts';
import { runMain } from '../../../testcases/fixtures/run-main.ts';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const example = (name: string): string => join(root, 'agents/examples', name);
const work = mkdtempSync(join(tmpdir(), 'lms-exports-test-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Where bubblewrap is missing, the weak sandbox (the scores are the same; the isolation is not under test here). */
const SANDBOX = spawnSync('bwrap', ['--version']).status === 0 ? [] : ['--weak-sandbox'];

/** The example's files, by their names in the folder. */
function filesOf(name: string): Record<string, Buffer> {
  const dir = example(name);
  return Object.fromEntries(readdirSync(dir).filter((f) => f.endsWith('.ts')).map((f) => [f, readFileSync(join(dir, f))]));
}

async function zipOf(files: Record<string, string | Buffer>): Promise<Buffer> {
  const z = new ZipFile();
  for (const [name, data] of Object.entries(files)) z.addBuffer(Buffer.isBuffer(data) ? data : Buffer.from(data), name);
  z.end();
  return buffer(z.outputStream);
}

function writeTree(dir: string, files: Record<string, string | Buffer>): string {
  for (const [name, data] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), data);
  }
  return dir;
}

const prefixed = (prefix: string, files: Record<string, Buffer>, rename: (f: string) => string = (f) => f) => Object.fromEntries(Object.entries(files).map(([f, b]) => [`${prefix}${rename(f)}`, b]));
/** Canvas's names: `<student>_<file id>_<file>`, each file its own id (Canvas's attachment id), from `firstId` on. */
const canvasNamed = (student: string, firstId: number, files: Record<string, Buffer>, rename: (f: string) => string = (f) => f) =>
  Object.fromEntries(Object.entries(files).map(([f, b], i) => [`${student}_${firstId + i}_${rename(f)}`, b]));

/** A small suite: an agent role and a heuristic role, cases alice passes and bob (plain minimax) and carol fail in part. */
let made: Promise<string> | undefined;
function smallSuite(): Promise<string> {
  made ??= makeSmallSuite();
  return made;
}

async function makeSmallSuite(): Promise<string> {
  const dir = join(work, 'suite');
  writeTree(dir, {
    'suite.yaml': `name: LMS intake
game: kalah
visibility: visible
limits: {ms: 5000, memory_mb: 512}
roles:
  agent: {kind: agent, files: [agent.ts, agent.js], reference: alphabeta}
  heuristic: {kind: heuristic, files: [heuristic.ts], reference: basic}
categories:
  - {name: search, weight: 10}
  - {name: nodes, weight: 10}
  - {name: heuristic, weight: 5}
`,
    'cases/cases.yaml': `- id: start-depth-2
  role: agent
  category: search
  position: {start: true}
  options: {depth: 2}
  checks: {move: true, value: true}
- id: nodes-depth-3
  role: agent
  category: nodes
  position: {start: true, moves: [B0]}
  options: {depth: 3}
  checks: {move: true, nodes: exact}
- id: heuristic-start
  role: heuristic
  category: heuristic
  position: {start: true}
  checks: {heuristic_value: true}
`,
  });
  writeExpected(dir, (await blessSuite(await loadSuite(dir))).expected);
  return dir;
}

async function grade(args: string[], json: string): Promise<{ code: number; err: string; scores: Record<string, number>; paths: Record<string, string> }> {
  const r = await runMain(['grade', ...args, '--json', json, '--jobs', '1', '--no-color', '--no-progress', ...SANDBOX]);
  expect(r.code, r.err).toBe(0);
  const report = parseReport(readFileSync(json, 'utf8'), json);
  return { code: r.code, err: r.err, scores: Object.fromEntries(report.submissions.map((s) => [s.id, s.score])), paths: Object.fromEntries(report.submissions.map((s) => [s.id, s.path])) };
}

describe('LMS exports graded as each folder alone', () => {
  let suite: string;
  let alone: Record<string, number>;
  beforeAll(async () => {
    suite = await smallSuite();
    alone = (await grade(['--suite', suite, example('alice'), example('bob'), example('carol')], join(work, 'alone.json'))).scores;
    // The suite tells the three apart: a score equal to each alone is no accident.
    expect(new Set(Object.values(alone)).size).toBe(3);
  }, 240_000);

  it('finds every student of each export, restores the names, and scores each as its folder alone', async () => {
    const alice = filesOf('alice');
    const bob = filesOf('bob');
    const carol = filesOf('carol');
    const exports = join(work, 'exports');
    // Canvas: flat names, a late student, a resubmitted heuristic (heuristic-1.ts), a student's own zip of their folder.
    writeFileSync(
      join(work, 'canvas.zip'),
      await zipOf({
        ...canvasNamed('smithalice_LATE_1001', 70001, alice, (f) => (f === 'heuristic.ts' ? 'heuristic-1.ts' : f)),
        'jonesbob_1002_70101_bob-submission.zip': await zipOf(prefixed('bob/', bob)),
        ...canvasNamed('leecarol_1003', 70201, carol),
        '__MACOSX/._smithalice_LATE_1001_70001_agent.ts': 'resource fork',
      }),
    );
    // Moodle: folders, __MACOSX beside them.
    writeFileSync(
      join(work, 'moodle.zip'),
      await zipOf({
        ...prefixed('Alice Smith_2001_assignsubmission_file_/', alice),
        ...prefixed('__MACOSX/Alice Smith_2001_assignsubmission_file_/._', alice),
        ...prefixed('Bob Jones_2002_assignsubmission_file_/', bob),
      }),
    );
    // Blackboard: download names and receipts naming the originals.
    const receipt = (user: string, files: string[]) =>
      [`Name: ${user} (${user})`, 'Date Submitted: Monday, January 15, 2024 11:58:03 PM EST', '', 'Files:', ...files.flatMap((f) => [`\tOriginal filename: ${f}`, `\tFilename: HW1_${user}_attempt_2024-01-15-23-58-03_${f}`]), ''].join('\n');
    writeTree(join(exports, 'blackboard'), {
      ...prefixed('HW1_carol_attempt_2024-01-15-23-58-03_', carol),
      'HW1_carol_attempt_2024-01-15-23-58-03.txt': receipt('carol', Object.keys(carol)),
    });
    // Gradescope: metadata and submission folders, in the export's wrapper folder.
    writeFileSync(
      join(work, 'gradescope.zip'),
      await zipOf({
        'assignment_9_export/submission_metadata.yml': "submission_31:\n  :submitters:\n  - :name: Alice Smith\n    :sid: 'A1'\n    :email: alice@example.edu\n  :created_at: 2024-01-15 23:58:03 -0800\n",
        ...prefixed('assignment_9_export/submission_31/', alice),
      }),
    );
    // GitHub Classroom: clones side by side.
    writeTree(join(exports, 'classroom'), { ...prefixed('hw1-bobgh/', bob), 'hw1-bobgh/.git/HEAD': 'ref: refs/heads/main\n', ...prefixed('hw1-carolgh/', carol), 'hw1-carolgh/.git/HEAD': 'ref: refs/heads/main\n' });
    // A wrapper folder of students, one of whom put their files one folder down.
    writeFileSync(join(work, 'class.zip'), await zipOf({ ...prefixed('class/alice/alice/', alice), ...prefixed('class/carol/', carol) }));

    const given = [join(work, 'canvas.zip'), join(work, 'moodle.zip'), join(exports, 'blackboard'), join(work, 'gradescope.zip'), join(exports, 'classroom'), join(work, 'class.zip')];
    const r = await grade(['--suite', suite, ...given], join(work, 'lms.json'));
    const want: Record<string, string> = { 1001: 'alice', 1002: 'bob', 1003: 'carol', 2001: 'alice', 2002: 'bob', carol: 'carol', A1: 'alice', bobgh: 'bob', carolgh: 'carol', alice: 'alice', 'carol-2': 'carol' };
    expect(Object.keys(r.scores).sort()).toEqual(Object.keys(want).sort());
    for (const [id, who] of Object.entries(want)) expect(r.scores[id], `${id} (${who})`).toBe(alone[who]);
    // Reports name the instructor's files, never the intake's temp folder.
    expect(r.paths['1001']).toBe(`${join(work, 'canvas.zip')}/smithalice_LATE_1001_*`);
    expect(JSON.stringify(r.paths)).not.toContain('mancala-');
    expect(readFileSync(join(work, 'lms.json'), 'utf8')).not.toMatch(/mancala-\d+-intake/);
    // One line says how the submissions were read.
    expect(r.err).toContain('intake: 11 submissions, read as Canvas "Download Submissions"');
  }, 300_000);
});

describe('agent files of one name', () => {
  it('are reported under the ids the intake gave them, each scored as alone', async () => {
    const suite = await smallSuite();
    writeTree(join(work, 'two'), { 'a/agent.ts': readFileSync(join(example('bob'), 'agent.ts')), 'b/agent.ts': readFileSync(join(example('bob'), 'agent.ts')) });
    const r = await grade(['--suite', suite, join(work, 'two/a/agent.ts'), join(work, 'two/b/agent.ts')], join(work, 'two.json'));
    expect(r.paths).toEqual({ agent: join(work, 'two/a/agent.ts'), 'agent-2': join(work, 'two/b/agent.ts') });
    expect(r.scores.agent).toBe(r.scores['agent-2']);
  }, 120_000);
});

describe('programs from a Canvas export (csci561-grade)', () => {
  it('runs the restored mancala3.py as the course did, each score equal to its folder alone', async () => {
    const reference = readFileSync(join(example('csci561-reference'), 'program/mancala.py'));
    const other = join(root, 'testcases/fixtures/programs/python');
    const alone = writeTree(join(work, 'programs-alone'), { 'ref/mancala3.py': reference, 'other/main.py': readFileSync(join(other, 'main.py')), 'other/answer.py': readFileSync(join(other, 'answer.py')) });
    writeFileSync(
      join(work, 'programs.zip'),
      await zipOf({ 'smithalice_LATE_1001_70001_mancala3-1.py': reference, 'jonesbob_1002_70002_main.py': readFileSync(join(other, 'main.py')), 'jonesbob_1002_70003_answer.py': readFileSync(join(other, 'answer.py')) }),
    );
    const run = async (args: string[], json: string) => {
      const r = await runMain(['csci561-grade', ...args, '--suite', join(root, 'testcases/csci561-public-programs'), '--case', 'case-alphabeta-d1-1,case-minimax-d2-1', '--json', json, '--no-progress', '--no-color', ...SANDBOX]);
      expect(r.code, r.err).toBe(0);
      return parseReport(readFileSync(json, 'utf8'), json).submissions;
    };
    const [ref, bad] = await run([join(alone, 'ref'), join(alone, 'other')], join(work, 'programs-alone.json'));
    const fromCanvas = await run([join(work, 'programs.zip')], join(work, 'programs-canvas.json'));
    expect(fromCanvas.map((s) => [s.id, s.score])).toEqual([
      ['1001', ref!.score],
      ['1002', bad!.score],
    ]);
    expect(ref!.score).toBeGreaterThan(bad!.score);
    expect(fromCanvas[0]!.notes).toContain('CSCI-561 ran mancala3.py as Python 3: run `python3 mancala3.py -i input.txt`');
  }, 120_000);
});

describe('mancala submissions', () => {
  it('prints each student, their files and the layout, and with a roster the unmatched both ways once', async () => {
    writeFileSync(join(work, 'c.zip'), await zipOf({ 'smithalice_LATE_1001_70001_agent-1.ts': 'a', 'jonesbob_1002_70002_agent.ts': 'b' }));
    writeFileSync(join(work, 'gradebook.csv'), 'Student,ID,SIS User ID,SIS Login ID,Section\n    Points Possible,,,,\n"Smith, Alice",1001,S1,asmith,A\n"Lee, Carol",1003,S3,clee,A\n');
    const r = await runMain(['submissions', join(work, 'c.zip'), '--roster', join(work, 'gradebook.csv')]);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain(`${join(work, 'c.zip')}: Canvas "Download Submissions", 2 submissions`);
    expect(r.out).toMatch(/\n1001 {2}Smith, Alice {2}LATE\n {2}from [^\n]+smithalice_LATE_1001_\*\n {2}1 file: agent\.ts\n {2}note: agent-1\.ts: Canvas's name for a file uploaded again, restored to agent\.ts\n/);
    expect(r.out).toContain(`note: ${join(work, 'c.zip')}: Canvas's download carries no submission times (each file in it bears the time the zip was made): only its _LATE mark says who was late\n`);
    expect(r.out).toContain(`roster ${join(work, 'gradebook.csv')} (canvas): 1 submission matched to a student`);
    expect(r.out.match(/no student in the roster for the submission [^\n]*jonesbob_1002_\*/g)).toHaveLength(1);
    expect(r.out.match(/no submission from Lee, Carol \(1003, roster line 4\)/g)).toHaveLength(1);
    const j = await runMain(['submissions', join(work, 'c.zip'), '--json']);
    const parsed = JSON.parse(j.out) as { submissions: { id: string; late: boolean; files: string[]; path?: string }[] };
    expect(parsed.submissions.map((s) => [s.id, s.late, s.files, s.path])).toEqual([
      ['1001', true, ['agent.ts'], undefined],
      ['1002', false, ['agent.ts'], undefined],
    ]);
  });

  it("shows a student's control characters and bidi overrides, never sends them to the terminal, in text and --json", async () => {
    const dir = writeTree(join(work, 'escapes'), { 'evil\u001b]0;owned\u0007\u202e\u009b\u061c\u200e\u200f\u2028\u2029_1001_5001_agent.ts': 'x' });
    const shown = 'evil\\x1b]0;owned\\x07\\u202e\\x9b\\u061c\\u200e\\u200f\\u2028\\u2029';
    const unsafe = /[\u001b\u0007\u202e\u009b\u061c\u200e\u200f\u2028\u2029]/;
    const r = await runMain(['submissions', dir]);
    expect(r.code, r.err).toBe(0);
    expect(r.out).not.toMatch(unsafe);
    expect(r.out).toContain(shown);
    const j = await runMain(['submissions', dir, '--json']);
    expect(j.code, j.err).toBe(0);
    expect(j.out).not.toMatch(unsafe);
    expect(JSON.parse(j.out).submissions[0].source).toContain(shown);
  });

  it('says which file and field of an export is malformed, on one line', async () => {
    const dir = writeTree(join(work, 'bad-gradescope'), { 'submission_metadata.yml': 'submission_1: [1, 2]\n', 'submission_1/agent.ts': 'x' });
    const r = await runMain(['submissions', dir]);
    expect(r.code).toBe(2);
    expect(r.err).toBe(`mancala: ${dir}/submission_metadata.yml: submission_1: expected its fields (:submitters:, :created_at:, …)\n`);
  });
});
