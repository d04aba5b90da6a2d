/**
 * Seed 003 (cs540): the anytime rule of matches, the simple and advanced opponents, and grading
 * by the gauntlet (framework/packs/cs540). Sandboxed agents are real submissions (the hostile zoo (testcases/fixtures/hostile-agents),
 * the example submissions, small agents written here); time limits are short, so the whole file
 * takes a few tens of seconds.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import type { Agent } from '../framework/contracts/agent.ts';
import { UserError } from '../framework/errors.ts';
import { MancalaGame, type MancalaState } from '../framework/games/mancala/engine.ts';
import { findProfile } from '../framework/games/mancala/profiles.ts';
import { parseReport, toJson } from '../framework/grading/reporters/json.ts';
import { playMatch } from '../framework/matches/match.ts';
import { anytimeByDefault, anytimeGraceMs, playGame, timeGraceMs, type PlayGameOptions } from '../framework/matches/play-game.ts';
import type { MatchPlayer, MoveAttempt } from '../framework/matches/types.ts';
import { CS540_OPPONENTS, gauntletScore, runGauntlet, type GauntletOpponent } from '../framework/packs/cs540/gauntlet.ts';
import { gauntletReport, renderGauntlet } from '../framework/packs/cs540/report.ts';
import { hardLimitFor } from '../framework/sandbox/session.ts';
import { addGauntletCommand } from '../framework/cli/commands/gauntlet.ts';
import { createRandom } from '../framework/random.ts';
import { runAgent } from '../framework/search/run-agent.ts';
import advanced, { ADVANCED_DEPTH } from '../agents/advanced.ts';
import advancedHeuristic from '../agents/heuristics/advanced.ts';
import basic from '../agents/heuristics/basic.ts';
import { findAgent } from '../agents/index.ts';
import { alphaBeta } from '../agents/reference/alphabeta.ts';
import { minimax } from '../agents/reference/minimax.ts';
import simple from '../agents/simple.ts';
import { runCommand } from './fixtures/run-command.ts';

const ZOO = 'testcases/fixtures/hostile-agents';
const REFERENCE = 'agents/examples/cs540-reference';
const CAROL = 'agents/examples/carol';
const cs540 = findProfile('cs540')!;
const game = new MancalaGame(cs540.rules, 'cs540(6,4)');
const dir = mkdtempSync(join(tmpdir(), 'cs540-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A submission folder with one agent.js written here. */
function submission(name: string, source: string): string {
  const folder = join(dir, name);
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, 'agent.js'), source);
  return folder;
}

// Reports nothing, then never returns.
const SILENT_LOOP = submission('silent-loop', `export default { name: 'silent-loop', chooseMove() { for (;;) {} } };\n`);
// Its first decision reports and returns the first legal move; every later one loops without reporting.
const STALE = submission(
  'stale-report',
  `let calls = 0;
export default {
  name: 'stale-report',
  chooseMove(ctx) {
    const first = ctx.game.legalMoves(ctx.state)[0];
    if (calls++ === 0) { ctx.report(first, 0); return first; }
    for (;;) {}
  },
};
`,
);
// A random mover, as a student writes one (with the framework's seeded ctx.random()).
const RANDOM_STUDENT = submission(
  'random-student',
  `export default {
  name: 'random-student',
  chooseMove(ctx) {
    const moves = ctx.game.legalMoves(ctx.state);
    return moves[Math.floor(ctx.random() * moves.length)];
  },
};
`,
);
// A folder without an agent module.
const EMPTY = join(dir, 'empty');
mkdirSync(EMPTY);
writeFileSync(join(EMPTY, 'notes.txt'), 'nothing here\n');

/** A player scripted for the test: each decision's attempt from a function of the ply it is asked at. */
function scripted(label: string, attempt: (s: MancalaState, ply: number) => MoveAttempt): MatchPlayer {
  let ply = 0;
  return { label, chooseMove: async (_g, s) => attempt(s, ply++), close: async () => {} };
}

const firstLegal = (s: MancalaState) => game.legalMoves(s)[0]!;
const lastLegal = (s: MancalaState) => game.legalMoves(s).at(-1)!;
const quickOpponent = scripted('quick', (s) => ({ status: 'ok', move: firstLegal(s), ms: 1 }));

describe('the anytime rule (playGame)', () => {
  const base: Omit<PlayGameOptions, 'players'> = { game, start: game.initial(), first: 'A', index: 1, timePerMoveMs: 100, seed: 1, forfeit: 'loss' };

  it('is on by default for cs540 only, with the sandbox\'s hard limit as its grace', () => {
    expect(anytimeByDefault('cs540')).toBe(true);
    for (const p of ['kalah', 'kalah-empty-capture', 'csci561', 'csc384', 'cpsc4610']) expect(anytimeByDefault(p)).toBe(false);
    for (const ms of [1, 50, 100, 1000, 4000, 10_000, 60_000]) expect(ms + anytimeGraceMs(ms)).toBe(hardLimitFor(ms));
    expect(anytimeGraceMs(100)).toBeGreaterThan(timeGraceMs(100));
  });

  it('plays the move reported this turn when a decision times out, and counts it', async () => {
    // A times out on its 3rd decision, having reported the last legal move.
    const a = scripted('a', (s, ply) =>
      ply === 2 ? { status: 'timeout', message: 'no answer within 350 ms: the process was stopped', ms: 351, reported: { move: lastLegal(s), value: 3 } } : { status: 'ok', move: firstLegal(s), ms: 5 },
    );
    const replay: { side: string; move: number; ms: number; value?: number }[] = [];
    const r = await playGame({ ...base, players: { A: a, B: quickOpponent }, anytime: true, onReplay: (l) => void replay.push(l) });
    expect(r.forfeit).toBeNull();
    expect(r.deadlineMoves).toEqual([1, 0]);
    const rescued = replay.find((l) => l.ms === 351)!;
    expect(rescued).toMatchObject({ side: 'A', value: 3 });
    // Without the rule the same attempt forfeits, as every other profile's matches do.
    const strict = await playGame({ ...base, players: { A: scripted('a', (s, ply) => (ply === 2 ? { status: 'timeout', message: 'stopped', ms: 351, reported: { move: lastLegal(s) } } : { status: 'ok', move: firstLegal(s), ms: 5 })), B: quickOpponent } });
    expect(strict.forfeit).toMatchObject({ side: 'A', reason: 'timeout' });
    expect(strict.deadlineMoves).toBeUndefined();
  });

  it('forfeits (timeout) when nothing or only an illegal move was reported, and never rescues a crash', async () => {
    const timeout = (reported?: { move: number }): MatchPlayer =>
      scripted('a', () => ({ status: 'timeout', message: 'no answer within 350 ms: the process was stopped', ms: 351, ...(reported ? { reported } : {}) }));
    const none = await playGame({ ...base, players: { A: timeout(), B: quickOpponent }, anytime: true });
    expect(none.forfeit).toEqual({ side: 'A', reason: 'timeout', message: 'at move 1: no answer within 350 ms: the process was stopped; it reported no move this turn (ctx.report), so there was no move to play' });
    expect(none.winner).toBe('B');
    const illegal = await playGame({ ...base, players: { A: timeout({ move: 9 }), B: quickOpponent }, anytime: true });
    expect(illegal.forfeit).toMatchObject({ side: 'A', reason: 'timeout', message: expect.stringMatching(/; its last reported move 9 is not legal here$/) });
    const crash = await playGame({ ...base, players: { A: scripted('a', (s) => ({ status: 'error', message: 'boom', ms: 3, reported: { move: firstLegal(s) } })), B: quickOpponent }, anytime: true });
    expect(crash.forfeit).toMatchObject({ side: 'A', reason: 'crash' });
  });

  it('accepts a late answer up to the hard limit; after it, only a report of that decision', async () => {
    const hard = 100 + anytimeGraceMs(100);
    const late = (ms: number, reported?: boolean): MatchPlayer => scripted('a', (s) => ({ status: 'ok', move: firstLegal(s), ms, ...(reported ? { reported: { move: lastLegal(s) } } : {}) }));
    const inGrace = await playGame({ ...base, players: { A: late(hard - 1), B: quickOpponent }, anytime: true });
    expect(inGrace.forfeit).toBeNull();
    expect(inGrace.deadlineMoves).toEqual([0, 0]);
    const tooLate = await playGame({ ...base, players: { A: late(hard + 1), B: quickOpponent }, anytime: true });
    expect(tooLate.forfeit).toMatchObject({ side: 'A', reason: 'timeout', message: expect.stringMatching(/took \d+ ms, the limit is 100 ms a move; it reported no move this turn/) });
    // An in-process agent's late answer that carries the decision's report plays the report.
    const reported = await playGame({ ...base, players: { A: late(hard + 1, true), B: quickOpponent }, anytime: true });
    expect(reported.forfeit).toBeNull();
    expect(reported.moves[0]).toBe(lastLegal(game.initial()));
  });

  it('an in-process agent\'s report belongs to its decision: runAgent starts each one without any', async () => {
    let calls = 0;
    const agent: Agent<MancalaState> = {
      name: 'reports-once',
      chooseMove(ctx) {
        if (calls++ === 0) ctx.report(ctx.game.legalMoves(ctx.state)[0]!);
        return ctx.game.legalMoves(ctx.state)[0]!;
      },
    };
    const first = await runAgent(agent, { game, state: game.initial(), heuristic: basic, random: createRandom(1) });
    const second = await runAgent(agent, { game, state: game.initial(), heuristic: basic, random: createRandom(1) });
    expect(first.reported).toEqual({ move: 0 });
    expect(second.reported).toBeUndefined();
  });
});

describe('the anytime rule with sandboxed agents', () => {
  it('cs540 matches play an endless loop\'s reported move until it is illegal; other profiles forfeit at once', async () => {
    const [anytime, kalah] = await Promise.all([
      playMatch({ A: `${ZOO}/infinite-loop`, B: 'simple', rules: 'cs540', games: 1, timePerMoveMs: 50, openings: { kind: 'random', plies: 0 } }),
      playMatch({ A: `${ZOO}/infinite-loop`, B: 'simple', rules: 'kalah', games: 1, timePerMoveMs: 50, openings: { kind: 'random', plies: 0 } }),
    ]);
    expect(anytime.match.anytime).toBe(true);
    const g = anytime.games[0]!;
    // It reports move 2 (the third bin) and loops. From the start, bin 2's last stone lands in the
    // store: a free turn, in which it reports bin 2 again, now empty.
    expect(g.moves).toEqual([2]);
    expect(g.deadlineMoves).toEqual([1, 0]);
    expect(anytime.stats.A.deadlineMoves).toBe(1);
    expect(g.forfeit).toMatchObject({ side: 'A', reason: 'timeout', message: expect.stringMatching(/^at move 2: no answer within \d+ ms of CPU time: .*; its last reported move B2 \(index 2\) is not legal here$/) });
    expect(kalah.match.anytime).toBe(false);
    expect(kalah.games[0]!.forfeit).toMatchObject({ side: 'A', reason: 'timeout', message: expect.stringMatching(/^at move 1: no answer within \d+ ms/) });
    expect(kalah.games[0]!.moves).toEqual([]);
  });

  it('an agent that reports nothing forfeits; a report from an earlier turn is never played', async () => {
    const options = { B: 'simple', rules: 'cs540', games: 1, timePerMoveMs: 50, openings: { kind: 'random' as const, plies: 0 } };
    const [silent, stale] = await Promise.all([playMatch({ ...options, A: SILENT_LOOP }), playMatch({ ...options, A: STALE })]);
    expect(silent.games[0]!.forfeit).toMatchObject({ side: 'A', reason: 'timeout', message: expect.stringMatching(/^at move 1: no answer .*; it reported no move this turn/) });
    const g = stale.games[0]!;
    expect(g.forfeit).toMatchObject({ side: 'A', reason: 'timeout', message: expect.stringMatching(/it reported no move this turn/) });
    expect(g.deadlineMoves).toEqual([0, 0]);
    expect(g.decisions![0]).toBe(2);
  });

  it('the JSON of a cs540 match names the rule and counts the moves it played', async () => {
    const r = await playMatch({ A: 'simple', B: 'random', rules: 'cs540', games: 2, seeds: 3 });
    const { matchJson } = await import('../framework/matches/match-results.ts');
    const parsed = JSON.parse(matchJson(r));
    expect(parsed.match.anytime).toBe(true);
    expect(parsed.games[0].deadlineMoves).toEqual([0, 0]);
    expect(parsed.summary.A.deadlineMoves).toBe(0);
  });
});

describe('the simple and advanced opponents', () => {
  const decide = async (name: string, state: MancalaState, g: MancalaGame = game) => (await runAgent(findAgent(name)!, { game: g, state, heuristic: basic, random: createRandom(1) })).choice;

  it('simple takes the best store difference one move ahead, the first such move on a tie', async () => {
    expect(findAgent('simple')).toBe(simple);
    // From the start, bins 2..5 each put one stone in the store: the first of them.
    expect((await decide('simple', game.initial())).move).toBe(2);
    // Elsewhere: the value is the best store difference one move ahead, the move the first with it.
    const s = game.play(game.play(game.initial(), 5), 1);
    const c = await decide('simple', s);
    const values = game.legalMoves(s).map((m) => {
      const t = game.play(s, m);
      return game.isOver(t) ? game.score(t, game.toMove(s)) : game.store(t, game.toMove(s)) - game.store(t, game.toMove(s) === 0 ? 1 : 0);
    });
    expect(c.value).toBe(Math.max(...values));
    expect(c.move).toBe(game.legalMoves(s)[values.indexOf(Math.max(...values))]);
  });

  it('simple, a plain one-ply loop (the kit fields it), chooses and values as the reference minimax at depth 1, on random positions of every profile', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('cs540', 'kalah', 'csc384', 'csci561', 'cpsc4610'), fc.integer({ min: 3, max: 5 }), fc.array(fc.nat(), { maxLength: 40 }), async (rules, stones, picks) => {
        const g = new MancalaGame({ ...findProfile(rules)!.rules, seeds: stones });
        let s = g.initial();
        for (const pick of picks) {
          if (g.isOver(s)) break;
          const moves = g.legalMoves(s);
          s = g.play(s, moves[pick % moves.length]!);
        }
        if (g.isOver(s)) return;
        const expected = minimax({ game: g, heuristic: basic, depth: 1, unit: 'move', terminal: 'score', caching: false }, s);
        const got = await decide('simple', s, g);
        expect({ move: got.move, value: got.value }).toEqual({ move: expected.move, value: expected.value });
      }),
      { seed: 540, numRuns: 300 },
    );
  });

  it('advanced is alpha-beta to its depth with the advanced heuristic, whatever heuristic it is handed', async () => {
    expect(findAgent('advanced')).toBe(advanced);
    expect(ADVANCED_DEPTH).toBe(12);
    const s = game.play(game.play(game.initial(), 1), 0);
    for (const depth of [5, 8]) {
      const expected = alphaBeta({ game, heuristic: advancedHeuristic, depth, unit: 'move', terminal: 'score' }, s);
      const got = (await runAgent(advanced, { game, state: s, heuristic: basic, options: { depth }, random: createRandom(1) })).choice;
      expect(got).toMatchObject({ move: expected.move, value: expected.value, depth });
    }
    // Without a depth option: ADVANCED_DEPTH, unless the deadline stops it first (each completed depth is reported).
    const reports: number[] = [];
    const deadline = { ...advanced, chooseMove: (ctx: Parameters<typeof advanced.chooseMove>[0]) => advanced.chooseMove({ ...ctx, report: (m: number) => void reports.push(m) }) };
    const limited = (await runAgent(deadline, { game, state: s, heuristic: basic, timeLimitMs: 5, random: createRandom(1) })).choice;
    expect(limited.depth).toBe(reports.length);
    expect(limited.depth).toBeLessThanOrEqual(ADVANCED_DEPTH);
    expect(game.isLegal(s, limited.move)).toBe(true);
  });

  it('calibration: random < simple < advanced in seeded matches', async () => {
    const rate = async (A: string, B: string) => {
      const r = await playMatch({ A, B, rules: 'cs540', seeds: 4, games: 10, seed: 3 });
      return r.stats.A.wins + r.stats.A.draws / 2;
    };
    // advanced at a shallower depth keeps the test fast; docs/courses/cs540.md's table has the default's numbers.
    expect(await rate('simple', 'random')).toBeGreaterThanOrEqual(7);
    expect(await rate('advanced:depth=8', 'random')).toBeGreaterThanOrEqual(9);
    expect(await rate('advanced:depth=8', 'simple')).toBeGreaterThanOrEqual(8);
  });
});

describe('grading by the gauntlet', () => {
  const op = (name: string, points: number, bonus = false): GauntletOpponent => ({ name, spec: name, points, ...(bonus ? { bonus } : {}) });

  it('scores the strongest opponent beaten: 50, 100, 100 + bonus, each tier on its own', () => {
    const [r, s, a] = [op('random', 50), op('simple', 100), op('advanced', 100, true)];
    const score = (beaten: boolean[]) => gauntletScore([r, s, a].map((opponent, k) => ({ opponent, beaten: beaten[k]! })), 10);
    expect(score([false, false, false])).toEqual({ score: 0 });
    expect(score([true, false, false])).toEqual({ score: 50, strongestBeaten: 'random' });
    expect(score([true, true, false])).toEqual({ score: 100, strongestBeaten: 'simple' });
    expect(score([true, true, true])).toEqual({ score: 110, strongestBeaten: 'advanced' });
    expect(score([false, true, false])).toEqual({ score: 100, strongestBeaten: 'simple' });
    expect(CS540_OPPONENTS.map((o) => [o.spec, o.points, o.bonus === true])).toEqual([
      ['random', 50, false],
      ['simple', 100, false],
      ['advanced', 100, true],
    ]);
  });

  it('refuses bad options before playing', async () => {
    await expect(runGauntlet({ submission: CAROL, stones: [] })).rejects.toThrow(/stones: expected at least one value/);
    await expect(runGauntlet({ submission: CAROL, stones: [4, 4] })).rejects.toThrow(/given twice/);
    await expect(runGauntlet({ submission: CAROL, gamesPerSetting: 0 })).rejects.toThrow(UserError);
    await expect(runGauntlet({ submission: join(dir, 'nowhere') })).rejects.toThrow(/nowhere: no such file or folder/);
  });

  it('the reference submission beats random and simple: full marks', async () => {
    const r = await runGauntlet({ submission: REFERENCE, stones: [4], timesPerMoveMs: [100], gamesPerSetting: 2, seed: 1 });
    const [random, simpleResult, advancedResult] = r.opponents;
    expect(random!.beaten).toBe(true);
    expect(simpleResult!.beaten).toBe(true);
    expect(random!.wins + simpleResult!.wins).toBe(4);
    expect(r.score).toBe(advancedResult!.beaten ? 110 : 100);
    for (const o of r.opponents) expect(o.forfeits).toEqual({ crash: 0, timeout: 0, 'illegal-move': 0, memory: 0, 'output-limit': 0 });
    const report = gauntletReport([{ result: r, id: 'cs540-reference' }], { network: true });
    const sub = parseReport(toJson(report), 'report.json').submissions[0]!;
    expect(sub.cases.map((c) => [c.id, c.maxScore])).toEqual([
      ['vs-random', 50],
      ['vs-simple', 50],
      ['vs-advanced', 0],
    ]);
    expect(sub.cases.slice(0, 2).map((c) => [c.status, c.score])).toEqual([
      ['passed', 50],
      ['passed', 50],
    ]);
    expect(sub.score).toBe(r.score);
    expect(sub.maxScore).toBe(100);
  }, 60_000);

  it('a greedy submission beats random only (50); a random mover beats neither simple nor advanced', async () => {
    // These agents answer at once: a long time per move costs nothing and no load makes them late.
    // A shallower advanced agent keeps the test fast (it only has to beat them).
    const opponents = CS540_OPPONENTS.map((o) => (o.name === 'advanced' ? { ...o, spec: 'advanced:depth=6' } : o));
    const options = { stones: [3, 4, 5], timesPerMoveMs: [1000], gamesPerSetting: 2, seed: 1, opponents };
    const carol = await runGauntlet({ ...options, submission: CAROL });
    const randomStudent = await runGauntlet({ ...options, submission: RANDOM_STUDENT });
    // carol is the simple agent's twin (one move ahead, store difference): each opening from both seats splits 1-1.
    expect(carol.opponents.map((o) => o.beaten)).toEqual([true, false, false]);
    expect(carol.opponents[1]!.wins).toBe(carol.opponents[1]!.losses);
    expect(carol.score).toBe(50);
    expect(carol.strongestBeaten).toBe('random');
    expect(randomStudent.opponents[1]!.beaten).toBe(false);
    expect(randomStudent.opponents[2]!.beaten).toBe(false);
    expect(randomStudent.score).toBe(randomStudent.opponents[0]!.beaten ? 50 : 0);
    const text = renderGauntlet(carol);
    expect(text).toMatch(/^opponent +earns +games +won +drawn +lost +margin +3 stones +4 stones +5 stones +forfeits +deadline moves +ms\/move +beaten$/m);
    expect(text).toMatch(/^random +50 +6 +6 +0 +0 /m);
    expect(text).toMatch(/^advanced +100 \+ 10 +6 /m);
    expect(text.trimEnd().endsWith('score 50 / 100 (beat random)')).toBe(true);
    const cases = gauntletReport([{ result: carol, id: 'carol' }], { network: true }).submissions[0]!.cases;
    expect(cases.map((c) => [c.status, c.score, c.maxScore])).toEqual([
      ['passed', 50, 50],
      ['failed', 0, 50],
      ['failed', 0, 0],
    ]);
    expect(cases[1]!.message).toMatch(/^did not beat simple \(more wins than losses needed\): won 3, drew 0, lost 3 of 6 games \(3 stones 1-0-1, 4 stones 1-0-1, 5 stones 1-0-1\); store margin 0\.0 a game$/);
  }, 60_000);

  it('a submission that does not load plays no game and scores 0, each opponent saying why', async () => {
    const r = await runGauntlet({ submission: EMPTY, stones: [4], timesPerMoveMs: [100] });
    expect(r.score).toBe(0);
    for (const o of r.opponents) {
      expect(o.games).toBe(0);
      expect(o.error).toMatch(/empty/);
    }
    const cases = gauntletReport([{ result: r, id: 'empty' }], { network: true }).submissions[0]!.cases;
    expect(cases.map((c) => c.status)).toEqual(['error', 'error', 'error']);
  });
});

describe('mancala gauntlet', () => {
  const mancala = (...args: string[]) => runCommand(addGauntletCommand, ['gauntlet', ...args]);

  it('prints the table and the score and writes the report files', async () => {
    const json = join(dir, 'gauntlet.json');
    const gradescope = join(dir, 'results.json');
    const r = await mancala(CAROL, '--stones', '4', '--time-per-move', '100', '--json', json, '--gradescope', gradescope, '--no-progress');
    expect(r.code).toBe(0);
    expect(r.out).toContain(`gauntlet: ${CAROL}\ncs540 rules; match rules project; stones 4; 100 ms a move + 250 ms grace (anytime`);
    expect(r.out).toMatch(/^simple +100 +2 +1 +0 +1 /m);
    expect(r.err).toMatch(new RegExp(`^sandbox: [^\\n]+\\nwrote ${json}, ${gradescope}\\n$`));
    const report = parseReport(readFileSync(json, 'utf8'), json);
    expect(report.suite).toBe('cs540 gauntlet');
    expect(report.submissions[0]!.id).toBe('carol');
    const gs = JSON.parse(readFileSync(gradescope, 'utf8'));
    expect(gs.score).toBe(report.submissions[0]!.score);
    expect(gs.tests).toHaveLength(3);
  }, 30_000);

  it('--check (the kit\'s npm run check) exits 1 when an opponent is not beaten, as every course\'s check does; without it the run exits 0', async () => {
    const json = join(dir, 'gauntlet-check.json');
    const r = await mancala(CAROL, '--stones', '4', '--time-per-move', '100', '--json', json, '--no-progress', '--check', '--weak-sandbox');
    const cases = parseReport(readFileSync(json, 'utf8'), json).submissions[0]!.cases;
    const notBeaten = cases.filter((c) => c.status !== 'passed').length;
    expect(notBeaten).toBeGreaterThan(0); // carol does not beat the advanced agent
    expect(r.code).toBe(1);
    expect(r.err).toContain(`${notBeaten} of ${cases.length} opponents played (a case each: beat it) did not pass`);
  }, 30_000);

  it('a bad option is one line and exit 2', async () => {
    const bad = await mancala(CAROL, '--stones', '3,x');
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/^mancala: option '--stones <list>' argument '3,x' is invalid\. Expected .*\n$/);
    const twice = await mancala(CAROL, '--time-per-move', '100,100');
    expect(twice.code).toBe(2);
  });
});
