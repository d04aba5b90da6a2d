/**
 * `mancala suite validate` and `mancala suite bless [--check]`, through commander as main.ts runs
 * them: output, exit codes (0, 1 for an out-of-date expected.json under --check, 2 for a user's
 * mistake), and what is written.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { registerSuiteCommand } from './suite.ts';
import { runCommand } from '../../../testcases/fixtures/run-command.ts';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const basics = join(root, 'testcases/kalah-basics');
const work = mkdtempSync(join(tmpdir(), 'suite-cli-test-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** The program with only the suite command, and main.ts's handling of errors. */
const cli = (args: string[]) => runCommand(registerSuiteCommand, args);

function staleCopy(name: string): string {
  const dir = join(work, name);
  cpSync(basics, dir, { recursive: true });
  const file = join(dir, 'cases/opening.yaml');
  writeFileSync(file, readFileSync(file, 'utf8').replace('options: {depth: 4}', 'options: {depth: 3}'));
  return dir;
}

describe('mancala suite validate', () => {
  it('summarises a blessed suite', async () => {
    const r = await cli(['suite', 'validate', basics]);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.out).toContain(`suite "Kalah basics" (${basics}): kalah(6,4) (boards of 4, 6 and 7 pits), 22 cases in 9 files, limits 1000 ms and 512 MB a case`);
    expect(r.out).toMatch(/role agent: agent, files agent\.ts .*reference alphabeta; 19 cases/);
    expect(r.out).toMatch(/^ {2}category +weight +cases +points +visible +after_due_date +hidden$/m);
    expect(r.out).toMatch(/^ {2}search values +25 +6 +6 +6 +0 +0$/m);
    expect(r.out).toContain('blessed: all 22 cases have up-to-date expected answers');
  });

  it('names the cases that need blessing', async () => {
    const dir = staleCopy('validate-stale');
    const r = await cli(['suite', 'validate', dir]);
    expect(r.code).toBe(0);
    expect(r.out).toContain(`not blessed (new or edited since): start-depth-4; run mancala suite bless ${dir}`);
  });

  it('a malformed suite: one line, exit 2', async () => {
    const dir = join(work, 'malformed');
    cpSync(basics, dir, { recursive: true });
    writeFileSync(join(dir, 'cases/timing.json'), readFileSync(join(dir, 'cases/timing.json'), 'utf8').replace('"time": {"ms": 500}', '"time": {"ms": 5000}'));
    const r = await cli(['suite', 'validate', dir]);
    expect(r.code).toBe(2);
    expect(r.out).toBe('');
    expect(r.err).toBe(`mancala: ${dir}/cases/timing.json:8: checks.time: expected at most the case's time limit (1000 ms; over it the case is a timeout), got 5000\n`);
  });

  it('a missing folder argument is a usage error', async () => {
    const r = await cli(['suite', 'validate']);
    expect(r.code).toBe(2);
    expect(r.err).toContain("missing required argument 'dir'");
  });
});

describe('mancala suite bless', () => {
  it('--check on an up-to-date suite: exit 0, nothing written', async () => {
    const before = readFileSync(join(basics, 'expected.json'), 'utf8');
    const r = await cli(['suite', 'bless', basics, '--check']);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^ {2}start-depth-1 +move B2 \(2\) \(unchanged\)$/m);
    expect(r.out).toMatch(/^ {2}playoff-vs-random +no reference answer needed \(unchanged\)$/m);
    expect(r.out).toContain(`22 cases: 0 new, 0 changed, 22 unchanged; 0 removed; ${basics}/expected.json is up to date`);
    expect(readFileSync(join(basics, 'expected.json'), 'utf8')).toBe(before);
  });

  it('--check on a stale suite: exit 1, one line naming the cases, nothing written', async () => {
    const dir = staleCopy('check-stale');
    const before = readFileSync(join(dir, 'expected.json'), 'utf8');
    const r = await cli(['suite', 'bless', dir, '--check']);
    expect(r.code).toBe(1);
    expect(r.err).toBe(
      `mancala: ${dir}/expected.json is out of date (22 cases: 0 new, 1 changed, 21 unchanged; 0 removed): start-depth-4; run mancala suite bless ${dir}\n`,
    );
    expect(r.out).toMatch(/^ {2}start-depth-4 +move B\d \(\d\), value -?\d+ \(changed\)$/m);
    expect(readFileSync(join(dir, 'expected.json'), 'utf8')).toBe(before);
  });

  it('writes expected.json, after which --check passes', async () => {
    const dir = staleCopy('bless-stale');
    const r = await cli(['suite', 'bless', dir]);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.out).toContain(`22 cases: 0 new, 1 changed, 21 unchanged; 0 removed; wrote ${dir}/expected.json`);
    const entry = JSON.parse(readFileSync(join(dir, 'expected.json'), 'utf8'))['start-depth-4'];
    expect(entry).toEqual({ hash: expect.stringMatching(/^[0-9a-f]{16}$/), move: expect.any(Number), moveName: expect.any(String), value: expect.any(Number) });
    expect((await cli(['suite', 'bless', dir, '--check'])).code).toBe(0);
    expect((await cli(['suite', 'validate', dir])).out).toContain('blessed: all 22 cases');
  });
});
