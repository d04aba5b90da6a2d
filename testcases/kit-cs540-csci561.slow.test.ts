/**
 * The CS540 (Java) and CSCI-561 (C++/Java/Python programs) student kits, used as a student would:
 * `mancala kit <course> --out DIR`, `npm ci`, then `npm run check -- --json` on the starter as
 * shipped and on a finished solution of the project's own in the course's language (CS540: the
 * alphaPlayer fixture; CSCI-561: the starter with its four functions written, finish-starter.py). Each check is
 * compared with the instructor's command in this repository on the same files (`mancala gauntlet`,
 * `mancala csci561-grade`): the same verdict on every case both ran. An unfinished starter must
 * read as failed cases naming what to write, never as errors; the starters of CSCI-561's other
 * languages (and their other names: mancala.py, mancala11.cpp) too. Where bubblewrap is installed
 * both run in it. (testcases/kit.slow.test.ts scans every kit for reference code.)
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const MANCALA = join(ROOT, 'bin/mancala.js');
const work = mkdtempSync(join(tmpdir(), 'kit-java-cpp-test-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const has = (tool: string, ...args: string[]) => spawnSync(tool, args).status === 0;
const JDK = has('javac', '-version') && has('java', '-version');
const GXX = has('g++', '--version');
const PYTHON2 = ['python2.7', join(process.env.PYENV_ROOT ?? join(process.env.HOME ?? '', '.pyenv'), 'versions/2.7.18/bin/python2.7')].find((p) => has(p, '--version'));

interface CaseResult {
  id: string;
  status: string;
  message: string;
}

/** The cases of a JSON report (grade's or gauntlet's), by id. */
function casesOf(file: string): Map<string, CaseResult> {
  const json = JSON.parse(readFileSync(file, 'utf8')) as { submissions: { cases: CaseResult[] }[] };
  expect(json.submissions).toHaveLength(1);
  return new Map(json.submissions[0]!.cases.map((c) => [c.id, c]));
}

/** Builds the course's kit and installs it, saying how big it is and how long each step took; returns its folder. */
function makeKit(course: string): string {
  const dir = join(work, course);
  let t = Date.now();
  execFileSync(process.execPath, [MANCALA, 'kit', course, '--out', dir], { stdio: 'ignore', timeout: 600_000 });
  const buildS = (Date.now() - t) / 1000;
  const files = (readdirSync(dir, { recursive: true }) as string[]).map((f) => join(dir, String(f))).filter((f) => statSync(f).isFile());
  const kb = files.reduce((sum, f) => sum + statSync(f).size, 0) / 1024;
  t = Date.now();
  execFileSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: dir, stdio: 'ignore', timeout: 600_000 });
  console.log(`${course} kit: ${files.length} files, ${kb.toFixed(0)} KB; built in ${buildS.toFixed(1)} s, npm ci in ${((Date.now() - t) / 1000).toFixed(1)} s`);
  return dir;
}

/** `npm run check -- --json` in the kit, with `agent/` made of `files` (the starter when undefined). */
/** `npm run check` in the kit: it exits 1 when a public check fails, in every course (0 when all pass). */
function kitCheck(kit: string, name: string, files?: Record<string, string>, exit = files === undefined ? 1 : 0): Map<string, CaseResult> {
  const agent = join(kit, 'agent');
  const shipped = join(work, `${name}-shipped-agent`);
  cpSync(agent, shipped, { recursive: true });
  try {
    if (files !== undefined) {
      for (const f of readdirSync(agent)) if (/\.(java|py|cpp)$/.test(f) && !['Player.java', 'GameState.java'].includes(f)) rmSync(join(agent, f));
      for (const [to, from] of Object.entries(files)) cpSync(from, join(agent, to));
    }
    const report = join(work, `${name}-kit.json`);
    const t = Date.now();
    const r = spawnSync('npm', ['run', 'check', '--', '--json', report], { cwd: kit, encoding: 'utf8', timeout: 900_000 });
    console.log(`${name}: npm run check took ${((Date.now() - t) / 1000).toFixed(1)} s`);
    expect(r.status, r.stderr).toBe(exit);
    cpSync(agent, join(work, `${name}-checked-agent`), { recursive: true });
    return casesOf(report);
  } finally {
    rmSync(agent, { recursive: true, force: true });
    renameSync(shipped, agent);
  }
}

/** The instructor's command in this repository, on a folder: its report's cases. */
function repoGrade(name: string, args: string[]): Map<string, CaseResult> {
  const report = join(work, `${name}-repo.json`);
  const r = spawnSync(process.execPath, [MANCALA, ...args, '--json', report], { cwd: ROOT, encoding: 'utf8', timeout: 900_000 });
  expect(r.status, r.stderr).toBe(0);
  return casesOf(report);
}

/** The same cases with the same status in both reports. */
function expectSameVerdicts(kit: Map<string, CaseResult>, repo: Map<string, CaseResult>): void {
  const ids = [...kit.keys()];
  expect(ids.length).toBeGreaterThan(0);
  for (const id of ids) expect(repo.get(id)?.status, `${id} in the repo's report`).toBe(kit.get(id)!.status);
}

function expectUnfinished(cases: Map<string, CaseResult>, naming: RegExp): void {
  for (const c of cases.values()) {
    expect(c.status, `${c.id}: ${c.message}`).toBe('failed');
    expect(c.message, c.id).toMatch(naming);
  }
}

describe.runIf(JDK)('the CS540 kit: studPlayer.java with the course\'s Player and GameState', () => {
  let kit: string;
  const GAUNTLET = ['--stones', '4', '--time-per-move', '500', '--games', '2'];
  beforeAll(() => {
    kit = makeKit('cs540');
  }, 1_200_000);

  it('agent/ holds the course\'s files: the skeleton to fill and the project\'s Player and GameState, no TypeScript', () => {
    expect(readdirSync(join(kit, 'agent')).sort()).toEqual(['GameState.java', 'Player.java', 'README.md', 'studPlayer.java']);
    expect(readFileSync(join(kit, 'agent/Player.java'), 'utf8')).toBe(readFileSync(join(ROOT, 'agents/clients/cs540/Player.java'), 'utf8'));
    expect(JSON.parse(readFileSync(join(kit, 'package.json'), 'utf8')).scripts.check).toBe(`node mancala.mjs gauntlet agent ${GAUNTLET.join(' ')} --check`);
  });

  it('the starter as shipped: lost games, failed (not error), naming the function to write; the same verdicts as the repo\'s gauntlet', () => {
    const inKit = kitCheck(kit, 'cs540-starter');
    expectUnfinished(inKit, /not written yet: studPlayer\.move\(GameState state\)/);
    const repo = repoGrade('cs540-starter', ['gauntlet', join(work, 'cs540-starter-checked-agent'), ...GAUNTLET]);
    expectUnfinished(repo, /not written yet: studPlayer\.move/);
    expectSameVerdicts(inKit, repo);
  }, 1_200_000);

  it('a finished player (the alphaPlayer fixture) beats random and simple in the kit, full marks, as in the repo\'s gauntlet', () => {
    const inKit = kitCheck(kit, 'cs540-finished', { 'alphaPlayer.java': join(ROOT, 'testcases/fixtures/course-apis/cs540/alphaPlayer/alphaPlayer.java') });
    // The kit fields random and simple (a one-ply loop, no reference search); advanced, the bonus, is the instructor's.
    expect([...inKit.keys()]).toEqual(['vs-random', 'vs-simple']);
    expect([...inKit.values()].map((c) => c.status)).toEqual(['passed', 'passed']);
    const repo = repoGrade('cs540-finished', ['gauntlet', join(work, 'cs540-finished-checked-agent'), ...GAUNTLET]);
    expectSameVerdicts(inKit, repo);
    console.log(`cs540 finished player in the repo's gauntlet: ${[...repo.values()].map((c) => `${c.id} ${c.status}`).join(', ')}`);
  }, 1_200_000);
});

/**
 * The kit's Python starter with its four functions written: the starter's text with the project's
 * own functions (testcases/fixtures/course-apis/csci561/finish-starter.py) put before its main
 * guard, where they replace the starter's. What is graded is then the starter's own input, output
 * and log code. Written once, into the test's folder.
 */
function finishedStarter(): string {
  const file = join(work, 'finished-mancala3.py');
  const starter = readFileSync(join(ROOT, 'agents/starters/csci561/mancala3.py'), 'utf8');
  const guard = starter.indexOf('if __name__ == "__main__":');
  expect(guard).toBeGreaterThan(0);
  writeFileSync(file, starter.slice(0, guard) + readFileSync(join(ROOT, 'testcases/fixtures/course-apis/csci561/finish-starter.py'), 'utf8') + starter.slice(guard));
  return file;
}

describe('the CSCI-561 kit: a program in the course\'s languages, input.txt in, two files out', () => {
  let kit: string;
  const SUITE = join(ROOT, 'testcases/csci561-public-programs');
  beforeAll(() => {
    kit = makeKit('csci561');
  }, 1_200_000);

  it('holds one program in agent/ with the sample input, the other languages in starters/, the public cases with their answers; no TypeScript', () => {
    expect(readdirSync(join(kit, 'agent')).sort()).toEqual(['README.md', 'input.txt', 'mancala3.py']);
    expect(readdirSync(join(kit, 'starters')).sort()).toEqual(['mancala.cpp', 'mancala.java']);
    expect(readdirSync(join(kit, 'suites/csci561-public-programs')).filter((f) => f.startsWith('testInput_'))).toHaveLength(30);
  });

  it('the starter as shipped: 30 failed cases (not errors), each naming the function to write; the same verdicts as the repo\'s csci561-grade', () => {
    const inKit = kitCheck(kit, 'csci561-starter');
    expect(inKit.size).toBe(30);
    expectUnfinished(inKit, /got "not written yet: (greedy|minimax|alphabeta)\(board, player/);
    const repo = repoGrade('csci561-starter', ['csci561-grade', join(work, 'csci561-starter-checked-agent'), '--suite', SUITE, '--no-progress']);
    expectSameVerdicts(inKit, repo);
  }, 1_200_000);

  it('the starter finished (its four functions written, its own input, output and log code kept) gets 30 / 30 in the kit and in the repo', () => {
    const inKit = kitCheck(kit, 'csci561-finished', { 'mancala3.py': finishedStarter() });
    expect([...inKit.values()].filter((c) => c.status === 'passed')).toHaveLength(30);
    const repo = repoGrade('csci561-finished', ['csci561-grade', join(work, 'csci561-finished-checked-agent'), '--suite', SUITE, '--no-progress']);
    expectSameVerdicts(inKit, repo);
  }, 1_200_000);

  it('the starters in the other languages and names fail every case cleanly in the repo\'s csci561-grade, naming what to write', () => {
    const programs: [string, string, boolean][] = [
      ['mancala.java', 'starters/mancala.java', JDK],
      ['mancala.cpp', 'starters/mancala.cpp', GXX],
      ['mancala11.cpp', 'starters/mancala.cpp', GXX],
      ['mancala.py', 'agent/mancala3.py', true],
    ];
    const folders = programs.filter(([, , ok]) => ok).map(([name, from]) => {
      const dir = join(work, 'languages', name.replace('.', '-'));
      mkdirSync(dir, { recursive: true });
      cpSync(join(kit, from), join(dir, name));
      return dir;
    });
    const report = join(work, 'languages.json');
    const r = spawnSync(process.execPath, [MANCALA, 'csci561-grade', ...folders, '--suite', SUITE, '--no-progress', '--jobs', '1', '--json', report], { cwd: ROOT, encoding: 'utf8', timeout: 1_200_000 });
    expect(r.status, r.stderr).toBe(0);
    const json = JSON.parse(readFileSync(report, 'utf8')) as { submissions: { id: string; cases: CaseResult[] }[] };
    expect(json.submissions).toHaveLength(folders.length);
    for (const s of json.submissions) {
      expect(s.cases, s.id).toHaveLength(30);
      expectUnfinished(new Map(s.cases.map((c) => [c.id, c])), /not written yet: (greedy|minimax|alphabeta)\(board, player/);
    }
  }, 1_200_000);

  it.runIf(PYTHON2 !== undefined)('the Python starter runs on Python 2.7 too (mancala.py), reading the path after -i, unfinished and finished', () => {
    const dir = join(work, 'python2');
    mkdirSync(dir);
    cpSync(join(kit, 'agent/mancala3.py'), join(dir, 'mancala.py'));
    writeFileSync(join(dir, 'case.txt'), readFileSync(join(SUITE, 'testInput_alphabeta-d2-1.txt')));
    let r = spawnSync(PYTHON2!, ['mancala.py', '-i', 'case.txt'], { cwd: dir, encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/^not written yet: alphabeta\(board, player, depth, log\)/);
    expect(readFileSync(join(dir, 'traverse_log.txt'), 'utf8')).toMatch(/^Node,Depth,Value,Alpha,Beta\nnot written yet: alphabeta/);
    cpSync(finishedStarter(), join(dir, 'mancala.py'));
    r = spawnSync(PYTHON2!, ['mancala.py', '-i', 'case.txt'], { cwd: dir, encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    expect(readFileSync(join(dir, 'next_state.txt'), 'utf8')).toBe(readFileSync(join(SUITE, 'next_state_alphabeta-d2-1.txt'), 'utf8'));
    const optional = /\tOPTIONAL$/;
    const log = readFileSync(join(SUITE, 'traverse_log_alphabeta-d2-1.txt'), 'utf8').split('\n').filter((l) => !optional.test(l)).join('\n');
    expect(readFileSync(join(dir, 'traverse_log.txt'), 'utf8')).toBe(log);
  });
});
