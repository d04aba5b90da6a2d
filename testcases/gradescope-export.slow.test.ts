/**
 * `mancala export gradescope` end to end, as Gradescope runs an autograder: each export (made by
 * the built command) is unpacked with yauzl into a temporary AUTOGRADER_ROOT (ROOT/source, and
 * run_autograder copied to ROOT as Gradescope copies it), setup.sh runs there (Node and every
 * runtime are present on this machine: it must say so and install nothing;
 * AUTOGRADER_SETUP_NO_INSTALL=1 keeps apt-get out even if it were wrong), then run_autograder on
 * real submissions copied into ROOT/submission: full marks, partial marks, empty, broken and
 * hostile ones, in each course's own form. Each time results.json is read: the score, every
 * test's status, and max_score adding up to the suite's total.
 *
 * TypeScript examples import the framework by relative paths from agents/examples/; a student's
 * submission (made from the kit) imports it by the package's name: they are copied that way.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AutograderResults } from '../framework/export/gradescope/results.ts';
import { unzipTo } from '../framework/export/gradescope/zip.ts';
import { kitStarterText } from '../framework/kit/kit-folder.ts';
import { ZOO_SUITE } from './fixtures/hostile-agents/zoo-suite.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const MANCALA = join(ROOT, 'bin', 'mancala.js');
const EXAMPLES = join(ROOT, 'agents', 'examples');
const COURSE_APIS = join(ROOT, 'testcases', 'fixtures', 'course-apis');
const HOSTILE = join(ROOT, 'testcases', 'fixtures', 'hostile-agents');
const work = mkdtempSync(join(tmpdir(), 'gradescope-slow-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Times measured, printed at the end (the report's figures). */
const timings: string[] = [];
afterAll(() => console.log(`gradescope export timings:\n  ${timings.join('\n  ')}`));

function mancala(args: string[]): { code: number | null; out: string; err: string } {
  const r = spawnSync(process.execPath, [MANCALA, ...args], { cwd: ROOT, encoding: 'utf8', timeout: 300_000 });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

/** Exports with the built command, unpacks as Gradescope does, runs setup.sh: the AUTOGRADER_ROOT. */
async function install(name: string, args: string[]): Promise<string> {
  const zip = join(work, `${name}.zip`);
  const started = Date.now();
  const r = mancala(['export', 'gradescope', ...args, '--out', zip]);
  expect(r.code, r.err).toBe(0);
  timings.push(`export ${name}: ${((Date.now() - started) / 1000).toFixed(1)} s, ${(statSync(zip).size / 1024 / 1024).toFixed(1)} MB (${r.out.split('\n')[0]})`);
  const root = join(work, name);
  await unzipTo(zip, join(root, 'source'));
  cpSync(join(root, 'source', 'run_autograder'), join(root, 'run_autograder'));
  const setup = spawnSync('bash', [join(root, 'source', 'setup.sh')], { encoding: 'utf8', env: { ...process.env, AUTOGRADER_ROOT: root, AUTOGRADER_SETUP_NO_INSTALL: '1' } });
  expect(setup.status, setup.stdout + setup.stderr).toBe(0);
  expect(setup.stdout).toContain('setup.sh: nothing to install: Node v');
  expect(setup.stderr).toMatch(/^mancala-autograder \S+ \(.*\/source\/mancala\): course /m);
  return root;
}

interface Submission {
  /** folders or files copied into ROOT/submission (a folder's files, not the folder itself) */
  from: string[];
  /** put the files inside this folder of the submission, as a zip of a folder unpacks */
  nested?: string;
  /** rename a file as it is copied: file name → its name in the submission */
  renames?: Record<string, string>;
  /** symbolic links made in the submission: name → target (relative: inside the autograder's ROOT; absolute: as it is) */
  links?: Record<string, string>;
}

/** ROOT/submission as `s` says, then run_autograder; results.json. */
function grade(root: string, label: string, s: Submission, env: NodeJS.ProcessEnv = {}): AutograderResults {
  const target = join(root, 'submission', s.nested ?? '');
  rmSync(join(root, 'submission'), { recursive: true, force: true });
  mkdirSync(target, { recursive: true });
  for (const from of s.from) {
    const files = statSync(from).isDirectory() ? readdirSync(from).map((f) => join(from, f)) : [from];
    for (const f of files) {
      if (statSync(f).isDirectory()) {
        cpSync(f, join(target, f.split('/').pop()!), { recursive: true });
        continue;
      }
      const name = s.renames?.[f.split('/').pop()!] ?? f.split('/').pop()!;
      const text = readFileSync(f, 'utf8');
      writeFileSync(join(target, name), f.endsWith('.ts') ? kitStarterText(text) : text);
    }
  }
  for (const [name, to] of Object.entries(s.links ?? {})) symlinkSync(to.startsWith('/') ? to : join(root, to), join(target, name));
  rmSync(join(root, 'results'), { recursive: true, force: true });
  const started = Date.now();
  const r = spawnSync(join(root, 'run_autograder'), [], { encoding: 'utf8', env: { ...process.env, AUTOGRADER_ROOT: root, ...env }, timeout: 300_000 });
  timings.push(`run_autograder ${label}: ${((Date.now() - started) / 1000).toFixed(1)} s`);
  expect(r.status, r.stderr).toBe(0);
  const file = join(root, 'results', 'results.json');
  expect(existsSync(file), r.stderr).toBe(true);
  return JSON.parse(readFileSync(file, 'utf8')) as AutograderResults;
}

const sumMax = (r: AutograderResults) => r.tests.reduce((t, x) => t + x.max_score, 0);
const statuses = (r: AutograderResults) => [...new Set(r.tests.map((t) => t.extra_data.status))].sort();

/** What every results.json must be, whatever was submitted: the total, Gradescope's statuses, the fields. */
function wellFormed(r: AutograderResults, tests: number, total: number): void {
  expect(r.tests).toHaveLength(tests);
  expect(sumMax(r)).toBeCloseTo(total, 6);
  expect(r.score).toBeCloseTo(r.tests.reduce((t, x) => t + x.score, 0), 6);
  for (const t of r.tests) {
    expect(['passed', 'failed']).toContain(t.status);
    expect(['visible', 'hidden', 'after_due_date']).toContain(t.visibility);
    expect(typeof t.name).toBe('string');
    if (t.status === 'failed') expect(t.output, t.name).toBeTruthy();
  }
}

describe('csc384 (csc384-hidden: the course\'s Python files and the TypeScript forms)', () => {
  let root: string;
  beforeAll(async () => {
    root = await install('csc384', ['--course', 'csc384', '--suite', join(ROOT, 'testcases', 'csc384-hidden')]);
  });

  it('full marks: utils.py, agent_minimax.py, agent_alphabeta.py in the course\'s API, sandboxed', () => {
    const r = grade(root, 'csc384 full marks (Python)', { from: [join(COURSE_APIS, 'csc384', 'full-marks')] });
    wellFormed(r, 66, 100);
    expect(r.score).toBe(100);
    expect(statuses(r)).toEqual(['passed']);
    expect(r.output).toMatch(/^Graded by mancala-autograder \S+ for csc384 \(CSC384 A2\)\./);
    expect(r.output).toContain('bubblewrap');
    // Hidden and public cases keep the suite's visibility.
    expect(new Set(r.tests.map((t) => t.visibility))).toEqual(new Set(['hidden', 'visible']));
  });

  it('partial marks: a TypeScript submission whose minimax is not written yet loses the minimax cases, and only those', () => {
    const broken = join(work, 'csc384-partial');
    cpSync(join(EXAMPLES, 'csc384-no-caching'), broken, { recursive: true });
    writeFileSync(join(broken, 'agent_minimax.ts'), "export default { name: 'minimax', chooseMove() { throw new Error('minimax is not written yet'); } };\n");
    const r = grade(root, 'csc384 partial (TypeScript)', { from: [broken] });
    wellFormed(r, 66, 100);
    expect(r.score).toBeGreaterThan(0);
    expect(r.score).toBeLessThan(100);
    const failed = r.tests.filter((t) => t.status === 'failed');
    expect(failed.every((t) => t.tags[0]!.startsWith('minimax'))).toBe(true);
    expect(failed[0]!.output).toContain('minimax is not written yet');
  });

  it('empty: every test at 0, saying what to submit', () => {
    const r = grade(root, 'csc384 empty', { from: [] });
    wellFormed(r, 66, 100);
    expect(r.score).toBe(0);
    expect(r.output).toContain("Your submission is empty: expected the course's utils.py, agent_minimax.py and agent_alphabeta.py");
    expect(r.tests.every((t) => t.output!.includes('nothing was submitted'))).toBe(true);
  });

  it('broken: a utils.py that does not parse fails the cases that need it, naming the file', () => {
    const broken = join(work, 'csc384-broken');
    cpSync(join(COURSE_APIS, 'csc384', 'full-marks'), broken, { recursive: true });
    writeFileSync(join(broken, 'utils.py'), 'def heuristic_basic(board, player)\n    return 0\n');
    const r = grade(root, 'csc384 broken (utils.py does not parse)', { from: [broken] });
    wellFormed(r, 66, 100);
    expect(r.score).toBeLessThan(100);
    expect(r.tests.filter((t) => t.status === 'failed').some((t) => /utils\.py/.test(t.output ?? ''))).toBe(true);
  });
});

describe('cpsc4610 (cpsc4610-public, with the ladder leaderboard)', () => {
  let root: string;
  beforeAll(async () => {
    root = await install('cpsc4610', ['--course', 'cpsc4610', '--suite', join(ROOT, 'testcases', 'cpsc4610-public')]);
  });

  it("full marks: YourPlayer.py in the course's API; the leaderboard from its ladder games", () => {
    const r = grade(root, 'cpsc4610 full marks (Python)', { from: [join(COURSE_APIS, 'cpsc4610', 'full-marks')] });
    wellFormed(r, 10, 100);
    expect(r.score).toBe(100);
    expect(r.leaderboard?.map((e) => e.name)).toEqual(['Ladder points %', 'Store margin a game']);
    expect(r.leaderboard![0]!.value).toBeGreaterThan(0);
    expect(r.output).toMatch(/Leaderboard: your player's ladder games .*provided player \(minimax:depth=5,freeTurns=ignore\): won \d/);
  });

  it('partial marks: a player that prunes late (Python) loses the pruning cases; a TypeScript one with strict pruning, others', () => {
    const late = grade(root, 'cpsc4610 partial (Python prunes late)', { from: [join(COURSE_APIS, 'cpsc4610', 'prunes-late')] });
    wellFormed(late, 10, 100);
    expect(late.score).toBeGreaterThan(0);
    expect(late.score).toBeLessThan(100);
    expect(late.tests.filter((t) => t.tags[0] === 'alpha-beta pruning').every((t) => t.status === 'failed')).toBe(true);
    const strict = grade(root, 'cpsc4610 partial (TypeScript strict pruning)', { from: [join(EXAMPLES, 'cpsc4610-strict-pruning')] });
    wellFormed(strict, 10, 100);
    expect(strict.score).toBeGreaterThan(0);
    expect(strict.score).toBeLessThan(100);
    expect(strict.tests.filter((t) => t.status === 'failed').some((t) => /likely bug/.test(t.output ?? ''))).toBe(true);
  });
});

describe('cs540 (the gauntlet, its settings as --suite)', () => {
  let root: string;
  beforeAll(async () => {
    const settings = join(work, 'gauntlet.yaml');
    writeFileSync(settings, 'stones: [4]\ntime_per_move: [250]\ngames: 2\n');
    root = await install('cs540', ['--course', 'cs540', '--suite', settings]);
  });

  it("a Java player in the course's API: compiled, played against random, simple and advanced; the leaderboard", () => {
    const r = grade(root, 'cs540 Java player (6 games, 250 ms a move)', { from: [join(COURSE_APIS, 'cs540', 'alphaPlayer')] });
    wellFormed(r, 3, 100);
    expect(r.tests.map((t) => t.extra_data.id)).toEqual(['vs-random', 'vs-simple', 'vs-advanced']);
    expect(r.tests.slice(0, 2).map((t) => t.status)).toEqual(['passed', 'passed']);
    expect(r.score).toBeGreaterThanOrEqual(100);
    expect(r.leaderboard?.map((e) => e.name)).toEqual(['Gauntlet score', 'Win % vs advanced', 'Store margin vs advanced']);
    expect(r.leaderboard![0]!.value).toBe(r.score);
  });

  it('a class that is no Player: 0, each opponent saying why, with the command that reproduces it', () => {
    const r = grade(root, 'cs540 not a player', { from: [join(COURSE_APIS, 'cs540', 'notAPlayer')] });
    wellFormed(r, 3, 100);
    expect(r.score).toBe(0);
    expect(r.tests[0]!.output).toMatch(/not played: .*Player/);
    expect(r.tests[0]!.output).toContain('reproduce: npx mancala gauntlet <your folder> --stones 4 --time-per-move 250 --games 2');
  });
});

describe('csci561 (csci561-public: a program in any language, or TypeScript modules)', () => {
  let root: string;
  beforeAll(async () => {
    root = await install('csci561', ['--course', 'csci561', '--suite', join(ROOT, 'testcases', 'csci561-public')]);
  });

  it('full marks: the reference program (Python, file in / file out)', () => {
    const r = grade(root, 'csci561 full marks (Python program, 30 cases)', { from: [join(EXAMPLES, 'csci561-reference', 'program')] });
    wellFormed(r, 30, 30);
    expect(r.score).toBe(30);
  });

  it('partial marks: TypeScript modules searching one ply too deep, the bug named', () => {
    const r = grade(root, 'csci561 partial (TypeScript off by one)', { from: [join(EXAMPLES, 'csci561-off-by-one')] });
    wellFormed(r, 30, 30);
    expect(r.score).toBeGreaterThan(0);
    expect(r.score).toBeLessThan(30);
    expect(r.tests.filter((t) => t.status === 'failed').some((t) => /likely bug: .*depth off by one/.test(t.output ?? ''))).toBe(true);
  });
});

describe('kalah: hostile submissions, a zip of a folder, the weak sandbox, the time budget, the fallback', () => {
  let root: string;
  let budget: string;
  beforeAll(async () => {
    const suite = join(work, 'zoo-suite');
    for (const [file, text] of Object.entries(ZOO_SUITE)) {
      mkdirSync(dirname(join(suite, file)), { recursive: true });
      writeFileSync(join(suite, file), text);
    }
    const bless = mancala(['suite', 'bless', suite]);
    expect(bless.code, bless.err).toBe(0);
    root = await install('zoo', ['--course', 'kalah', '--suite', suite]);
    // 10 s: enough for the grader to start and write what it graded on a slow VM (4 s was not, measured
    // here on the unchanged code too), still far short of the infinite loop's 22 cases at 1 s each.
    budget = await install('budget', ['--course', 'kalah', '--suite', join(ROOT, 'testcases', 'kalah-basics'), '--time-budget', '10']);
  });

  const hostile: [string, Submission, string][] = [
    ['an infinite loop', { from: [join(HOSTILE, 'infinite-loop')] }, 'timeout'],
    ['a memory bomb', { from: [join(HOSTILE, 'heap-bomb')] }, 'memory'],
    ['an output flood', { from: [join(HOSTILE, 'floods-stdout')] }, 'output-limit'],
    // The hostile programs' fork bomb, as an agent over stdio (python3 agent.py): it never says ready.
    ['a fork bomb', { from: [join(ROOT, 'testcases', 'fixtures', 'hostile-programs', 'fork-bomb', 'bomb.py')], renames: { 'bomb.py': 'agent.py' } }, 'error'],
  ];
  for (const [what, submission, status] of hostile) {
    it(`${what}: its verdict on every case, 0, and results.json written`, () => {
      const r = grade(root, `kalah zoo: ${what}`, submission);
      wellFormed(r, 3, 10);
      expect(r.score).toBe(0);
      expect(statuses(r)).toEqual([status]);
    });
  }

  it("links into the autograder's own suites: refused unread, named only as links; the agent beside them graded in full", () => {
    const answers = 'source/suites/zoo-suite/expected.json';
    const ids = Object.keys(JSON.parse(readFileSync(join(root, answers), 'utf8')) as Record<string, unknown>);
    const beside = grade(root, 'kalah zoo: alice with p1 -> the suite\'s answers', { from: [join(EXAMPLES, 'alice')], links: { p1: answers, p2: 'source/suites/no-such-guess' } });
    wellFormed(beside, 3, 10);
    expect(beside.score).toBe(10);
    expect(beside.output).toContain('p1: a symbolic link (refused)');
    expect(beside.output).toContain('p2: a symbolic link (refused)');
    expect(JSON.stringify(beside)).not.toContain(join(root, 'source'));
    const manifest = grade(root, 'kalah zoo: mancala.yaml -> /dev/zero', { from: [join(EXAMPLES, 'alice')], links: { 'mancala.yaml': '/dev/zero' } });
    wellFormed(manifest, 3, 10);
    expect(manifest.score).toBe(0);
    expect(statuses(manifest)).toEqual(['error']);
    expect(manifest.tests[0]!.output).toContain('mancala.yaml: a symbolic link (refused)');
    const leaked = grade(root, 'kalah zoo: mancala.yaml -> the suite\'s answers', { from: [join(EXAMPLES, 'alice')], links: { 'mancala.yaml': answers } });
    expect(leaked.score).toBe(0);
    // The test names are the suite's cases; what a student reads (the outputs) names none of them.
    const said = [leaked.output, ...leaked.tests.map((t) => t.output ?? '')].join('\n');
    for (const id of ids) expect(said, id).not.toContain(id);
  });

  it('a zip of a folder: graded from inside it, and said', () => {
    const r = grade(root, 'kalah zoo: alice in a folder', { from: [join(EXAMPLES, 'alice')], nested: 'my-agent' });
    wellFormed(r, 3, 10);
    expect(r.score).toBe(10);
    expect(r.output).toContain('Your files were inside the folder my-agent/: they were graded from there.');
  });

  /** A PATH with every tool the run needs but bwrap: the machine Docker's seccomp profile makes of Gradescope's. */
  function noBwrapPath(): string {
    const bin = join(work, 'no-bwrap-bin');
    mkdirSync(bin, { recursive: true });
    // Open to others as / is on Gradescope: as root, the weak sandbox's user runs these tools too.
    chmodSync(work, 0o755);
    for (const tool of ['node', 'python3', 'setpriv', 'prlimit', 'timeout', 'sed', 'mv', 'rm', 'mkdir', 'bash', 'env', 'ps', 'cat']) {
      // The system's Python, as a Gradescope image has it (a version manager's shim needs its own PATH).
      const system = tool === 'python3' && existsSync('/usr/bin/python3') ? '/usr/bin/python3' : undefined;
      const found = system ?? execFileSync('bash', ['-c', `command -v ${tool} || true`], { encoding: 'utf8' }).trim();
      if (found !== '' && !existsSync(join(bin, tool))) symlinkSync(found, join(bin, tool));
    }
    return bin;
  }

  it('no bubblewrap on the machine: the weak sandbox, and the results say so', () => {
    const r = grade(root, 'kalah zoo: alice, weak sandbox', { from: [join(EXAMPLES, 'alice')] }, { PATH: noBwrapPath() });
    wellFormed(r, 3, 10);
    expect(r.score).toBe(10);
    expect(r.output).toContain('Sandbox: this machine cannot give the full sandbox (bubblewrap (bwrap) not found');
    expect(r.output).toContain('so submissions are graded in the WEAK sandbox');
    expect(r.output).toContain('the network was NOT cut off');
  });

  it.skipIf(process.getuid?.() !== 0)('the weak sandbox as root: a Python submission runs as an unprivileged user and cannot read the suites', () => {
    const suites = join(root, 'source', 'suites');
    const snooper = join(work, 'snooper', 'agent.py');
    mkdirSync(dirname(snooper), { recursive: true });
    writeFileSync(
      snooper,
      [
        'import os',
        'from mancala_agent import run',
        'def choose_move(request):',
        '    try:',
        `        names = os.listdir(${JSON.stringify(suites)})`,
        '    except PermissionError:',
        '        raise RuntimeError("snooping refused to uid %d" % os.getuid())',
        '    raise RuntimeError("snooped the suites: %s" % names)',
        'run(choose_move, "snooper")',
        '',
      ].join('\n'),
    );
    const r = grade(root, 'kalah zoo: a snooper, weak sandbox', { from: [snooper] }, { PATH: noBwrapPath() });
    wellFormed(r, 3, 10);
    expect(r.score).toBe(0);
    expect(r.output).toContain('submissions run as an unprivileged user who cannot read the suites');
    const said = r.tests.map((t) => t.output).join('\n');
    expect(said).toContain('snooping refused to uid 65534');
    expect(said).not.toContain('snooped the suites');
    // alice still gets full marks there: her own work folder and the runtime are within her reach.
    expect(grade(root, 'kalah zoo: alice, weak sandbox again', { from: [join(EXAMPLES, 'alice')] }, { PATH: noBwrapPath() }).score).toBe(10);
  });

  it('the time budget runs out: what was graded, the rest at 0 "not graded", adding up all the same', () => {
    const r = grade(budget, 'kalah-basics: an infinite loop, time budget 10 s', { from: [join(HOSTILE, 'infinite-loop')] });
    wellFormed(r, 22, 100);
    expect(r.score).toBe(0);
    expect(r.output).toContain("The grading was stopped: the autograder's time budget of 10 s ran out.");
    expect(r.tests.some((t) => t.extra_data.status === 'timeout')).toBe(true);
    expect(r.tests.at(-1)!.output).toContain("not graded: the autograder's time budget of 10 s ran out before this case");
  });

  it('a grader that writes nothing: run_autograder writes fallback-results.json, every test at 0, saying why', () => {
    const cli = join(root, 'source', 'mancala', 'dist', 'cli.mjs');
    renameSync(cli, `${cli}.away`);
    try {
      const r = grade(root, 'kalah zoo: the grader broken', { from: [join(EXAMPLES, 'alice')] });
      wellFormed(r, 3, 10);
      expect(r.score).toBe(0);
      expect(r.output).toMatch(/^The autograder stopped before it wrote its results: it stopped with exit code 1\./);
      expect(r.tests[0]!.output).toContain('the autograder stopped before it could grade this (it stopped with exit code 1)');
    } finally {
      renameSync(`${cli}.away`, cli);
    }
  });
});
