/**
 * Programs in any language (program.ts, compare.ts, grade-programs.ts): the command file, the
 * strict official comparison, the sandboxed run (CPU-time limit and wall-clock backstop, crash,
 * an allow-list file system, left-over answers, memory in Python and Java), grading on
 * csci561-public (the Python reference program gets full marks; the same program with an extra
 * line or an extra field does not), and hostile programs graded beside honest ones
 * (testcases/fixtures/hostile-programs): each test checks the verdict and that nothing leaked.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { UserError } from '../../errors.ts';
import { findExecutable } from '../../sandbox/jail/mechanisms.ts';
import { PROJECT_ROOT } from '../../sandbox/paths.ts';
import { loadSuite } from '../../suites/load.ts';
import type { Suite } from '../../suites/types.ts';
import { compareCaseFiles, compareLog, compareNextState } from './compare.ts';
import { gradePrograms, gradeProgramsWithRuns, programCases } from './grade-programs.ts';
import { programSandbox, readProgramSubmission, runProgram, splitCommand } from './program.ts';

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
    expect(() => readProgramSubmission(mkdtempSync(join(work, 'empty-')))).toThrow(/nothing to run: looked for a `command` file[^]*found nothing \(the folder is empty\)$/);
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
  it('runs the command in a fresh folder holding input.txt and reads back the files it wrote', async () => {
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
    expect(run.message).toBe('the program exited with code 3; on stderr:\nline1\nTraceback boom');
  });

  it('a command whose program the grader does not have is one line saying so', async () => {
    const run = await runProgram(readProgramSubmission(submission('no-such-runtime-561 main.x')), INPUT, limits);
    expect(run).toMatchObject({ status: 'error', message: 'cannot run the command: no-such-runtime-561: no such program on the grader (is the runtime installed?)' });
  });

  it('a CPU spinner is stopped at its CPU-time limit, with the figure', async () => {
    const run = await runProgram(readProgramSubmission(submission(`sh -c 'while :; do :; done'`)), INPUT, { ms: 300, memoryMb: 256 });
    expect(run.status).toBe('timeout');
    expect(run.message).toMatch(/^the program used more than its 300 ms of CPU time \(\d+ ms, start-up not counted\) and was killed$/);
    expect(run.cpuMs).toBeGreaterThanOrEqual(300);
  });

  it('a program that sleeps is stopped by the wall-clock backstop, its background children with it', async () => {
    const begin = performance.now();
    const run = await runProgram(readProgramSubmission(submission(`sh -c 'sleep 31.7 & sleep 30'`)), INPUT, { ms: 300, memoryMb: 256 });
    expect(run.status).toBe('timeout');
    expect(run.message).toMatch(/^the program was still running after \d+\.\d s of wall-clock time \(\d+ ms of CPU time; the limit is 300 ms of CPU time\) and was killed/);
    // The backstop is 3 × 300 ms + 3 s; a generous margin for a busy machine.
    expect(performance.now() - begin).toBeLessThan(15_000);
    expect(execFileSync('ps', ['-eo', 'args'], { encoding: 'utf8' })).not.toContain('sleep 31.7');
  });

  it("sees only the system, its own folder and a private /tmp: not the project, the suites, ../shared or the grader's /tmp", async () => {
    const suite = resolve(PROJECT_ROOT, '../shared');
    const paths = [join(PROJECT_ROOT, 'package.json'), join(PROJECT_ROOT, 'testcases/csci561-public/expected.json'), suite, work];
    const script = `for f in ${paths.map((p) => `"${p}"`).join(' ')}; do if [ -e "$f" ]; then echo seen; else echo hidden; fi; done > next_state.txt; id -u >> next_state.txt`;
    const run = await runProgram(readProgramSubmission(submission('sh probe.sh', { 'probe.sh': script })), INPUT, limits);
    expect(run.nextState).toBe('hidden\nhidden\nhidden\nhidden\n65534\n');
  });

  it('reports how programs are confined, with the start-ups measured so far', async () => {
    const { isolation } = await programSandbox('full');
    expect(isolation.network).toBe(true);
    expect(isolation.note).toMatch(/^sandbox: bubblewrap .*Time limits count the CPU time of the program's whole process tree/);
  });
});

const python = findExecutable('python3') !== undefined;
const javac = findExecutable('javac') !== undefined;
const reference = join(PROJECT_ROOT, 'agents/examples/csci561-reference/program');
const HOSTILE = join(PROJECT_ROOT, 'testcases/fixtures/hostile-programs');

/** A copy of a hostile program (testcases/fixtures/hostile-programs/NAME), to add files to. */
function hostile(name: string): string {
  const dir = join(work, `${name}-${++made}`);
  cpSync(join(HOSTILE, name), dir, { recursive: true });
  return dir;
}

describe('a run out of memory', () => {
  it.runIf(python)('Python allocating past the limit is a memory verdict naming the limit', async () => {
    const run = await runProgram(readProgramSubmission(hostile('memory-hog')), INPUT, limits);
    expect(run.status).toBe('memory');
    expect(run.message).toMatch(/^the program ran out of memory \(the limit is 256 MB; it held \d+(\.\d)? MB\)/);
  });

  if (!javac) it.skip('javac is not installed (Debian: default-jdk-headless): the Java programs cannot be compiled (skipped)', () => {});

  it.runIf(javac)('a Java program starts and writes its files under the suite\'s 512 MB; one filling its heap is a memory verdict', async () => {
    const ok = hostile('java-ok');
    const hog = hostile('java-hog');
    execFileSync('javac', ['-d', ok, join(ok, 'Main.java')]);
    execFileSync('javac', ['-d', hog, join(hog, 'Hog.java')]);
    const run = await runProgram(readProgramSubmission(ok), INPUT, { ms: 2000, memoryMb: 512 });
    expect(run).toMatchObject({ status: 'ok', nextState: 'java 2\n', traverseLog: 'Node,Depth,Value\n' });
    expect(run.startupMs).toBeGreaterThan(0);
    const out = await runProgram(readProgramSubmission(hog), INPUT, { ms: 5000, memoryMb: 512 });
    expect(out.status).toBe('memory');
    expect(out.message).toMatch(/^the program ran out of memory \(the limit is 512 MB[^]*OutOfMemoryError: Java heap space/);
    expect(out.message).not.toContain('JAVA_TOOL_OPTIONS');
  });
});

describe('a Python 2 program', () => {
  it.runIf(python)('is an error that quotes Python 3 and says it looks like Python 2, with --python PATH', async () => {
    const dir = join(work, `python2-${++made}`);
    mkdirSync(dir);
    writeFileSync(join(dir, 'mancala.py'), 'print "thinking"\n');
    writeFileSync(join(dir, 'command'), 'python3 mancala.py\n');
    const run = await runProgram(readProgramSubmission(dir), INPUT, limits);
    expect(run.status).toBe('error');
    expect(run.message).toMatch(/^the program exited with code 1; on stderr:[^]*Missing parentheses in call to 'print'[^]*\nThis looks like Python 2 code, which Python 3 cannot run [^]*--python PATH/);
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

describe('hostile programs graded beside honest ones', () => {
  if (!python) it.skip('python3 is not installed: the hostile Python programs cannot run (skipped)', () => {});

  /** csci561-public cut to `count` cases, taken evenly from its three tasks. */
  async function someCases(count: number): Promise<Suite> {
    const suite = await loadSuite(join(PROJECT_ROOT, 'testcases/csci561-public'));
    const step = Math.floor(suite.cases.length / count);
    return { ...suite, cases: suite.cases.filter((_, i) => i % step === 0).slice(0, count) };
  }

  it.runIf(python)("cannot read a suite's answers, write outside its sandbox, list ../shared, reach the network or touch another submission", async () => {
    const canary = `canary-${randomBytes(12).toString('hex')}`;
    const marker = `snoop-${randomBytes(6).toString('hex')}`;
    // A second copy of the project, outside any submission, with a hidden suite's answers.
    const secret = join(work, 'project-copy/testcases/secret-suite/expected.json');
    mkdirSync(join(secret, '..'), { recursive: true });
    writeFileSync(secret, JSON.stringify({ answer: canary }));
    const neighbour = join(work, 'neighbour');
    cpSync(reference, neighbour, { recursive: true });
    const neighbourCommand = readFileSync(join(neighbour, 'command'), 'utf8');
    let connections = 0;
    const server = createServer((socket) => {
      connections++;
      socket.destroy();
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    const port = (server.address() as { port: number }).port;
    try {
      const snoop = hostile('snoop');
      const targets = { canary: secret, marker, project: PROJECT_ROOT, shared: resolve(PROJECT_ROOT, '../shared'), neighbour: join(neighbour, 'command'), port };
      writeFileSync(join(snoop, 'targets.json'), JSON.stringify(targets));

      // What each attempt got, in full (the report shows only the first differing line).
      const run = await runProgram(readProgramSubmission(snoop), INPUT, limits);
      expect(run.status).toBe('ok');
      const lines = run.nextState!.trimEnd().split('\n');
      for (const attempt of ['read canary', 'list suite', 'write project', 'list shared', 'append neighbour', 'connect']) {
        expect(lines.find((l) => l.startsWith(`${attempt}:`)), attempt).toMatch(/: refused \(\w+\)$/);
      }

      // Graded in one run beside the neighbour it attacks.
      const report = await gradePrograms({ suite: await someCases(4), submissions: [snoop, neighbour], visibility: 'all', jobs: 2 });
      const [attacker, victim] = report.submissions;
      expect(attacker!.score).toBe(0);
      expect(victim!.cases.filter((c) => c.status !== 'passed').map((c) => `${c.id}: ${c.message}`)).toEqual([]);
      expect(victim!.score).toBe(victim!.maxScore);
      expect(JSON.stringify(report)).not.toContain(canary);
      expect(run.nextState).not.toContain(canary);
      expect(readFileSync(join(neighbour, 'command'), 'utf8')).toBe(neighbourCommand);
      expect(existsSync(join(tmpdir(), marker))).toBe(false);
      expect(existsSync(join(PROJECT_ROOT, marker))).toBe(false);
      expect(connections).toBe(0);
    } finally {
      server.close();
    }
  });

  it("a case's jail, started while the case before it ran, holds nothing that case left: no file in its folder or /tmp, no process", async () => {
    // Each case lists what it sees, then leaves files and a background process behind.
    const leaver = submission(
      `sh -c 'left=$(ls -A . /tmp | grep -c left-behind); sleeps=$(cat /proc/[0-9]*/cmdline | tr "\\0" " " | grep -o "sleep 23[.]5" | wc -l); echo "$left $sleeps" > next_state.txt; echo x > /tmp/left-behind; echo x > left-behind; s=23; (sleep $s.5 &); exit 0'`,
    );
    const grading = await gradeProgramsWithRuns({ suite: await someCases(4), submissions: [leaver], visibility: 'all', jobs: 1, keepFailures: true });
    const seen = grading.programs[0]!.failed.map((f) => f.nextState?.text);
    // Nothing left behind by the case before: no such file, no such process.
    expect(seen).toEqual(Array(4).fill('0 0\n'));
    expect(execFileSync('ps', ['-eo', 'args'], { encoding: 'utf8' })).not.toContain('sleep 23.5');
  });

  it.runIf(python)("a 2 GB next_state.txt and a flood on stdout are an output limit, graded beside the reference, and the grader's memory stays flat", async () => {
    const suite = await someCases(3);
    const writer = hostile('big-writer');
    const rssBefore = process.memoryUsage().rss;
    const report = await gradePrograms({ suite, submissions: [writer, reference], visibility: 'all', jobs: 2 });
    const grown = process.memoryUsage().rss - rssBefore;
    const [big, ok] = report.submissions;
    for (const c of big!.cases) {
      expect(c.status, c.id).toBe('output-limit');
      expect(c.message, c.id).toMatch(/^the program wrote more than 8 MB to stdout and stderr \(\d+(\.\d)? MB by then\) and was stopped/);
    }
    expect(ok!.score).toBe(ok!.maxScore);
    expect(grown).toBeLessThan(200 * 1024 * 1024);
  });

  it.runIf(python)('a fork bomb is held by the process limit, stopped at its CPU time, and leaves no process behind', async () => {
    // Memory far above what 128 forked interpreters take (their pages shared until written): the
    // verdict is the CPU time's, not a race between the two limits on a busy machine.
    const run = await runProgram(readProgramSubmission(hostile('fork-bomb')), INPUT, { ms: 500, memoryMb: 2048 });
    expect(run.status, `${run.message} (peak ${(run.peakMemoryBytes / 2 ** 20).toFixed(0)} MB)`).toBe('timeout');
    expect(run.message).toMatch(/^the program used more than its 500 ms of CPU time/);
    expect(execFileSync('ps', ['-eo', 'args'], { encoding: 'utf8' })).not.toContain('bomb.py');
  });

  it.runIf(python)('the reference gets the same verdicts, with the suite\'s own limits, on an idle machine and with both cores kept busy', async () => {
    const suite = await someCases(8);
    const verdicts = async () => (await gradePrograms({ suite, submissions: [reference], visibility: 'all', jobs: 1 })).submissions[0]!.cases.map((c) => `${c.id}: ${c.status}`);
    const idle = await verdicts();
    expect(idle.every((v) => v.endsWith(': passed')), idle.join('\n')).toBe(true);
    const spinners: ChildProcess[] = [];
    try {
      for (let i = 0; i < 3; i++) spinners.push(spawn('/bin/sh', ['-c', 'while :; do :; done'], { stdio: 'ignore' }));
      expect(await verdicts()).toEqual(idle);
    } finally {
      for (const s of spinners) s.kill('SIGKILL');
    }
  });
});
