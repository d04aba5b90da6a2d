/**
 * A course's run lines as data (run-lines.ts): the format's mistakes as one line naming the field,
 * and the plan each file name gets: CSCI-561's shipped lines on the fixtures handed in as sources
 * (testcases/fixtures/csci561-as-handed-in), --run-args, a submission's own command overriding,
 * an instructor's own course declaring its line the same way.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { UserError } from '../../errors.ts';
import { CSCI561_RUN_LINES, programRunLines } from '../../packs/csci561/course-run-lines.ts';
import { readProgramSubmission } from '../../packs/csci561/program.ts';
import { PROJECT_ROOT } from '../paths.ts';
import { parseRunLines, readRunLines, RUN_LINES_FILE } from './run-lines.ts';

const FIXTURES = join(PROJECT_ROOT, 'testcases', 'fixtures', 'csci561-as-handed-in');
const course = { lines: readRunLines(CSCI561_RUN_LINES) };
const work = mkdtempSync(join(tmpdir(), 'run-lines-test-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe("CSCI-561's run lines", () => {
  it('say -i input.txt, and a language and version for each file name the course took', () => {
    expect(course.lines).toMatchObject({ course: 'CSCI-561', args: '-i input.txt' });
    expect(course.lines.programs.map((p) => [p.file, p.language, p.version])).toEqual([
      ['mancala.java', 'Java', "the grader's JDK"],
      ['mancala.cpp', 'C++', "the compiler's default standard"],
      ['mancala11.cpp', 'C++11', 'C++11'],
      ['mancala.py', 'Python', '2.7'],
      ['mancala3.py', 'Python', '3'],
    ]);
  });

  it('run each fixture handed in as sources the way the course did: Java by its qualified main class, several files built together, C++11, Python 2.7', () => {
    const plan = (name: string) => {
      const s = readProgramSubmission(join(FIXTURES, name), course);
      return { argv: s.argv, build: s.build };
    };
    expect(plan('java-args')).toEqual({ argv: ['java', '-cp', '.', 'mancala', '-i', 'input.txt'], build: 'javac -encoding UTF-8 -d . mancala.java' });
    expect(plan('java-package')).toEqual({ argv: ['java', '-cp', '.', 'hw2.mancala', '-i', 'input.txt'], build: 'javac -encoding UTF-8 -d . src/hw2/mancala.java' });
    expect(plan('java-several-files')).toEqual({ argv: ['java', '-cp', '.', 'mancala', '-i', 'input.txt'], build: 'javac -encoding UTF-8 -d . Board.java mancala.java Search.java' });
    expect(plan('cpp')).toEqual({ argv: ['./mancala', '-i', 'input.txt'], build: 'g++ -O2 -o mancala mancala.cpp' });
    expect(plan('cpp11')).toEqual({ argv: ['./mancala', '-i', 'input.txt'], build: 'g++ -O2 -std=c++11 -o mancala mancala11.cpp' });
    expect(plan('python2')).toEqual({ argv: ['python2.7', 'mancala.py', '-i', 'input.txt'], build: undefined });
    expect(plan('python3')).toEqual({ argv: ['python3', 'mancala3.py', '-i', 'input.txt'], build: undefined });
    expect(readProgramSubmission(join(FIXTURES, 'python2'), course)).toMatchObject({
      how: 'CSCI-561 ran mancala.py as Python 2.7: run `python2.7 mancala.py -i input.txt`',
      course: { course: 'CSCI-561', file: 'mancala.py', language: 'Python', version: '2.7' },
    });
  });

  it('--run-args replaces the arguments; a command file overrides the whole line; other names are inferred and run with the arguments', () => {
    expect(readProgramSubmission(join(FIXTURES, 'python3'), { ...course, args: '' }).argv).toEqual(['python3', 'mancala3.py']);
    expect(readProgramSubmission(join(FIXTURES, 'java-args'), { ...course, args: 'input.txt' }).argv).toEqual(['java', '-cp', '.', 'mancala', 'input.txt']);
    const own = mkdtempSync(join(work, 'own-'));
    writeFileSync(join(own, 'mancala.py'), 'print(1)\n');
    writeFileSync(join(own, 'command'), 'python3 mancala.py\n');
    expect(readProgramSubmission(own, course).argv).toEqual(['python3', 'mancala.py']);
    const other = mkdtempSync(join(work, 'other-'));
    writeFileSync(join(other, 'Solver.py'), 'print(1)\n');
    expect(readProgramSubmission(other, course)).toMatchObject({ argv: ['python3', 'Solver.py', '-i', 'input.txt'], how: expect.stringContaining("with CSCI-561's arguments `-i input.txt` (none of its file names") });
    // Mancala.java is mancala.java: students rarely keep the course's letter case.
    const upper = mkdtempSync(join(work, 'upper-'));
    writeFileSync(join(upper, 'Mancala.java'), 'public class Mancala { public static void main(String[] a) {} }\n');
    expect(readProgramSubmission(upper, course).argv).toEqual(['java', '-cp', '.', 'Mancala', '-i', 'input.txt']);
  });

  it('refuse a folder holding two programs the course would each have run, in one line', () => {
    const both = mkdtempSync(join(work, 'both-'));
    writeFileSync(join(both, 'mancala.cpp'), 'int main() {}\n');
    writeFileSync(join(both, 'mancala3.py'), 'print(1)\n');
    expect(() => readProgramSubmission(both, course)).toThrow(new UserError(`${both}: found mancala.cpp, mancala3.py: CSCI-561 runs one program, and each of these is one (mancala.cpp: C++; mancala3.py: Python); keep one, or say how to run it in mancala.yaml`));
  });
});

describe('the format', () => {
  it('names the file and the field of a mistake', () => {
    expect(() => parseRunLines('course: X\nprograms: []\n', 'r.yaml')).toThrow(new UserError('r.yaml: programs: expected at least one program (course:, args: and programs: with file:, language:, run: and optional version:, build:)'));
    expect(() => parseRunLines('course: X\nprograms:\n  - file: a.py\n    language: Python\n', 'r.yaml')).toThrow(/^r\.yaml: programs\.0\.run: /);
    expect(() => parseRunLines('course: X\nprograms:\n  - file: a.py\n    language: Python\n    run: python3 {file} {input}\n', 'r.yaml')).toThrow(/^r\.yaml: programs\.0\.run: unknown placeholder: expected \{file\}, \{sources\}, \{main\}, \{args\}/);
    expect(() => parseRunLines('course: X\nprograms:\n  - file: a.py\n    language: Python\n    run: x\n    cmd: y\n', 'r.yaml')).toThrow(/^r\.yaml: programs\.0: /);
    expect(() => parseRunLines('course: [', 'r.yaml')).toThrow(/^r\.yaml: not YAML: /);
  });

  it("lets an instructor's own course declare its lines: the suite folder's run-lines.yaml, or --run-lines FILE", () => {
    const suite = mkdtempSync(join(work, 'suite-'));
    writeFileSync(join(suite, RUN_LINES_FILE), 'course: CS 999\nargs: input.txt output.txt\nprograms:\n  - file: solve.rb\n    language: Ruby\n    run: ruby {file} {args}\n');
    expect(programRunLines(suite)).toMatchObject({ course: 'CS 999', source: join(suite, RUN_LINES_FILE) });
    expect(programRunLines(work).source).toBe(CSCI561_RUN_LINES);
    expect(programRunLines(work, join(suite, RUN_LINES_FILE)).course).toBe('CS 999');
    const ruby = mkdtempSync(join(work, 'ruby-'));
    writeFileSync(join(ruby, 'solve.rb'), 'puts 1\n');
    expect(readProgramSubmission(ruby, { lines: programRunLines(suite) }).argv).toEqual(['ruby', 'solve.rb', 'input.txt', 'output.txt']);
    expect(() => programRunLines(work, join(work, 'none.yaml'))).toThrow(new UserError(`${join(work, 'none.yaml')}: cannot read the run lines: ENOENT`));
  });
});
