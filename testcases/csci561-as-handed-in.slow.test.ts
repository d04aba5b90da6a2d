/**
 * CSCI-561 programs as students hand them in, sources only (testcases/fixtures/csci561-as-handed-in:
 * Java reading args[1], Java in a package (src/hw2/, as an IDE lays it out), several Java files, C++, C++11, Python 3 reading
 * sys.argv[2], Python 2 with print statements), graded by the real `mancala csci561-grade` (the
 * sandbox, javac, g++, the Python 2.7 found through pyenv): each scores what the reference says,
 * full marks, run with the course's line. The old no-argument line (--run-args '') fails every
 * one of them at start-up, and the class-wide warning says so once with the count and the line.
 * Where no Python 2.7 exists (a PATH without one and no pyenv reachable, for real), mancala.py is
 * not graded, with one line, counted apart. `mancala check` on a program folder uses the same line.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseReport } from '../framework/grading/reporters/json.ts';
import type { GradeReport } from '../framework/grading/report.ts';
import { PROJECT_ROOT } from '../framework/sandbox/paths.ts';
import { resolveRuntime } from '../framework/sandbox/programs/runtimes.ts';

const BIN = join(PROJECT_ROOT, 'bin', 'mancala.js');
const SUITE = join(PROJECT_ROOT, 'testcases', 'csci561-public');
const FIXTURES = join(PROJECT_ROOT, 'testcases', 'fixtures', 'csci561-as-handed-in');
const tools = ['javac', 'g++', 'bwrap'].every((t) => spawnSync(t, ['--version']).error === undefined);
const python2 = await resolveRuntime('python2.7');
const python2Missing = 'problem' in python2 ? python2.problem : undefined;
const NAMES = ['java-args', 'java-package', 'java-several-files', 'cpp', 'cpp11', 'python3', ...(python2Missing === undefined ? ['python2'] : [])];
const work = mkdtempSync(join(tmpdir(), 'csci561-handed-in-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function mancala(args: string[], env: NodeJS.ProcessEnv = process.env) {
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd: work, encoding: 'utf8', env, timeout: 540_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

const readReport = (file: string): GradeReport => parseReport(readFileSync(file, 'utf8'), file);

describe.runIf(tools)('sources only, run with the course line', () => {
  let report: GradeReport;
  let run: ReturnType<typeof mancala>;
  beforeAll(() => {
    run = mancala(['csci561-grade', ...NAMES.map((n) => join(FIXTURES, n)), '--suite', SUITE, '--jobs', '2', '--json', join(work, 'after.json'), '--no-progress']);
    report = readReport(join(work, 'after.json'));
  });

  it("each program scores what the suite's reference says: every case, full marks", () => {
    expect(run.status, run.stderr).toBe(0);
    expect(report.submissions.map((s) => s.id)).toEqual(NAMES);
    for (const s of report.submissions) {
      expect(s.cases.filter((c) => c.status !== 'passed').map((c) => `${c.id}: ${c.message.split('\n')[0]}`), s.id).toEqual([]);
      expect(s.cases).toHaveLength(30);
      expect(s.score, s.id).toBeCloseTo(s.maxScore, 6);
      expect(s.maxScore).toBe(30);
    }
    expect(run.stderr).not.toMatch(/WARNING/);
  });

  it('the report says which line ran: the qualified Java class, the files built together, C++11, Python 2.7', () => {
    const note = (id: string) => report.submissions.find((s) => s.id === id)!.notes[0];
    expect(note('java-args')).toBe("CSCI-561 ran mancala.java as Java (the grader's JDK): build `javac -encoding UTF-8 -d . mancala.java`, then run `java -cp . mancala -i input.txt`");
    expect(note('java-package')).toContain('build `javac -encoding UTF-8 -d . src/hw2/mancala.java`, then run `java -cp . hw2.mancala -i input.txt`');
    expect(note('java-several-files')).toContain('build `javac -encoding UTF-8 -d . Board.java mancala.java Search.java`');
    expect(note('cpp')).toBe("CSCI-561 ran mancala.cpp as C++ (the compiler's default standard): build `g++ -O2 -o mancala mancala.cpp`, then run `./mancala -i input.txt`");
    expect(note('cpp11')).toContain('build `g++ -O2 -std=c++11 -o mancala mancala11.cpp`');
    expect(note('python3')).toBe('CSCI-561 ran mancala3.py as Python 3: run `python3 mancala3.py -i input.txt`');
    expect(report.notes).toContainEqual(expect.stringMatching(/^programs handed in as sources \(mancala\.java, mancala\.cpp, mancala11\.cpp, mancala\.py, mancala3\.py\) run as CSCI-561 ran them .* with `-i input\.txt`/));
  });

  it.skipIf(python2Missing !== undefined)(`mancala.py runs on Python 2.7 (found by itself through pyenv)${python2Missing === undefined ? '' : ` — skipped: ${python2Missing}`}`, () => {
    const s = report.submissions.find((x) => x.id === 'python2')!;
    expect(s.notes[0]).toBe('CSCI-561 ran mancala.py as Python 2.7: run `python2.7 mancala.py -i input.txt`');
    expect(s.score).toBe(30);
  });
});

describe.runIf(tools)("the old no-argument line (--run-args '') fails them all at start-up, and the warning says so", () => {
  it('every program fails every case; one WARNING with the count and the lines they ran as', () => {
    const cases = 'greedy-01,minimax-d2-1,alphabeta-d2-1';
    const r = mancala(['csci561-grade', ...NAMES.map((n) => join(FIXTURES, n)), '--suite', SUITE, '--case', cases, '--run-args', '', '--json', join(work, 'no-args.json'), '--no-progress']);
    expect(r.status, r.stderr).toBe(0);
    const report = readReport(join(work, 'no-args.json'));
    for (const s of report.submissions) expect(s.score, s.id).toBe(0);
    const warnings = r.stderr.split('\n').filter((l) => l.startsWith('WARNING'));
    expect(warnings[0]).toMatch(new RegExp(`^WARNING: ${NAMES.length} of ${NAMES.length} programs failed every case at start-up \\(an argument index out of range, a usage message, no next_state.txt written…\\) — most likely the run line, not the students\\. They ran as `));
    expect(warnings[0]).toContain('`java -cp . mancala` (2)');
    expect(warnings[0]).toContain("this run's --run-args `` replaced CSCI-561's `-i input.txt`");
    expect(report.notes).toContain(warnings[0]);
  });
});

describe.runIf(tools)('no Python 2.7 on the machine', () => {
  // For real: a PATH with no python2 on it, no pyenv reachable (another HOME, no PYENV_ROOT).
  const env: NodeJS.ProcessEnv = { PATH: ['/usr/bin', '/bin', dirname(process.execPath)].join(':'), HOME: work, LANG: 'C.UTF-8' };

  it('mancala.py is not graded, with one line, counted apart; the Python 3 program beside it is graded', () => {
    const missing = spawnSync('sh', ['-c', 'command -v python2 python2.7'], { env, encoding: 'utf8' }).stdout;
    expect(missing, 'this PATH must hold no Python 2').toBe('');
    const r = mancala(['csci561-grade', join(FIXTURES, 'python2'), join(FIXTURES, 'python3'), '--suite', SUITE, '--case', 'minimax-d2-1', '--json', join(work, 'none.json'), '--csv', join(work, 'none.csv'), '--gradescope', join(work, 'none-gs.json'), '--no-progress'], env);
    expect(r.status, r.stderr).toBe(0);
    const line = 'mancala.py is Python 2.7 in this course; no Python 2.7 found: install one or pass --python2';
    expect(r.stdout).toContain(`python2  NOT GRADED: ${line}`);
    expect(r.stdout).toContain(`note: 1 of 2 submissions NOT GRADED, not the students' fault (python2): ${line}`);
    expect(r.stdout).toMatch(/2 submissions: mean 10 \/ 10, 1 with every case passed of the 1 graded; 1 not graded/);
    const report = readReport(join(work, 'none.json'));
    expect(report.submissions[0]).toMatchObject({ id: 'python2', notGraded: line });
    expect(report.submissions[1]).toMatchObject({ id: 'python3', score: 10 });
    // Gradescope's page says it first, so a score of 0 there reads as no grade.
    const gs = JSON.parse(readFileSync(join(work, 'none-gs.python2.json'), 'utf8')) as { output: string };
    expect(gs.output.split('\n')[1]).toBe(`NOT GRADED: ${line} (the grading machine's fault, not yours: it will be graded again)`);
    // Not a zero in the gradebook: an empty score.
    expect(readFileSync(join(work, 'none.csv'), 'utf8').split('\r\n')[1]).toMatch(/^python2,[^,]+,,10,/);
  });

  it('--python2 PATH is checked before anything runs, and gives the course its Python 2.7', () => {
    const bad = mancala(['csci561-grade', join(FIXTURES, 'python2'), '--suite', SUITE, '--python2', '/usr/bin/python3'], env);
    expect(bad.status).toBe(2);
    expect(bad.stderr.trim()).toMatch(/^mancala: --python2 \/usr\/bin\/python3: it is Python 3\.\d+; expected a Python 2$/);
    if ('problem' in python2) return;
    const r = mancala(['csci561-grade', join(FIXTURES, 'python2'), '--suite', SUITE, '--case', 'alphabeta-d2-1', '--python2', python2.executable, '--no-progress'], env);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/python2 {2}10 \/ 10 {2}all 1 cases passed/);
  });
});

describe.runIf(tools)('mancala check on a program folder runs it with the course line too', () => {
  it("a student's check of mancala.java passes every visible case", () => {
    const r = mancala(['check', join(FIXTURES, 'java-args'), '--suite', SUITE]);
    expect(r.status, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain('all 30 visible cases passed');
    expect(r.stdout).toContain('note: CSCI-561 ran mancala.java as Java');
  });
});
