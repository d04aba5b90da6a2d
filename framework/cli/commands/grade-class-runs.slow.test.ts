/**
 * A class run as an instructor runs it, through the built command (bin/mancala.js): one runaway
 * costs a few cases, not the class's time (grading/early-stop.ts), and a Ctrl-C (a real SIGINT)
 * loses nothing: the same command again grades only what is missing and writes the reports a
 * clean run writes, byte for byte but for the times (grading/grade-journal.ts). The weak sandbox,
 * so that the tests run wherever Node does; what they show does not depend on the confinement.
 */
import { spawn, spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PATH_MARK } from '../../grading/grade-journal.ts';
import type { GradeReport, SubmissionReport } from '../../grading/report.ts';
import { hardLimitFor } from '../../sandbox/hard-limit.ts';
import { wallBackstopFor } from '../../sandbox/session.ts';
import { blessSuite, writeExpected } from '../../suites/bless.ts';
import { loadSuite } from '../../suites/load.ts';

const MANCALA = fileURLToPath(new URL('../../../bin/mancala.js', import.meta.url));
const root = fileURLToPath(new URL('../../..', import.meta.url));
const hostile = (name: string) => join(root, 'testcases/fixtures/hostile-agents', name);
const work = mkdtempSync(join(tmpdir(), 'grade-class-runs-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Per-case limit of these runs: small, so that a runaway's timeouts are quick. */
const LIMIT_MS = 400;

/** 4 search cases and 4 next-state cases, blessed: small enough for a class in seconds. */
let suite = '';
beforeAll(async () => {
  suite = join(work, 'suite');
  mkdirSync(join(suite, 'cases'), { recursive: true });
  writeFileSync(
    join(suite, 'suite.yaml'),
    ['name: Class run', 'game: kalah', 'visibility: visible', 'roles:', '  agent: {kind: agent, files: [agent.ts, agent.js], reference: alphabeta}', 'categories:', '  - {name: search, weight: 10}', '  - {name: after openings, weight: 10}', ''].join('\n'),
  );
  const cases = [1, 2, 3, 4].flatMap((d) => [
    `- {id: start-depth-${d}, category: search, position: {start: true}, options: {depth: ${d}}, checks: {move: true, value: true}}`,
    `- {id: opening-depth-${d}, category: after openings, position: {start: true, moves: [B${d}]}, options: {depth: ${d}}, checks: {move: true, value: true}}`,
  ]);
  // The search cases first, then the others: a runaway's 3 timeouts fall in one category.
  writeFileSync(join(suite, 'cases/cases.yaml'), [...cases.filter((c) => c.includes('search')), ...cases.filter((c) => !c.includes('search'))].join('\n') + '\n');
  writeExpected(suite, (await blessSuite(await loadSuite(suite))).expected);
});

/** A class folder: copies of the plain agent under students' names, and the runaway where asked. */
function classFolder(name: string, students: readonly string[], runaway?: { as: string; at: number }): string[] {
  const dir = join(work, name);
  const paths = students.map((s) => {
    cpSync(hostile('normal'), join(dir, s), { recursive: true });
    return join(dir, s);
  });
  if (runaway !== undefined) {
    cpSync(hostile('infinite-loop'), join(dir, runaway.as), { recursive: true });
    paths.splice(runaway.at, 0, join(dir, runaway.as));
  }
  return paths;
}

function grade(args: readonly string[]): { code: number | null; out: string; err: string } {
  const r = spawnSync(process.execPath, [MANCALA, 'grade', ...args, '--suite', suite, '--weak-sandbox', '--time-limit', String(LIMIT_MS), '--no-progress', '--no-color', '--jobs', '1'], { encoding: 'utf8', timeout: 120_000 });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

function report(file: string): GradeReport {
  return JSON.parse(readFileSync(file, 'utf8')) as GradeReport;
}

/** The JSON report's text with every time (a case's ms) set to 0: what two runs must agree on byte for byte. */
function timeless(file: string): string {
  const r = report(file);
  for (const s of r.submissions) for (const c of s.cases) c.ms = 0;
  return JSON.stringify(r, null, 2);
}

const notRun = (s: SubmissionReport) => s.cases.filter((c) => c.message.startsWith('not run: '));

describe('one runaway cannot stall the class', () => {
  it('a class of 3 plain agents and one that never returns: the runaway runs 4 cases, the rest read "not run: stopped after …"', () => {
    const paths = classFolder('stall', ['alice', 'bob', 'carol'], { as: 'runaway', at: 1 });
    const r = grade([...paths, hostile('exit-at-import'), '--json', join(work, 'stall.json')]);
    expect(r.code, r.err).toBe(0);
    const [alice, runaway, bob, carol, exits] = report(join(work, 'stall.json')).submissions;
    // A module that exits as it is imported: the same start-up failure on the first 2 cases, the rest not run.
    const why = "the submission's process exited with code 3 while loading role agent (the code that runs when its module is imported)";
    expect(exits!.cases.map((c) => [c.status, c.message])).toEqual([
      ['error', why],
      ['error', why],
      ...exits!.cases.slice(2).map(() => ['error', `not run: stopped after the same start-up failure on the first 2 cases: ${why}`]),
    ]);
    for (const plain of [alice!, bob!, carol!]) {
      expect(notRun(plain)).toEqual([]);
      expect(plain.cases.every((c) => c.status === 'passed')).toBe(true);
    }
    // 3 timeouts in a row in "search" stop that category; the first case of the next also times out: everything stops.
    const ran = runaway!.cases.filter((c) => !c.message.startsWith('not run: '));
    expect(ran.map((c) => c.status)).toEqual(['timeout', 'timeout', 'timeout', 'timeout']);
    expect(ran.map((c) => c.id)).toEqual(['start-depth-1', 'start-depth-2', 'start-depth-3', 'opening-depth-1']);
    expect(runaway!.cases.find((c) => c.id === 'start-depth-4')!.message).toBe('not run: stopped after 3 timeouts in a row in this category (search)');
    const rest = runaway!.cases.filter((c) => c.category === 'after openings' && c.id !== 'opening-depth-1');
    expect(rest.map((c) => [c.status, c.message, c.score])).toEqual(rest.map(() => ['timeout', 'not run: stopped after 4 timeouts in a row', 0]));
    // What the runaway cost: 4 cases' limits (each charged about its limit), against the 8 it would have run.
    const charged = runaway!.cases.reduce((sum, c) => sum + c.ms, 0);
    expect(charged).toBeLessThan(4 * LIMIT_MS * 2);
    expect(runaway!.score).toBe(0);
  });

  it('a class with one runaway finishes within its few timeouts of the class without it (a limit enforced: timed, with margins for a busy machine)', () => {
    const students = ['ann', 'ben', 'cat', 'dan', 'eve', 'fay'];
    const timed = (paths: readonly string[], json: string) => {
      const began = performance.now();
      const r = grade([...paths, '--json', join(work, json), '--no-journal']);
      expect(r.code, r.err).toBe(0);
      return performance.now() - began;
    };
    const without = timed(classFolder('margin-without', students), 'margin-without.json');
    // Last in the list: nothing else runs beside its timeouts, so all they cost shows.
    const withRunaway = timed(classFolder('margin-with', students, { as: 'runaway', at: students.length }), 'margin-with.json');
    const runaway = report(join(work, 'margin-with.json')).submissions.at(-1)!;
    expect(runaway.id).toBe('runaway');
    const ran = runaway.cases.filter((c) => !c.message.startsWith('not run: '));
    // The stop rules: 3 timeouts in a row in a category, and one more after it; at most 4 of the 8 cases.
    expect(ran.map((c) => c.status)).toEqual(['timeout', 'timeout', 'timeout', 'timeout']);
    // Each timeout is bounded: its CPU limit and the grace to answer (hard-limit.ts), or on a busy
    // machine the wall-clock backstop of that (3 × it + 2 s).
    for (const c of ran) expect(c.ms, c.id).toBeLessThanOrEqual(wallBackstopFor(hardLimitFor(LIMIT_MS)));
    // Those timeouts are all the runaway adds: what they took, and 10 s for its sandbox's restarts
    // after each kill and for the two runs' noise on a busy 2-core machine.
    const timeouts = ran.reduce((sum, c) => sum + c.ms, 0);
    const took = `the class took ${Math.round(without)} ms without the runaway, ${Math.round(withRunaway)} ms with it; its timeouts ${Math.round(timeouts)} ms`;
    expect(withRunaway, took).toBeLessThanOrEqual(without + timeouts + 10_000);
  });

  it('--submission-time-limit: once it is spent, the remaining cases are not run, as timeouts', () => {
    const paths = classFolder('budget', [], { as: 'sleeper', at: 0 });
    // Each timeout takes at least its 400 ms: after 3 of them a budget of 1 s is spent, before the timeouts' own rule applies.
    const r = grade([...paths, '--json', join(work, 'budget.json'), '--submission-time-limit', '1s']);
    expect(r.code, r.err).toBe(0);
    const sleeper = report(join(work, 'budget.json')).submissions[0]!;
    expect(sleeper.cases.length - notRun(sleeper).length).toBeLessThanOrEqual(3);
    expect(notRun(sleeper).length).toBeGreaterThanOrEqual(5);
    for (const c of notRun(sleeper)) expect([c.status, c.message]).toEqual(['timeout', "not run: the submission's time budget (1 s) was spent"]);
    expect(grade([...paths, '--submission-time-limit', '10x']).err).toMatch(/--submission-time-limit.*Expected a time of at least 1 s/);
  });
});

describe('nothing lost, nothing redone', () => {
  it('Ctrl-C mid-class keeps the finished submissions; the same command again grades only the rest, and its reports equal a clean run', async () => {
    const paths = classFolder('resume', ['alice', 'bob', 'carol', 'dave'], { as: 'runaway', at: 2 });
    const out = join(work, 'resume-out');
    const args = [...paths, '--json', join(out, 'report.json'), '--csv', join(out, 'grades.csv')];
    const journal = join(out, 'report.journal.jsonl');
    const entries = () => (existsSync(journal) ? readFileSync(journal, 'utf8').split('\n').filter((l) => l.startsWith('{"type":"submission"')) : []);

    // The first run: interrupted (a real SIGINT) once a submission is in the journal, while the runaway holds the class.
    const child = spawn(process.execPath, [MANCALA, 'grade', ...args, '--suite', suite, '--weak-sandbox', '--time-limit', String(LIMIT_MS), '--no-progress', '--jobs', '1'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d) => (err += d));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const deadline = Date.now() + 60_000;
    while (entries().length < 1 && Date.now() < deadline && child.exitCode === null) await new Promise((r) => setTimeout(r, 25));
    child.kill('SIGINT');
    expect(await exited, err).toBe(130);
    const kept = entries();
    expect(kept.length).toBeGreaterThanOrEqual(1);
    expect(kept.length).toBeLessThan(paths.length);
    expect(err).toMatch(new RegExp(`interrupted \\(SIGINT\\); removed \\d+ sandbox cop(y|ies); kept ${kept.length} submissions? graded in this run in ${journal.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
    expect(existsSync(join(out, 'report.json'))).toBe(false);
    // The journal keeps no path of this run's (the intake's snapshot is gone once the run ends): a mark where it stood,
    // which a run that reuses the entry fills with the submission's path as given.
    const given = new Map(paths.map((p) => [basename(p), p]));
    for (const l of kept) expect(l).not.toContain(JSON.stringify(tmpdir()).slice(1, -1));
    const keptResults = new Map(
      kept
        .map((l) => JSON.parse(l) as { id: string; result: { report: SubmissionReport } })
        .map((e) => [e.id, JSON.stringify(e.result.report).split(PATH_MARK).join(JSON.stringify(given.get(e.id)!).slice(1, -1))]),
    );

    // The same command again: the kept ones reused (their reports as recorded, times and all), the rest graded.
    const again = grade(args);
    expect(again.code, again.err).toBe(0);
    expect(again.err).toContain(`reused ${kept.length} of ${paths.length} submissions`);
    const resumed = report(join(out, 'report.json'));
    for (const s of resumed.submissions) if (keptResults.has(s.id)) expect(JSON.stringify(s)).toBe(keptResults.get(s.id));
    expect(entries()).toHaveLength(paths.length);

    // One clean run elsewhere: the same reports, byte for byte but for the times.
    const clean = grade([...paths, '--json', join(work, 'clean', 'report.json'), '--csv', join(work, 'clean', 'grades.csv'), '--no-journal']);
    expect(clean.code, clean.err).toBe(0);
    expect(existsSync(join(work, 'clean', 'report.journal.jsonl'))).toBe(false);
    expect(timeless(join(out, 'report.json'))).toBe(timeless(join(work, 'clean', 'report.json')));
    expect(readFileSync(join(out, 'grades.csv'), 'utf8')).toBe(readFileSync(join(work, 'clean', 'grades.csv'), 'utf8'));

    // Nothing changed: everything reused, the reports unchanged (times included: nothing ran).
    const before = readFileSync(join(out, 'report.json'), 'utf8');
    const third = grade(args);
    expect(third.err).toContain(`reused ${paths.length} of ${paths.length} submissions`);
    expect(readFileSync(join(out, 'report.json'), 'utf8')).toBe(before);

    // One student's file changed: only that one is graded again.
    appendFileSync(join(paths[0]!, 'agent.ts'), '\n// resubmitted\n');
    const fourth = grade(args);
    expect(fourth.err).toContain(`reused ${paths.length - 1} of ${paths.length} submissions`);
    const after = report(join(out, 'report.json'));
    const was = JSON.parse(before) as GradeReport;
    expect(after.submissions.map((s) => s.id)).toEqual(was.submissions.map((s) => s.id));
    expect(JSON.stringify(after.submissions[0])).not.toBe(JSON.stringify(was.submissions[0]));
    for (const [k, s] of after.submissions.entries()) {
      if (k === 0) continue;
      expect(JSON.stringify(s)).toBe(JSON.stringify(was.submissions[k]));
    }

    // --only re-grades the students named; --fresh everything; an unknown id is one line naming it.
    expect(grade([...args, '--only', 'bob']).err).toContain(`reused ${paths.length - 1} of ${paths.length} submissions`);
    expect(grade([...args, '--fresh']).err).not.toContain('reused');
    const unknown = grade([...args, '--only', 'zed']);
    expect(unknown.code).toBe(2);
    expect(unknown.err).toMatch(/--only zed: no such submission in this run; its submissions are alice, bob, runaway, carol, dave/);
    // Nine runs of the command on a machine that may be busy: more time than one test's default.
  }, 240_000);
});

describe('a looping CSCI-561 program', () => {
  it('csci561-grade: a C++ program that never returns runs 4 cases beside the reference program; a run again reuses both', () => {
    const reference = join(root, 'agents/examples/csci561-reference/program');
    const loops = join(root, 'testcases/fixtures/hostile-programs/loops');
    const cases = ['alphabeta-d1-1', 'alphabeta-d1-2', 'alphabeta-d1-3', 'alphabeta-d2-1', 'greedy-01', 'greedy-02', 'minimax-d1-1', 'minimax-d1-2'];
    const json = join(work, 'csci561', 'report.json');
    const run = () =>
      spawnSync(process.execPath, [MANCALA, 'csci561-grade', reference, loops, '--suite', join(root, 'testcases/csci561-public'), '--case', cases.join(','), '--weak-sandbox', '--time-limit', String(LIMIT_MS), '--no-progress', '--json', json], { encoding: 'utf8', timeout: 120_000 });
    const first = run();
    expect(first.status, first.stderr).toBe(0);
    const [ok, looping] = report(json).submissions;
    expect(ok!.cases.every((c) => c.status === 'passed')).toBe(true);
    expect(looping!.cases.filter((c) => !c.message.startsWith('not run: ')).map((c) => [c.id, c.status])).toEqual([
      ['alphabeta-d1-1', 'timeout'],
      ['alphabeta-d1-2', 'timeout'],
      ['alphabeta-d1-3', 'timeout'],
      ['greedy-01', 'timeout'],
    ]);
    expect(notRun(looping!).map((c) => [c.id, c.status, c.message])).toEqual([
      ['alphabeta-d2-1', 'timeout', 'not run: stopped after 3 timeouts in a row in this category (alpha-beta)'],
      ...cases.slice(5).map((id) => [id, 'timeout', 'not run: stopped after 4 timeouts in a row']),
    ]);
    const text = readFileSync(json, 'utf8');
    const again = run();
    expect(again.stderr).toContain('reused 2 of 2 programs');
    expect(readFileSync(json, 'utf8')).toBe(text);
  });

  it('a Python 2 file run as Python 3: the same SyntaxError on the first 2 cases, the rest not run', () => {
    const dir = join(work, 'python2', 'eve');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'mancala3.py'), 'print "hello"\n');
    const json = join(work, 'python2', 'report.json');
    const r = spawnSync(process.execPath, [MANCALA, 'csci561-grade', dir, '--suite', join(root, 'testcases/csci561-public'), '--weak-sandbox', '--no-progress', '--json', json], { encoding: 'utf8', timeout: 120_000 });
    expect(r.status, r.stderr).toBe(0);
    const eve = report(json).submissions[0]!;
    expect(eve.cases.slice(0, 2).map((c) => c.message)).toEqual([expect.stringContaining('SyntaxError'), expect.stringContaining('SyntaxError')]);
    expect(notRun(eve)).toHaveLength(eve.cases.length - 2);
    for (const c of notRun(eve)) {
      expect(c.status).toBe('error');
      expect(c.message).toMatch(/^not run: stopped after the same start-up failure on the first 2 cases: the program exited with code 1; on stderr:\n[^]*SyntaxError/);
    }
  });
});
