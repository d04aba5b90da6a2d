/**
 * `--roster` on gauntlet, tournament and similarity, as on grade: an LMS's download taken in with
 * the class list, its students named by the roster (the id in gauntlet's report and tournament's
 * standings, the name and id in similarity's pairs), the roster's matches said on stderr, and a
 * roster with nothing to name refused in one line.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { buffer } from 'node:stream/consumers';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { ZipFile } from 'yazl';
import { runMain } from '../../testcases/fixtures/run-main.ts';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const work = mkdtempSync(join(tmpdir(), 'roster-option-test-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const at = (name: string) => join(work, name);

/** A Canvas download: each student's files named `<name>_<user id>_<file id>_<file>`. */
async function canvasZip(name: string, students: Record<string, Record<string, string>>): Promise<string> {
  const z = new ZipFile();
  let fileId = 70001;
  for (const [prefix, files] of Object.entries(students)) for (const [f, from] of Object.entries(files)) z.addBuffer(readFileSync(join(root, from)), `${prefix}_${fileId++}_${f}`);
  z.end();
  writeFileSync(at(name), await buffer(z.outputStream));
  return at(name);
}

/** A plain roster whose ids are none of Canvas's: matched by the students' names. */
const roster = () => {
  writeFileSync(at('roster.csv'), 'id,name,email\ns-alice,"Smith, Alice",alice@example.edu\ns-bob,"Jones, Bob",bob@example.edu\ns-carol,"Lee, Carol",carol@example.edu\n');
  return at('roster.csv');
};

describe('--roster', () => {
  it('similarity: the pairs name the roster\'s students', async () => {
    const zip = await canvasZip('sim.zip', { smithalice_1001: { 'agent.py': 'testcases/fixtures/similarity/python-dan/agent.py' }, jonesbob_1002: { 'agent.py': 'testcases/fixtures/similarity/python-erin/agent.py' } });
    const r = await runMain(['similarity', zip, '--roster', roster(), '--no-behaviour', '--no-progress', '--json', at('sim.json')]);
    expect(r.code, r.err).toBe(0);
    expect(r.err).toContain(`roster ${at('roster.csv')} (plain): 2 submissions matched to a student`);
    expect(r.err).toContain('no submission from Lee, Carol (s-carol, roster line 4)');
    const report = JSON.parse(readFileSync(at('sim.json'), 'utf8')) as { submissions: { path: string }[]; pairs: { a: string; b: string }[] };
    expect(report.submissions.map((s) => s.path)).toEqual(['Smith, Alice (s-alice)', 'Jones, Bob (s-bob)']);
    expect([report.pairs[0]!.a, report.pairs[0]!.b]).toEqual(['Smith, Alice (s-alice)', 'Jones, Bob (s-bob)']);
    expect(r.out).toContain('Smith, Alice (s-alice)  Jones, Bob (s-bob)');
  });

  it('gauntlet: the report\'s submission is the roster\'s id', async () => {
    const zip = await canvasZip('gauntlet.zip', { smithalice_1001: { 'agent.ts': 'agents/examples/cs540-reference/agent.ts', 'clock.ts': 'agents/examples/cs540-reference/clock.ts' } });
    const r = await runMain(['gauntlet', zip, '--roster', roster(), '--stones', '4', '--time-per-move', '20', '--games', '1', '--no-progress', '--json', at('gauntlet.json')]);
    expect(r.code, r.err).toBe(0);
    expect(r.err).toContain(`roster ${at('roster.csv')} (plain): 1 submission matched to a student`);
    const report = JSON.parse(readFileSync(at('gauntlet.json'), 'utf8')) as { submissions: { id: string; path: string }[] };
    expect(report.submissions.map((s) => s.id)).toEqual(['s-alice']);
    expect(report.submissions[0]!.path).toBe(`${zip}/smithalice_1001_*`);
  }, 120_000);

  it('tournament: the standings name the roster\'s ids; a roster with only reference agents is refused', async () => {
    const zip = await canvasZip('tournament.zip', { smithalice_1001: { 'agent.ts': 'agents/examples/bob/agent.ts' }, jonesbob_1002: { 'agent.ts': 'agents/examples/bob/agent.ts' } });
    const out = at('t');
    const r = await runMain(['tournament', zip, '--roster', roster(), '--games-per-pair', '1', '--time-per-move', '50', '--out', out, '--no-progress', '--json', at('standings.json')]);
    expect(r.code, r.err).toBe(0);
    const standings = JSON.parse(readFileSync(at('standings.json'), 'utf8')) as { standings: { agent: string }[] };
    expect(standings.standings.map((s) => s.agent).sort()).toEqual([join(out, 'submissions', 's-alice'), join(out, 'submissions', 's-bob')]);
    const refused = await runMain(['tournament', 'random', 'greedy', '--roster', roster(), '--out', at('t2')]);
    expect(refused.code).toBe(2);
    expect(refused.err).toBe(`mancala: --roster ${at('roster.csv')}: no submission given by path for it to name (only reference agents)\n`);
  }, 120_000);
});
