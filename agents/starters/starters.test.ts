/**
 * The starters are templates: their unwritten functions are the homework. What a student relies
 * on before writing a line is that the starter as shipped runs and is graded — failed cases or
 * games naming the function to write next, never errors or crashes — so `npm run check` on it is
 * the first step of each kit. (The csc384 and cpsc4610 starters, the courses' Python, are graded in
 * testcases/kit-starters-python.test.ts; the kits themselves in the slow suite.)
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { findExecutable } from '../../framework/sandbox/jail/mechanisms.ts';
import { CS540_OPPONENTS, runGauntlet } from '../../framework/packs/cs540/gauntlet.ts';
import { submissionReport } from '../../framework/packs/cs540/report.ts';
import { gradePrograms } from '../../framework/packs/csci561/grade-programs.ts';
import { loadCourseSuite } from '../../framework/packs/csci561/course-suite.ts';
import { loadCourseKit } from '../../framework/kit/course-kit.ts';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '../..');
const work = mkdtempSync(join(tmpdir(), 'starters-test-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const has = (tool: string, ...args: string[]) => spawnSync(tool, args).status === 0;
const sandbox = findExecutable('bwrap') !== undefined ? ('full' as const) : ('weak' as const);

describe('the starters as shipped', () => {
  it("every course's npm run check exits nonzero when a public check fails: mancala check, or a grading command with its --check", async () => {
    const { buildProgram } = await import('../../framework/cli/main.ts');
    const program = await buildProgram({ out: () => {}, err: () => {} });
    const courses = readdirSync(here).filter((d) => existsSync(join(here, d, 'kit.json')));
    expect(courses).toEqual(expect.arrayContaining(['cs540', 'csc384', 'cpsc4610', 'csci561']));
    for (const course of courses) {
      const check = loadCourseKit(course).check;
      const command = program.commands.find((c) => c.name() === check[0]);
      expect(command, `${course}: ${check[0]}`).toBeDefined();
      // `mancala check` exits 1 on a failed case by itself; the instructor's commands exit 0 unless --check.
      if (check[0] !== 'check') {
        expect({ course, check }).toEqual({ course, check: expect.arrayContaining(['--check']) });
        expect(command!.options.some((o) => o.long === '--check')).toBe(true);
      }
    }
  });

  it("kit.json: CS540's agent/ gets the project's Player and GameState; CSCI-561's other languages go beside agent/, its public cases are course files", () => {
    const cs540 = loadCourseKit('cs540');
    expect(cs540.provided).toEqual({ 'Player.java': 'clients/cs540/Player.java', 'GameState.java': 'clients/cs540/GameState.java' });
    expect(cs540.requires?.map((r) => [r.tool, r.all])).toEqual([[['javac', 'java'], true]]);
    const csci561 = loadCourseKit('csci561');
    expect(csci561.beside).toEqual(['starters']);
    // Each language only where the folder holds its files: python3 for mancala3.py, a JDK for *.java, …
    expect(csci561.requires?.map((r) => r.when)).toEqual([['mancala3.py'], ['mancala.py'], ['*.cpp'], ['*.java']]);
    expect(csci561.check).toEqual(['csci561-grade', 'agent', '--suite', 'suites/csci561-public-programs', '--reports', 'reports', '--check']);
    expect(loadCourseSuite(join(root, 'testcases', csci561.suites[0]!)).cases).toHaveLength(30);
  });

  it.runIf(has('javac', '-version'))('cs540: studPlayer.java loses its games as "not written yet: studPlayer.move", a failed case, not an error', async () => {
    const random = CS540_OPPONENTS.filter((o) => o.name === 'random');
    const result = await runGauntlet({ submission: join(here, 'cs540'), opponents: random, stones: [4], timesPerMoveMs: [500], gamesPerSetting: 2, sandbox });
    const [c] = submissionReport(result, 'starter').cases;
    expect(c!.status, c!.message).toBe('failed');
    expect(c!.message).toMatch(/forfeited 2 not written yet\ngame 1 \(4 stones, 500 ms\): not written yet: studPlayer\.move\(GameState state\): iterative deepening/);
    expect(c!.message).not.toMatch(/crash|Exception|\tat /);
  }, 120_000);

  it('csci561: the program starters (Python here, Java and C++ where their compilers are) fail each task, naming the function to write', async () => {
    const programs: [string, string, boolean][] = [
      ['mancala3.py', 'mancala3.py', true],
      ['mancala.java', 'starters/mancala.java', has('javac', '-version')],
      ['mancala.cpp', 'starters/mancala.cpp', has('g++', '--version')],
    ];
    const submissions = programs.filter(([, , ok]) => ok).map(([name, from]) => {
      const dir = join(work, name.replace('.', '-'));
      mkdirSync(dir);
      cpSync(join(here, 'csci561', from), join(dir, name));
      return dir;
    });
    const suite = loadCourseSuite(join(root, 'testcases/csci561-public-programs'));
    // In the suite's order: the folder's file names, sorted.
    const caseIds = ['case-alphabeta-d3-1', 'case-greedy-01', 'case-minimax-d2-1'];
    const report = await gradePrograms({ suite, submissions, visibility: 'visible', jobs: 1, sandbox, caseIds });
    for (const s of report.submissions) {
      expect(s.cases.map((c) => c.id), s.id).toEqual(caseIds);
      const [alphabeta, greedy, minimax] = s.cases;
      for (const c of s.cases) expect(c.status, `${s.id} ${c.id}: ${c.message}`).toBe('failed');
      expect(greedy!.message).toMatch(/next_state\.txt line 1: expected "[\d ]+", got "not written yet: greedy\(board, player\): task 1/);
      expect(minimax!.message).toMatch(/traverse_log\.txt line 2 \(lines differ\): expected "root,0,-Infinity", got "not written yet: minimax\(board, player, depth, log\)/);
      expect(alphabeta!.message).toMatch(/got "not written yet: alphabeta\(board, player, depth, log\): task 3/);
    }
  }, 240_000);
});
