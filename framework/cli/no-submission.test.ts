/**
 * Every command that takes submissions, run as a user runs it (main.ts's main) on a folder that
 * holds none — an empty one, one with only notes.txt: exit 2, nothing on stdout, one line on
 * stderr naming the folder, what it holds and what this course's students hand in (CS540's
 * <name>Player.java for gauntlet, CSC384's agent_*.py and utils.py for its suites, mancala.* for
 * csci561-grade), never a stack trace. And what counts as a submission: each course's own files,
 * TypeScript, an agent over stdio, a broken one (its own error says more).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../sandbox/paths.ts';
import { courseHandIn, noSubmissionAt, requireSomeSubmission, whatToHandIn } from '../sandbox/submission-presence.ts';
import { AGENT_ROLE } from '../matches/player.ts';
import { runMain } from '../../testcases/fixtures/run-main.ts';

const work = mkdtempSync(join(tmpdir(), 'no-submission-test-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const empty = join(work, 'empty');
const notes = join(work, 'notes');
mkdirSync(empty);
mkdirSync(notes);
writeFileSync(join(notes, 'notes.txt'), 'my agent is on my laptop\n');
const suite = (name: string) => join(PROJECT_ROOT, 'testcases', name);

const CS540 = "CS540 students hand in <name>Player\\.java, a class extending the course's Player";
const CSC384 = 'CSC384 students hand in agent_minimax\\.py and agent_alphabeta\\.py \\(agent_\\*\\.py\\) with their utils\\.py';
const CPSC4610 = 'CPSC 4610 students hand in NAME\\.py holding class NAME\\(Player\\)';
const CSCI561 = 'CSCI-561 students hand in one program: mancala\\.java, mancala\\.cpp, mancala11\\.cpp \\(C\\+\\+11\\), mancala\\.py \\(Python 2\\.7\\) or mancala3\\.py \\(Python 3\\)';
const ANY = 'A submission is a CS540 <name>Player\\.java \\(a class extending Player\\), CSC384\'s agent_\\*\\.py with utils\\.py, a CPSC 4610 NAME\\.py, a TypeScript agent';
/** A course's students are told their course's files only: never a TypeScript file name to a Python or Java student. */
const ONLY = '(?![^\\n]*\\.(?:ts|js)\\b)[^\\n]*\\n$';

const holds = (dir: string) => `${dir.replace(/[/.]/g, (c) => `\\${c}`)} \\(${dir === empty ? 'the folder is empty' : 'found only notes\\.txt'}\\)`;

describe("what a course's students are told to hand in", () => {
  it('names their course\'s files in its language: no TypeScript or JavaScript file name for a Python or Java student; every form for a game no course owns', () => {
    for (const course of ['cs540', 'csc384', 'cpsc4610', 'csci561']) {
      const words = whatToHandIn(course);
      expect(words).toBe(courseHandIn(course));
      expect(words, course).not.toMatch(/\.(?:ts|js)\b|TypeScript/);
    }
    expect(whatToHandIn('kalah')).toMatch(/a TypeScript agent \(agent\.ts/);
  });
});

describe('every command on a folder without a submission: exit 2 and one line in the course\'s words', () => {
  const runs: [string, (dir: string) => string[], string][] = [
    ['grade (a Kalah suite)', (d) => ['grade', d, '--suite', suite('kalah-basics'), '--no-progress'], ANY],
    ['grade (a CSC384 suite)', (d) => ['grade', d, '--suite', suite('csc384-public'), '--no-progress'], `${CSC384}${ONLY}`],
    ['check (a CPSC 4610 suite)', (d) => ['check', d, '--suite', suite('cpsc4610-public')], `${CPSC4610}`],
    ['check (the bundled suites of several courses)', (d) => ['check', d], ANY],
    ['match', (d) => ['match', d, 'random', '--games', '1'], ANY],
    ['match (cs540 rules, the submission second)', (d) => ['match', 'random', d, '--rules', 'cs540', '--games', '1'], `${CS540}${ONLY}`],
    ['tournament', (d) => ['tournament', d, 'random', 'greedy', '--games-per-pair', '1', '--out', join(work, `t-${Math.random()}`)], ANY],
    ['gauntlet (CS540\'s command)', (d) => ['gauntlet', d, '--games', '1', '--no-progress'], `${CS540}${ONLY}`],
    ['play', (d) => ['play', '--bottom', d, '--top', 'random', '--seed', '1'], ANY],
    ['csci561-grade', (d) => ['csci561-grade', d, '--suite', suite('csci561-public'), '--no-progress'], CSCI561],
  ];
  for (const [what, args, words] of runs) {
    it.each([
      ['an empty folder', empty],
      ['a folder with only notes.txt', notes],
    ])(`${what}: %s`, async (_kind, dir) => {
      const r = await runMain(args(dir));
      expect(r.code, r.err).toBe(2);
      expect(r.out).toBe('');
      expect(r.err.split('\n').filter((l) => l !== '')).toHaveLength(1);
      expect(r.err).not.toMatch(/\n\s+at /);
      if (what === 'csci561-grade') {
        // The program grader's own words (what it looked for), then the course's.
        expect(r.err).toMatch(new RegExp(`^mancala: no submission could be loaded: ${dir.replace(/[/.]/g, (c) => `\\${c}`)}: nothing to run: [^\\n]*\\. ${words}\\n$`));
      } else {
        expect(r.err).toMatch(new RegExp(`^mancala: no submission here: ${holds(dir)}\\. ${words}`));
      }
    });
  }

  it('several folders, none with a submission: one line naming each', async () => {
    const r = await runMain(['tournament', empty, notes, 'random', '--games-per-pair', '1', '--out', join(work, 'several')]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(new RegExp(`^mancala: no submission in any of them: ${holds(empty)}, ${holds(notes)}\\. ${ANY}[^\\n]*\\n$`));
  });
});

describe('what counts as a submission', () => {
  const q = { rolePatterns: AGENT_ROLE.files };
  const at = (...parts: string[]) => join(PROJECT_ROOT, ...parts);

  it("each course's own files, TypeScript, Java over stdio, a single agent file: there", async () => {
    for (const dir of [
      at('testcases/fixtures/course-apis/cs540/alphaPlayer'),
      at('testcases/fixtures/course-apis/csc384/full-marks'),
      at('testcases/fixtures/course-apis/cpsc4610/DavesPlayer'),
      at('agents/examples/alice'),
      at('agents/examples/java-greedy'),
      at('agents/examples/python-greedy'),
      at('agents/examples/alice/agent.ts'),
    ]) {
      expect({ dir, why: await noSubmissionAt(dir, q) }).toEqual({ dir, why: undefined });
    }
  });

  it('a broken one is there (its own error says more); Java with no Player, Python with no agent: not there, named', async () => {
    const broken = join(work, 'broken-manifest');
    mkdirSync(broken);
    writeFileSync(join(broken, 'mancala.yaml'), 'protocol: [\n');
    expect(await noSubmissionAt(broken, q)).toBeUndefined();
    const notAPlayer = at('testcases/fixtures/course-apis/cs540/notAPlayer');
    expect(await noSubmissionAt(notAPlayer, { ...q, profile: 'cs540' })).toMatch(new RegExp(`^no submission here: \\S+notAPlayer \\(found only fooPlayer\\.java\\)\\. ${CS540}`));
    const script = join(work, 'script');
    mkdirSync(script);
    writeFileSync(join(script, 'helper.py'), 'print(1)\n');
    expect(await noSubmissionAt(script, { ...q, profile: 'csc384' })).toMatch(new RegExp(`\\(found only helper\\.py\\)\\. ${CSC384}`));
  });

  it('one folder without a submission among good ones is no reason to stop: it is returned with its line', async () => {
    const absent = await requireSomeSubmission([at('agents/examples/alice'), empty], { ...q, profile: 'cs540' });
    expect([...absent.keys()]).toEqual([empty]);
    expect(absent.get(empty)).toMatch(new RegExp(`^no submission here: ${holds(empty)}\\. ${CS540}`));
  });
});
