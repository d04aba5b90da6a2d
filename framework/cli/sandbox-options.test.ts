/**
 * The flags shared by the commands that run submitted code, through main(argv, io): each command
 * has them in its --help, refuses an output path it could not write before anything runs (one
 * line, exit 2, no sandbox line: nothing started), and says what confines submissions only when
 * a submission is going to run. A machine without bubblewrap is the real entry point run with a
 * PATH where no bwrap is found.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { runMain } from '../../testcases/fixtures/run-main.ts';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const alice = join(root, 'agents/examples/alice');
const work = mkdtempSync(join(tmpdir(), 'sandbox-options-test-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A regular file: every path under it is impossible to create. */
const blocker = join(work, 'plain-file');
writeFileSync(blocker, '');

const cli = runMain;

const RUNS_SUBMISSIONS = ['grade', 'check', 'csci561-grade', 'gauntlet', 'match', 'tournament', 'play'];
const OVERRIDES_LIMITS = ['grade', 'check', 'csci561-grade', 'gauntlet'];

describe('--help', () => {
  it.each(RUNS_SUBMISSIONS)('%s offers --weak-sandbox', async (command) => {
    const r = await cli([command, '--help']);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/--weak-sandbox +run submissions WITHOUT bubblewrap/);
  });

  it.each(OVERRIDES_LIMITS)('%s offers --time-limit and --memory', async (command) => {
    const r = await cli([command, '--help']);
    expect(r.out).toContain('--time-limit <ms>');
    expect(r.out).toContain('--memory <mb>');
  });
});

describe('gauntlet --time-limit', () => {
  it('replaces --time-per-move; giving both is one line, exit 2', async () => {
    const r = await cli(['gauntlet', alice, '--time-limit', '500', '--time-per-move', '300']);
    expect(r.code).toBe(2);
    expect(r.out).toBe('');
    expect(r.err).toBe('mancala: options --time-limit and --time-per-move both set the time per move: give one of them\n');
  });
});

describe('an output path that cannot be written: exit 2 before anything runs', () => {
  const cases: [string, string[], string][] = [
    ['gauntlet --junit', ['gauntlet', alice, '--junit', join(blocker, 'junit.xml')], `--junit ${join(blocker, 'junit.xml')}: cannot create the folder ${blocker}`],
    ['gauntlet --gradescope', ['gauntlet', alice, '--gradescope', join(blocker, 'r', 'results.json')], `--gradescope ${join(blocker, 'r', 'results.json')}: cannot create`],
    [
      'csci561-grade --csv',
      ['csci561-grade', join(root, 'agents/examples/csci561-reference/program'), '--suite', join(root, 'testcases/csci561-public'), '--csv', join(blocker, 'grades.csv')],
      `--csv ${join(blocker, 'grades.csv')}: cannot create the folder ${blocker}: ${blocker} is a file, not a folder`,
    ],
    ['match --replays', ['match', alice, 'random', '--replays', join(blocker, 'replays')], `--replays ${join(blocker, 'replays')}: cannot create the folder`],
    ['tournament --out', ['tournament', alice, 'random', '--out', join(blocker, 't')], `--out ${join(blocker, 't')}: cannot create the folder`],
    ['tournament --json', ['tournament', alice, 'random', '--out', join(work, 't'), '--json', join(blocker, 's.json')], `--json ${join(blocker, 's.json')}: cannot create the folder`],
  ];
  it.each(cases)('%s', async (_, args, says) => {
    const r = await cli(args);
    expect(r.code, r.err).toBe(2);
    // One line, the refusal: no sandbox line, no progress, no table.
    expect(r.out).toBe('');
    expect(r.err).toMatch(/^mancala: [^\n]+\n$/);
    expect(r.err).toContain(says);
  });
});

describe('the sandbox line', () => {
  it('is said before a submission plays, and not when only reference agents play', async () => {
    const withSubmission = await cli(['match', alice, 'random', '--games', '2', '--time-per-move', '2000', '--no-progress']);
    expect(withSubmission.code, withSubmission.err).toBe(0);
    expect(withSubmission.err).toMatch(/^sandbox: bubblewrap [^\n]+\n$/);
    const references = await cli(['match', 'random', 'greedy', '--games', '2', '--no-progress']);
    expect(references.code).toBe(0);
    expect(references.err).toBe('');
  });

  it('--weak-sandbox: the line says the sandbox is weak, and the tournament is played', async () => {
    const out = join(work, 'weak-tournament');
    const r = await cli(['tournament', alice, 'random', '--games-per-pair', '2', '--time-per-move', '2000', '--out', out, '--weak-sandbox', '--no-progress']);
    expect(r.code, r.err).toBe(0);
    expect(r.err).toMatch(/^sandbox: WEAK: no bubblewrap [^\n]+\n$/);
    expect(existsSync(join(out, 'results.jsonl'))).toBe(true);
  });
});

describe('a machine without bubblewrap (bin/mancala.js with a PATH that has no bwrap)', () => {
  const emptyPath = join(work, 'empty-bin');
  mkdirSync(emptyPath);
  function withoutBwrap(args: string[]): { status: number | null; stdout: string; stderr: string } {
    const r = spawnSync(process.execPath, [join(root, 'bin/mancala.js'), ...args], { cwd: root, encoding: 'utf8', timeout: 60_000, env: { ...process.env, PATH: emptyPath } });
    return { status: r.status, stdout: r.stdout, stderr: r.stderr };
  }

  it('grade refuses before grading, in one line naming bubblewrap and --weak-sandbox', () => {
    const r = withoutBwrap(['grade', alice, '--suite', join(root, 'testcases/kalah-basics'), '--no-progress']);
    expect(r.status, r.stderr).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^mancala: the sandbox cannot confine submissions here: [^\n]*bubblewrap \(bwrap\) not found[^\n]*--weak-sandbox[^\n]*\n$/);
  });

  it('play with a submission refuses before the game starts; reference agents alone need no sandbox', () => {
    const r = withoutBwrap(['play', '--bottom', alice, '--top', 'random', '--seed', '1']);
    expect(r.status, r.stderr).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^mancala: the sandbox cannot confine submissions here: [^\n]+\n$/);
    const references = withoutBwrap(['match', 'random', 'greedy', '--games', '2', '--no-progress']);
    expect(references.status, references.stderr).toBe(0);
    expect(references.stderr).toBe('');
  });
});

describe('--python PATH: the interpreter submissions run on', () => {
  it.each(RUNS_SUBMISSIONS)('%s offers --python', async (command) => {
    const r = await cli([command, '--help']);
    expect(r.out).toMatch(/--python <path> +the Python interpreter submissions run on/);
  });

  it('a path that is no Python is one line, exit 2, before anything runs', async () => {
    const missing = await cli(['grade', alice, '--suite', join(root, 'testcases/kalah-basics'), '--python', join(work, 'no-python')]);
    expect(missing).toEqual({ code: 2, out: '', err: `mancala: --python ${join(work, 'no-python')}: no such file\n` });
    const notPython = await cli(['match', alice, 'random', '--python', '/bin/true']);
    expect(notPython).toEqual({ code: 2, out: '', err: 'mancala: --python /bin/true: it did not run as a Python interpreter (unexpected output)\n' });
  });

  it("a submission's python3 is the interpreter given (a virtual environment here), not the grader's", () => {
    const venv = join(work, 'venv');
    const made = spawnSync('python3', ['-m', 'venv', '--without-pip', venv], { encoding: 'utf8' });
    expect(made.status, made.stderr).toBe(0);
    const agent = join(work, 'which-python');
    mkdirSync(agent);
    // It says which Python runs it, then stops: its start-up failure quotes that line.
    writeFileSync(join(agent, 'agent.py'), 'import sys\nsys.stderr.write("running on " + sys.prefix + "\\n")\nsys.exit(1)\n');
    const run = (extra: string[]) =>
      spawnSync(process.execPath, [join(root, 'bin/mancala.js'), 'grade', agent, '--suite', join(root, 'testcases/kalah-basics'), '--no-progress', ...extra], { cwd: root, encoding: 'utf8', timeout: 120_000 });
    const given = run(['--python', join(venv, 'bin', 'python3')]);
    expect(given.stdout).toContain(`running on ${venv}`);
    const grader = run([]);
    expect(grader.stdout).toMatch(/running on \//);
    expect(grader.stdout).not.toContain(venv);
  }, 240_000);
});

describe.skipIf(process.getuid?.() !== 0)('--weak-sandbox as root: hidden answers open to other users', () => {
  it('grade warns, naming the suite and the chmod that closes it, and of --jobs over 1; a closed suite with --jobs 1 gets no warning and still grades', async () => {
    const suite = join(work, 'open-suite');
    cpSync(join(root, 'testcases/kalah-basics'), suite, { recursive: true });
    chmodSync(work, 0o755); // as /tmp is: the suite is then as open as a checkout's testcases/
    const args = ['grade', alice, '--suite', suite, '--weak-sandbox', '--no-progress'];
    const open = await cli(args);
    expect(open.err).toContain(`warning: ${suite} is open to other users: in the weak sandbox a submission (user 65534) could read its expected answers; close it with chmod -R go-rwx ${suite}\n`);
    // grade's default --jobs 2: two submissions at once would share that user.
    expect(open.err).toContain('warning: in the weak sandbox every submission runs as user 65534, so with --jobs 2 one submission could kill or tamper with another');
    chmodSync(suite, 0o700);
    const closed = await cli([...args, '--jobs', '1']);
    expect(closed.err).not.toContain('warning:');
    expect(closed.code, closed.err).toBe(0);
  }, 120_000);
});
