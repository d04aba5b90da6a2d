/**
 * The playoff grader with real reference agents standing in for the submission (run in this
 * process through a MoveAsker), and with submissions that forfeit: illegal moves, errors, and
 * answers over the time a move. Heuristic roles: the reference alpha-beta with the submission's
 * heuristic: the search runs here (GraderSearchPlayer) and asks a real sandboxed session for the
 * heuristic's values, on kalah-basics' heuristic playoff.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Agent } from '../framework/contracts/agent.ts';
import { GraderSearchPlayer } from '../framework/grading/grader-search-player.ts';
import type { GradeInput } from '../framework/grading/types.ts';
import type { Attempt, MoveAsker } from '../framework/sandbox/exchange.ts';
import { prepareSubmission } from '../framework/sandbox/submissions/prepare.ts';
import { SandboxSession } from '../framework/sandbox/session.ts';
import { loadSuite } from '../framework/suites/load.ts';
import { parseAgentSpec } from '../agents/index.ts';
import playoff, { OPENING_PLIES, playPlayoff } from './playoff.ts';
import { inProcessAsker, mancalaSpec, testCase, testManifest } from './testing.ts';

const game = mancalaSpec('kalah', 6, 4);
const manifest = testManifest(game);

function playoffInput(opponent: string, games: number, winRate: number, session: MoveAsker, seed = 7) {
  const c = testCase(manifest, { checks: { playoff: { opponent, games, winRate, seed, msPerMove: 2000 } }, options: { depth: 3, unit: 'move', terminal: 'score' } });
  return { manifest, case: c, expected: { hash: 'test' }, observation: { ms: 0 }, session };
}

/** The submission: a reference agent with its options fixed, as a student's agent would fix them. */
function submission(spec: string): MoveAsker {
  const { agent, options } = parseAgentSpec(spec);
  const fixed: Agent = { name: spec, chooseMove: (ctx) => agent.chooseMove({ ...ctx, options: { ...ctx.options, ...options } }) };
  return inProcessAsker(game, fixed);
}

describe('playoff', () => {
  it('alpha-beta depth 3 beats random: passes, colours alternate, openings differ between pairs', async () => {
    const input = playoffInput('random', 6, 0.8, submission('alphabeta:depth=3'));
    const r = await playPlayoff(input, input.session);
    expect(r.passed).toBe(true);
    expect(r.wins).toBeGreaterThanOrEqual(5);
    expect(r.games.map((g) => g.side)).toEqual([0, 1, 0, 1, 0, 1]);
    // Each pair shares its opening; the pairs' openings are not all the same.
    for (let k = 0; k < 6; k += 2) expect(r.games[k]!.opening).toEqual(r.games[k + 1]!.opening);
    expect(r.games.every((g) => g.opening.length === OPENING_PLIES)).toBe(true);
    expect(new Set(r.games.map((g) => g.opening.join(' '))).size).toBeGreaterThan(1);
    for (const g of r.games) expect(g.stores![0] + g.stores![1]).toBe(48);

    const result = await playoff.grade(input);
    expect(result.passed).toBe(true);
    expect(result.message).toMatch(/^playoff against random: won \d, drew \d, lost \d of 6 games: win rate [\d.]+%, needed 80%$/);
  });

  it('is deterministic: the same seed plays the same games', async () => {
    const a = await playPlayoff(playoffInput('random', 4, 0.5, submission('alphabeta:depth=2')), submission('alphabeta:depth=2'));
    const b = await playPlayoff(playoffInput('random', 4, 0.5, submission('alphabeta:depth=2')), submission('alphabeta:depth=2'));
    expect(b.games).toEqual(a.games);
    const other = await playPlayoff(playoffInput('random', 4, 0.5, submission('alphabeta:depth=2'), 8), submission('alphabeta:depth=2'));
    expect(other.games.map((g) => g.opening)).not.toEqual(a.games.map((g) => g.opening));
  });

  it('random against alpha-beta depth 4 fails, with W/D/L, each game and the position', async () => {
    const input = playoffInput('alphabeta:depth=4', 4, 0.5, submission('random'));
    const result = await playoff.grade(input);
    expect(result.passed).toBe(false);
    expect(result.status).toBeUndefined();
    const lines = result.message.split('\n');
    expect(lines[0]).toMatch(/^playoff against alphabeta:depth=4: won [01], drew [0-4], lost [2-4] of 4 games: win rate (0|25)%, needed 50%$/);
    expect(lines[1]).toBe('games (your stones first; 2 random opening moves, seed 7; 2000 ms a move):');
    expect(lines[2]).toMatch(/^ {2}game 1 \(you bottom, first; opening [BT]\d [BT]\d\): (won|drew|lost) \d+–\d+ after \d+ moves$/);
    expect(lines[3]).toMatch(/^ {2}game 2 \(you top, second; opening /);
    expect(result.message).toContain('position: kalah(6,4): top [4 4 4 4 4 4] store 0, bottom [4 4 4 4 4 4] store 0, bottom to move');
    expect(result.message).toContain('opponent: alphabeta:depth=4 with the basic heuristic (options {"unit":"move","terminal":"score","depth":4})');
  });

  it('an illegal move forfeits the game, naming the move and the legal ones', async () => {
    const illegal: MoveAsker = {
      async chooseMove(): Promise<Attempt> {
        return { status: 'ok', observation: { move: 9, ms: 1 }, ms: 2 };
      },
    };
    const result = await playoff.grade(playoffInput('random', 2, 0.5, illegal));
    expect(result.passed).toBe(false);
    expect(result.status).toBeUndefined(); // an illegal move is a plain failure
    expect(result.message).toContain('won 0, drew 0, lost 2 of 2 games (2 by forfeit)');
    expect(result.message).toMatch(/forfeit in game 1: illegal move 9 \(not a pit index\) at move 3, in top \[[\d ]+\] store \d+, bottom \[[\d ]+\] store \d+, bottom to move; legal moves: B\d \(index \d\)/);
    expect(result.message).toMatch(/ {2}game 1 \(you bottom, first; opening [BT]\d [BT]\d\): lost by forfeit after 2 moves/);
  });

  it('an error or a slow answer forfeits the game and makes the check an error or a timeout', async () => {
    let calls = 0;
    const flaky: MoveAsker = {
      async chooseMove(board, player, options, timeLimitMs): Promise<Attempt> {
        calls++;
        if (calls === 1) return { status: 'error', message: 'TypeError: x is undefined', ms: 3 };
        return { status: 'ok', observation: { move: board.bottom.findIndex((n) => n > 0), ms: timeLimitMs + 1 }, ms: timeLimitMs + 5 };
      },
    };
    const result = await playoff.grade(playoffInput('random', 2, 0.5, flaky));
    expect(result.passed).toBe(false);
    expect(result.status).toBe('error');
    expect(result.message).toMatch(/forfeit in game 1: error at move \d, in .*: TypeError: x is undefined/);
    expect(result.message).toMatch(/forfeit in game 2: timeout at move \d, in .*: took 2001 ms, the limit is 2000 ms a move/);
  });

  it('a game forfeited on a function not written yet puts "not written yet: <function>" first; the games played are still shown', async () => {
    let calls = 0;
    const plays = submission('alphabeta:depth=2');
    const halfDone: MoveAsker = {
      async chooseMove(...args): Promise<Attempt> {
        calls++;
        if (calls === 1) return { status: 'error', message: 'agent_minimax.py: minimax_max_basic failed: NotImplementedYet: minimax_max_basic is not written yet (it raised NotImplementedError)', ms: 3 };
        return plays.chooseMove(...args);
      },
    };
    const result = await playoff.grade(playoffInput('random', 2, 0.9, halfDone));
    const lines = result.message.split('\n');
    expect(lines[0]).toBe('not written yet: minimax_max_basic');
    expect(lines[1]).toMatch(/^playoff against random: won \d, drew \d, lost \d of 2 games \(1 by forfeit\)/);
    expect(result.message).toMatch(/ {2}game 2 \(you top, second; opening [BT]\d [BT]\d\): (won|drew|lost) \d+–\d+ after \d+ moves/);
  });
});

// ---- heuristic roles: the reference alpha-beta with the submission's heuristic ---------------------

const scratch: string[] = [];
afterAll(() => {
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
});

/** kalah-basics' heuristic playoff, graded as the runner grades it (the grader's search asking the sandboxed heuristic for values) on a submission holding `heuristic`. */
async function heuristicPlayoff(heuristic: { path: string } | { source: string }) {
  const suite = await loadSuite('testcases/kalah-basics');
  const c = suite.cases.find((x) => x.id === 'heuristic-playoff-depth-4')!;
  let path: string;
  if ('path' in heuristic) path = heuristic.path;
  else {
    path = mkdtempSync(join(tmpdir(), 'heuristic-playoff-'));
    scratch.push(path);
    writeFileSync(join(path, 'heuristic.js'), heuristic.source);
  }
  const sub = await prepareSubmission(path, suite.manifest.roles);
  const session = await SandboxSession.open(sub, { memoryMb: 256 }, { game: suite.manifest.game });
  try {
    const input: GradeInput = { manifest: suite.manifest, case: c, expected: suite.expected[c.id]!, observation: { ms: 0 }, session: new GraderSearchPlayer(session, suite.manifest.game) };
    const started = performance.now();
    const result = await playoff.grade(input);
    return { result, ms: performance.now() - started, input };
  } finally {
    await session.close();
    await sub.dispose();
  }
}

describe('playoff of a heuristic role (the reference alpha-beta with the submission\'s heuristic, sandboxed)', () => {
  it("alice's store difference wins, through a real sandboxed session", async () => {
    const { result } = await heuristicPlayoff({ path: 'agents/examples/alice' });
    expect(result).toEqual({
      check: 'playoff',
      passed: true,
      message: 'playoff of the reference alpha-beta (depth 4) with your heuristic against alphabeta:depth=2: won 5, drew 0, lost 1 of 6 games: win rate 83.3%, needed 50%',
    });
  });

  it('the negated store difference loses: each game and what our side was are shown', async () => {
    const { result } = await heuristicPlayoff({ source: 'export default { name: "upside-down", evaluate: (s, p, g) => g.store(s, 1 - p) - g.store(s, p) };\n' });
    expect(result.passed).toBe(false);
    expect(result.status).toBeUndefined();
    const lines = result.message.split('\n');
    expect(lines[0]).toMatch(/^playoff of the reference alpha-beta \(depth 4\) with your heuristic against alphabeta:depth=2: won [0-2], drew \d, lost [3-6] of 6 games: win rate [\d.]+%, needed 50%$/);
    expect(lines[1]).toBe('games (your stones first; 2 random opening moves, seed 7; 500 ms a move):');
    expect(result.message).toContain('your side: the reference alpha-beta (depth 4) with your heuristic (role heuristic), options {"depth":4,"unit":"move","terminal":"score","caching":false,"heuristic":"role:heuristic"}');
    expect(result.message).toContain('opponent: alphabeta:depth=2 with the basic heuristic');
  });

  it('a heuristic that throws forfeits every game, and only the first reason is shown', async () => {
    const { result } = await heuristicPlayoff({ source: 'export default { name: "broken", evaluate: () => { throw new RangeError("no idea"); } };\n' });
    expect(result.passed).toBe(false);
    expect(result.status).toBe('error');
    const lines = result.message.split('\n');
    expect(lines[0]).toMatch(/won 0, drew 0, lost 6 of 6 games \(6 by forfeit\)/);
    expect(lines[1]).toMatch(/^forfeit in game 1: error at move 3, in .*: role heuristic: evaluate failed: RangeError: no idea \(at heuristic\.js:1:\d+\)$/);
    expect(lines[2]).toBe('forfeits in games 2, 3, 4, 5, 6 too (error); only the first reason is shown for a heuristic\'s playoff');
    expect(result.message.match(/RangeError/g)).toHaveLength(1);
  });

  it('a heuristic not written yet (the starter\'s NotImplementedYet) forfeits every game: the message is that, in every course\'s words, not 6 games of forfeits', async () => {
    const source = 'export default { name: "starter", evaluate: () => { const e = new Error("heuristic is not implemented yet"); e.name = "NotImplementedYet"; throw e; } };\n';
    const { result } = await heuristicPlayoff({ source });
    expect(result.passed).toBe(false);
    expect(result.message).toBe(
      'not written yet: heuristic\n' +
        'playoff of the reference alpha-beta (depth 4) with your heuristic against alphabeta:depth=2: lost all 6 games by forfeit, each stopped on a function not written yet; needed a win rate of 50%',
    );
  });
});
