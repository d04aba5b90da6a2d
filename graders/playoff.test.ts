/**
 * The playoff grader with real reference agents standing in for the submission (run in this
 * process through a MoveAsker), and with submissions that forfeit: illegal moves, errors, and
 * answers over the time a move.
 */
import { describe, expect, it } from 'vitest';
import type { Agent } from '../framework/contracts/agent.ts';
import type { Attempt, MoveAsker } from '../framework/grading/types.ts';
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
});
