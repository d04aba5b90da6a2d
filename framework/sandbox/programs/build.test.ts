/**
 * Builds of submissions that hold sources only: the plan inferred from the files (Java's package
 * and main, Python's __main__, C and C++, a Makefile, an executable, and what is ambiguous or
 * missing), the manifest, the archive a build comes back in (links refused), the head and tail
 * of a stream in a message, and real builds in the sandbox (gcc): the built files a run starts
 * from, and a compile error with the compiler's first and last lines.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { findExecutable } from '../jail/mechanisms.ts';
import { buildInSandbox } from './build.ts';
import { readUstar } from './build-archive.ts';
import { inferBuildPlan, parseManifest, runArgv, type SubmissionFile } from './build-plan.ts';
import { runInSandbox, stageFiles } from './run.ts';
import { headAndTail } from './verdict.ts';

const work = mkdtempSync(join(tmpdir(), 'program-build-test-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const file = (path: string, text?: string, executable = false): SubmissionFile => ({ path, executable, ...(text !== undefined ? { text } : {}) });
const JAVA_MAIN = 'public class X { public static void main(String[] args) {} }';

describe('the plan inferred from the files', () => {
  it('Java: javac on every source, then the class with main by its package name', () => {
    const plan = inferBuildPlan([
      file('src/mancala/Board.java', 'package mancala;\nclass Board {}'),
      file('src/mancala/Main.java', '// public static void main in a comment\npackage mancala;\npublic class Main {\n  public static void main(String[] a) {}\n}'),
      file('README.md'),
    ]);
    expect(plan).toEqual({
      build: 'javac -encoding UTF-8 -d . src/mancala/Board.java src/mancala/Main.java',
      run: ['java', '-cp', '.', 'mancala.Main'],
      why: 'Java sources: javac, then java mancala.Main (the class with main, in package mancala)',
    });
    expect(inferBuildPlan([file('Main.java', JAVA_MAIN)])).toMatchObject({ run: ['java', '-cp', '.', 'Main'] });
  });

  it('Java: two mains, or none, is a message naming the files', () => {
    const two = inferBuildPlan([file('A.java', JAVA_MAIN), file('B.java', JAVA_MAIN)]);
    expect(two).toEqual({ problem: 'found Java sources (A.java, B.java) but A.java, B.java each have `public static void main`: say which to run in mancala.yaml (run: java -cp . pkg.Main)' });
    expect(inferBuildPlan([file('A.java', 'class A { /* public static void main( */ }')])).toMatchObject({ problem: expect.stringContaining('none of them has `public static void main`') });
  });

  it('Python: the one file, or the one with `if __name__ == "__main__":`', () => {
    expect(inferBuildPlan([file('solve.py', 'print(1)')])).toEqual({ run: ['python3', 'solve.py'], why: 'Python: python3 solve.py' });
    const two = [file('board.py', 'X = 1'), file('main.py', "if __name__ == '__main__':\n  run()")];
    expect(inferBuildPlan(two)).toMatchObject({ run: ['python3', 'main.py'] });
    expect(inferBuildPlan([file('a.py', ''), file('b.py', '')])).toMatchObject({ problem: expect.stringMatching(/^found Python files \(a\.py, b\.py\) and none has/) });
  });

  it('C++ and C: compiled to one program, names quoted for the shell', () => {
    expect(inferBuildPlan([file('main.cpp'), file("my board.cc")])).toEqual({
      build: "g++ -O2 -std=c++17 -o mancala-program main.cpp 'my board.cc'",
      run: ['./mancala-program'],
      why: 'C++ sources: g++, then ./mancala-program',
    });
    expect(inferBuildPlan([file('hw.c')])).toMatchObject({ build: 'gcc -O2 -std=c11 -o mancala-program hw.c -lm' });
  });

  it('sources of two kinds, a Makefile, several executables: a message saying what was found and what to write', () => {
    expect(inferBuildPlan([file('Main.java', JAVA_MAIN), file('main.py')])).toEqual({ problem: 'found sources of 2 kinds (java: Main.java; Python: main.py): say how to build and run in mancala.yaml' });
    expect(inferBuildPlan([file('Makefile'), file('a.cpp')])).toMatchObject({ problem: expect.stringMatching(/^found a Makefile \(and C\+\+ sources\).*\(run: \.\/program; make is then the build\)$/) });
    expect(inferBuildPlan([file('run', undefined, true)])).toEqual({ run: ['./run'], why: 'one executable file: ./run' });
    expect(inferBuildPlan([file('a', undefined, true), file('b', undefined, true)])).toMatchObject({ problem: expect.stringContaining('found 2 executable files (a, b)') });
  });

  it('nothing runnable: what was looked for and a few of the files found', () => {
    const files = ['a.txt', 'b.txt', 'c.txt', 'd.txt', 'e.txt', 'f.txt', 'g.txt', 'h.txt'].map((p) => file(p));
    expect(inferBuildPlan(files)).toEqual({
      problem: 'nothing to run: looked for a `command` file, a mancala.yaml (build: and run: lines), sources (*.java, *.cpp/*.cc, *.c, *.py), a Makefile, or one executable file; found a.txt, b.txt, c.txt, d.txt, e.txt, f.txt and 2 more',
    });
    expect(inferBuildPlan([])).toMatchObject({ problem: expect.stringMatching(/found nothing \(the folder is empty\)$/) });
  });
});

describe('the manifest, mancala.yaml', () => {
  it('build: and run: shell lines; a plain run line is run as words (its runtime start-up left out)', () => {
    expect(parseManifest('build: javac -d out src/*.java\nrun: java -cp out mancala.Main\n', 'mancala.yaml')).toEqual({
      build: 'javac -d out src/*.java',
      run: ['java', '-cp', 'out', 'mancala.Main'],
      why: 'mancala.yaml: build: javac -d out src/*.java; run: java -cp out mancala.Main',
    });
    expect(runArgv('cd bin && ./solve')).toEqual(['sh', '-c', 'cd bin && ./solve']);
    expect(runArgv(`python3 "my main.py"`)).toEqual(['python3', 'my main.py']);
  });

  it('a missing run line, an unknown field, a list: one line naming the file and the field', () => {
    expect(parseManifest('build: make\n', 'mancala.yaml')).toEqual({ problem: 'mancala.yaml: run: missing: expected the line that runs the program, e.g. "python3 main.py"' });
    expect(parseManifest('run: ./a\ncompile: make\n', 'mancala.yaml')).toEqual({ problem: 'mancala.yaml: unknown field compile: expected build:, run: and, for an agent over stdio, protocol:' });
    expect(parseManifest('run: [a, b]\n', 'mancala.yaml')).toMatchObject({ problem: expect.stringMatching(/^mancala.yaml: run: expected one shell line/) });
    expect(parseManifest('- run\n', 'mancala.yaml')).toMatchObject({ problem: 'mancala.yaml: expected lines "build: …" and "run: …" (and "protocol: 1" for an agent over stdio)' });
  });

  it('protocol: a version of the stdio protocol makes it an agent over stdio; another version, or not a number, is refused', () => {
    expect(parseManifest('protocol: 1\nrun: python3 agent.py\n', 'mancala.yaml')).toEqual({ run: ['python3', 'agent.py'], protocol: 1, why: 'mancala.yaml: protocol: 1; run: python3 agent.py' });
    expect(parseManifest('protocol: 2\nrun: ./a\n', 'mancala.yaml')).toEqual({ problem: 'mancala.yaml: protocol: this grader speaks protocol 1, got 2' });
    expect(parseManifest('protocol: "1"\nrun: ./a\n', 'mancala.yaml')).toEqual({ problem: 'mancala.yaml: protocol: expected a version of the stdio protocol (1), got "1"' });
  });
});

describe('the archive a build comes back in', () => {
  it('plain files and folders are read; a link, or a name with .., refuses the whole archive', () => {
    const dir = join(work, 'archive');
    mkdirSync(join(dir, 'bin'), { recursive: true });
    writeFileSync(join(dir, 'bin', 'prog'), 'x', { mode: 0o755 });
    const tar = (...names: string[]) => execFileSync('tar', ['--format=ustar', '-cf', '-', '-C', dir, ...names]);
    expect(readUstar(tar('bin'))).toEqual([
      { path: 'bin', kind: 'dir', executable: false, data: Buffer.alloc(0) },
      { path: 'bin/prog', kind: 'file', executable: true, data: Buffer.from('x') },
    ]);
    symlinkSync('/etc/passwd', join(dir, 'link'));
    expect(readUstar(tar('link'))).toEqual({ problem: 'link: a link or special file (type "2")' });
    const dotdot = tar('bin/prog');
    dotdot.write('../evil\0', 0, 'latin1');
    expect(readUstar(dotdot)).toEqual({ problem: '../evil: not a plain relative name' });
  });
});

describe('a message shows the head and the tail of a stream', () => {
  it('all of a short stream; of a long one, the first and last lines and how many were left out', () => {
    expect(headAndTail('Picked up JAVA_TOOL_OPTIONS: -Xmx1m\nboom\n', 40)).toEqual(['boom']);
    const lines = Array.from({ length: 50 }, (_, i) => `line ${i + 1}`).join('\n');
    const shown = headAndTail(lines, lines.length);
    expect(shown.slice(0, 2)).toEqual(['line 1', 'line 2']);
    expect(shown[20]).toBe('[… 10 lines left out …]');
    expect(shown.at(-1)).toBe('line 50');
    expect(headAndTail('end\n', 10_000)[0]).toBe('[… its first 9996 bytes were not kept …]');
  });
});

describe.runIf(findExecutable('gcc') !== undefined)('a build in the sandbox', () => {
  it('runs once; the cases start from its files (the program it built beside the sources)', async () => {
    const dir = join(work, 'c-ok');
    mkdirSync(dir);
    writeFileSync(join(dir, 'main.c'), '#include <stdio.h>\nint main(void) { FILE *f = fopen("out.txt", "w"); fputs("built\\n", f); return fclose(f); }\n');
    const files = await stageFiles(dir);
    const built = await buildInSandbox(files, 'gcc -O2 -o prog main.c', 'full');
    await files.dispose();
    if (!built.ok) throw new Error(built.message);
    try {
      expect(readFileSync(join(built.files.dir, 'main.c'), 'utf8')).toContain('int main');
      const r = await runInSandbox({ files: built.files, argv: ['./prog'], inputs: {}, outputs: ['out.txt'], limits: { cpuMs: 2000, memoryBytes: 256 * 1024 * 1024 } });
      expect(r.status).toBe('ok');
      expect(r.files['out.txt']?.toString()).toBe('built\n');
    } finally {
      await built.files.dispose();
    }
  });

  it("a compile error is the compiler's first and last lines, however many it printed", async () => {
    const dir = join(work, 'c-bad');
    mkdirSync(dir);
    // 30 broken statements: more errors than a head and a tail hold.
    writeFileSync(join(dir, 'main.c'), `int main(void) {\n${Array.from({ length: 30 }, (_, i) => `  undeclared_${i} = 1;\n`).join('')}}\n`);
    const files = await stageFiles(dir);
    try {
      const built = await buildInSandbox(files, 'gcc -o prog main.c', 'full');
      expect(built.ok).toBe(false);
      const message = built.ok ? '' : built.message;
      expect(message).toMatch(/^compile error: main\.c: In function .main.: \(`gcc -o prog main.c` exited with code 1\):\nmain\.c: In function/);
      expect(message).toMatch(/.undeclared_0. undeclared/);
      expect(message).toMatch(/\[… \d+ lines left out …\]/);
      expect(message).toMatch(/.undeclared_29. undeclared[^]*$/);
    } finally {
      await files.dispose();
    }
  });
});
