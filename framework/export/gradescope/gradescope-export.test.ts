/**
 * The Gradescope export without running submissions: what the zip holds (one export of the kalah
 * course, read back with yauzl), the run's paths that need no sandbox (an empty submission, a
 * broken autograder, a run stopped part way), the sandbox policy, the suites' files, and the
 * command's one-line mistakes. testcases/gradescope-export.slow.test.ts unpacks exports and runs
 * setup.sh and run_autograder on real submissions.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Mechanisms } from '../../sandbox/jail/mechanisms.ts';
import { loadSuite } from '../../suites/load.ts';
import { COURSES } from './courses.ts';
import { exportGradescope, type ExportSummary } from './export.ts';
import { excludedFromGrader } from './grader-package.ts';
import { partialReport, planMaxScore, zeroReport, type AutograderResults, type GradingPlan } from './results.ts';
import { chooseSandbox, gradescopeRun, locateSubmission } from './run.ts';
import { defaultGauntletSettings, readGauntletSettings, type AutograderConfig } from './settings.ts';
import { planSuiteCopies } from './suite-files.ts';
import { listZip, unzipTo } from './zip.ts';
import { runMain } from '../../../testcases/fixtures/run-main.ts';

const ROOT = resolve(fileURLToPath(new URL('../../..', import.meta.url)));
const KALAH_BASICS = join(ROOT, 'testcases', 'kalah-basics');
const work = mkdtempSync(join(tmpdir(), 'gradescope-export-test-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const cli = runMain;

const sumMax = (r: AutograderResults) => r.tests.reduce((t, x) => t + x.max_score, 0);

describe('the zip of an export (kalah, kalah-basics)', () => {
  const zip = join(work, 'kalah.zip');
  let summary: ExportSummary;
  let entries: Map<string, { mode: number; size: number }>;
  // Unpacked as Gradescope does: ROOT/source.
  const unzipped = join(work, 'ag', 'source');
  const text = async (path: string) => readFileSync(join(unzipped, path), 'utf8');

  beforeAll(async () => {
    summary = await exportGradescope({ course: 'kalah', suites: [KALAH_BASICS], out: zip, sandbox: 'auto', timeBudgetS: 540, leaderboard: true, apt: [] });
    entries = await listZip(zip);
    expect(await unzipTo(zip, unzipped)).toBe(entries.size);
  }, 180_000);

  it('has setup.sh and run_autograder at its root, executable, and autograder.json saying what is graded', async () => {
    expect(entries.get('setup.sh')?.mode).toBe(0o755);
    expect(entries.get('run_autograder')?.mode).toBe(0o755);
    const config = JSON.parse(await text('autograder.json')) as AutograderConfig;
    expect(config).toMatchObject({ version: 1, course: 'kalah', grading: 'suite', suites: ['suites/kalah-basics'], sandbox: 'auto', leaderboard: null, timeBudgetS: 540, maxScore: 100, platform: 'linux-x64' });
    expect(summary).toMatchObject({ maxScore: 100, tests: 22 });
  });

  it('carries the suite with its answers, and the grader: its command, a fresh dist/, esbuild with its binary, piscina', () => {
    for (const f of ['suites/kalah-basics/suite.yaml', 'suites/kalah-basics/expected.json', 'mancala/package.json', 'mancala/bin/mancala.js', 'mancala/bin/plugins.ts', 'mancala/dist/cli.mjs', 'mancala/tsconfig.json', 'mancala/node_modules/esbuild/package.json', 'mancala/node_modules/esbuild/lib/main.js', 'mancala/node_modules/piscina/package.json', 'mancala/framework/sandbox/jail/command.ts', 'mancala/agents/clients/csc384/csc384_bridge.py']) {
      expect(entries.has(f), f).toBe(true);
    }
    expect(entries.get('mancala/node_modules/@esbuild/linux-x64/bin/esbuild')?.mode).toBe(0o755);
    // Only as many dist/ chunks as one build writes: none of the checkout's stale ones.
    const chunks = [...entries.keys()].filter((p) => /^mancala\/dist\/chunk-.*\.mjs$/.test(p));
    expect(chunks.length).toBeGreaterThan(10);
    expect(chunks.length).toBeLessThan(400);
  });

  it('holds no test, no other suite, no example or starter, no devDependency, nor esbuild\'s second copy of its binary', () => {
    const paths = [...entries.keys()];
    expect(paths.filter((p) => p.endsWith('.test.ts') && !p.startsWith('mancala/node_modules/'))).toEqual([]);
    expect(paths.filter((p) => p.startsWith('mancala/testcases/') || p.startsWith('mancala/agents/examples/') || p.startsWith('mancala/agents/starters/'))).toEqual([]);
    // A devDependency that a dependency needs too (semver, which fastify uses) is in the production tree: the lock says which.
    const lock = (JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, { dev?: boolean }> }).packages;
    const dev = Object.keys((JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> }).devDependencies).filter(
      (name) => lock[`node_modules/${name}`]?.dev === true,
    );
    expect(dev).toContain('vitest');
    for (const name of dev) expect(paths.some((p) => p.startsWith(`mancala/node_modules/${name}/`)), name).toBe(false);
    expect(entries.has('mancala/node_modules/esbuild/bin/esbuild')).toBe(false);
    expect(paths.filter((p) => p.startsWith('suites/') && !p.startsWith('suites/kalah-basics/'))).toEqual([]);
  });

  it('fills in setup.sh and run_autograder; fallback-results.json has every test at 0, adding up to the total', async () => {
    const setup = await text('setup.sh');
    expect(setup).not.toMatch(/@@\w+@@/);
    expect(setup).toContain('want bwrap bubblewrap');
    expect(setup).toContain('"$machine" != "x86_64"');
    const run = await text('run_autograder');
    expect(run).toContain('BUDGET=540');
    expect(run.replaceAll('@@REASON@@', '')).not.toMatch(/@@\w+@@/);
    const fallback = JSON.parse(await text('fallback-results.json')) as AutograderResults;
    expect(fallback.tests).toHaveLength(22);
    expect(fallback.score).toBe(0);
    expect(sumMax(fallback)).toBeCloseTo(100, 6);
    expect(fallback.output).toContain('@@REASON@@');
  });
});

describe("the export's setup.sh, with AUTOGRADER_SETUP_NO_INSTALL=1 (it never runs apt-get then)", () => {
  /** setup.sh of the kalah export (unpacked by the tests above) with a PATH of only `tools` (and `extra`'s scripts). */
  function setup(tools: readonly string[], { install = false, extra = {} }: { install?: boolean; extra?: Record<string, string> } = {}): { code: number | null; out: string; err: string; bin: string } {
    const bin = mkdtempSync(join(work, 'bin-'));
    for (const tool of tools) {
      const found = spawnSync('bash', ['-c', `command -v ${tool}`], { encoding: 'utf8' }).stdout.trim();
      if (found !== '') symlinkSync(found, join(bin, tool));
    }
    for (const [name, script] of Object.entries(extra)) writeFileSync(join(bin, name), script, { mode: 0o755 });
    const r = spawnSync(join(bin, 'bash'), [join(work, 'ag', 'source', 'setup.sh')], {
      encoding: 'utf8',
      env: { PATH: bin, AUTOGRADER_ROOT: join(work, 'ag'), ...(install ? {} : { AUTOGRADER_SETUP_NO_INSTALL: '1' }) },
    });
    return { code: r.status, out: r.stdout, err: r.stderr, bin };
  }
  const BASE = ['bash', 'node', 'uname', 'awk', 'dirname', 'chmod', 'setpriv', 'prlimit'];

  it('everything present: nothing to install, then the grader checks itself', () => {
    const r = setup([...BASE, 'bwrap']);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(/^setup\.sh: nothing to install: Node v\d+/m);
    expect(r.err).toContain('course kalah, Kalah basics (22 cases), 100 points');
    expect(r.err).toMatch(/^sandbox: /m);
  });

  it('no bubblewrap: optional, said; the grader then uses the weak sandbox, and says so', () => {
    const r = setup(BASE);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain('setup.sh: missing (optional): bubblewrap');
    expect(r.err).toContain('so submissions are graded in the WEAK sandbox');
  });

  it('without AUTOGRADER_SETUP_NO_INSTALL, what is missing goes to apt-get, and only that (a stand-in apt-get that records its calls)', () => {
    const log = join(work, 'apt-get.log');
    rmSync(log, { force: true });
    const r = setup(BASE, { install: true, extra: { 'apt-get': `#!${spawnSync('bash', ['-c', 'command -v bash'], { encoding: 'utf8' }).stdout.trim()}\necho "$*" >> ${log}\n` } });
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain('setup.sh: installing bubblewrap (optional)');
    expect(readFileSync(log, 'utf8')).toBe('update\ninstall -y --no-install-recommends bubblewrap\n');
  });

  it('a needed command missing: said, and setup.sh fails without installing', () => {
    const r = setup(BASE.filter((t) => t !== 'setpriv' && t !== 'prlimit'));
    expect(r.code).toBe(1);
    expect(r.out).toContain('setup.sh: missing (needed): util-linux');
    expect(r.err).toContain('AUTOGRADER_SETUP_NO_INSTALL=1: installing nothing');
  });
});

describe('the courses', () => {
  it('each says what its submissions need: Python for csc384 and cpsc4610, a JDK for cs540, every runtime for csci561', () => {
    const needs = (name: string) => COURSES.find((c) => c.name === name)!.needs.map((n) => n.apt);
    expect(needs('csc384')).toEqual(['python3']);
    expect(needs('cpsc4610')).toEqual(['python3']);
    expect(needs('cs540')).toContain('default-jdk-headless');
    expect(needs('csci561')).toEqual(expect.arrayContaining(['python3', 'default-jdk-headless', 'g++', 'gcc', 'make']));
  });

  it('the grader leaves out tests, the suites, examples, starters and build scripts', () => {
    expect(excludedFromGrader('framework/sandbox/jail.test.ts')).toBe('a test');
    expect(excludedFromGrader('testcases/kalah-basics/suite.yaml')).toMatch(/suites/);
    expect(excludedFromGrader('agents/examples/alice/agent.ts')).toMatch(/example/);
    expect(excludedFromGrader('bin/build-dist.ts')).toMatch(/build/);
    expect(excludedFromGrader('bin/plugins.ts')).toBeUndefined();
    expect(excludedFromGrader('agents/clients/cs540/Player.java')).toBeUndefined();
  });
});

describe("a suite's files", () => {
  it('a hidden suite that takes a board from the public one carries it, at the same relative place', async () => {
    const hidden = await loadSuite(join(ROOT, 'testcases', 'csc384-hidden'));
    const [copy] = planSuiteCopies([hidden]);
    expect(copy!.place).toBe('csc384-hidden');
    const places = [...copy!.files.values()];
    expect(places).toContain('csc384-hidden/suite.yaml');
    expect(places).toContain('csc384-public/boards/heuristic-example.txt');
    // It grades the public suite's cases too: their files, and the boards they name.
    expect(places).toContain('csc384-public/cases/minimax.yaml');
    expect(places).toContain('csc384-public/boards/handout-example.txt');
    expect(places.filter((p) => p.startsWith('csc384-public/') && !/^csc384-public\/(cases|boards)\//.test(p))).toEqual([]);
    expect(places).not.toContain('csc384-public/suite.yaml');
  });
});

describe('the sandbox an autograder grades in', () => {
  const without: Mechanisms = { privileged: true, missing: ['bubblewrap does not work here (No permissions to create new namespace)'] };
  const with_: Mechanisms = { bwrap: '/usr/bin/bwrap', privileged: true, missing: [] };

  it('auto: the full sandbox where there is one; else the weak one, and the results say why', () => {
    expect(chooseSandbox('auto', with_)).toEqual({ mode: 'full' });
    const weak = chooseSandbox('auto', without);
    expect(weak.mode).toBe('weak');
    expect(weak.note).toMatch(/cannot give the full sandbox \(bubblewrap does not work here.*WEAK sandbox/);
  });

  it('full: refused without bubblewrap; weak: always the weak one', () => {
    expect(chooseSandbox('full', without).refused).toMatch(/requires the full sandbox/);
    expect(chooseSandbox('weak', with_).mode).toBe('weak');
  });
});

describe('where the submission is', () => {
  it('empty, missing, litter only: empty; one folder (as a zip of a folder unpacks): looked into, and said', () => {
    const dir = join(work, 'located');
    expect(locateSubmission(join(dir, 'none')).empty).toBe(true);
    mkdirSync(join(dir, '__MACOSX'), { recursive: true });
    writeFileSync(join(dir, '.DS_Store'), '');
    expect(locateSubmission(dir).empty).toBe(true);
    mkdirSync(join(dir, 'hw2'));
    writeFileSync(join(dir, 'hw2', 'agent.ts'), '');
    const found = locateSubmission(dir);
    expect(found).toMatchObject({ dir: join(dir, 'hw2'), empty: false });
    expect(found.notes[0]).toContain('inside the folder hw2/');
  });
});

describe('results that add up whatever happens', () => {
  it('every test at 0, or a run stopped part way: the same tests, the same total', async () => {
    const plan: GradingPlan = { kind: 'suites', suites: [await loadSuite(KALAH_BASICS)] };
    expect(planMaxScore(plan)).toBeCloseTo(100, 6);
    const zero = zeroReport(plan, '/x', 'nothing was submitted').submissions[0]!;
    expect(zero.cases).toHaveLength(22);
    expect(zero.cases.every((c) => c.score === 0 && c.message === 'nothing was submitted')).toBe(true);
    const first = plan.suites[0]!.cases[0]!.id;
    const partial = partialReport(plan, '/x', { done: [], current: new Map([[first, 'passed']]) }, 'the time budget ran out', { network: true }).submissions[0]!;
    expect(partial.cases[0]).toMatchObject({ status: 'passed', score: partial.cases[0]!.maxScore });
    expect(partial.cases[1]!.message).toBe('not graded: the time budget ran out before this case');
    expect(partial.maxScore).toBeCloseTo(100, 6);
  });

  it('the gauntlet not played: three tests, 100 points, each saying why', () => {
    const report = zeroReport({ kind: 'gauntlet', settings: defaultGauntletSettings() }, '/x', 'nothing was submitted').submissions[0]!;
    expect(report.cases.map((c) => [c.id, c.maxScore, c.score, c.status])).toEqual([
      ['vs-random', 50, 0, 'error'],
      ['vs-simple', 50, 0, 'error'],
      ['vs-advanced', 0, 0, 'error'],
    ]);
    expect(report.cases[0]!.message).toContain('nothing was submitted');
  });
});

describe('gradescope-run without a sandbox at work', () => {
  /** An unpacked autograder of kalah-basics under `root`, as the export lays it out. */
  function autograderRoot(name: string, config: Partial<AutograderConfig> = {}): string {
    const root = join(work, name);
    cpSync(KALAH_BASICS, join(root, 'source', 'suites', 'kalah-basics'), { recursive: true });
    const full: AutograderConfig = { version: 1, grader: 'mancala-autograder 0', course: 'kalah', grading: 'suite', suites: ['suites/kalah-basics'], sandbox: 'auto', leaderboard: null, timeBudgetS: 0, maxScore: 100, platform: 'linux-x64', ...config };
    writeFileSync(join(root, 'source', 'autograder.json'), JSON.stringify(full));
    mkdirSync(join(root, 'submission'), { recursive: true });
    return root;
  }
  const results = (root: string) => JSON.parse(readFileSync(join(root, 'results', 'results.json'), 'utf8')) as AutograderResults;

  it('an empty submission: every test at 0, saying what to submit', async () => {
    const root = autograderRoot('empty');
    const lines: string[] = [];
    expect((await gradescopeRun(root, '0', (l) => lines.push(l))).code).toBe(0);
    const r = results(root);
    expect(r.score).toBe(0);
    expect(r.tests).toHaveLength(22);
    expect(sumMax(r)).toBeCloseTo(100, 6);
    expect(r.output).toMatch(/^Graded by mancala-autograder 0 for kalah \(Kalah basics\)\.\nYour submission is empty: expected an agent\.ts/);
    expect(r.tests.every((t) => t.status === 'failed' && t.score === 0 && t.output!.includes('nothing was submitted'))).toBe(true);
  });

  it('a broken autograder (a suite that is not there): a results.json all the same, and exit code 1', async () => {
    const root = autograderRoot('broken', { suites: ['suites/gone'] });
    expect((await gradescopeRun(root, '0', () => {})).code).toBe(1);
    expect(results(root)).toMatchObject({ score: 0, tests: [] });
    expect(results(root).output).toMatch(/^The autograder is broken, so your submission was not graded \(tell your instructor\): .*gone/);
  });
});

describe('the command', () => {
  it('--help shows examples', async () => {
    const r = await cli(['export', 'gradescope', '--help']);
    expect(r.code).toBe(0);
    expect(r.out).toContain('Examples:');
    expect(r.out).toContain('mancala export gradescope --course csc384 --suite testcases/csc384-hidden --out csc384-autograder.zip');
    expect((await cli(['gradescope-run', '--help'])).out).toContain('AUTOGRADER_ROOT');
  });

  it('a mistake is one line, exit 2, before anything is built', async () => {
    const one = async (args: string[], pattern: RegExp) => {
      const r = await cli(['export', 'gradescope', ...args]);
      expect(r.code, r.err).toBe(2);
      expect(r.err.trim().split('\n')).toHaveLength(1);
      expect(r.err).toMatch(pattern);
      expect(r.err).not.toMatch(/\bat \S+:\d+:\d+/);
    };
    const out = join(work, 'x.zip');
    await one(['--course', 'cs999', '--suite', KALAH_BASICS, '--out', out], /--course.*cs999.*csci561, csc384, cpsc4610, cs540, kalah/);
    await one(['--course', 'kalah', '--out', out], /--suite: the kalah course is graded on a suite/);
    await one(['--course', 'kalah', '--suite', join(work, 'nowhere'), '--out', out], /nowhere/);
    await one(['--course', 'kalah', '--suite', KALAH_BASICS, '--suite', `${KALAH_BASICS}/`, '--out', out], /--suite .*kalah-basics\/: given twice/);
    await one(['--course', 'csc384', '--suite', KALAH_BASICS, '--out', out], /the suite plays kalah; the csc384 course's suites play csc384/);
    await one(['--course', 'kalah', '--suite', KALAH_BASICS, '--out', '/dev/null/x.zip'], /^mancala: --out \/dev\/null\/x\.zip: cannot create the folder/);
    await one(['--course', 'cs540', '--suite', KALAH_BASICS, '--out', out], /cs540 is graded by the gauntlet, not by a suite: --suite takes the gauntlet's settings/);
    await one(['--course', 'cs540', '--out', out, '--time-limit', '500'], /--time-limit and --memory: cs540 is graded by the gauntlet/);
    await one(['--course', 'kalah', '--suite', KALAH_BASICS, '--out', out, '--time-budget', '-3'], /--time-budget/);
  });

  it("cs540's settings file: every field checked, one line naming it", () => {
    const file = join(work, 'gauntlet.yaml');
    writeFileSync(file, 'stones: [4]\ntime_per_move: [200, 200]\n');
    expect(() => readGauntletSettings(file)).toThrow(/gauntlet\.yaml: time_per_move: a value is given twice/);
    writeFileSync(file, 'stones: [4]\nspeed: 3\n');
    expect(() => readGauntletSettings(file)).toThrow(/gauntlet\.yaml: .*speed/);
    writeFileSync(file, 'stones: [4]\ntime_per_move: [200]\nmatch_rules: course\n');
    expect(readGauntletSettings(file)).toEqual({ ...defaultGauntletSettings(), stones: [4], timesPerMoveMs: [200], matchRules: 'course' });
  });
});
