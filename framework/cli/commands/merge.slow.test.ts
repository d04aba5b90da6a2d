/**
 * `--shard i/n` and `mancala merge`, as the command line runs them, with real agents in the real
 * sandbox: a run split into shards and merged gives what one run gives, timings aside (grade: the
 * JSON report less its `ms` fields, the CSV gradebook byte for byte, the console report; check;
 * csci561-grade; gauntlet; a tournament: its results, standings and crosstable), and merge
 * refuses shards of different runs (naming the difference), of different commands, given twice,
 * or missing — unless --allow-missing.
 */
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runMain } from '../../../testcases/fixtures/run-main.ts';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const work = mkdtempSync(join(tmpdir(), 'merge-cli-test-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const at = (name: string) => join(work, name);

const cli = runMain;

/** A user's mistake: exit 2, exactly one `mancala: …` line on stderr. */
function expectRefused(r: { code: number; out: string; err: string }, says: string | RegExp): void {
  expect(r.code, r.err).toBe(2);
  expect(r.out).toBe('');
  expect(r.err).toMatch(/^mancala: [^\n]+\n$/);
  if (typeof says === 'string') expect(r.err).toContain(says);
  else expect(r.err).toMatch(says);
}

/** Refused once the run started (after the sandbox line): exit 2, its last line the one `mancala: …` line. */
function expectRefusedAfterStart(r: { code: number; out: string; err: string }, says: string): void {
  expect(r.code, r.err).toBe(2);
  const lines = r.err.trimEnd().split('\n');
  expect(lines.filter((l) => l.startsWith('mancala: '))).toEqual([lines.at(-1)]);
  expect(lines.at(-1)).toContain(says);
}

/** JSON with every `ms` field (a timing) left out, and measured start-ups ("python3: 57 ms") made alike. */
function withoutTimings(file: string): unknown {
  const strip = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(strip);
    if (typeof v === 'string') return v.replace(/\d+(?:\.\d+)? ms\b/g, '# ms');
    if (v === null || typeof v !== 'object') return v;
    return Object.fromEntries(Object.entries(v).filter(([k]) => k !== 'ms').map(([k, x]) => [k, strip(x)]));
  };
  return strip(JSON.parse(readFileSync(file, 'utf8')));
}

const read = (file: string) => readFileSync(file, 'utf8');

describe('mancala grade --shard and mancala merge', () => {
  const basics = join(root, 'testcases/kalah-basics');
  // Four submissions in three shards: 1/3 grades alice and python-greedy, 2/3 bob, 3/3 carol.
  const submissions = ['alice', 'bob', 'carol', 'python-greedy'].map((s) => join('agents/examples', s));
  const grade = (extra: string[]) => cli(['grade', ...submissions.map((s) => join(root, s)), '--suite', basics, '--no-progress', ...extra]);
  let whole: { code: number; out: string; err: string };
  const shards: { code: number; out: string; err: string }[] = [];

  beforeAll(async () => {
    whole = await grade(['--json', at('whole.json'), '--csv', at('whole.csv'), '--junit', at('whole.xml')]);
    for (const i of [1, 2, 3]) shards.push(await grade(['--shard', `${i}/3`, '--json', at(`shard${i}.json`), '--csv', at(`shard${i}.csv`), '--gradescope', at(`gs${i}/results.json`)]));
  }, 240_000);

  it('grades every n-th submission from the i-th, says so, and records the shard and the run in every report', () => {
    expect(whole.code, whole.err).toBe(0);
    for (const s of shards) expect(s.code, s.err).toBe(0);
    expect(shards[0]!.err).toMatch(/^shard 1\/3 of run [0-9a-f]{12} \(mancala grade\): 2 of the 4 submissions \(.*alice, .*python-greedy\)$/m);
    expect(shards[1]!.err).toMatch(/^shard 2\/3 of run [0-9a-f]{12} \(mancala grade\): 1 of the 4 submissions \(.*bob\)$/m);
    const run = /of run ([0-9a-f]{12})/.exec(shards[0]!.err)![1]!;
    // Every shard names the same run.
    for (const s of shards) expect(s.err).toContain(`of run ${run} (mancala grade)`);
    const json = JSON.parse(read(at('shard2.json'))) as { version: number; shard: Record<string, unknown>; notes: string[]; submissions: { id: string }[] };
    expect(Object.keys(json).slice(0, 3)).toEqual(['version', 'shard', 'suite']);
    expect(json.shard).toMatchObject({ index: 2, count: 3, command: 'grade', run, units: [join(root, submissions[1]!)] });
    expect(json.shard['identity']).toMatchObject({ suite: expect.stringMatching(/^Kalah basics \(sha256 [0-9a-f]{12}\)$/), '--time-limit': null, '--visibility': 'all' });
    expect(json.notes[0]).toContain(`shard 2/3 of run ${run} (mancala grade): 1 of the 4 submissions`);
    expect(json.submissions.map((s) => s.id)).toEqual(['bob']);
    // The CSV's last column names the shard; Gradescope files are named as in the whole run (4 submissions: one file each).
    const csv = read(at('shard2.csv')).split('\r\n');
    expect(csv[0]).toMatch(/,output-limit,shard$/);
    expect(csv[1]).toMatch(new RegExp(`^bob,.*,2/3 ${run}$`));
    expect(readdirSync(at('gs2'))).toEqual(['results.bob.json']);
    expect(read(at('gs2/results.bob.json'))).toContain(`shard 2/3 of run ${run}`);
  });

  it('merges 3 shards into exactly what one run gives: the JSON report (timings aside), the CSV, the JUnit XML, the console report', async () => {
    const r = await cli(['merge', at('shard3.json'), at('shard1.json'), at('shard2.json'), '--json', at('merged.json'), '--csv', at('merged.csv'), '--junit', at('merged.xml')]);
    expect(r.code, r.err).toBe(0);
    expect(r.err).toMatch(/^merged 3 of 3 shards \(1\/3, 2\/3, 3\/3\) of run [0-9a-f]{12} \(mancala grade\): 4 submissions\n/);
    expect(withoutTimings(at('merged.json'))).toEqual(withoutTimings(at('whole.json')));
    expect(read(at('merged.json'))).not.toContain('"shard"');
    expect(read(at('merged.csv'))).toBe(read(at('whole.csv')));
    const untimed = (f: string) => read(f).replace(/ time="[^"]*"/g, '');
    expect(untimed(at('merged.xml'))).toBe(untimed(at('whole.xml')));
    // The console is the one run's, but for the CPU time each submission's line says (a run's own measure).
    const untimedConsole = (text: string) => text.replace(/ {2}\d+(?:\.\d)? (?:s|min) CPU {2}/g, '  … CPU  ');
    expect(untimedConsole(r.out)).toBe(untimedConsole(whole.out));
  });

  it('refuses shards of different runs, naming the difference, and a shard given twice', async () => {
    const other = await grade(['--shard', '2/3', '--time-limit', '3000', '--json', at('shard2-limit.json')]);
    expect(other.code, other.err).toBe(0);
    const r = await cli(['merge', at('shard1.json'), at('shard2-limit.json'), at('shard3.json'), '--json', at('never.json')]);
    expectRefused(r, `cannot merge shards of different runs: shard 2/3 (${at('shard2-limit.json')}) was graded with --time-limit 3000, shard 1/3 (${at('shard1.json')}) without`);
    expect(existsSync(at('never.json'))).toBe(false);
    expectRefused(await cli(['merge', at('shard1.json'), at('shard2.json'), at('shard2.json')]), `shard 2/3 is given twice (${at('shard2.json')} and ${at('shard2.json')})`);
    // Another split of the same run is not these shards.
    const half = await grade(['--shard', '1/2', '--json', at('half1.json')]);
    expect(half.code, half.err).toBe(0);
    expectRefused(await cli(['merge', at('shard2.json'), at('half1.json')]), `cannot merge shard 2/3 (${at('shard2.json')}) with shard 1/2 (${at('half1.json')}): one run split into 3 shards, the other into 2`);
  }, 120_000);

  it('refuses missing shards, naming them and their submissions; --allow-missing merges what is there and says what is not', async () => {
    expectRefused(
      await cli(['merge', at('shard1.json'), at('shard2.json'), '--csv', at('never.csv')]),
      /^mancala: missing shard 3\/3 of run [0-9a-f]{12} \(mancala grade; submission \S*carol\): give every shard, or --allow-missing to merge the 2 given\n$/,
    );
    const r = await cli(['merge', at('shard1.json'), at('shard2.json'), '--allow-missing', '--json', at('partial.json')]);
    expect(r.code, r.err).toBe(0);
    expect(r.err).toMatch(/NOT in it \(--allow-missing\): submission \S*carol/);
    const partial = JSON.parse(read(at('partial.json'))) as { notes: string[]; submissions: { id: string }[] };
    expect(partial.submissions.map((s) => s.id)).toEqual(['alice', 'bob', 'python-greedy']);
    expect(partial.notes[0]).toMatch(/^incomplete: shard 3\/3 not merged \(--allow-missing\), so submission \S*carol is not in this report$/);
  });

  it('refuses what is not a shard, a shard of another command, and report flags the command does not write', async () => {
    expectRefused(await cli(['merge', at('whole.json')]), `${at('whole.json')}: not a shard's report (it has no "shard" field)`);
    expectRefused(await cli(['merge', at('nowhere.json')]), `${at('nowhere.json')}: no such file or folder`);
    expectRefused(await cli(['merge', at('shard1.json'), at('shard2.json'), at('shard3.json'), '--out', at('dir')]), /--out: grade shards merge into --json, --csv, --junit and --gradescope reports/);
  });
});

describe('mancala grade --shard and merge on a folder name holding escapes', () => {
  it('merges (the shards record the names as the reports do), no shard file holds the raw bytes, and the shard line names the submission as given', async () => {
    const evil = 'evil\x1b]0;owned\x07\u202e\u009b';
    for (const name of [evil, 'plain']) cpSync(join(root, 'agents/examples/bob'), at(`esc/${name}`), { recursive: true });
    const args = ['grade', at('esc'), '--suite', join(root, 'testcases/kalah-basics'), '--no-progress'];
    const runs = [];
    for (const i of [1, 2]) runs.push(await cli([...args, '--shard', `${i}/2`, '--json', at(`esc-${i}.json`)]));
    for (const r of runs) expect(r.code, r.err).toBe(0);
    expect(runs[0]!.err).toMatch(/^shard 1\/2 of run [0-9a-f]{12} \(mancala grade\): 1 of the 2 submissions \(.*\/esc\/evil\\x1b\]0;owned\\x07\\u202e\\x9b\)$/m);
    expect(runs[1]!.err).toContain(`1 of the 2 submissions (${at('esc/plain')})`);
    for (const i of [1, 2]) {
      const text = read(at(`esc-${i}.json`));
      expect(text).not.toMatch(/[\u001b\u0007\u009b\u202e]/);
      expect(text).not.toMatch(/-intake-/);
    }
    const merged = await cli(['merge', at('esc-1.json'), at('esc-2.json'), '--json', at('esc-merged.json')]);
    expect(merged.code, merged.err).toBe(0);
    expect((JSON.parse(read(at('esc-merged.json'))) as { submissions: unknown[] }).submissions).toHaveLength(2);
  }, 120_000);
});

describe('--shard i/n on every command that takes it', () => {
  it('refuses 0/3, 4/3 and x in one line, exit 2, before any work', async () => {
    const alice = join(root, 'agents/examples/alice');
    const commands = [
      ['grade', alice, '--suite', join(root, 'testcases/kalah-basics')],
      ['check', alice],
      ['csci561-grade', join(root, 'agents/examples/csci561-reference/program'), '--suite', join(root, 'testcases/csci561-public')],
      ['gauntlet', 'random'],
      ['tournament', 'random', 'greedy', '--out', at('never')],
    ];
    for (const command of commands) {
      expectRefused(await cli([...command, '--shard', '0/3']), "option '--shard <i/n>' argument '0/3' is invalid. Expected i/n (shard i of n, 1 ≤ i ≤ n ≤ 10000, e.g. 2/3): there is no shard 0 of 3.");
      expectRefused(await cli([...command, '--shard', '4/3']), 'there is no shard 4 of 3');
      expectRefused(await cli([...command, '--shard', 'x']), `argument 'x' is invalid. Expected i/n (shard i of n, 1 ≤ i ≤ n ≤ 10000, e.g. 2/3), got "x"`);
    }
    expect(existsSync(at('never'))).toBe(false);
  });

  it('is in every command\'s help, with an example', async () => {
    for (const command of ['grade', 'check', 'csci561-grade', 'gauntlet', 'tournament']) {
      const r = await cli([command, '--help']);
      expect(r.out).toContain('--shard <i/n>');
      expect(r.out).toMatch(/--shard \d\/\d/);
      expect(r.out).toContain('mancala merge');
    }
    expect((await cli(['merge', '--help'])).out).toContain('--allow-missing');
  });
});

describe('mancala tournament --shard and mancala merge', () => {
  const agents = ['random', 'greedy', 'alphabeta:depth=2', join(root, 'agents/examples/alice')];
  const flags = ['--games-per-pair', '2', '--pits', '4', '--seeds', '3', '--no-progress'];
  const tournament = (extra: string[]) => cli(['tournament', ...agents, ...flags, ...extra]);
  /** The results file's games in schedule order, their timings left out. */
  const games = (file: string) =>
    read(file)
      .split('\n')
      .filter((l) => l.startsWith('{"type":"game"'))
      .map((l) => JSON.parse(l) as Record<string, unknown> & { index: number })
      .map(({ time: _t, maxMoveMs: _m, ...g }) => g)
      .sort((a, b) => a.index - b.index);

  it('3 shards merged give the one run\'s results, standings and crosstable', async () => {
    const whole = await tournament(['--out', at('t-whole'), '--json', at('t-whole.json')]);
    expect(whole.code, whole.err).toBe(0);
    for (const i of [1, 2, 3]) {
      const r = await tournament(['--shard', `${i}/3`, '--out', at(`t-${i}`), '--json', at(`t-${i}.json`)]);
      expect(r.code, r.err).toBe(0);
      expect(r.err).toMatch(new RegExp(`^shard ${i}/3 of run [0-9a-f]{12} \\(mancala tournament\\): 4 of the tournament's scheduled games$`, 'm'));
      expect(r.out).toContain(`4 of 4 games recorded in ${join(at(`t-${i}`), 'results.jsonl')}`);
      // Its games are every third of the schedule, from the i-th, as the whole run played them.
      expect(games(join(at(`t-${i}`), 'results.jsonl')).map((g) => g.index)).toEqual([i, i + 3, i + 6, i + 9]);
      expect(read(join(at(`t-${i}`), 'results.jsonl')).split('\n')[0]).toMatch(new RegExp(`"shard":\\{"index":${i},"count":3\\}\\}$`));
      expect(JSON.parse(read(at(`t-${i}.json`)))).toMatchObject({ games: 4, shard: { index: i, count: 3, command: 'tournament' } });
    }
    const merged = await cli(['merge', at('t-2'), at('t-3'), at('t-1'), '--out', at('t-merged'), '--json', at('t-merged.json')]);
    expect(merged.code, merged.err).toBe(0);
    expect(merged.err).toMatch(/^merged 3 of 3 shards \(1\/3, 2\/3, 3\/3\) of run [0-9a-f]{12} \(mancala tournament\): 12 of 12 games\n/);
    // The results: every game, its moves and outcome, as in the one run (only its times differ).
    expect(games(join(at('t-merged'), 'results.jsonl'))).toEqual(games(join(at('t-whole'), 'results.jsonl')));
    expect(read(join(at('t-merged'), 'results.jsonl')).split('\n')[0]).toBe(read(join(at('t-whole'), 'results.jsonl')).split('\n')[0]);
    // The standings, byte for byte; the standings table and the crosstable as printed.
    expect(read(at('t-merged.json'))).toBe(read(at('t-whole.json')));
    const tables = (out: string) => out.split('\n').slice(2).join('\n');
    expect(tables(merged.out)).toBe(tables(whole.out));
    expect(merged.out).toContain('row vs column: W-D-L');
    // The merged folder is the whole tournament's: its command resumes it with nothing left to play.
    const again = await tournament(['--out', at('t-merged')]);
    expect(again.out).toContain('12 of 12 games recorded');
    expect(again.out).toContain('(0 played now, 12 by an earlier run)');
  }, 180_000);

  it('refuses to resume a shard as another, merges only shards of one tournament, and leaves missing games to the whole run', async () => {
    expectRefusedAfterStart(await tournament(['--shard', '1/3', '--out', at('t-2')]), `records shard 2/3 of this tournament, not --shard 1/3`);
    expectRefusedAfterStart(await tournament(['--out', at('t-2')]), 'records shard 2/3 of this tournament: rerun with --shard 2/3 to resume it');
    expectRefusedAfterStart(await tournament(['--shard', '1/3', '--out', at('t-whole')]), 'records this tournament whole, not a shard: --shard 1/3 needs another --out folder');
    const other = await cli(['tournament', ...agents, '--games-per-pair', '2', '--pits', '4', '--seeds', '4', '--no-progress', '--shard', '3/3', '--out', at('t-3-other')]);
    expect(other.code, other.err).toBe(0);
    expectRefused(await cli(['merge', at('t-1'), at('t-2'), at('t-3-other')]), `shard 3/3 (${at('t-3-other')}) was played with --seeds 4, shard 1/3 (${at('t-1')}) with --seeds 3`);
    expectRefused(await cli(['merge', at('t-1'), at('t-2')]), /missing shard 3\/3 of run [0-9a-f]{12} \(mancala tournament; games 3, 6, 9, 12\)/);
    expectRefused(await cli(['merge', at('t-1.json')]), 'the standings of tournament 1/3 (its --json): merge the shards\' --out folders');
    // A shard of one command is not merged with another's.
    expectRefused(await cli(['merge', at('t-1'), at('shard2.json')]), /a shard of mancala (grade|tournament), with shard \d\/3 \(.*\), a shard of mancala (tournament|grade): shards of one run of one command only/);
    const partial = await cli(['merge', at('t-1'), at('t-2'), '--allow-missing', '--out', at('t-partial')]);
    expect(partial.code, partial.err).toBe(0);
    expect(partial.out).toContain('8 of 12 games, from 2 of 3 shards');
    expect(partial.out).toContain('incomplete: shard 3/3 not merged (--allow-missing), so games 3, 6, 9, 12 are not in this report');
    const finished = await tournament(['--out', at('t-partial'), '--json', at('t-finished.json')]);
    expect(finished.out).toContain('(4 played now, 8 by an earlier run)');
    expect(read(at('t-finished.json'))).toBe(read(at('t-whole.json')));
  }, 120_000);
});

describe('mancala check --shard (by case) and mancala merge', () => {
  it('3 shards of a check merged give the one run\'s JSON report, points scaled over all the cases', async () => {
    const carol = join(root, 'agents/examples/carol');
    const basics = join(root, 'testcases/kalah-basics');
    const whole = await cli(['check', carol, '--suite', basics, '--json', at('c-whole.json')]);
    expect(whole.code, whole.err).toBe(1);
    for (const i of [1, 2, 3]) {
      const r = await cli(['check', carol, '--suite', basics, '--shard', `${i}/3`, '--json', at(`c-${i}.json`)]);
      expect([0, 1]).toContain(r.code);
      expect(r.err).toMatch(new RegExp(`^shard ${i}/3 of run [0-9a-f]{12} \\(mancala check\\): [78] of the run's 22 cases$`, 'm'));
    }
    const merged = await cli(['merge', at('c-1.json'), at('c-2.json'), at('c-3.json'), '--json', at('c-merged.json')]);
    expect(merged.code, merged.err).toBe(0);
    expect(withoutTimings(at('c-merged.json'))).toEqual(withoutTimings(at('c-whole.json')));
    // carol's points are fractions of categories (37.5 of 100): scaled as in one run, not per shard.
    const report = (JSON.parse(read(at('c-merged.json'))) as { reports: { submissions: { score: number; maxScore: number }[] }[] }).reports[0]!;
    expect(report.submissions[0]).toMatchObject({ score: 37.5, maxScore: 100 });
    expectRefused(await cli(['merge', at('c-1.json'), at('c-2.json'), at('c-3.json'), '--csv', at('c.csv')]), '--csv: check shards merge into a JSON report (--json FILE)');
  }, 120_000);
});

describe('mancala csci561-grade and mancala gauntlet --shard and mancala merge', () => {
  it('csci561-grade: 2 shards merged give the one run\'s report', async () => {
    const programs = [join(root, 'agents/examples/csci561-reference/program'), join(root, 'testcases/fixtures/programs/python'), join(root, 'testcases/fixtures/programs/wrong-names')];
    const args = ['csci561-grade', ...programs, '--suite', join(root, 'testcases/csci561-public'), '--case', 'alphabeta-d1-1,minimax-d2-1', '--no-progress'];
    const whole = await cli([...args, '--json', at('p-whole.json'), '--csv', at('p-whole.csv')]);
    expect(whole.code, whole.err).toBe(0);
    for (const i of [1, 2]) {
      const r = await cli([...args, '--shard', `${i}/2`, '--json', at(`p-${i}.json`)]);
      expect(r.code, r.err).toBe(0);
      expect(r.err).toMatch(new RegExp(`^shard ${i}/2 of run [0-9a-f]{12} \\(mancala csci561-grade\\): ${i === 1 ? 2 : 1} of the 3 submissions`, 'm'));
    }
    const merged = await cli(['merge', at('p-1.json'), at('p-2.json'), '--json', at('p-merged.json'), '--csv', at('p-merged.csv')]);
    expect(merged.code, merged.err).toBe(0);
    expect(withoutTimings(at('p-merged.json'))).toEqual(withoutTimings(at('p-whole.json')));
    expect(read(at('p-merged.csv'))).toBe(read(at('p-whole.csv')));
  }, 120_000);

  it('gauntlet: 2 shards merged hold every submission in the run\'s order, scored as its shard scored it', async () => {
    // The advanced opponent deepens under a clock, so its games are not reproducible: this compares merge with its shards.
    const args = ['gauntlet', 'random', 'greedy', 'simple', '--stones', '3', '--time-per-move', '20', '--games', '2', '--no-progress'];
    for (const i of [1, 2]) expect((await cli([...args, '--shard', `${i}/2`, '--json', at(`g-${i}.json`)])).code).toBe(0);
    const merged = await cli(['merge', at('g-2.json'), at('g-1.json'), '--json', at('g-merged.json'), '--csv', at('g-merged.csv')]);
    expect(merged.code, merged.err).toBe(0);
    type Report = { shard?: unknown; suite: string; submissions: { id: string }[] };
    const [one, two, all] = [at('g-1.json'), at('g-2.json'), at('g-merged.json')].map((f) => JSON.parse(read(f)) as Report);
    expect(all.shard).toBeUndefined();
    expect(all.submissions.map((s) => s.id)).toEqual(['random', 'greedy', 'simple']);
    expect(all.submissions).toEqual([one!.submissions[0], two!.submissions[0], one!.submissions[1]]);
    const rows = read(at('g-merged.csv')).split('\r\n');
    expect(rows.map((r) => r.split(',')[0])).toEqual(['id', 'random', 'greedy', 'simple', '']);
    const differs = await cli(['gauntlet', 'random', 'greedy', 'simple', '--stones', '3', '--time-per-move', '30', '--games', '2', '--no-progress', '--shard', '2/2', '--json', at('g-2-other.json')]);
    expect(differs.code).toBe(0);
    expectRefused(await cli(['merge', at('g-1.json'), at('g-2-other.json')]), `shard 2/2 (${at('g-2-other.json')}) was played with --time-per-move 30, shard 1/2 (${at('g-1.json')}) with --time-per-move 20`);
  }, 120_000);
});
