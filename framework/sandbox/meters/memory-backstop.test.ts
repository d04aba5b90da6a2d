/**
 * The memory backstop (memory-backstop.ts) with the /proc polling meter forced, as on a machine
 * without usable cgroups (MANCALA_POLLING_METER=proc): every process runs under RLIMIT_DATA; a
 * fast allocator (C++ and Python) the poll does not see — the grader's thread held, as a reference
 * search or a report would hold it — is refused at the backstop with the verdict `memory` (without
 * the backstop it held 1 GB under a 128 MB limit and passed as `ok`); an honest program under the
 * limit, the JVM (java-ok, java-hog), Python and Java agents over stdio and TypeScript agents in
 * Node still start and get the verdicts they get under a cgroup.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backstopArgs, backstopBytes } from './memory-backstop.ts';
import { findExecutable, mechanisms, POLLING_METER_ENV } from '../jail/mechanisms.ts';
import { PROJECT_ROOT } from '../paths.ts';
import { runInSandbox, stageFiles, type ProgramResult, type StagedFiles } from '../programs/run.ts';
import { ZOO_SUITE } from '../../../testcases/fixtures/hostile-agents/zoo-suite.ts';

const MB = 1024 * 1024;
const HOSTILE = join(PROJECT_ROOT, 'testcases/fixtures/hostile-programs');
const prlimit = findExecutable('prlimit') !== undefined;
const gxx = findExecutable('g++') !== undefined;
const python = findExecutable('python3') !== undefined;
const javac = findExecutable('javac') !== undefined;

const work = mkdtempSync(join(tmpdir(), 'memory-backstop-test-'));
const staged: StagedFiles[] = [];
const forcedBefore = process.env[POLLING_METER_ENV];
beforeAll(() => {
  process.env[POLLING_METER_ENV] = 'proc';
});
afterAll(async () => {
  if (forcedBefore === undefined) delete process.env[POLLING_METER_ENV];
  else process.env[POLLING_METER_ENV] = forcedBefore;
  for (const s of staged) await s.dispose();
  rmSync(work, { recursive: true, force: true });
});

/** A hostile program's folder copied, `build` run in it, staged. */
async function program(name: string, build?: (dir: string) => void): Promise<StagedFiles> {
  const dir = join(work, `${name}-${staged.length}`);
  cpSync(join(HOSTILE, name), dir, { recursive: true });
  build?.(dir);
  const s = await stageFiles(dir);
  staged.push(s);
  return s;
}

const run = (files: StagedFiles, argv: string[], memoryMb: number, cpuMs = 20_000) =>
  runInSandbox({ files, argv, inputs: { 'input.txt': '2\n' }, outputs: ['out.txt', 'next_state.txt'], limits: { cpuMs, memoryBytes: memoryMb * MB } });

/**
 * Is `pid` running the program itself, a process whose command line has a word ending in `word`?
 * Not a process of the chain before it (bash, prlimit, bwrap, sh, setpriv): their command lines
 * name the program too, and the first of them, bash, becomes the jail's bwrap by exec, which a kept
 * jail keeps alive after the program until the grader (whose thread the test holds) ends it.
 */
function isProgram(pid: number, word: string): boolean {
  try {
    const words = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    return !/(^|\/)(sh|bash|bwrap|setpriv|prlimit)$/.test(words[0]!) && words.some((w) => w.endsWith(word)) && alive(pid);
  } catch {
    return false; // gone meanwhile
  }
}

/** The host pid of the running program (isProgram), if any. */
function findProcess(word: string): number | undefined {
  for (const entry of readdirSync('/proc')) if (/^\d+$/.test(entry) && isProgram(Number(entry), word)) return Number(entry);
  return undefined;
}

function alive(pid: number): boolean {
  try {
    return !/\) [ZX] /.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

const PAUSE_MS = 1500;

/**
 * Runs `argv` and, once its process is seen, holds this thread (the grader's: no poll runs) until
 * the process is gone or `holdMs` passed: an allocator faster than the poll, made certain. The
 * program sleeps `PAUSE_MS` before it allocates (its argument after the MB), so that it is seen
 * before it allocates however busy the machine (without the pause, a busy machine's fast
 * allocator was over before any look at /proc saw it).
 */
async function runWhileGraderBusy(files: StagedFiles, argv: string[], memoryMb: number, word: string, holdMs = 20_000): Promise<ProgramResult> {
  const result = run(files, [...argv, String(PAUSE_MS)], memoryMb);
  let pid: number | undefined;
  const began = performance.now();
  while (pid === undefined && performance.now() - began < 30_000) {
    await new Promise((r) => setTimeout(r, 5));
    pid = findProcess(word);
  }
  expect(pid, `${word} never seen running`).toBeDefined();
  const since = performance.now();
  const tick = new Int32Array(new SharedArrayBuffer(4));
  // Checked again each time: a pid that exec'd into something else is no longer the program.
  while (isProgram(pid!, word) && performance.now() - since < holdMs) Atomics.wait(tick, 0, 0, 10);
  return result;
}

/** The MB the allocator last said it held. */
const touchedMb = (r: ProgramResult) => Number([...r.stderr.matchAll(/touched (\d+) MB/g)].pop()?.[1] ?? 0);

describe('the size of the backstop', () => {
  it('is the limit, 64 MB and a quarter of the limit; none where a cgroup holds the limit', () => {
    expect(backstopBytes(512 * MB)).toBe(704 * MB);
    expect(backstopBytes(128 * MB)).toBe(224 * MB);
    expect(backstopArgs({ kernelLimited: false, memoryLimitBytes: 128 * MB })).toEqual([`--data=${224 * MB}`]);
    expect(backstopArgs({ kernelLimited: true, memoryLimitBytes: 128 * MB })).toEqual([]);
  });

  it.runIf(prlimit)("is every process's RLIMIT_DATA when memory is polled, and absent under a cgroup", async () => {
    const files = await program('java-ok');
    const limitsLine = async () => (await run(files, ['/bin/sh', '-c', 'grep "Max data size" /proc/self/limits > out.txt'], 128)).files['out.txt']!.toString();
    expect((await limitsLine()).split(/\s+/).slice(3, 5)).toEqual([String(224 * MB), String(224 * MB)]);
    if ((await mechanisms()).cgroups === undefined) return;
    delete process.env[POLLING_METER_ENV];
    try {
      expect((await limitsLine()).split(/\s+/).slice(3, 5)).toEqual(['unlimited', 'unlimited']);
    } finally {
      process.env[POLLING_METER_ENV] = 'proc';
    }
  });
});

describe.runIf(prlimit)('a fast allocator the poll does not see (the grader busy), under a 128 MB limit', () => {
  const limitMb = 128;
  const backstopMb = backstopBytes(limitMb * MB) / MB;

  it.runIf(gxx)('C++: refused at the backstop, std::bad_alloc, verdict memory; 64 MB under the limit still runs', async () => {
    const files = await program('fast-hog', (dir) => execFileSync('g++', ['-O1', '-o', join(dir, 'fast_hog'), join(dir, 'fast_hog.cpp')]));
    const r = await runWhileGraderBusy(files, ['./fast_hog', '1024'], limitMb, 'fast_hog');
    expect(r.status, r.message).toBe('memory');
    expect(r.message).toMatch(/^the program ran out of memory \(the limit is 128 MB; [^)]*\)[^]*std::bad_alloc/);
    expect(touchedMb(r)).toBeGreaterThanOrEqual(limitMb);
    expect(touchedMb(r)).toBeLessThanOrEqual(backstopMb);
    const honest = await run(files, ['./fast_hog', '64'], limitMb);
    expect(honest.status, honest.message).toBe('ok');
    expect(touchedMb(honest)).toBe(64);
  });

  it.runIf(python)('Python: refused at the backstop, MemoryError, verdict memory', async () => {
    const files = await program('fast-hog');
    const r = await runWhileGraderBusy(files, ['python3', 'fast_hog.py', '1024'], limitMb, 'fast_hog.py');
    expect(r.status, r.message).toBe('memory');
    expect(r.message).toMatch(/^the program ran out of memory \(the limit is 128 MB; [^)]*\)[^]*MemoryError/);
    expect(touchedMb(r)).toBeLessThanOrEqual(backstopMb);
  });
});

describe.runIf(prlimit && javac)('the JVM under the backstop', () => {
  it('java-ok starts and writes its files at 128, 256 and 512 MB; java-hog is a memory verdict', async () => {
    const ok = await program('java-ok', (dir) => execFileSync('javac', ['-d', dir, join(dir, 'Main.java')]));
    for (const memoryMb of [128, 256, 512]) {
      const r = await run(ok, ['java', 'Main'], memoryMb, 5000);
      expect({ memoryMb, status: r.status, message: r.message }).toEqual({ memoryMb, status: 'ok', message: '' });
      expect(r.files['next_state.txt']!.toString()).toBe('java 2\n');
    }
    const hog = await program('java-hog', (dir) => execFileSync('javac', ['-d', dir, join(dir, 'Hog.java')]));
    const r = await run(hog, ['java', 'Hog'], 256, 10_000);
    expect(r.status, r.message).toBe('memory');
    expect(r.message).toMatch(/OutOfMemoryError: Java heap space/);
  });
});

describe.runIf(prlimit)('agents under the backstop, through the command', () => {
  const mancala = (args: string[]) =>
    spawnSync(process.execPath, [join(PROJECT_ROOT, 'bin/mancala.js'), ...args], { encoding: 'utf8', timeout: 240_000, env: { ...process.env, [POLLING_METER_ENV]: 'proc' } });

  it('TypeScript in Node: alice passes, the buffer bomb is a memory verdict', () => {
    const suite = join(work, 'zoo-suite');
    for (const [file, text] of Object.entries(ZOO_SUITE)) {
      mkdirSync(dirname(join(suite, file)), { recursive: true });
      writeFileSync(join(suite, file), text);
    }
    expect(mancala(['suite', 'bless', suite]).status).toBe(0);
    const json = join(work, 'zoo.json');
    const r = mancala(['grade', join(PROJECT_ROOT, 'agents/examples/alice'), join(PROJECT_ROOT, 'testcases/fixtures/hostile-agents/buffer-bomb'), '--suite', suite, '--json', json, '--no-progress']);
    expect(r.stderr).toMatch(/polled from \/proc every 20 ms, each process's data capped at its memory limit plus a margin \(RLIMIT_DATA\)/);
    expect(r.status, r.stderr).toBe(0);
    const report = JSON.parse(readFileSync(json, 'utf8')) as { submissions: { id: string; cases: { status: string }[] }[] };
    expect(Object.fromEntries(report.submissions.map((s) => [s.id, [...new Set(s.cases.map((c) => c.status))]]))).toEqual({ alice: ['passed'], 'buffer-bomb': ['memory'] });
  }, 240_000);

  it.runIf(python && javac)('Python and Java over stdio: a match of python-greedy against java-greedy is played out', () => {
    const r = mancala(['match', join(PROJECT_ROOT, 'agents/examples/python-greedy'), join(PROJECT_ROOT, 'agents/examples/java-greedy'), '--games', '2', '--json']);
    expect(r.status, r.stderr).toBe(0);
    const games = (JSON.parse(r.stdout) as { games: { forfeit?: unknown }[] }).games;
    expect(games).toHaveLength(2);
    expect(games.filter((g) => g.forfeit !== undefined && g.forfeit !== null)).toEqual([]);
  }, 240_000);
});
