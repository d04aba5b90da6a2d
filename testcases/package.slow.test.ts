/**
 * The package as `npm pack` makes it, installed into a fresh folder as a dependency (so its own
 * dependencies are hoisted beside it, as on any user's machine), then used only through its
 * `mancala` bin: the version, a search, a csci561 case, a student's check and a graded class with
 * a worker pool. Everything the command finds at run time (its dist/ chunks, the sources its
 * threads and sandbox runtimes are built from, the packages) must come from the installed copy.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GradeReport } from '../framework/grading/report.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const work = mkdtempSync(join(tmpdir(), 'package-test-'));
const app = join(work, 'app');
const installed = join(app, 'node_modules', 'mancala-autograder');
afterAll(() => rmSync(work, { recursive: true, force: true }));

const npm = (args: string[], cwd: string) => execFileSync('npm', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

function mancala(args: string[]): { code: number | null; out: string; err: string } {
  const r = spawnSync(join(app, 'node_modules', '.bin', 'mancala'), args, { cwd: app, encoding: 'utf8', timeout: 300_000 });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

beforeAll(() => {
  const packed = npm(['pack', '--pack-destination', work, '--silent'], ROOT).trim().split('\n').pop()!;
  execFileSync('mkdir', ['-p', app]);
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'app', private: true, type: 'module', dependencies: { 'mancala-autograder': `file:../${packed}` } }));
  npm(['install', '--no-audit', '--no-fund'], app);
});

describe('the packed package, installed elsewhere', () => {
  it('holds what runs the command, and no test file or test fixture', () => {
    const top = readdirSync(installed).sort();
    expect(top).toEqual(expect.arrayContaining(['bin', 'dist', 'framework', 'agents', 'graders', 'testcases', 'package.json']));
    const files = (readdirSync(installed, { recursive: true }) as string[]).map(String);
    expect(files.filter((f) => f.endsWith('.test.ts'))).toEqual([]);
    expect(files.filter((f) => f.startsWith(join('testcases', 'fixtures')))).toEqual([]);
    expect(files).toContain(join('dist', 'cli.mjs'));
    // Its dependencies are hoisted beside it, not inside it: the case the sandbox's paths must handle.
    expect(readdirSync(join(app, 'node_modules'))).toEqual(expect.arrayContaining(['pure-rand', 'esbuild', 'zod']));
  });

  it('answers --version and a search', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
    expect(mancala(['--version']).out).toBe(`${pkg.version}\n`);
    const search = mancala(['search', '--rules', 'kalah', '--algo', 'alphabeta', '--depth', '6', '--json']);
    expect(search.err).toBe('');
    expect(JSON.parse(search.out)).toMatchObject({ move: 5, value: 3, nodes: 3786 });
  });

  it('runs a csci561 case as the course\'s files have it', () => {
    writeFileSync(join(app, 'input.txt'), '2\n1\n2\n4 4 4 4\n4 4 4 4\n0\n0\n');
    const r = mancala(['csci561', 'input.txt', '--quiet']);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(readFileSync(join(app, 'next_state.txt'), 'utf8').split('\n').length).toBeGreaterThanOrEqual(4);
    expect(readFileSync(join(app, 'traverse_log.txt'), 'utf8')).toMatch(/^Node,Depth,Value\nroot,0,-Infinity\n/);
  });

  it('checks an example submission and grades a class with two threads, in the sandbox', () => {
    const examples = join(installed, 'agents', 'examples');
    const suite = join(installed, 'testcases', 'kalah-basics');
    const check = mancala(['check', join(examples, 'alice'), '--suite', suite]);
    expect(check.code, check.err).toBe(0);
    expect(check.out).toContain('all 22 visible cases passed');
    const report = join(work, 'report.json');
    const grade = mancala(['grade', join(examples, 'alice'), join(examples, 'bob'), '--suite', suite, '--jobs', '2', '--json', report, '--no-progress']);
    expect(grade.code, grade.err).toBe(0);
    const installedRun = JSON.parse(readFileSync(report, 'utf8')) as GradeReport;
    // The same class graded by the repository's own command: the same verdict on every case.
    const here = join(work, 'report-here.json');
    execFileSync(process.execPath, [join(ROOT, 'bin/mancala.js'), 'grade', join(ROOT, 'agents/examples/alice'), join(ROOT, 'agents/examples/bob'), '--suite', join(ROOT, 'testcases/kalah-basics'), '--json', here, '--no-progress'], { stdio: 'ignore' });
    const repoRun = JSON.parse(readFileSync(here, 'utf8')) as GradeReport;
    const verdicts = (r: GradeReport) => r.submissions.map((s) => [s.id, s.score, s.cases.map((c) => `${c.id}:${c.status}`)]);
    expect(verdicts(installedRun)).toEqual(verdicts(repoRun));
    expect(installedRun.submissions[0]!.cases.every((c) => c.status === 'passed')).toBe(true);
  });
});
