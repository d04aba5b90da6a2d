/**
 * `mancala tournament` as the command line runs it: the console output, --json, exit codes and
 * one-line errors for a user's mistakes, and a tournament killed (SIGKILL, in a child process)
 * and finished by a rerun.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Command, CommanderError } from 'commander';
import { afterAll, describe, expect, it } from 'vitest';
import { UserError } from '../../errors.ts';
import { oneLine } from '../main.ts';
import { addTournamentCommand } from './tournament.ts';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const work = mkdtempSync(join(tmpdir(), 'tournament-cli-test-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
let dirs = 0;
const freshDir = () => join(work, `out-${++dirs}`);
const small = ['--pits', '4', '--seeds', '3', '--time-per-move', '300'];

/** The command as main() runs it: errors become one `mancala: …` line and an exit code. */
async function cli(args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const io = { out: (t: string) => void (out += t), err: (t: string) => void (err += t) };
  const program = new Command('mancala').configureOutput({ writeOut: io.out, writeErr: io.err, outputError: () => {} }).exitOverride();
  addTournamentCommand(program, io);
  try {
    await program.parseAsync(['tournament', ...args], { from: 'user' });
    return { code: 0, out, err };
  } catch (e) {
    if (e instanceof CommanderError) {
      if (e.exitCode === 0) return { code: 0, out, err };
      return { code: 2, out, err: err + `mancala: ${oneLine(e.message)}\n` };
    }
    if (e instanceof UserError) return { code: e.exitCode, out, err: err + `mancala: ${oneLine(e.message)}\n` };
    throw e;
  }
}

function expectUsageError(r: { code: number; out: string; err: string }, says: string | RegExp): void {
  expect(r.code, r.err).toBe(2);
  expect(r.out).toBe('');
  expect(r.err).toMatch(/^mancala: [^\n]+\n$/);
  expect(r.err).toMatch(says);
}

const gameLines = (file: string) =>
  existsSync(file)
    ? readFileSync(file, 'utf8')
        .split('\n')
        .filter((l) => l.startsWith('{"type":"game"') && l.endsWith('}'))
    : [];

describe('mancala tournament', () => {
  it('prints standings, a crosstable and where the results are; --json writes the standings', async () => {
    const out = freshDir();
    const json = join(work, 'standings.json');
    const r = await cli(['random', 'greedy', '--format', 'gauntlet', '--vs', 'alphabeta:depth=2', 'minimax:depth=1', '--games-per-pair', '2', ...small, '--out', out, '--json', json]);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain('gauntlet of 2 agents against 2 references, 2 games a pair, kalah(4,3), 300 ms a move, seed 1');
    expect(r.out).toContain(`8 of 8 games recorded in ${join(out, 'results.jsonl')} (8 played now, 0 by an earlier run)`);
    expect(r.out).toMatch(/#\s+agent\s+rating\s+±2σ\s+W\s+D\s+L\s+points\s+forfeits/);
    expect(r.out).toContain('row vs column: W-D-L');
    expect(r.err).toBe(`wrote ${json}\n`);
    const standings = JSON.parse(readFileSync(json, 'utf8')) as { games: number; standings: Record<string, unknown>[] };
    expect(standings.games).toBe(8);
    expect(standings.standings.map((s) => s['agent']).sort()).toEqual(['alphabeta:depth=2', 'greedy', 'minimax:depth=1', 'random']);
    for (const s of standings.standings) {
      expect(Object.keys(s).slice(0, 6)).toEqual(['agent', 'rating', 'ci', 'wins', 'draws', 'losses']);
      const [lo, hi] = s['ci'] as [number, number];
      expect(lo).toBeLessThan(s['rating'] as number);
      expect(hi).toBeGreaterThan(s['rating'] as number);
    }
    // Each contestant played each reference twice; the references never met each other.
    const random = standings.standings.find((s) => s['agent'] === 'random')!;
    expect((random['wins'] as number) + (random['draws'] as number) + (random['losses'] as number)).toBe(4);
  });

  it('a rerun of a finished tournament plays nothing and gives the same standings', async () => {
    const out = freshDir();
    const args = ['random', 'greedy', 'alphabeta:depth=2', '--games-per-pair', '2', ...small, '--out', out, '--json'];
    const first = await cli([...args, join(out, 'a.json')]);
    const second = await cli([...args, join(out, 'b.json')]);
    expect(second.code, second.err).toBe(0);
    expect(second.out).toContain('(0 played now, 6 by an earlier run)');
    expect(readFileSync(join(out, 'b.json'), 'utf8')).toBe(readFileSync(join(out, 'a.json'), 'utf8'));
    expect(second.out).toBe(first.out.replace('(6 played now, 0 by an earlier run)', '(0 played now, 6 by an earlier run)'));
  });

  it("refuses a user's mistakes with one line and exit code 2", async () => {
    const out = freshDir();
    expectUsageError(await cli(['random', 'nosuch', '--out', out]), /unknown agent "nosuch": expected one of random, greedy/);
    expectUsageError(await cli(['random', 'agents/nope', '--out', out]), /agent agents\/nope: no such file or folder/);
    expectUsageError(await cli(['random', 'greedy', '--games-per-pair', '0', '--out', out]), /--games-per-pair.*Expected games a pair: a whole number from 1/);
    expectUsageError(await cli(['random', 'greedy', '--format', 'swiss', '--out', out]), /--format.*Allowed choices are round-robin, gauntlet/);
    expectUsageError(await cli(['random', 'greedy', '--forfeit', 'draw', '--out', out]), /--forfeit.*Allowed choices are loss, random-move/);
    expectUsageError(await cli(['random', 'greedy', '--jobs', 'two', '--out', out]), /--jobs/);
    expectUsageError(await cli(['random', 'greedy', '--openings', 'random:x', '--out', out]), /--openings random:x: expected random:K/);
    expectUsageError(await cli(['random', 'greedy', '--tiem-per-move', '3']), /unknown option '--tiem-per-move'/);
    expectUsageError(await cli(['random', 'greedy', '--vs', 'strong', '--out', out]), /'--vs' applies to --format gauntlet only/);
    expectUsageError(await cli(['random', '--format', 'gauntlet', '--out', out]), /--format gauntlet needs the references to play/);
    expect(existsSync(out)).toBe(false);
  });

  it('refuses to mix tournaments: other parameters with the same --out', async () => {
    const out = freshDir();
    expect((await cli(['random', 'greedy', '--games-per-pair', '1', ...small, '--out', out])).code).toBe(0);
    const r = await cli(['random', 'greedy', '--games-per-pair', '1', ...small, '--seed', '2', '--out', out]);
    expectUsageError(r, new RegExp(`${join(out, 'results.jsonl')} records a different tournament \\(--seed 1 there, 2 now\\)`));
  });

  it('a corrupt results file is an error naming the file and the line', async () => {
    const out = freshDir();
    const args = ['random', 'greedy', '--games-per-pair', '3', ...small, '--out', out];
    expect((await cli(args)).code).toBe(0);
    const file = join(out, 'results.jsonl');
    const lines = readFileSync(file, 'utf8').split('\n');
    lines[2] = lines[2]!.slice(0, 20);
    writeFileSync(file, lines.join('\n'));
    expectUsageError(await cli(args), new RegExp(`^mancala: ${file}:3: not a JSON line`));
  });

  it('killed midway (SIGKILL), a rerun plays only the games not recorded and ends as an uninterrupted run', async () => {
    // A deterministic sandboxed agent that takes 25 ms a move without using the CPU: the tournament lasts long enough to be killed.
    const slow = join(work, 'slow-agent.js');
    writeFileSync(
      slow,
      `export default { name: 'slow', chooseMove(ctx) {
         Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 25);
         return { move: ctx.game.legalMoves(ctx.state)[0], value: 0 };
       } };\n`,
    );
    const out = freshDir();
    const file = join(out, 'results.jsonl');
    // --jobs 1: the child below is `node --input-type=module -e …`, whose flags a pool thread would inherit and refuse (a thread's entry is a file).
    const args = [slow, 'random', 'greedy', '--games-per-pair', '4', ...small, '--jobs', '1', '--out', out];
    // The child's sandbox copies go to a folder of the test's, removed with it (a killed run cannot remove them).
    const childTmp = join(work, 'child-tmp');
    mkdirSync(childTmp);
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        '--input-type=module',
        '-e',
        `import { Command } from 'commander';
         // The composition root first, as bin/mancala.js does: the reference agents are plugins.
         await import(process.env.PLUGINS_MODULE);
         const { addTournamentCommand } = await import(process.env.TOURNAMENT_MODULE);
         const program = new Command('mancala').exitOverride();
         addTournamentCommand(program, { out: (t) => process.stdout.write(t), err: (t) => process.stderr.write(t) });
         await program.parseAsync(['tournament', ...JSON.parse(process.env.TOURNAMENT_ARGS)], { from: 'user' });`,
      ],
      {
        cwd: root,
        env: { ...process.env, TMPDIR: childTmp, PLUGINS_MODULE: pathToFileURL(join(root, 'bin/plugins.ts')).href, TOURNAMENT_MODULE: pathToFileURL(join(root, 'framework/cli/commands/tournament.ts')).href, TOURNAMENT_ARGS: JSON.stringify(args) },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let childErr = '';
    child.stderr.on('data', (d: Buffer) => (childErr += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    let killedAt = -1;
    while (child.exitCode === null) {
      if (gameLines(file).length >= 3) {
        child.kill('SIGKILL');
        killedAt = gameLines(file).length;
        break;
      }
      await new Promise((r) => setTimeout(r, 10));
    }
    await exited;
    expect(killedAt, `the child ended before it was killed: ${childErr}`).toBeGreaterThanOrEqual(3);
    const recorded = gameLines(file);
    expect(recorded.length).toBeLessThan(12);

    const rerun = await cli([...args, '--json', join(work, 'resumed.json')]);
    expect(rerun.code, rerun.err).toBe(0);
    expect(rerun.out).toContain(`12 of 12 games recorded in ${file} (${12 - recorded.length} played now, ${recorded.length} by an earlier run)`);
    expect(gameLines(file).slice(0, recorded.length)).toEqual(recorded);
    const indexes = gameLines(file).map((l) => (JSON.parse(l) as { index: number }).index);
    expect(indexes.sort((a, b) => a - b)).toEqual(Array.from({ length: 12 }, (_, k) => k + 1));

    const whole = await cli([...args.slice(0, -1), freshDir(), '--jobs', '2', '--json', join(work, 'whole.json')]);
    expect(whole.code, whole.err).toBe(0);
    expect(readFileSync(join(work, 'resumed.json'), 'utf8')).toBe(readFileSync(join(work, 'whole.json'), 'utf8'));
  });
});
