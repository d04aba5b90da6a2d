/**
 * No process that runs student code holds a reference search (issue 22): submissions that hunt
 * for one (testcases/fixtures/hostile-agents/reference-hunt/reference_hunt.py: sys.modules,
 * gc.get_objects(), the callers' frames and inspect.stack(), inspect.getsource of every loaded
 * module, and every Python, TypeScript, JavaScript or Java file on the disks they can read) and
 * answer with it when they find it. Real python3, the real sandbox.
 *
 *  - The hunt works: outside the sandbox, beside a host that holds a `reference_alphabeta` as the
 *    bridges did, each channel alone finds it.
 *  - Graded through each bridge that runs a course's files (CSC384, CPSC 4610) on its hidden suite
 *    (its heuristic playoff included), a hunter scores exactly what the same files score when they
 *    do not hunt (each function's wrong fallback answer), and no report holds a word of what a
 *    hunt finds or a line of the reference searches. On main before this change the same hunters
 *    scored 100/100 (CSC384) and 70/100 (CPSC 4610) against 7 and 30 for the fallback.
 *  - An agent on the generic Python client plays a match hunting before every move: it finds
 *    nothing to use (a hunt that finds source fails the move, which would be a forfeit).
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { referenceLines } from './fixtures/hostile-agents/reference-hunt/reference-lines.ts';
import { gradeSubmissions } from '../framework/grading/runner.ts';
import { playMatch } from '../framework/matches/match.ts';
import { loadSuite } from '../framework/suites/load.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const HUNT = join(ROOT, 'testcases/fixtures/hostile-agents/reference-hunt');
const CHANNELS = ['modules', 'gc', 'frames', 'source', 'disk'] as const;
const work = mkdtempSync(join(tmpdir(), 'reference-hunt-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A hunting submission: the fixture's files and the hunt, trying `channels` (none: its fallback answers only). */
function hunter(fixture: string, channels: readonly string[] | 'all'): string {
  const dir = join(work, `${fixture}-${channels === 'all' ? 'all' : channels.join('-') || 'none'}`);
  cpSync(join(HUNT, fixture), dir, { recursive: true });
  cpSync(join(HUNT, 'reference_hunt.py'), join(dir, 'reference_hunt.py'));
  if (channels !== 'all') writeFileSync(join(dir, 'hunt_channels.txt'), `${channels.join('\n')}\n`);
  return dir;
}

/** What a hunt would leave in a report: its own words, the bridges' former search, or a reference line. */
function leaks(text: string): string[] {
  const words = ['HUNT-FOUND', 'HUNT-LEAK', 'def reference_alphabeta'].filter((w) => text.includes(w));
  return [...words, ...referenceLines().filter((l) => text.includes(l))];
}

describe('the hunt, outside the sandbox, beside a host holding a reference_alphabeta', () => {
  it.each(CHANNELS)('finds it by %s alone', (channel) => {
    const host = join(work, `host-${channel}`);
    const submission = hunter('python-agent', [channel]);
    mkdirSync(host);
    writeFileSync(
      join(host, 'host.py'),
      [
        'import os, sys',
        'sys.path.insert(0, os.getcwd())',
        'def reference_alphabeta():',
        '    return "the reference"',
        'def answer():',
        '    import reference_hunt',
        '    return reference_hunt.hunt("reference_alphabeta")',
        'if __name__ == "__main__":',
        '    found = answer()',
        '    print(found() if found else "nothing")',
        '',
      ].join('\n'),
    );
    const r = spawnSync('python3', ['-B', join(host, 'host.py')], { cwd: submission, encoding: 'utf8' });
    expect(r.stdout.trim(), r.stderr).toBe('the reference');
    expect(r.stderr).toContain(`HUNT-FOUND reference_alphabeta by ${channel}`);
  }, 180_000);
});

describe.each([
  { course: 'csc384', suite: 'csc384-hidden', playoff: 'advanced heuristic playoff' },
  { course: 'cpsc4610', suite: 'cpsc4610-hidden', playoff: 'scoring function' },
])('a $course submission hunting for the reference, graded on $suite', ({ course, suite, playoff }) => {
  it('scores what its fallback answers score, and no report shows what it looked for', async () => {
    const hunting = hunter(course, 'all');
    const honest = hunter(course, []);
    const report = await gradeSubmissions({ suite: await loadSuite(join(ROOT, 'testcases', suite)), submissions: [hunting, honest], visibility: 'all', jobs: 2 });
    const [got, fallback] = [hunting, honest].map((p) => report.submissions.find((s) => s.path === p)!);
    const statuses = (s: typeof got) => s!.cases.map((c) => `${c.id}: ${c.status}`);
    expect(statuses(got)).toEqual(statuses(fallback));
    expect(got!.score).toBe(fallback!.score);
    expect(got!.score).toBeLessThan(got!.maxScore / 2);
    // The heuristic's playoff was played (its games lost), not left out or broken.
    const games = got!.cases.filter((c) => c.category === playoff && /playoff/.test(c.message));
    expect(games.length).toBeGreaterThan(0);
    expect(leaks(JSON.stringify(report))).toEqual([]);
  }, 600_000);
});

describe('an agent on the generic Python client hunting before every move', () => {
  it('plays its games without finding anything to use or to show', async () => {
    const r = await playMatch({ A: hunter('python-agent', 'all'), B: 'random', rules: 'kalah', games: 2, timePerMoveMs: 20_000, seed: 3 });
    expect(r.games.map((g) => g.forfeit?.message ?? 'played')).toEqual(['played', 'played']);
    expect(leaks(JSON.stringify(r))).toEqual([]);
  }, 240_000);
});
