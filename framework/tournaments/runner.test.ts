/**
 * Tournaments with real games: reference agents in-process, zoo submissions in the real sandbox.
 * Small boards (4 pits, 3 stones) and shallow agents keep them quick.
 */
import { mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { UserError } from '../errors.ts';
import { standingsJson } from './crosstable.ts';
import type { TournamentParams } from './params.ts';
import { RESULTS_FILE } from './results.ts';
import { runTournament, validateParams, type TournamentOutcome } from './runner.ts';

const zoo = (name: string) => join(resolve(dirname(fileURLToPath(import.meta.url)), '../../testcases/fixtures/hostile-agents'), name);
const work = mkdtempSync(join(tmpdir(), 'tournament-runner-test-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
let dirs = 0;
const freshDir = () => join(work, `out-${++dirs}`);

const small: Omit<TournamentParams, 'format' | 'agents' | 'vs'> = {
  gamesPerPair: 4,
  seed: 11,
  rules: 'kalah',
  pits: 4,
  seeds: 3,
  timePerMoveMs: 300,
  openings: 'random:2',
  openingsSha256: null,
  forfeit: 'loss',
};
const roundRobin: TournamentParams = { ...small, format: 'round-robin', agents: ['random', 'greedy', 'alphabeta:depth=3', 'minimax:depth=2'], vs: [] };

/** What must not depend on how the games were run: the records (timings aside) and the standings. */
function essence(o: TournamentOutcome) {
  return {
    games: o.games.map(({ time: _t, maxMoveMs: _m, ...g }) => g),
    standings: JSON.stringify(standingsJson(o.games.length, o.standings)),
  };
}

const gameLines = (file: string) =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.startsWith('{"type":"game"'));

/** Results lines without the fields that measure time, which no rerun reproduces. */
function withoutTimes(text: string): unknown[] {
  return text
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => {
      const { time: _t, maxMoveMs: _m, ...rest } = JSON.parse(l) as Record<string, unknown>;
      return rest;
    });
}

describe('runTournament', () => {
  let uninterrupted: TournamentOutcome;

  it('plays every scheduled game once and records each as a line of results.jsonl', async () => {
    const out = freshDir();
    uninterrupted = await runTournament({ params: roundRobin, outDir: out, jobs: 1 });
    expect(uninterrupted.complete).toBe(true);
    expect(uninterrupted.playedNow).toBe(24);
    expect(uninterrupted.games.map((g) => g.index)).toEqual(Array.from({ length: 24 }, (_, k) => k + 1));
    expect(gameLines(join(out, RESULTS_FILE))).toHaveLength(24);
    const s = uninterrupted.standings;
    expect(s.reduce((n, x) => n + x.wins + x.draws + x.losses, 0)).toBe(48);
    expect(s.find((x) => x.agent === 'random')!.rating).toBeLessThan(s.find((x) => x.agent === 'alphabeta:depth=3')!.rating);
  });

  it('the same seed gives the same games and standings, with one job or two (worker threads)', async () => {
    const again = await runTournament({ params: roundRobin, outDir: freshDir(), jobs: 1 });
    expect(essence(again)).toEqual(essence(uninterrupted));
    const parallel = await runTournament({ params: roundRobin, outDir: freshDir(), jobs: 2 });
    expect(essence(parallel)).toEqual(essence(uninterrupted));
    const otherSeed = await runTournament({ params: { ...roundRobin, seed: 12 }, outDir: freshDir(), jobs: 1 });
    expect(otherSeed.games.map((g) => g.moves)).not.toEqual(uninterrupted.games.map((g) => g.moves));
  });

  it('stopped after K games, a rerun plays only the missing games and ends with the uninterrupted standings', async () => {
    const out = freshDir();
    const file = join(out, RESULTS_FILE);
    const first = await runTournament({ params: roundRobin, outDir: out, jobs: 2, maxGames: 7 });
    expect(first.complete).toBe(false);
    expect(first.playedNow).toBe(7);
    const before = gameLines(file);
    expect(before).toHaveLength(7);

    const indexesPlayed: number[] = [];
    const rest = await runTournament({ params: roundRobin, outDir: out, jobs: 2, onProgress: (p) => p.game && indexesPlayed.push(p.game.index) });
    expect(rest.resumed).toBe(7);
    expect(rest.playedNow).toBe(17);
    const recordedFirst = before.map((l) => (JSON.parse(l) as { index: number }).index);
    expect(indexesPlayed.sort((a, b) => a - b)).toEqual(Array.from({ length: 24 }, (_, k) => k + 1).filter((i) => !recordedFirst.includes(i)));
    expect(gameLines(file).slice(0, 7)).toEqual(before);
    expect(essence(rest)).toEqual(essence(uninterrupted));

    const nothingLeft = await runTournament({ params: roundRobin, outDir: out, jobs: 1 });
    expect(nothingLeft.playedNow).toBe(0);
    expect(essence(nothingLeft)).toEqual(essence(uninterrupted));
  });

  it('a last line torn by a kill is dropped and only that game is played again', async () => {
    const out = freshDir();
    const file = join(out, RESULTS_FILE);
    await runTournament({ params: roundRobin, outDir: out, jobs: 1, maxGames: 5 });
    const text = readFileSync(file, 'utf8');
    truncateSync(file, Buffer.byteLength(text) - 25);
    const rerun = await runTournament({ params: roundRobin, outDir: out, jobs: 1, maxGames: 1 });
    expect(rerun.resumed).toBe(4);
    expect(rerun.playedNow).toBe(1);
    expect(rerun.notes.join()).toContain('dropped a last line cut short');
    // The 4 lines kept are untouched; the replayed game is the same game (its thinking times differ).
    const after = readFileSync(file, 'utf8');
    const kept = text.split('\n').slice(0, 5).join('\n');
    expect(after.startsWith(kept + '\n')).toBe(true);
    expect(withoutTimes(after)).toEqual(withoutTimes(text));
  });

  it('an agent that crashes, hangs, plays illegally or does not load forfeits every game with the reason, and the tournament completes', async () => {
    const hostile = { throws: 'crash', 'infinite-loop': 'timeout', 'illegal-move': 'illegal-move', 'exit-at-import': 'crash', 'syntax-error': 'crash' } as const;
    const params: TournamentParams = { ...small, gamesPerPair: 2, format: 'gauntlet', agents: Object.keys(hostile).map(zoo), vs: [zoo('first-legal')] };
    const o = await runTournament({ params, outDir: freshDir(), jobs: 2 });
    expect(o.complete).toBe(true);
    expect(o.games).toHaveLength(10);
    for (const [name, reason] of Object.entries(hostile)) {
      const games = o.games.filter((g) => g.A === zoo(name));
      expect(games, name).toHaveLength(2);
      for (const g of games) {
        expect(g.winner, name).toBe('B');
        expect(g.forfeit, name).toMatchObject({ side: 'A', reason });
        expect(g.forfeit!.message.length, name).toBeGreaterThan(10);
      }
    }
    expect(o.games.find((g) => g.A === zoo('throws'))!.forfeit!.message).toContain('the zoo agent gave up');
    expect(o.games.find((g) => g.A === zoo('syntax-error'))!.forfeit!.message).toMatch(/bundled|syntax|Expected/i);
    expect(o.standings[0]).toMatchObject({ agent: zoo('first-legal'), wins: 10, losses: 0, forfeits: 0 });
    for (const s of o.standings.slice(1)) expect(s).toMatchObject({ wins: 0, losses: 2, forfeits: 2 });
  });

  it('under cs540 the anytime rule applies: a looping agent has the move it reported played, and is not forfeited at once', async () => {
    // zoo/infinite-loop reports move 2 and then loops: under kalah it forfeits at its first move.
    const params: TournamentParams = { ...small, rules: 'cs540', gamesPerPair: 2, format: 'gauntlet', agents: [zoo('infinite-loop')], vs: ['random'] };
    const o = await runTournament({ params, outDir: freshDir(), jobs: 1 });
    expect(o.complete).toBe(true);
    // Its reported move was played where legal (it loses once move 2 is empty, as the rule says).
    expect(Math.max(...o.games.map((g) => g.deadlineMoves?.[0] ?? 0))).toBeGreaterThan(0);
    for (const g of o.games) expect(g.forfeit?.message).toMatch(/its last reported move .2 \(index 2\) is not legal here/);
  });

  it('a job that keeps one submission open (closing and reopening the others) plays the same games', async () => {
    const params: TournamentParams = { ...small, gamesPerPair: 2, format: 'round-robin', agents: [zoo('first-legal'), zoo('normal') + ':depth=2', zoo('illegal-move')], vs: [] };
    const kept = await runTournament({ params, outDir: freshDir(), jobs: 1 });
    const reopened = await runTournament({ params, outDir: freshDir(), jobs: 1, maxOpenSubmissions: 1 });
    expect(essence(reopened)).toEqual(essence(kept));
    expect(kept.games.filter((g) => g.forfeit === null)).toHaveLength(2);
  });
});

describe('validateParams', () => {
  const refused = (p: Partial<TournamentParams>, says: string | RegExp) => {
    let error: unknown;
    try {
      validateParams({ ...roundRobin, ...p });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(UserError);
    expect((error as Error).message).toMatch(says);
  };

  it('refuses what makes no tournament, before any file is written', () => {
    refused({ agents: ['random', 'nosuchagent'] }, /unknown agent "nosuchagent"/);
    refused({ agents: ['random', 'alphabeta:depth=x'] }, /alphabeta:depth=x/);
    refused({ agents: ['random', 'agents/no/such/folder'] }, /agents\/no\/such\/folder: no such file or folder/);
    refused({ agents: ['random', 'random'] }, /random is given twice/);
    refused({ agents: ['random'] }, /at least 2 agents/);
    refused({ vs: ['strong'] }, /'--vs' applies to --format gauntlet only/);
    refused({ format: 'gauntlet' }, /needs the references to play: --vs/);
    refused({ format: 'gauntlet', agents: ['random', 'greedy'], vs: ['greedy'] }, /greedy is given twice \(as a contestant and as a --vs reference\)/);
    refused({ openings: join(work, 'no-openings.jsonl') }, /cannot read the openings file/);
  });

  it('accepts a start-positions file that fits the board and refuses one that does not', () => {
    const fits = join(work, 'openings-4.jsonl');
    writeFileSync(fits, '{"top":[3,3,3,3],"bottom":[3,3,3,3],"stores":{"top":0,"bottom":0},"toMove":"bottom"}\n');
    validateParams({ ...roundRobin, openings: fits });
    const wide = join(work, 'openings-6.jsonl');
    writeFileSync(wide, '{"top":[4,4,4,4,4,4],"bottom":[4,4,4,4,4,4],"stores":{"top":0,"bottom":0},"toMove":"bottom"}\n');
    refused({ openings: wide }, /openings-6\.jsonl/);
  });
});
