/**
 * Submissions of sources only, graded by csci561-grade (testcases/fixtures/programs): Java in a
 * package, C++ and Python inferred from their files, C built by its manifest, C++ by its Makefile
 * (the manifest saying only what to run), each built once and
 * run on a case (their answer, the input's first line, is wrong on purpose: the message shows what
 * each program wrote); a compile error; a Java crash with the first and last lines of its stack
 * trace and its stdout; a program writing under wrong names, with what it did write; a folder
 * with nothing to run, an error beside the others, and the command's exit code when it is alone.
 */
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { beforeAll, describe, expect, it } from 'vitest';
import { UserError } from '../../errors.ts';
import type { GradeReport, SubmissionReport } from '../../grading/report.ts';
import { addCsci561GradeCommand } from '../../cli/commands/csci561-grade.ts';
import { findExecutable } from '../../sandbox/jail/mechanisms.ts';
import { PROJECT_ROOT } from '../../sandbox/paths.ts';
import { loadSuite } from '../../suites/load.ts';
import { gradePrograms } from './grade-programs.ts';
import { readProgramSubmission } from './program.ts';
import { courseHandIn } from '../../sandbox/submission-presence.ts';

const FIXTURES = join(PROJECT_ROOT, 'testcases', 'fixtures', 'programs');
const fixture = (name: string) => join(FIXTURES, name);
const compilers = ['javac', 'g++', 'gcc', 'python3'].every((c) => findExecutable(c) !== undefined);

describe('what each fixture is inferred to be', () => {
  it('Java in a package, C++, Python by its __main__, C by its manifest, a Makefile with a run line; nothing in a folder of notes', () => {
    expect(readProgramSubmission(fixture('java-package'))).toMatchObject({ argv: ['java', '-cp', '.', 'mancala.Main'], build: 'javac -encoding UTF-8 -d . src/mancala/Answer.java src/mancala/Main.java' });
    expect(readProgramSubmission(fixture('cpp'))).toMatchObject({ argv: ['./mancala-program'], build: 'g++ -O2 -std=c++17 -o mancala-program main.cpp' });
    expect(readProgramSubmission(fixture('python'))).toMatchObject({ argv: ['python3', 'main.py'] });
    expect(readProgramSubmission(fixture('c-manifest'))).toMatchObject({ argv: ['./answer'], build: 'gcc -O2 -o answer *.c' });
    expect(readProgramSubmission(fixture('cpp-makefile'))).toEqual({ dir: fixture('cpp-makefile'), argv: ['./solver'], build: 'make', how: 'mancala.yaml: run: ./solver (build: make, for its Makefile)' });
    expect(() => readProgramSubmission(fixture('nothing'))).toThrow(
      new UserError(`${fixture('nothing')}: nothing to run: looked for a \`command\` file, a mancala.yaml (build: and run: lines), sources (*.java, *.cpp/*.cc, *.c, *.py), a Makefile, or one executable file; found notes.txt, README.md`),
    );
  });

  it('a manifest saying protocol: is an agent over stdio, refused with one line', () => {
    const dir = mkdtempSync(join(tmpdir(), 'program-agent-'));
    try {
      writeFileSync(join(dir, 'mancala.yaml'), 'protocol: 1\nrun: python3 agent.py\n');
      expect(() => readProgramSubmission(dir)).toThrow(new UserError(`${dir}: mancala.yaml: protocol: 1 makes it an agent over stdio (graded with \`mancala grade\`), not a program that reads input.txt: drop the protocol line`));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe.runIf(compilers)('graded from sources only', () => {
  const names = ['java-package', 'cpp', 'python', 'c-manifest', 'cpp-makefile', 'java-compile-error', 'java-crash', 'wrong-names', 'nothing'];
  let report: GradeReport;
  const of = (name: string): SubmissionReport => report.submissions.find((s) => s.id === name)!;
  beforeAll(async () => {
    const suite = await loadSuite(join(PROJECT_ROOT, 'testcases', 'csci561-public'));
    const one = { ...suite, cases: suite.cases.slice(0, 1) };
    report = await gradePrograms({ suite: one, submissions: names.map(fixture), visibility: 'all', jobs: 2 });
  }, 300_000);

  it('each program is built once, not charged to the case, and runs: its own answer is in the message', () => {
    for (const [name, language] of [['java-package', 'java'], ['cpp', 'c\\+\\+'], ['python', 'python'], ['c-manifest', 'c'], ['cpp-makefile', 'make']] as const) {
      const s = of(name);
      expect(s.cases[0]!.status, name).toBe('failed');
      expect(s.cases[0]!.message).toMatch(new RegExp(`^next_state.txt line 1: expected "[^"]+", got "${language} task \\d"`));
      if (name !== 'python') expect(s.notes.some((n) => n.startsWith('built once before the cases')), name).toBe(true);
    }
    expect(of('java-package').notes[0]).toBe(
      "Java sources: javac, then java mancala.Main (the class with main, in package mancala), with CSCI-561's arguments `-i input.txt` (none of its file names: mancala.java, mancala.cpp, mancala11.cpp, mancala.py, mancala3.py)",
    );
  });

  it("a compile error is the case's error, with the compiler's words, and a note on the submission", () => {
    const s = of('java-compile-error');
    expect(s.cases[0]!.status).toBe('error');
    expect(s.cases[0]!.message).toMatch(/^compile error: Main\.java:4: error: ';' expected \(`javac -encoding UTF-8 -d \. Main\.java` exited with code 1\):\nMain\.java:4: error: ';' expected\n/);
    expect(s.notes).toContain('the build failed: `javac -encoding UTF-8 -d . Main.java`');
  });

  it("a crash keeps the stack trace's first line and its last, and the program's stdout, head and tail", () => {
    const message = of('java-crash').cases[0]!.message;
    expect(message).toMatch(/^the program exited with code 1; on stderr:\nException in thread "main" java.lang.IllegalStateException: the board has no pit 7\n\tat Main.descend/);
    expect(message).toMatch(/\tat Main.main\(Main.java:10\)\non stdout:\nthinking 1\n/);
    expect(message).toMatch(/thinking 20\n\[… 10 lines left out …\]\nthinking 31\n[^]*thinking 50\n/);
  });

  it('a program writing its answers under other names is told what it wrote', () => {
    const message = of('wrong-names').cases[0]!.message;
    expect(message).toContain('next_state.txt: your program did not write it');
    expect(message).toContain('the files it wrote: "d:\\\\next_state.txt" (4 bytes), "out/traverse_log.txt" (17 bytes)');
  });

  it('a folder with nothing to run is an error beside the others, never a score', () => {
    const s = of('nothing');
    expect(s.score).toBe(0);
    expect(s.cases[0]).toMatchObject({ status: 'error', message: expect.stringContaining('nothing to run: looked for a `command` file') });
    expect(s.notes[0]).toMatch(/^not graded: .*nothing to run/);
  });
});

describe('csci561-grade with no submission it can load', () => {
  it('exits 2 naming what was looked for in each folder, before any run', async () => {
    const program = new Command('mancala').exitOverride();
    addCsci561GradeCommand(program, { out: () => {}, err: () => {} });
    const suite = join(PROJECT_ROOT, 'testcases', 'csci561-public');
    const run = program.parseAsync(['csci561-grade', fixture('nothing'), '--suite', suite], { from: 'user' });
    await expect(run).rejects.toThrow(new UserError(`no submission could be loaded: ${fixture('nothing')}: nothing to run: looked for a \`command\` file, a mancala.yaml (build: and run: lines), sources (*.java, *.cpp/*.cc, *.c, *.py), a Makefile, or one executable file; found notes.txt, README.md. ${courseHandIn('csci561')}`));
    await run.catch((e: UserError) => expect(e.exitCode).toBe(2));
  });
});

describe('a folder holding only a link to its program', () => {
  it('says the link was refused, never that the folder is empty, read directly and through csci561-grade', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'program-link-'));
    try {
      symlinkSync('/etc/passwd', join(dir, 'mancala3.py'));
      expect(() => readProgramSubmission(dir)).toThrow(/: nothing to run: looked for .*; found only mancala3\.py: a symbolic link \(refused\)$/);
      const program = new Command('mancala').exitOverride();
      addCsci561GradeCommand(program, { out: () => {}, err: () => {} });
      const run = program.parseAsync(['csci561-grade', dir, '--suite', join(PROJECT_ROOT, 'testcases', 'csci561-public')], { from: 'user' });
      await expect(run).rejects.toThrow(/found only mancala3\.py: a symbolic link \(refused\)/);
      await expect(run).rejects.not.toThrow(/the folder is empty/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
