/**
 * The CSC384 and CPSC 4610 kits' starters, in the courses' own Python (agents/starters/csc384 and
 * cpsc4610), without building a kit (kit.slow.test.ts does that): graded by the project's grader
 * on the public suites, every case fails naming the function to write — never an error; the
 * courses' own game managers the kits hold play real games with the project's finished
 * solutions (testcases/fixtures/course-apis); and `mancala doctor` says in one line what to install
 * when a kit's tool is missing from the PATH. Real python3, the real sandbox.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { gradeSubmissions } from '../framework/grading/runner.ts';
import { loadSuite } from '../framework/suites/load.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const STARTERS = join(ROOT, 'agents/starters');
const FIXTURES = join(ROOT, 'testcases/fixtures/course-apis');
const work = mkdtempSync(join(tmpdir(), 'kit-starters-python-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** The starter's failed cases as (case, the function its message names). */
async function unfinished(course: string, suites: string[]): Promise<[string, string, string][]> {
  const out: [string, string, string][] = [];
  for (const name of suites) {
    const report = await gradeSubmissions({ suite: await loadSuite(join(ROOT, 'testcases', name)), submissions: [join(STARTERS, course)], visibility: 'all', jobs: 2 });
    for (const c of report.submissions[0]!.cases) out.push([c.id, c.status, /(?:^|: )not written yet: ([\w.]+)/m.exec(c.message)?.[1] ?? c.message]);
  }
  return out;
}

/** A folder as the kit's agent/ is: the starter's files, the project's game files it provides, then `extra` (a solution's files) over them. */
function agentFolder(course: string, provided: Record<string, string>, extra?: string): string {
  const dir = join(work, `${course}-agent`);
  cpSync(join(STARTERS, course), dir, { recursive: true });
  for (const [name, path] of Object.entries(provided)) cpSync(join(ROOT, 'agents', path), join(dir, name));
  if (extra !== undefined) cpSync(extra, dir, { recursive: true });
  return dir;
}

describe("the Python starters as the kits hand them out, graded by the project's grader", () => {
  it('CSC384: every public case fails, naming the function to write', async () => {
    expect(await unfinished('csc384', ['csc384-public'])).toEqual([
      ['alphabeta-public', 'failed', 'alphabeta_max_basic'],
      ['alphabeta-limit-public', 'failed', 'alphabeta_max_limit'],
      ['alphabeta-caching-public', 'failed', 'alphabeta_max_limit_caching'],
      ['heuristic-basic-public', 'failed', 'heuristic_basic'],
      ['minimax-public', 'failed', 'minimax_max_basic'],
      ['minimax-limit-public', 'failed', 'minimax_max_limit'],
      ['minimax-caching-public', 'failed', 'minimax_max_limit_caching'],
    ]);
  }, 120_000);

  it('CPSC 4610: every public case fails, naming alphaBetaMove, MancalaPlayer.score or the custom player\'s chooseMove', async () => {
    const cases = await unfinished('cpsc4610', ['tictactoe-public', 'cpsc4610-public']);
    expect(cases.length).toBe(22);
    for (const [id, status] of cases) expect(status, id).toBe('failed');
    expect(new Set(cases.map((c) => c[2]))).toEqual(new Set(['Player.alphaBetaMove', 'MancalaPlayer.score', 'YourPlayer.chooseMove']));
    expect(cases.find((c) => c[0] === 'score-playoff')![2]).toBe('MancalaPlayer.score');
  }, 180_000);
});

describe("the courses' game managers in the kits play real games", () => {
  it("CSC384's mancala_cmdline.py: the random agent against a finished alpha-beta, with the handout's flags", () => {
    const dir = agentFolder('csc384', { 'mancala_game.py': 'clients/csc384/mancala_game.py' }, join(FIXTURES, 'csc384/full-marks'));
    const r = spawnSync('python3', ['mancala_cmdline.py', '-t', 'agent_random.py', '-b', 'agent_alphabeta.py', '-l', '4', '-c', '-hb', '1'], { cwd: dir, encoding: 'utf8', env: { ...process.env, MANCALA_SEED: '7' }, timeout: 60_000 });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^BOTTOM plays pocket \d$/m);
    expect(r.stdout).toMatch(/final score: TOP \d+, BOTTOM \d+: BOTTOM wins\n$/);
  }, 60_000);

  it("CSC384's mancala_cmdline.py on the unfinished starter: the agent's NotImplementedError, then one line naming the file", () => {
    const dir = agentFolder('csc384', { 'mancala_game.py': 'clients/csc384/mancala_game.py' });
    const r = spawnSync('python3', ['mancala_cmdline.py', '-t', 'agent_alphabeta.py', '-b', 'agent_random.py', '-l', '2'], { cwd: dir, encoding: 'utf8', timeout: 60_000 });
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(/NotImplementedError: alphabeta_max_limit\n/);
    expect(r.stderr.trim().split('\n').at(-1)).toBe('agent_alphabeta.py (TOP) stopped without printing a move (exit code 1); its error, if any, is above');
  }, 60_000);

  it("CPSC 4610's MancalaTerminal.py: Tic-Tac-Toe, a person typing cells against a finished alpha-beta, which never loses", () => {
    const dir = agentFolder('cpsc4610', { 'MancalaBoard.py': 'clients/cpsc4610/MancalaBoard.py', 'TicTacToe.py': 'clients/cpsc4610/TicTacToe.py', 'board_watch.py': 'clients/cpsc4610/board_watch.py' }, join(FIXTURES, 'cpsc4610/full-marks'));
    // The person plays the lowest free cell each turn (a taken one is asked again).
    const r = spawnSync('python3', ['MancalaTerminal.py', '--tictactoe'], { cwd: dir, encoding: 'utf8', input: '0\n1\n2\n3\n4\n5\n6\n7\n8\n'.repeat(3), timeout: 120_000 });
    expect(r.stderr).toBe('');
    expect(r.stdout.trim().split('\n').at(-1)).toMatch(/^(a tie|YourPlayer wins)$/);
  }, 120_000);
});

describe('mancala doctor: what a kit needs, checked in one line', () => {
  const bare = join(work, 'bare');
  mkdirSync(bare);
  for (const [name, target] of [['node', process.execPath], ['sh', '/bin/sh']] as const) symlinkSync(target, join(bare, name));
  const doctor = (path: string) => spawnSync(process.execPath, [join(ROOT, 'bin/mancala.js'), 'doctor', '--course', 'csc384'], { encoding: 'utf8', env: { ...process.env, PATH: path } });

  it('without python3 on the PATH: exit 1, one line naming what to install', () => {
    const r = doctor(bare);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/^mancala: this kit needs python3 on your PATH to run your code, and it is not there: install Python 3\.8 or newer \(https:\/\/www\.python\.org\/downloads\/[^\n]*\), then open a new terminal\n$/);
  });

  it('with it: says so', () => {
    const r = doctor(process.env.PATH ?? '');
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/^the csc384 kit has what it needs: Node \d+\.\d+\.\d+, python3 \/\S+\n$/);
  });

  it('Node older than 20: one line, before any command runs', () => {
    const r = spawnSync(process.execPath, ['--import', 'data:text/javascript,Object.defineProperty(process.versions,"node",{value:"18.19.0"})', join(ROOT, 'bin/mancala.js'), 'check', 'agent'], { encoding: 'utf8' });
    expect(r.status).toBe(1);
    expect(r.stderr).toBe('mancala: needs Node 20 or newer, and this is Node 18.19.0: install Node 20 (https://nodejs.org), then run npm ci again\n');
  });
});
