/**
 * Grading end to end: real suites, real submissions, the real sandbox. The example submissions
 * on the public suite (what each gets and why), determinism, visibility, unblessed suites, and the
 * hostile-agent zoo (testcases/fixtures/hostile-agents/) graded in ONE run next to a good submission: each
 * hostile agent gets its own verdict, the good one still gets full marks, nothing is written,
 * no connection arrives, and no hidden answer reaches any report format.
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { connect, createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UserError } from '../errors.ts';
import { blessSuite, writeExpected } from '../suites/bless.ts';
import { loadSuite } from '../suites/load.ts';
import type { Suite } from '../suites/types.ts';
import type { CaseReport, GradeReport, SubmissionReport } from './report.ts';
import { renderConsole } from './reporters/console.ts';
import { toCsv } from './reporters/csv.ts';
import { toGradescope } from './reporters/gradescope.ts';
import { parseReport, toJson } from './reporters/json.ts';
import { toJUnit } from './reporters/junit.ts';
import { ZOO_SUITE } from '../../testcases/fixtures/hostile-agents/zoo-suite.ts';
import { assertBlessed, childRequest, gradeSubmissions, limitsNote, overrideLimits, selectCases, type ProgressEvent } from './runner.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const ZOO = join(ROOT, 'testcases/fixtures/hostile-agents');
const EXAMPLES = join(ROOT, 'agents/examples');
const HIDDEN_EXPECTED = join(ROOT, 'testcases/hidden-example/expected.json');

const scratch: string[] = [];
function tempFolder(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  scratch.push(dir);
  return dir;
}
afterAll(() => {
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
});

function submission(report: GradeReport, id: string): SubmissionReport {
  const s = report.submissions.find((x) => x.id === id);
  if (s === undefined) throw new Error(`no submission ${id} in the report (${report.submissions.map((x) => x.id).join(', ')})`);
  return s;
}

function byId(s: SubmissionReport): Map<string, CaseReport> {
  return new Map(s.cases.map((c) => [c.id, c]));
}

/** The report without its wall-clock fields (everything else must be reproducible). */
function withoutMs(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutMs);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).filter(([k]) => k !== 'ms').map(([k, v]) => [k, withoutMs(v)]));
  }
  return value;
}

/** Points per category, summed over a submission's cases. */
function categorySums(s: SubmissionReport, field: 'score' | 'maxScore'): Map<string, number> {
  const sums = new Map<string, number>();
  for (const c of s.cases) sums.set(c.category, (sums.get(c.category) ?? 0) + c[field]);
  return sums;
}

// ---- the example submissions on the public suite -----------------------------------------------

describe('alice, bob and carol on kalah-basics', () => {
  let suite: Suite;
  let report: GradeReport;
  const events: ProgressEvent[] = [];

  beforeAll(async () => {
    suite = await loadSuite(join(ROOT, 'testcases/kalah-basics'));
    report = await gradeSubmissions({
      suite,
      submissions: ['alice', 'bob', 'carol'].map((n) => join(EXAMPLES, n)),
      visibility: 'all',
      jobs: 2,
      onProgress: (e) => void events.push(e),
    });
  }, 60_000);

  it('grades every case of every submission, in suite order, and reports progress for each', () => {
    expect(report.version).toBe(1);
    expect(report.suite).toBe('Kalah basics');
    expect(report.submissions.map((s) => s.id)).toEqual(['alice', 'bob', 'carol']);
    for (const s of report.submissions) expect(s.cases.map((c) => c.id)).toEqual(suite.cases.map((c) => c.id));
    const total = suite.cases.length * 3;
    expect(events).toHaveLength(total);
    expect(events.map((e) => e.done)).toEqual(Array.from({ length: total }, (_, k) => k + 1));
    expect(new Set(events.map((e) => e.total))).toEqual(new Set([total]));
    // The JSON report reads back through its own schema.
    expect(parseReport(toJson(report), 'report.json')).toEqual(report);
  });

  it('alice passes every case with full marks: the sum of the category weights', () => {
    const alice = submission(report, 'alice');
    const weights = suite.manifest.categories.reduce((a, k) => a + k.weight, 0);
    expect(weights).toBe(100);
    for (const c of alice.cases) expect({ id: c.id, status: c.status, message: c.message }).toEqual({ id: c.id, status: 'passed', message: '' });
    expect(alice.score).toBe(weights);
    expect(alice.maxScore).toBe(weights);
    expect(alice.notes).toEqual(expect.arrayContaining([expect.stringMatching(/^role agent: .*alice[\\/]agent\.ts$/), expect.stringMatching(/^role heuristic: .*alice[\\/]heuristic\.ts$/)]));
  });

  it("a category's cases share its weight, in every submission; score is the sum of the passed cases", () => {
    for (const s of report.submissions) {
      // Case maxima are rounded cumulatively, so they add up to the weight exactly (not 9.999999).
      const max = categorySums(s, 'maxScore');
      for (const k of suite.manifest.categories) expect(max.get(k.name), `${s.id}: ${k.name}`).toBeCloseTo(k.weight, 9);
      expect(s.maxScore).toBe(100);
      for (const c of s.cases) expect(c.score).toBe(c.status === 'passed' ? c.maxScore : 0);
      expect(s.score).toBeCloseTo(s.cases.reduce((a, c) => a + c.score, 0), 5);
    }
    // Equal points, so equal shares: four next-state cases of 10 points are 10/4 each.
    const carol = byId(submission(report, 'carol'));
    expect(suite.cases.filter((c) => c.category === 'next state')).toHaveLength(4);
    expect(carol.get('capture-next-state')!.maxScore).toBeCloseTo(10 / 4, 5);
  });

  it('bob (plain minimax) fails exactly the node-count, trace and heuristic cases, and is told why', () => {
    const bob = submission(report, 'bob');
    const failing = suite.cases.filter((c) => ['node counts', 'traces', 'heuristic'].includes(c.category)).map((c) => c.id);
    expect(bob.cases.filter((c) => c.status !== 'passed').map((c) => c.id)).toEqual(failing);
    const cases = byId(bob);
    const exact = cases.get('nodes-exact-depth-3')!;
    expect(exact.status).toBe('failed');
    expect(exact.message).toContain('likely bug');
    expect(exact.message).toContain('no pruning');
    expect(exact.message).toMatch(/nodes: expected exactly 92/);
    expect(exact.nodes).toBe(227);
    for (const id of ['trace-events-depth-2', 'traverse-log-depth-3']) {
      expect(cases.get(id)).toMatchObject({ status: 'failed', message: expect.stringContaining('got no trace') });
    }
    for (const id of ['heuristic-start', 'heuristic-midgame-top']) {
      expect(cases.get(id)).toMatchObject({
        status: 'error',
        score: 0,
        message: 'no module found for role heuristic (looked for heuristic.ts, heuristic.js, *.heuristic.ts, *.heuristic.js, src/heuristic.ts, src/heuristic.js)',
      });
    }
    // 100 minus node counts (15), traces (10) and heuristic (5).
    expect(bob.score).toBe(70);
  });

  it("carol (greedy, a bare move) fails the value cases with 'got no value'", () => {
    const carol = submission(report, 'carol');
    const valueCases = suite.cases.filter((c) => c.checks.value !== undefined).map((c) => c.id);
    expect(valueCases.length).toBeGreaterThanOrEqual(5);
    const cases = byId(carol);
    for (const id of valueCases) {
      const c = cases.get(id)!;
      expect(c.status, id).toBe('failed');
      expect(c.message, id).toMatch(/value: expected -?\d+, got no value/);
      expect(c.checks?.find((k) => k.check === 'value')).toMatchObject({ passed: false });
    }
    expect(cases.get('start-depth-1')!.status).toBe('passed');
    expect(carol.score).toBeGreaterThan(0);
    expect(carol.score).toBeLessThan(50);
  });

  it('is deterministic: grading bob again gives the same report but for the ms fields', async () => {
    const again = await gradeSubmissions({ suite, submissions: [join(EXAMPLES, 'bob')], visibility: 'all', jobs: 1 });
    expect(withoutMs(again.submissions[0])).toEqual(withoutMs(submission(report, 'bob')));
  });

  it("visibility 'visible' on kalah-basics grades every case (they are all visible)", async () => {
    expect(selectCases(suite, 'visible')).toEqual(suite.cases);
    const visible = await gradeSubmissions({ suite, submissions: [join(EXAMPLES, 'carol', 'agent.ts')], visibility: 'visible', jobs: 1 });
    const carol = visible.submissions[0]!;
    expect(carol.id).toBe('agent');
    expect(carol.cases.map((c) => c.id)).toEqual(suite.cases.map((c) => c.id));
  });
});

describe('limits and the sandbox for one run', () => {
  it('overrideLimits puts the run\'s limits in every case and the manifest; the blessed answers stay valid', async () => {
    const suite = await loadSuite(join(ROOT, 'testcases/kalah-basics'));
    const both = overrideLimits(suite, { ms: 4321, memoryMb: 777 });
    expect(both.manifest.limits).toEqual({ ms: 4321, memoryMb: 777 });
    expect(new Set(both.cases.map((c) => JSON.stringify(c.limits)))).toEqual(new Set([JSON.stringify({ ms: 4321, memoryMb: 777 })]));
    // What the agent is told is the overridden deadline.
    const moveCase = both.cases.find((c) => both.manifest.roles[c.role]!.kind === 'agent')!;
    expect(childRequest(both.manifest, moveCase)).toMatchObject({ type: 'move', timeLimitMs: 4321 });
    expect(() => assertBlessed(both, both.cases)).not.toThrow();
    // One limit alone keeps the other as each case had it; none returns the suite itself.
    const msOnly = overrideLimits(suite, { ms: 50 });
    expect(msOnly.cases.map((c) => c.limits.memoryMb)).toEqual(suite.cases.map((c) => c.limits.memoryMb));
    expect(overrideLimits(suite, {})).toBe(suite);
    expect(suite.manifest.limits).not.toEqual({ ms: 4321, memoryMb: 777 });
  });

  it('limitsNote names what was overridden, and nothing when nothing was', () => {
    expect(limitsNote({})).toBeUndefined();
    expect(limitsNote({ memoryMb: 256 })).toBe("limits overridden for this run, for every case instead of the suite's: memory 256 MB (--memory)");
    expect(limitsNote({ ms: 500, memoryMb: 256 })).toBe("limits overridden for this run, for every case instead of the suite's: time 500 ms (--time-limit), memory 256 MB (--memory)");
  });

  it('the report records the overridden limits and the sandbox: the full one by default, the weak one when asked', async () => {
    const hidden = await loadSuite(join(ROOT, 'testcases/hidden-example'));
    const alice = [join(EXAMPLES, 'alice')];
    const full = await gradeSubmissions({ suite: hidden, submissions: alice, visibility: 'visible', jobs: 1, limits: { ms: 900 } });
    expect(full.notes).toEqual([limitsNote({ ms: 900 })]);
    expect(full.isolation).toEqual({ network: true, note: expect.stringMatching(/^sandbox: bubblewrap /) });
    const weak = await gradeSubmissions({ suite: hidden, submissions: alice, visibility: 'visible', jobs: 1, sandbox: 'weak' });
    expect(weak.notes).toBeUndefined();
    expect(weak.isolation).toEqual({ network: false, note: expect.stringMatching(/^sandbox: WEAK: no bubblewrap/) });
    expect(parseReport(toJson(full), 'report.json')).toEqual(full);
  });
});

describe('visibility and blessing', () => {
  it("visibility 'visible' on hidden-example grades no hidden or after-due-date case", async () => {
    const hidden = await loadSuite(join(ROOT, 'testcases/hidden-example'));
    expect(hidden.cases.length).toBeGreaterThan(0);
    expect(hidden.cases.some((c) => c.visibility === 'after_due_date')).toBe(true);
    expect(selectCases(hidden, 'visible')).toEqual([]);
    const events: ProgressEvent[] = [];
    const report = await gradeSubmissions({ suite: hidden, submissions: [join(EXAMPLES, 'alice')], visibility: 'visible', jobs: 1, onProgress: (e) => void events.push(e) });
    expect(report.submissions[0]).toMatchObject({ id: 'alice', cases: [], score: 0, maxScore: 0 });
    expect(events).toEqual([]);
    for (const c of hidden.cases) expect(toJson(report)).not.toContain(c.id);
  });

  it('an edited case or one never blessed stops the run with a UserError naming the suite and `mancala suite bless`', async () => {
    const suite = await loadSuite(join(ROOT, 'testcases/kalah-basics'));
    const edited: Suite = { ...suite, cases: suite.cases.map((c) => (c.id === 'start-depth-4' ? { ...c, options: { ...c.options, depth: 5 } } : c)) };
    const { ['heuristic-start']: _dropped, ...rest } = suite.expected;
    const unblessed: Suite = { ...suite, expected: rest };
    for (const [broken, id] of [
      [edited, 'start-depth-4'],
      [unblessed, 'heuristic-start'],
    ] as const) {
      const run = gradeSubmissions({ suite: broken, submissions: [join(EXAMPLES, 'alice')], visibility: 'all', jobs: 1 });
      await expect(run).rejects.toBeInstanceOf(UserError);
      await expect(run).rejects.toThrow(`${suite.manifest.dir}: 1 case(s) have no reference answers or changed since blessing (${id}): run \`mancala suite bless ${suite.manifest.dir}\``);
    }
  });
});

// ---- the hostile-agent zoo, in one run ----------------------------------------------------------


/** What each zoo submission must end as, on every case. */
const VERDICTS: Record<string, { status: CaseReport['status']; message: RegExp }> = {
  'infinite-loop': { status: 'timeout', message: /no answer within the case's 1000 ms limit.*the last move it reported was 2/ },
  'never-resolves': { status: 'timeout', message: /no answer within the case's 1000 ms limit/ },
  'heap-bomb': { status: 'memory', message: /out of memory.*192 MB/ },
  'buffer-bomb': { status: 'memory', message: /allocation failed|out of memory/i },
  throws: { status: 'error', message: /chooseMove failed: Error: the zoo agent gave up/ },
  'illegal-move': { status: 'failed', message: /move: 99 \(not a pit index\) is not a legal move/ },
  'garbage-return': { status: 'error', message: /must return a move number or \{ move, value \}; got \{"move":"seven"/ },
  'exit-at-import': { status: 'error', message: /exited with code 3 while loading role agent/ },
  'reads-outside': { status: 'error', message: /access denied by the sandbox \(FileSystemRead .*expected\.json\): a submission may read only its own files/ },
  'writes-file': { status: 'error', message: /access denied by the sandbox \(FileSystemWrite .*\): a submission may not write files/ },
  'spawns-process': { status: 'error', message: /access denied by the sandbox \(ChildProcess\): a submission may not start processes/ },
  // In the jail its parent belongs to another user: the kill is refused (EPERM), and the agent's call throws.
  'kills-parent': { status: 'error', message: /killed by SIGKILL|process\.kill is not allowed|kill EPERM/ },
  'floods-stdout': { status: 'output-limit', message: /wrote [\d.]+ MB to stdout and stderr, more than the \d+ MB allowed.*the process was stopped/ },
  'symlink-out': { status: 'error', message: /ENOENT|no such file/ },
  // The network agent's verdict depends on the isolation this machine offers (checked below).
  network: { status: 'error', message: /ENETUNREACH|ECONNREFUSED|EACCES/ },
};

const WRITTEN = '/tmp/mancala-sandbox-zoo-written.txt';
const SPAWNED = '/tmp/mancala-sandbox-zoo-spawned.txt';

/** The distinctive strings of the hidden suite: its cases' 16-hex hashes. */
function hiddenHashes(): string[] {
  const expected = JSON.parse(readFileSync(HIDDEN_EXPECTED, 'utf8')) as Record<string, { hash: string }>;
  const hashes = Object.values(expected).map((e) => e.hash);
  for (const h of hashes) expect(h).toMatch(/^[0-9a-f]{16}$/);
  return hashes;
}

describe('the hostile-agent zoo and alice, graded in one run', () => {
  let report: GradeReport;
  let suite: Suite;
  let connections = 0;
  let server: Server;
  let runMs = 0;
  const secret = `SECRET-ZOO-RUN-${process.pid}-${Date.now()}`;
  let zooDir: string;

  beforeAll(async () => {
    // The suite, blessed as an instructor would.
    const suiteDir = tempFolder('zoo-suite-');
    for (const [file, text] of Object.entries(ZOO_SUITE)) {
      mkdirSync(dirname(join(suiteDir, file)), { recursive: true });
      writeFileSync(join(suiteDir, file), text);
    }
    const blessed = await blessSuite(await loadSuite(suiteDir));
    writeExpected(suiteDir, blessed.expected);
    suite = await loadSuite(suiteDir);

    // A file the zoo must never reach.
    const hidden = tempFolder('zoo-hidden-');
    writeFileSync(join(hidden, 'answers.json'), JSON.stringify({ move: 4, secret }));

    server = createServer((socket) => {
      connections++;
      socket.destroy();
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    const port = (server.address() as { port: number }).port;

    // Each zoo agent in a folder of its own name (its submission id), with what it needs beside it.
    zooDir = tempFolder('zoo-run-');
    for (const name of Object.keys(VERDICTS)) cpSync(join(ZOO, name), join(zooDir, name), { recursive: true });
    // Submissions are copied before they run: the path to the hidden suite is made absolute here.
    writeFileSync(join(zooDir, 'reads-outside', 'target.json'), JSON.stringify({ path: HIDDEN_EXPECTED }));
    writeFileSync(join(zooDir, 'network', 'port.json'), JSON.stringify({ port }));
    symlinkSync(join(hidden, 'answers.json'), join(zooDir, 'symlink-out', 'answers.json'));
    rmSync(WRITTEN, { force: true });
    rmSync(SPAWNED, { force: true });

    const started = performance.now();
    report = await gradeSubmissions({
      suite,
      submissions: [join(EXAMPLES, 'alice'), ...Object.keys(VERDICTS).map((n) => join(zooDir, n))],
      visibility: 'all',
      jobs: 2,
    });
    runMs = performance.now() - started;
  }, 120_000);

  afterAll(async () => {
    await new Promise((done) => server?.close(done));
  });

  it('finishes, with every submission graded on every case', () => {
    expect(report.submissions.map((s) => s.id)).toEqual(['alice', ...Object.keys(VERDICTS)]);
    for (const s of report.submissions) expect(s.cases.map((c) => c.id)).toEqual(['start-depth-2', 'midgame-depth-2', 'capture-depth-1']);
    // Not a speed test: a bound far above what the run needs, so a hang cannot pass for a verdict.
    expect(runMs).toBeLessThan(100_000);
  });

  it('alice still gets full marks', () => {
    const alice = submission(report, 'alice');
    expect(alice.cases.map((c) => c.status)).toEqual(['passed', 'passed', 'passed']);
    expect(alice.score).toBe(10);
    expect(alice.maxScore).toBe(10);
    // points 1 and 2 in a category of weight 6; the only case of a category of weight 4
    expect(alice.cases.map((c) => c.maxScore)).toEqual([2, 4, 4]);
  });

  it('each hostile agent gets its verdict, with a clear message, on every case', () => {
    for (const [name, verdict] of Object.entries(VERDICTS)) {
      const s = submission(report, name);
      if (name === 'network' && !report.isolation.network) {
        expect(report.isolation.note).toMatch(/network/);
        continue;
      }
      for (const c of s.cases) {
        expect({ name, id: c.id, status: c.status }).toEqual({ name, id: c.id, status: verdict.status });
        expect(c.message, `${name} ${c.id}`).toMatch(verdict.message);
        expect(c.score).toBe(0);
      }
      expect(s.score).toBe(0);
      expect(s.maxScore).toBe(10);
    }
    // What was refused at prepare time is noted.
    // Refused whatever it points at, and the note never says where (nor whether the target exists).
    expect(submission(report, 'symlink-out').notes).toContain('answers.json: a symbolic link (refused)');
  });

  it('nothing was written, no process started, no connection arrived', async () => {
    expect(existsSync(WRITTEN)).toBe(false);
    expect(existsSync(SPAWNED)).toBe(false);
    expect(readdirSync(join(zooDir, 'writes-file'))).toEqual(['agent.js']);
    if (report.isolation.network) expect(connections).toBe(0);
    // The server did listen: a connection from the grader's side arrives.
    const before = connections;
    await new Promise<void>((done, fail) => connect((server.address() as { port: number }).port, '127.0.0.1', done).on('error', fail));
    await expect.poll(() => connections).toBe(before + 1);
    // The grader itself survived the agent that kills its parent.
    expect(process.kill(process.pid, 0)).toBe(true);
  });

  it('no hidden answer and no secret reaches any output: JSON, JUnit, CSV, Gradescope, console', () => {
    const outputs = {
      json: toJson(report),
      junit: toJUnit(report),
      csv: toCsv(report),
      gradescope: report.submissions.map((_, k) => JSON.stringify(toGradescope(report, k))).join('\n'),
      console: renderConsole(report, { color: false, verbose: true }),
    };
    const hashes = hiddenHashes();
    expect(hashes.length).toBeGreaterThanOrEqual(5);
    for (const [format, text] of Object.entries(outputs)) {
      expect(text.length, format).toBeGreaterThan(100);
      for (const h of hashes) expect(text, `${format} holds hidden hash ${h}`).not.toContain(h);
      expect(text, format).not.toContain(secret);
      expect(text, format).not.toContain('SECRET-ZOO-RUN');
    }
    // The flood stays out of the report (the grader keeps only a bounded tail, and does not report it).
    expect(outputs.json.length).toBeLessThan(200_000);
    expect(outputs.json).not.toContain('flood flood flood');
  });
});
