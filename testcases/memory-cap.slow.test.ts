/**
 * The built `mancala` command under an address-space cap (`prlimit --as`, as `ulimit -v` sets on
 * shared grading servers): it once died at start (tsx's WebAssembly). Under a 4 GB cap the
 * command searches, blesses a suite and grades alice and the hostile zoo's loop, heap bomb,
 * buffer bomb and throw with the verdicts they get without a cap (framework/grading/runner.test.ts
 * checks the same verdicts uncapped); a --memory the cap makes impossible is one line, at once.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import type { GradeReport } from '../framework/grading/report.ts';
import { addressSpaceCap, memoryLimitProblem } from '../framework/sandbox/meters/address-space.ts';
import { ZOO_SUITE } from './fixtures/hostile-agents/zoo-suite.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const BIN = join(ROOT, 'bin/mancala.js');
const ZOO = join(ROOT, 'testcases/fixtures/hostile-agents');
const CAP = '4000000000';

const hasPrlimit = spawnSync('prlimit', ['--version']).status === 0;
const work = mkdtempSync(join(tmpdir(), 'memory-cap-test-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** `node bin/mancala.js …` under the cap. */
function capped(args: string[]): { code: number | null; out: string; err: string } {
  const r = spawnSync('prlimit', [`--as=${CAP}`, process.execPath, BIN, ...args], { cwd: work, encoding: 'utf8', timeout: 240_000 });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

/** What each submission must end as, on every case of the zoo suite (as without a cap). */
const VERDICTS: Record<string, { status: string; message: RegExp }> = {
  'infinite-loop': { status: 'timeout', message: /no answer within the case's 1000 ms limit/ },
  'heap-bomb': { status: 'memory', message: /out of memory.*192 MB/ },
  'buffer-bomb': { status: 'memory', message: /out of memory|allocation failed/i },
  throws: { status: 'error', message: /chooseMove failed: Error: the zoo agent gave up/ },
};

describe.skipIf(!hasPrlimit)('the built command under prlimit --as=4000000000', () => {
  it('the cap is there in the processes it starts', () => {
    const limits = execFileSync('prlimit', [`--as=${CAP}`, 'cat', '/proc/self/limits'], { encoding: 'utf8' });
    expect(addressSpaceCap(limits)).toBe(Number(CAP));
  });

  it('search answers as without a cap', () => {
    const r = capped(['search', '--rules', 'kalah', '--algo', 'alphabeta', '--depth', '6', '--json']);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out)).toMatchObject({ move: 5, value: 3, nodes: 3786 });
  });

  it('blesses a suite, then grades alice and the zoo with --jobs 2: the verdicts they get without a cap', () => {
    const suite = join(work, 'zoo-suite');
    for (const [file, text] of Object.entries(ZOO_SUITE)) {
      mkdirSync(dirname(join(suite, file)), { recursive: true });
      writeFileSync(join(suite, file), text);
    }
    const bless = capped(['suite', 'bless', suite]);
    expect(bless.err).toBe('');
    expect(bless.code).toBe(0);

    const zoo = join(work, 'zoo');
    for (const name of Object.keys(VERDICTS)) cpSync(join(ZOO, name), join(zoo, name), { recursive: true });
    const reportFile = join(work, 'report.json');
    const r = capped(['grade', join(ROOT, 'agents/examples/alice'), ...Object.keys(VERDICTS).map((n) => join(zoo, n)), '--suite', suite, '--jobs', '2', '--json', reportFile, '--no-progress']);
    expect(r.err).not.toMatch(/WebAssembly|internal error|RangeError/);
    expect(r.code, r.err).toBe(0);
    const report = JSON.parse(readFileSync(reportFile, 'utf8')) as GradeReport;
    const byId = new Map(report.submissions.map((s) => [s.id, s]));
    expect(byId.get('alice')!.cases.map((c) => c.status)).toEqual(['passed', 'passed', 'passed']);
    for (const [name, verdict] of Object.entries(VERDICTS)) {
      const cases = byId.get(name)!.cases;
      expect(cases).toHaveLength(3);
      for (const c of cases) {
        expect({ name, id: c.id, status: c.status }).toEqual({ name, id: c.id, status: verdict.status });
        expect(c.message, `${name} ${c.id}`).toMatch(verdict.message);
      }
    }
  });

  it('every other command runs under the cap with --jobs 2: check, match, tournament, gauntlet, csci561-grade (Python and Java), play', () => {
    const suite = join(work, 'zoo-suite');
    const alice = join(ROOT, 'agents/examples/alice');
    const check = capped(['check', alice, '--suite', suite]);
    expect(check.code, check.err).toBe(0);
    expect(check.out).toContain('all 3 visible cases passed');

    const match = capped(['match', 'alphabeta:depth=2', 'random', '--games', '2', '--jobs', '2', '--json']);
    expect(match.code, match.err).toBe(0);
    expect(JSON.parse(match.out).games).toHaveLength(2);

    const tournament = capped(['tournament', 'random', 'greedy', 'alphabeta:depth=1', '--games-per-pair', '2', '--jobs', '2', '--out', join(work, 'tournament'), '--no-progress']);
    expect(tournament.code, tournament.err).toBe(0);
    expect(tournament.out).toMatch(/alphabeta:depth=1/);

    const gauntletReport = join(work, 'gauntlet.json');
    const gauntlet = capped(['gauntlet', alice, '--stones', '4', '--time-per-move', '200', '--games', '1', '--jobs', '2', '--json', gauntletReport, '--no-progress']);
    expect(gauntlet.code, gauntlet.err).toBe(0);
    const gauntletCases = (JSON.parse(readFileSync(gauntletReport, 'utf8')) as GradeReport).submissions[0]!.cases;
    expect(gauntletCases.map((c) => c.status).filter((st) => st !== 'passed' && st !== 'failed')).toEqual([]);

    // A correct Python program and a Java one (which answers wrongly on purpose): the JVM starts under the cap too.
    const programs = join(work, 'programs');
    cpSync(join(ROOT, 'agents/examples/csci561-reference/program'), join(programs, 'python-reference'), { recursive: true });
    cpSync(join(ROOT, 'testcases/fixtures/programs/java-package'), join(programs, 'java-package'), { recursive: true });
    const programReport = join(work, 'programs.json');
    const graded = capped(['csci561-grade', join(programs, 'python-reference'), join(programs, 'java-package'), '--suite', join(ROOT, 'testcases/csci561-public'), '--case', 'greedy-01,minimax-d2-1,alphabeta-d2-1', '--jobs', '2', '--json', programReport, '--no-progress']);
    expect(graded.code, graded.err).toBe(0);
    const [python, java] = (JSON.parse(readFileSync(programReport, 'utf8')) as GradeReport).submissions;
    expect(python!.cases.map((c) => `${c.id}:${c.status}`).sort()).toEqual(['alphabeta-d2-1:passed', 'greedy-01:passed', 'minimax-d2-1:passed']);
    for (const c of java!.cases) expect(c.status, c.message).toBe('failed');

    const play = capped(['play', '--bottom', 'random', '--top', 'greedy', '--seed', '3']);
    expect(play.code, play.err).toBe(0);
    expect(play.out).toMatch(/^final score: bottom \d+, top \d+ after \d+ moves$/m);
  });

  it('a --memory the cap makes impossible is one line naming it, before the sandbox is even looked at', () => {
    const r = capped(['grade', join(ROOT, 'agents/examples/alice'), '--suite', join(ROOT, 'testcases/kalah-basics'), '--memory', '5000']);
    expect(r.code).toBe(2);
    expect(r.out).toBe('');
    expect(r.err).toBe(`mancala: --memory 5000: ${memoryLimitProblem(5000, Number(CAP))}\n`);
    expect(r.err).toContain('may map at most 3814 MB');
  });
});

describe('memoryLimitProblem', () => {
  it('no cap, or a limit below it: no problem; at or above it: says both figures', () => {
    expect(memoryLimitProblem(65_536, undefined)).toBeUndefined();
    expect(memoryLimitProblem(512, 4_000_000_000)).toBeUndefined();
    expect(memoryLimitProblem(3814, 4_000_000_000)).toMatch(/3814 MB cannot be reached: this process may map at most 3814 MB/);
  });

  it('reads the soft limit of /proc/self/limits', () => {
    const head = 'Limit                     Soft Limit           Hard Limit           Units     \n';
    expect(addressSpaceCap(`${head}Max address space         unlimited            unlimited            bytes     \n`)).toBeUndefined();
    expect(addressSpaceCap(`${head}Max address space         2147483648           unlimited            bytes     \n`)).toBe(2147483648);
    expect(addressSpaceCap('')).toBeUndefined();
  });
});
