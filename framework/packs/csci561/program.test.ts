/**
 * Programs in any language (program.ts, compare.ts, grade-programs.ts): the command file, the
 * strict official comparison, the sandboxed run (time limit, crash, hidden grader folders,
 * left-over answers), and grading on csci561-public: the Python reference program gets full
 * marks; the same program with an extra line or an extra field in its files does not.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { UserError } from '../../errors.ts';
import { PROJECT_ROOT } from '../../sandbox/paths.ts';
import { loadSuite } from '../../suites/load.ts';
import { compareCaseFiles, compareLog, compareNextState } from './compare.ts';
import { gradePrograms, programCases } from './grade-programs.ts';
import { programIsolation, readProgramSubmission, runProgram, splitCommand } from './program.ts';

const work = mkdtempSync(join(tmpdir(), 'csci561-program-test-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
let made = 0;

/** A submission folder with a `command` file and other files. */
function submission(command: string, files: Record<string, string> = {}): string {
  const dir = join(work, `submission-${++made}`);
  mkdirSync(dir);
  writeFileSync(join(dir, 'command'), command + '\n');
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

const limits = { ms: 5000, memoryMb: 256 };
const INPUT = '2\n1\n2\n1 1 1\n3 0 1\n0\n0\n';

describe('the command file', () => {
  it('splits like a shell for plain words and quotes, nothing more', () => {
    expect(splitCommand('python3 mancala.py')).toEqual(['python3', 'mancala.py']);
    expect(splitCommand(`  java -cp "my dir" 'Main'  `)).toEqual(['java', '-cp', 'my dir', 'Main']);
    expect(splitCommand('a\\ b "x\\"y" ""')).toEqual(['a b', 'x"y', '']);
    expect(splitCommand('echo $HOME; rm -rf /')).toEqual(['echo', '$HOME;', 'rm', '-rf', '/']);
    expect(splitCommand('"open')).toBeUndefined();
  });

  it('is the first line that is not blank or a comment; a missing or empty one is one line naming it', () => {
    expect(readProgramSubmission(submission('# run me\n\n./a.out')).argv).toEqual(['./a.out']);
    const empty = submission('# nothing');
    expect(() => readProgramSubmission(empty)).toThrow(new UserError(`${empty}/command: expected the command that runs the program (e.g. "python3 mancala.py"), but the file has none`));
    expect(() => readProgramSubmission(work)).toThrow(/command: cannot read the command file: no such file/);
    expect(() => readProgramSubmission(submission('"x'))).toThrow(/command:1: a quote is not closed$/);
  });
});

describe('the official comparison, strict', () => {
  const state = '0 1 2\n3 4 5\n6\n7\n';
  it('next_state: lines trimmed, no line more or less, no field more', () => {
    expect(compareNextState(state, ' 0 1 2 \r\n3 4 5\n6\n7\n\n')).toEqual({ ok: true });
    expect(compareNextState(state, '0 1 2\n3 4 5\n6\n7\n0\n')).toEqual({ ok: false, message: 'next_state.txt line 5 (an extra line): expected nothing (the file ends), got "0"' });
    expect(compareNextState(state, '0 1 2 0\n3 4 5\n6\n7\n')).toEqual({ ok: false, message: 'next_state.txt line 1: expected "0 1 2", got "0 1 2 0"' });
    expect(compareNextState(state, '0 1 2\n3 4 5\n6\n')).toMatchObject({ ok: false, message: 'next_state.txt line 4: expected "7", got nothing (the file ends)' });
  });

  it('traverse_log: an OPTIONAL line printed with an infinity or left out; extra lines and fields fail', () => {
    const expected = 'Node,Depth,Value\nroot,0,-Infinity\nB6,1,+/-Infinity\tOPTIONAL\nB6,1,2\nroot,0,2\n';
    expect(compareLog(expected, 'Node,Depth,Value\nroot,0,-Infinity\nB6,1,2\nroot,0,2\n')).toEqual({ ok: true });
    expect(compareLog(expected, 'Node,Depth,Value\nroot,0,-Infinity\nB6,1,Infinity\nB6,1,2\nroot,0,2\n')).toEqual({ ok: true });
    expect(compareLog(expected, 'Node,Depth,Value\nroot,0,-Infinity\nB6,1,2\nroot,0,2\nroot,0,2\n')).toMatchObject({ ok: false, message: 'traverse_log.txt line 6 (an extra line): expected nothing (the file ends), got "root,0,2"' });
    expect(compareLog(expected, 'Node,Depth,Value\nroot,0,-Infinity\nB6,1,2,0\nroot,0,2\n')).toMatchObject({ ok: false, message: 'traverse_log.txt line 4 (lines differ): expected "B6,1,2", got "B6,1,2,0"' });
  });

  it('Greedy is judged on next_state.txt alone', () => {
    expect(compareCaseFiles({ task: 1, nextState: state }, { nextState: state, traverseLog: 'junk' })).toEqual([]);
    expect(compareCaseFiles({ task: 2, nextState: state, traverseLog: 'Node,Depth,Value\n' }, { nextState: state })).toEqual(['traverse_log.txt: your program did not write it']);
  });
});

describe('a run in the sandbox', () => {
  it("runs the command in a fresh folder holding input.txt and reads back the files it wrote", async () => {
    const sub = submission('sh run.sh', { 'run.sh': 'cp input.txt next_state.txt; printf "Node,Depth,Value\\n" > traverse_log.txt; echo hello' });
    const run = await runProgram(readProgramSubmission(sub), INPUT, limits);
    expect(run).toMatchObject({ status: 'ok', nextState: INPUT, traverseLog: 'Node,Depth,Value\n' });
  });

  it("answers left in the submission folder are not the run's", async () => {
    const sub = submission('true', { 'next_state.txt': '1 1 1\n', 'traverse_log.txt': 'old' });
    const run = await runProgram(readProgramSubmission(sub), INPUT, limits);
    expect(run.status).toBe('ok');
    expect(run.nextState).toBeUndefined();
    expect(run.traverseLog).toBeUndefined();
  });

  it('a crash is an error with the end of its stderr', async () => {
    const run = await runProgram(readProgramSubmission(submission(`sh -c 'echo line1 >&2; echo Traceback boom >&2; exit 3'`)), INPUT, limits);
    expect(run.status).toBe('error');
    expect(run.message).toBe('the program exited with code 3; its last words on stderr:\nline1\nTraceback boom');
  });

  it('a program over its time limit is killed, its background children with it', async () => {
    const begin = performance.now();
    const run = await runProgram(readProgramSubmission(submission(`sh -c 'sleep 31.7 & sleep 30'`)), INPUT, { ms: 300, memoryMb: 256 });
    expect(run.status).toBe('timeout');
    expect(run.message).toBe("no answer within the case's 300 ms limit: the program was killed");
    expect(performance.now() - begin).toBeLessThan(5000); // 300 ms, with a wide margin for a busy machine
    await new Promise((done) => setTimeout(done, 100));
    expect(execFileSync('ps', ['-eo', 'args'], { encoding: 'utf8' })).not.toContain('sleep 31.7');
  });

  it("cannot see the grader's folders (the project, the suite) where a mount namespace is available", async (ctx) => {
    const { notes } = await programIsolation();
    if (notes.some((n) => n.includes('mount namespace') || n.includes('unshare'))) ctx.skip();
    const suite = resolve(PROJECT_ROOT, '../shared');
    const script = `for f in "${PROJECT_ROOT}/package.json" "${suite}/DESIGN.md"; do if [ -e "$f" ]; then echo seen; else echo hidden; fi; done > next_state.txt`;
    const run = await runProgram(readProgramSubmission(submission('sh probe.sh', { 'probe.sh': script })), INPUT, limits, [suite]);
    expect(run.nextState).toBe('hidden\nhidden\n');
  });
});

const python = (() => {
  try {
    execFileSync('python3', ['--version'], { stdio: 'pipe' });
    return true;
  } catch {
    return false;
  }
})();
const reference = join(PROJECT_ROOT, 'agents/examples/csci561-reference/program');

describe('a run out of memory', () => {
  it.runIf(python)('an allocation over the address-space cap is a memory verdict', async () => {
    const run = await runProgram(readProgramSubmission(submission(`python3 -c 'x = bytearray(4 * 1024 ** 3)'`)), INPUT, limits);
    expect(run.status).toBe('memory');
    expect(run.message).toMatch(/^the program exited with code 1 \(out of memory: the limit is 256 MB\); its last words on stderr:\n[^]*MemoryError/);
  });
});

describe('grading programs on testcases/csci561-public', () => {
  if (!python) it.skip('python3 is not installed: the Python reference program cannot run (skipped)', () => {});

  it('every case gets an input.txt matching it and the reference files', async () => {
    const suite = await loadSuite(join(PROJECT_ROOT, 'testcases/csci561-public'));
    const cases = programCases(suite, suite.cases);
    expect(cases).toHaveLength(30);
    for (const pc of cases) {
      expect(pc.input).toBe(readFileSync(join(suite.manifest.dir, 'inputs', `${pc.c.id}.txt`), 'utf8'));
      expect(pc.expected.traverseLog === undefined).toBe(pc.expected.task === 1);
    }
  });

  it.runIf(python)('the Python reference program gets full marks (on half the cases); with an extra line or an extra field it does not', async () => {
    const suite = await loadSuite(join(PROJECT_ROOT, 'testcases/csci561-public'));
    const extraLine = join(work, 'extra-line');
    const extraField = join(work, 'extra-field');
    for (const [dir, command] of [
      [extraLine, `sh -c 'python3 mancala.py && echo 0 >> next_state.txt'`],
      [extraField, `sh -c 'python3 mancala.py && [ ! -f traverse_log.txt ] || sed -i "s/$/,0/" traverse_log.txt'`],
    ] as const) {
      cpSync(reference, dir, { recursive: true });
      writeFileSync(join(dir, 'command'), command + '\n');
    }
    // Every other case (a program run costs a process start; the cross-check below covers more positions).
    const half = { ...suite, cases: suite.cases.filter((_, i) => i % 2 === 0) };
    const [ok] = (await gradePrograms({ suite: half, submissions: [reference], visibility: 'all', jobs: 1 })).submissions;
    expect(ok!.cases.filter((c) => c.status !== 'passed').map((c) => `${c.id}: ${c.message}`)).toEqual([]);
    expect([ok!.cases.length, ok!.score]).toEqual([15, 30]);
    // The broken ones on two cases of each task.
    const some = { ...suite, cases: suite.cases.filter((c) => /-0[12]$|-d2-[12]$/.test(c.id)) };
    expect(some.cases).toHaveLength(6);
    const [line, field] = (await gradePrograms({ suite: some, submissions: [extraLine, extraField], visibility: 'all', jobs: 2 })).submissions;
    expect(line!.score).toBe(0);
    for (const c of line!.cases) expect(c.message, c.id).toMatch(/^next_state\.txt line 5 \(an extra line\): expected nothing \(the file ends\), got "0"\ninput\.txt \(/);
    // Greedy writes no log, so only Greedy passes with extra log fields.
    expect(field!.cases.filter((c) => c.status === 'passed').map((c) => c.category)).toEqual(['greedy', 'greedy']);
    for (const c of field!.cases.filter((c) => c.category !== 'greedy')) expect(c.message, c.id).toMatch(/^traverse_log\.txt line 1 \(lines differ\): expected "Node,Depth,Value(,Alpha,Beta)?", got "Node,Depth,Value(,Alpha,Beta)?,0"/);
  });
});

describe('the Python reference program, an independent implementation, against `mancala csci561`', () => {
  it.runIf(python)('agrees byte for byte on 15 generated inputs of 3 to 7 pits (optional lines omitted, as it does)', async () => {
    const { randomCsci561Input } = await import('./positions.ts');
    const { runCsci561 } = await import('./task.ts');
    const dir = join(work, 'python-cross-check');
    mkdirSync(dir);
    for (let seed = 2000; seed < 2015; seed++) {
      const { text } = randomCsci561Input(seed, { pits: 3 + (seed % 5) });
      rmSync(join(dir, 'traverse_log.txt'), { force: true });
      writeFileSync(join(dir, 'input.txt'), text);
      execFileSync('python3', [join(reference, 'mancala.py')], { cwd: dir, stdio: 'pipe' });
      const ours = await runCsci561(text, 'input.txt', { optionalLines: 'omit' });
      expect(readFileSync(join(dir, 'next_state.txt'), 'utf8'), `seed ${seed}\n${text}`).toBe(ours.files['next_state.txt']);
      const log = ours.files['traverse_log.txt'];
      if (log === undefined) continue;
      expect(readFileSync(join(dir, 'traverse_log.txt'), 'utf8'), `seed ${seed}\n${text}`).toBe(log);
    }
  });
});
