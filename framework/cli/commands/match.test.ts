import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command, CommanderError } from 'commander';
import { afterAll, describe, expect, it } from 'vitest';
import { UserError } from '../../errors.ts';
import { plainValue } from '../../../agents/perfect/plain-solve.ts';
import { boardToState } from '../../games/mancala/board-io/index.ts';
import { mancalaGame } from '../../games/mancala/profile-game.ts';
import { PROFILES } from '../../games/mancala/profiles.ts';
import { readReplay } from '../../matches/replay.ts';
import { oneLine } from '../main.ts';
import { addMatchCommand } from './match.ts';

const dir = mkdtempSync(join(tmpdir(), 'match-cli-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs `mancala match …` in this process the way main() does: exit 2 and one line for a user's mistake. */
async function mancala(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const io = { out: (t: string) => void (out += t), err: (t: string) => void (err += t) };
  const program = new Command('mancala').exitOverride().configureOutput({ writeOut: io.out, writeErr: io.err, outputError: () => {} });
  addMatchCommand(program, io);
  try {
    await program.parseAsync(['match', ...args], { from: 'user' });
    return { code: 0, out, err };
  } catch (e) {
    if (e instanceof CommanderError && e.exitCode === 0) return { code: 0, out, err };
    if (e instanceof CommanderError || e instanceof UserError) {
      io.err(`mancala: ${oneLine(e.message)}\n`);
      return { code: e instanceof UserError ? e.exitCode : 2, out, err };
    }
    throw e;
  }
}

describe('mancala match', () => {
  it('prints a results table and the games', async () => {
    const r = await mancala('alphabeta:depth=4', 'random', '--games', '4', '--no-progress');
    expect(r.code).toBe(0);
    expect(r.out).toContain('match: A = alphabeta:depth=4, B = random');
    expect(r.out).toContain('kalah(6,4), 4 games, colours alternating; openings random:2, seed 1; 1000 ms a move (+100 ms grace); forfeit: loss');
    expect(r.out).toMatch(/side +agent +wins +draws +losses +store margin +forfeits +thinking +per move +longest/);
    expect(r.out).toMatch(/\nA +alphabeta:depth=4 +4 +0 +0 +\+\d+\.\d +0 /);
    expect(r.out).toMatch(/\nB +random +0 +0 +4 +-\d+\.\d +0 /);
    expect(r.out).toMatch(/\n +4 +B +A +\d+-\d+ +\d+\n/); // game 4: B first, A won
  });

  it("says when cs540's anytime rule applies, and how long an agent may run over", async () => {
    const r = await mancala('simple', 'random', '--rules', 'cs540', '--games', '2', '--time-per-move', '200', '--no-progress');
    expect(r.code).toBe(0);
    expect(r.out).toContain('200 ms a move, anytime rule: stopped after 250 ms more, the last move reported that turn is played; forfeit: loss');
  });

  it("states the limits a sandboxed submission really gets: the header's stop is its timeout's figure", async () => {
    const r = await mancala('testcases/fixtures/hostile-agents/infinite-loop', 'greedy', '--games', '1', '--time-per-move', '300', '--no-progress');
    expect(r.code).toBe(0);
    // a tenth of grace on an answer; the sandbox stops a submission still thinking at hardLimitFor(300) = 550 ms
    expect(r.out).toContain('300 ms a move (+30 ms grace; a submission still thinking at 550 ms of CPU time is stopped); forfeit: loss');
    const stoppedAt = /lost by timeout at move \d+: no answer within (\d+) ms of CPU time/.exec(r.out);
    expect(stoppedAt?.[1]).toBe('550');
  });

  it('prints byte-identical --json for the same seed', async () => {
    const args = ['alphabeta:depth=3', 'alphabeta:depth=3', '--games', '6', '--seed', '9', '--openings', 'random:3', '--json'];
    const first = await mancala(...args);
    const second = await mancala(...args);
    expect(first.code).toBe(0);
    expect(second.out).toBe(first.out);
    const json = JSON.parse(first.out);
    expect(json.match).toMatchObject({ A: 'alphabeta:depth=3', seed: 9, openings: 'random:3', games: 6 });
    expect(json.games).toHaveLength(6);
    expect(json.games[1]).toMatchObject({ index: 2, first: 'B', openingPlies: 3, forfeit: null });
    expect(json.summary.A.wins + json.summary.A.draws + json.summary.A.losses).toBe(6);
    expect(first.out.endsWith('}\n')).toBe(true);
  });

  it('names each forfeit and its reason, and writes replays', async () => {
    const replays = join(dir, 'replays');
    const r = await mancala('testcases/fixtures/hostile-agents/throws', 'greedy', '--games', '2', '--time-per-move', '300', '--replays', replays);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/\nA +testcases\/fixtures\/hostile-agents\/throws +0 +0 +2 .* 2 crash /);
    expect(r.out).toMatch(/forfeits:\n  game 1: A \(testcases\/fixtures\/hostile-agents\/throws\) lost by crash at move \d+: .*the zoo agent gave up/);
    expect(r.err).toMatch(new RegExp(`^sandbox: [^\\n]+\\nwrote 2 replays to ${replays}\\n$`));
    expect(readdirSync(replays).sort()).toEqual(['game-001.jsonl', 'game-002.jsonl']);
    expect(readReplay(join(replays, 'game-002.jsonl')).end.forfeit).toMatchObject({ side: 'A', reason: 'crash' });
  });

  it('offers the perfect agent: every move it plays has the best value by the plain specification', async () => {
    const replays = join(dir, 'perfect');
    const r = await mancala('perfect', 'alphabeta:depth=1', '--rules', 'kalah-empty-capture', '--pits', '3', '--seeds', '2', '--games', '2', '--no-progress', '--replays', replays);
    expect(r.code).toBe(0);
    expect(r.out).toContain('match: A = perfect, B = alphabeta:depth=1');
    const game = mancalaGame(PROFILES['kalah-empty-capture']!, 3, 2);
    let checked = 0;
    for (const file of readdirSync(replays)) {
      for (const m of readReplay(join(replays, file)).moves) {
        if (m.side !== 'A' || m.by !== undefined) continue;
        const s = boardToState(game, m.before);
        const after = (move: number) => {
          const child = game.play(s, move);
          const v = plainValue(game, child);
          return (game.toMove(child) === game.toMove(s) ? v : -v) + 0; // no -0
        };
        const best = Math.max(...game.legalMoves(s).map(after));
        expect(after(m.move)).toBe(best);
        expect(m.value).toBe(best);
        expect(m.note).toBeUndefined();
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(2);
  });

  const corrupt = join(dir, 'corrupt.jsonl');
  writeFileSync(corrupt, '{"top":[4,4,4,4,4,4],"bottom":[4,4,4,4,4,4],"stores":{"top":0,"bottom":0}}\n{"top":[4,4,4,4,4,4],"bottom":[4,4,4,4,4,"x"],"stores":{"top":0,"bottom":0}}\n');
  it.each([
    ['an unknown agent', ['alphabta', 'random'], /^mancala: agent spec "alphabta": unknown agent "alphabta": expected one of random, greedy, minimax, alphabeta, ids, strong, perfect, simple, advanced$/],
    ['a missing path', ['agents/no-such-agent.ts', 'random'], /^mancala: agent agents\/no-such-agent\.ts: no such file or folder/],
    ['a folder without an agent', ['agents/reference/../examples', 'random', '--games', '1'], /^mancala: no submission here: agents\/reference\/\.\.\/examples \(found only alice, bob, carol, cpsc4610-reference and \d+ more\)\. A submission is a CS540 <name>Player\.java/],
    ['a bad agent option', ['alphabeta:depth=deep', 'random'], /^mancala: agent spec "alphabeta:depth=deep": option "depth" expects a whole number/],
    ['an option an agent does not take', ['random:depth=3', 'greedy'], /^mancala: agent spec "random:depth=3": agent "random" takes no options$/],
    ['a bad --forfeit', ['random', 'greedy', '--forfeit', 'draw'], /^mancala: option '--forfeit <policy>' argument 'draw' is invalid\. Allowed choices are loss, random-move\.$/],
    ['a bad --games', ['random', 'greedy', '--games', 'ten'], /^mancala: option '--games <n>' argument 'ten' is invalid\./],
    ['a bad --openings', ['random', 'greedy', '--openings', 'random:many'], /^mancala: --openings random:many: expected random:K with K a whole number from 0 to 100/],
    ['a missing openings file', ['random', 'greedy', '--openings', join(dir, 'none.jsonl')], /^mancala: .*none\.jsonl: cannot read the openings file: no such file$/],
    ['a corrupt openings file', ['random', 'greedy', '--openings', corrupt], /^mancala: .*corrupt\.jsonl:2: field "bottom\[5\]": expected a whole number ≥ 0, got "x"$/],
    ['a missing agent', ['random'], /^mancala: missing required argument 'B'$/],
  ])('refuses %s: one line, exit 2', async (_what, args, message) => {
    const r = await mancala(...args);
    expect(r.code).toBe(2);
    expect(r.out).toBe('');
    // A folder is found to hold no agent only as it is opened, after the sandbox was announced.
    const err = r.err.replace(/^sandbox: [^\n]+\n/, '');
    expect(err.trimEnd()).toMatch(message);
    expect(err.trimEnd().split('\n')).toHaveLength(1);
  });

  it('refuses start positions of another size than --pits', async () => {
    const file = join(dir, 'six.jsonl');
    writeFileSync(file, '{"top":[4,4,4,4,4,4],"bottom":[4,4,4,4,4,4],"stores":{"top":0,"bottom":0}}\n');
    const r = await mancala('random', 'greedy', '--openings', file, '--pits', '4');
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/^mancala: .*six\.jsonl: start position 1: expected 4 pits a side \(the game's size\), got 6\n$/);
    // Without --pits the file's boards set the size.
    expect((await mancala('random', 'greedy', '--openings', file, '--games', '2', '--json')).code).toBe(0);
  });
});
