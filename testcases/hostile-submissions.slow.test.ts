/**
 * Hostile submissions around the sandbox, graded by the built command as an instructor runs it:
 * each beside a plain agent (agents/examples/alice), which must be graded and reported in full,
 * while the hostile one gets its own `error` (or is graded without what it linked to). Made at
 * test time in a temporary folder:
 *  - `mancala.yaml` linked to /dev/zero (once: std::bad_alloc, no report for anyone), to
 *    /dev/stdin with the grader's stdin a pipe held open (once: a hang), and to another suite's
 *    expected.json (once: every hidden case id in the output);
 *  - a tree of folder links r0..r22, each with links x and y to the next (2^22 folders if followed);
 *  - `mancala.yaml` as a FIFO, and as a Unix socket;
 *  - csci561-grade with a program whose `command` is linked to /dev/zero;
 *  - the Gradescope run (gradescope-run, as run_autograder runs it) with links into the
 *    autograder's own suites.
 * The grader's peak memory is measured from outside while it runs: the highest VmHWM (peak
 * resident set) of the grader's process in /proc, and the highest sum of VmRSS over its process
 * tree (the sandboxed submissions too). No output or report may hold a hidden case id, or the
 * hidden suite's path.
 */
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { snapshotFolder } from '../framework/files/snapshot.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const MANCALA = join(ROOT, 'bin', 'mancala.js');
const PLAIN = join(ROOT, 'agents', 'examples', 'alice');
const PUBLIC_SUITE = join(ROOT, 'testcases', 'kalah-basics');
const HIDDEN_SUITE = join(ROOT, 'testcases', 'hidden-example');
const HIDDEN_IDS = Object.keys(JSON.parse(readFileSync(join(HIDDEN_SUITE, 'expected.json'), 'utf8')) as Record<string, unknown>);
const CSCI561_SUITE = join(ROOT, 'testcases', 'csci561-public');
const CSCI561_PLAIN = join(ROOT, 'agents', 'examples', 'csci561-reference', 'program');
/** The grader's peak resident memory must stay under this, whatever a submission is. */
const PEAK_LIMIT = 1024 * 1024 * 1024;

const work = mkdtempSync(join(tmpdir(), 'hostile-submissions-'));
const servers: Server[] = [];
afterAll(() => {
  for (const s of servers) s.close();
  rmSync(work, { recursive: true, force: true });
});

/** The figures measured, printed at the end (the closing note's numbers). */
const figures: string[] = [];
afterAll(() => console.log(`hostile submissions:\n  ${figures.join('\n  ')}`));

/** A folder `name` in a class folder `cls`, holding the plain agent's files, then what `make` adds. */
function submission(cls: string, name: string, make: (dir: string) => void = () => {}): string {
  const dir = join(work, cls, name);
  cpSync(PLAIN, dir, { recursive: true });
  make(dir);
  return dir;
}

interface Measured {
  code: number | null;
  out: string;
  err: string;
  /** the grader process's own peak resident set (VmHWM) */
  graderPeak: number;
  /** the highest sum of VmRSS over the grader's process tree, sampled */
  treePeak: number;
  seconds: number;
}

const kb = (status: string, field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0) * 1024;

function readStatus(pid: number): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/status`, 'utf8');
  } catch {
    return undefined;
  }
}

/** The pids below `root`, from every process's parent in /proc. */
function descendants(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const status = readStatus(Number(name));
    const ppid = status === undefined ? undefined : Number(/^PPid:\s+(\d+)/m.exec(status)?.[1]);
    if (ppid === undefined) continue;
    children.set(ppid, [...(children.get(ppid) ?? []), Number(name)]);
  }
  const out: number[] = [];
  const queue = [root];
  while (queue.length > 0) {
    const pid = queue.shift()!;
    for (const c of children.get(pid) ?? []) {
      out.push(c);
      queue.push(c);
    }
  }
  return out;
}

/**
 * Runs the built command with `args`, its stdin a pipe held open until it exits (a read of
 * /dev/stdin would wait on it for ever), measuring its memory every 50 ms; killed after 300 s.
 */
function mancala(args: string[], env: NodeJS.ProcessEnv = {}): Promise<Measured> {
  const started = Date.now();
  const child = spawn(process.execPath, [MANCALA, ...args], { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  let graderPeak = 0;
  let treePeak = 0;
  let ticks = 0;
  const sample = () => {
    const own = readStatus(child.pid!);
    if (own === undefined) return;
    graderPeak = Math.max(graderPeak, kb(own, 'VmHWM'));
    // The whole tree every fifth sample: walking /proc costs more than one status file.
    if (ticks++ % 5 !== 0) return;
    let sum = kb(own, 'VmRSS');
    for (const pid of descendants(child.pid!)) sum += kb(readStatus(pid) ?? '', 'VmRSS');
    treePeak = Math.max(treePeak, sum);
  };
  const timer = setInterval(sample, 50);
  const killer = setTimeout(() => child.kill('SIGKILL'), 300_000);
  return new Promise((done) => {
    child.on('exit', (code) => {
      clearInterval(timer);
      clearTimeout(killer);
      child.stdin.destroy();
      // The streams may hold output not yet read when 'exit' fires.
      child.on('close', () => done({ code, out, err, graderPeak, treePeak, seconds: (Date.now() - started) / 1000 }));
    });
    sample();
  });
}

const mb = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MB`;

/** Nothing a run wrote names a hidden case or where the hidden suite lives. */
function expectNoHiddenAnswer(...texts: string[]): void {
  const all = texts.join('\n');
  for (const id of HIDDEN_IDS) expect(all, id).not.toContain(id);
  expect(all).not.toContain(HIDDEN_SUITE);
  expect(all).not.toContain('hidden-example');
}

interface ReportSubmission {
  id: string;
  score: number;
  maxScore: number;
  notes: string[];
  cases: { id: string; status: string; message: string }[];
}

/**
 * `mancala grade` on the public suite: the plain agent and `hostile`, one class. The plain one
 * has every case passed, and the run's reports are written; returns the hostile one's report.
 */
async function gradeBeside(label: string, hostile: string): Promise<{ report: ReportSubmission; run: Measured; files: string[] }> {
  const cls = dirname(hostile);
  const plain = submission(cls, 'plain');
  const json = join(cls, 'report.json');
  const csv = join(cls, 'grades.csv');
  const run = await mancala(['grade', plain, hostile, '--suite', PUBLIC_SUITE, '--weak-sandbox', '--no-progress', '--json', json, '--csv', csv]);
  figures.push(`${label}: grader peak ${mb(run.graderPeak)} (VmHWM), process tree ${mb(run.treePeak)} (VmRSS), ${run.seconds.toFixed(1)} s`);
  expect(run.code, run.err).toBe(0);
  expect(existsSync(json), run.err).toBe(true);
  const report = JSON.parse(readFileSync(json, 'utf8')) as { submissions: ReportSubmission[] };
  const [first, second] = report.submissions;
  expect(first!.id).toBe('plain');
  expect(first!.cases.length).toBeGreaterThan(0);
  expect(first!.cases.every((c) => c.status === 'passed')).toBe(true);
  expect(first!.score).toBe(first!.maxScore);
  expect(readFileSync(csv, 'utf8')).toMatch(/^plain,/m);
  expect(run.graderPeak).toBeGreaterThan(0);
  expect(run.graderPeak).toBeLessThan(PEAK_LIMIT);
  expect(run.treePeak).toBeLessThan(2 * PEAK_LIMIT);
  const files = [readFileSync(json, 'utf8'), readFileSync(csv, 'utf8'), run.out, run.err];
  expectNoHiddenAnswer(...files);
  return { report: second!, run, files };
}

/** Every case of `s` is an error saying `line` (one line, naming the file inside the submission only). */
function expectErrorVerdict(s: ReportSubmission, line: RegExp): void {
  expect(s.cases.length).toBeGreaterThan(0);
  for (const c of s.cases) {
    expect(c.status, c.id).toBe('error');
    expect(c.message, c.id).toMatch(line);
    expect(c.message.split('\n')).toHaveLength(1);
  }
  expect(s.score).toBe(0);
}

describe('mancala grade: one hostile submission beside a plain agent', () => {
  it('mancala.yaml -> /dev/zero: its own error, refused as a link; the plain agent graded and reported', async () => {
    const hostile = submission('zero', 'hostile', (d) => symlinkSync('/dev/zero', join(d, 'mancala.yaml')));
    const { report, files } = await gradeBeside('mancala.yaml -> /dev/zero', hostile);
    expectErrorVerdict(report, /: mancala\.yaml: a symbolic link \(refused\)$/);
    expect(files.join('\n')).not.toContain('/dev/zero');
  });

  it('mancala.yaml -> /dev/stdin, the grader\'s stdin a pipe held open: no hang, its own error', async () => {
    const hostile = submission('stdin', 'hostile', (d) => symlinkSync('/dev/stdin', join(d, 'mancala.yaml')));
    const { report } = await gradeBeside('mancala.yaml -> /dev/stdin (held open)', hostile);
    expectErrorVerdict(report, /: mancala\.yaml: a symbolic link \(refused\)$/);
  });

  it("mancala.yaml -> another suite's expected.json: refused unread; no hidden case id anywhere", async () => {
    const hostile = submission('answers', 'hostile', (d) => {
      symlinkSync(join(HIDDEN_SUITE, 'expected.json'), join(d, 'mancala.yaml'));
      // And a plain link to the answers beside it, as in an exported autograder: refused, its target never named.
      symlinkSync(join(HIDDEN_SUITE, 'expected.json'), join(d, 'p1'));
    });
    const { report } = await gradeBeside("mancala.yaml -> hidden-example's expected.json", hostile);
    expectErrorVerdict(report, /: mancala\.yaml: a symbolic link \(refused\)$/);
  });

  it('a tree of folder links r0..r22 (2^22 folders if followed): every link refused, the agent graded, memory bounded', async () => {
    const hostile = submission('tree', 'hostile', (d) => {
      for (let i = 0; i <= 22; i++) mkdirSync(join(d, `r${i}`));
      for (let i = 0; i < 22; i++) {
        symlinkSync(`../r${i + 1}`, join(d, `r${i}`, 'x'));
        symlinkSync(join(d, `r${i + 1}`), join(d, `r${i}`, 'y'));
      }
    });
    const { report } = await gradeBeside('2^22 folder-link tree', hostile);
    // Its own agent is there and is graded: the links are refused, one note each, naming no target.
    expect(report.score).toBe(report.maxScore);
    const refused = report.notes.filter((n) => n.endsWith(': a symbolic link (refused)'));
    expect(refused).toHaveLength(44);
    expect(refused).toContain('r0/x: a symbolic link (refused)');
    for (const note of refused) expect(note).toMatch(/^r\d+\/[xy]: a symbolic link \(refused\)$/);
  });

  it('mancala.yaml as a FIFO: no wait on it, its own error', async () => {
    const hostile = submission('fifo', 'hostile', (d) => execFileSync('mkfifo', [join(d, 'mancala.yaml')]));
    const { report } = await gradeBeside('mancala.yaml a FIFO', hostile);
    expectErrorVerdict(report, /: mancala\.yaml: not a regular file \(refused\)$/);
  });

  it('mancala.yaml as a Unix socket (listening): its own error', async () => {
    const hostile = submission('socket', 'hostile');
    const server = createServer();
    servers.push(server);
    await new Promise<void>((ok) => server.listen(join(hostile, 'mancala.yaml'), ok));
    const { report } = await gradeBeside('mancala.yaml a Unix socket', hostile);
    expectErrorVerdict(report, /: mancala\.yaml: not a regular file \(refused\)$/);
  });
});

describe('csci561-grade: a program whose command file is a link to /dev/zero', () => {
  it('its own error naming the command file; the plain program graded and reported', async () => {
    const cls = join(work, 'csci561');
    const plain = join(cls, 'plain');
    cpSync(CSCI561_PLAIN, plain, { recursive: true });
    const hostile = join(cls, 'hostile');
    cpSync(CSCI561_PLAIN, hostile, { recursive: true });
    rmSync(join(hostile, 'command'));
    symlinkSync('/dev/zero', join(hostile, 'command'));
    const json = join(cls, 'report.json');
    const run = await mancala(['csci561-grade', plain, hostile, '--suite', CSCI561_SUITE, '--weak-sandbox', '--no-progress', '--json', json]);
    figures.push(`csci561-grade, command -> /dev/zero: grader peak ${mb(run.graderPeak)} (VmHWM), process tree ${mb(run.treePeak)} (VmRSS), ${run.seconds.toFixed(1)} s`);
    expect(run.code, run.err).toBe(0);
    const report = JSON.parse(readFileSync(json, 'utf8')) as { submissions: ReportSubmission[] };
    const [good, bad] = report.submissions;
    expect(good!.cases.every((c) => c.status === 'passed')).toBe(true);
    expect(good!.score).toBe(good!.maxScore);
    expectErrorVerdict(bad!, /: command: a symbolic link \(refused\): the command file is a plain file/);
    expect(run.graderPeak).toBeLessThan(PEAK_LIMIT);
  });
});

describe('gradescope-run (what run_autograder runs) with links into the autograder\'s own suites', () => {
  /** An unpacked autograder of kalah-basics, with hidden-example beside it in its suites, as an export of both lays them out. */
  function autograder(name: string): { root: string; submission: string; hiddenInside: string } {
    const root = join(work, 'gradescope', name);
    cpSync(PUBLIC_SUITE, join(root, 'source', 'suites', 'kalah-basics'), { recursive: true });
    cpSync(HIDDEN_SUITE, join(root, 'source', 'suites', 'hidden-example'), { recursive: true });
    const config = { version: 1, grader: 'mancala-autograder 0', course: 'kalah', grading: 'suite', suites: ['suites/kalah-basics'], sandbox: 'auto', leaderboard: null, timeBudgetS: 0, maxScore: 100, platform: 'linux-x64' };
    writeFileSync(join(root, 'source', 'autograder.json'), JSON.stringify(config));
    const sub = join(root, 'submission');
    mkdirSync(sub, { recursive: true });
    return { root, submission: sub, hiddenInside: join(root, 'source', 'suites', 'hidden-example') };
  }

  async function run(label: string, root: string): Promise<{ output: string; all: string; score: number }> {
    const r = await mancala(['gradescope-run', '--root', root]);
    figures.push(`gradescope-run, ${label}: grader peak ${mb(r.graderPeak)} (VmHWM), ${r.seconds.toFixed(1)} s`);
    expect(r.code, r.err).toBe(0);
    expect(r.graderPeak).toBeLessThan(PEAK_LIMIT);
    const text = readFileSync(join(root, 'results', 'results.json'), 'utf8');
    const results = JSON.parse(text) as { output: string; score: number };
    const all = [text, r.out, r.err].join('\n');
    for (const id of HIDDEN_IDS) expect(all, id).not.toContain(id);
    // Nor where the autograder keeps anything: notes name files inside the submission only.
    expect(text).not.toContain(root);
    return { output: results.output, all, score: results.score };
  }

  it('a link to the hidden answers beside a good agent: graded in full, the note says only "a symbolic link (refused)"', async () => {
    const ag = autograder('p1');
    cpSync(PLAIN, ag.submission, { recursive: true });
    symlinkSync(join(ag.hiddenInside, 'expected.json'), join(ag.submission, 'p1'));
    symlinkSync(join(ag.hiddenInside, 'no-such-guess'), join(ag.submission, 'p2'));
    const r = await run('p1 -> the hidden expected.json', ag.root);
    expect(r.score).toBe(100);
    expect(r.output).toContain('p1: a symbolic link (refused)');
    expect(r.output).toContain('p2: a symbolic link (refused)');
    expect(r.output).not.toMatch(/points outside|does not exist/);
    expect(r.output).toContain('role agent: agent.ts');
  });

  it('mancala.yaml -> the hidden answers: every test an error saying the link is refused, no hidden case id', async () => {
    const ag = autograder('manifest');
    cpSync(PLAIN, ag.submission, { recursive: true });
    symlinkSync(join(ag.hiddenInside, 'expected.json'), join(ag.submission, 'mancala.yaml'));
    const r = await run('mancala.yaml -> the hidden expected.json', ag.root);
    expect(r.score).toBe(0);
    expect(r.all).toContain('mancala.yaml: a symbolic link (refused)');
  });

  it('a submission that is one link to the hidden suite\'s folder is not looked into', async () => {
    const ag = autograder('folder-link');
    symlinkSync(ag.hiddenInside, join(ag.submission, 'hw2'));
    const r = await run('hw2 -> the hidden suite', ag.root);
    expect(r.score).toBe(0);
    expect(r.output).not.toContain('inside the folder hw2/');
  });
});

describe('the 2^22 folder-link tree, snapshotted alone', () => {
  let tree: string;
  beforeAll(() => {
    tree = join(work, 'tree-alone');
    for (let i = 0; i <= 22; i++) mkdirSync(join(tree, `r${i}`), { recursive: true });
    for (let i = 0; i < 22; i++) {
      symlinkSync(`../r${i + 1}`, join(tree, `r${i}`, 'x'));
      symlinkSync(`../r${i + 1}`, join(tree, `r${i}`, 'y'));
    }
  });

  it('copies 23 folders and refuses 44 links', async () => {
    const started = process.hrtime.bigint();
    const r = await snapshotFolder(tree, join(work, 'tree-copy'));
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    figures.push(`snapshot of the 2^22 folder-link tree: ${ms.toFixed(0)} ms, ${r.folders} folders, ${r.notes.length} notes`);
    expect({ folders: r.folders, notes: r.notes.length, truncated: r.truncated }).toEqual({ folders: 23, notes: 44, truncated: false });
  });
});
