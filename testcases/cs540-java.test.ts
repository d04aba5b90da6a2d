/**
 * Seed 003's (CS540) students write Java against the course's own Player and GameState. The
 * project's implementations of those (agents/clients/cs540/) play by the cs540 rules exactly as
 * the engine does, and a student's `<name>Player.java` runs unchanged through the bridge: it plays
 * matches (the anytime rule: when time is up, the `move` it last set), and each way a submission
 * can fail is a clear message, never a silent score.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MancalaGame, type MancalaState } from '../framework/games/mancala/engine.ts';
import { PROFILES } from '../framework/games/mancala/profiles.ts';
import { playMatch } from '../framework/matches/match.ts';
import { findStdioAgent } from '../framework/sandbox/stdio-agents/spec.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const PLAYERS = join(ROOT, 'testcases/fixtures/course-apis/cs540');
const API = join(ROOT, 'agents/clients/cs540');
const javac = spawnSync('javac', ['-version']).status === 0;
const work = mkdtempSync(join(tmpdir(), 'cs540-java-test-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const player = (name: string) => join(PLAYERS, name);

describe.runIf(javac)("the course's GameState, as the project wrote it", () => {
  const classes = join(work, 'harness');
  beforeAll(() => {
    execFileSync('javac', ['-d', classes, join(API, 'GameState.java'), join(PLAYERS, 'harness', 'GameStateReplay.java')]);
  });

  /** A position as GameState holds it: the player to move's row, its mancala, the other row, the other mancala. */
  function fromMover(game: MancalaGame, s: MancalaState, mover: 0 | 1): number[] {
    const other = mover === 0 ? 1 : 0;
    return [...game.row(s, mover), game.store(s, mover), ...game.row(s, other), game.store(s, other)];
  }

  it('applyMove, gameOver and status agree with the engine under the cs540 rules, move by move, on random games', () => {
    const games = fc.sample(fc.record({ stones: fc.integer({ min: 3, max: 5 }), picks: fc.array(fc.nat(), { minLength: 200, maxLength: 200 }) }), { numRuns: 150, seed: 540 });
    const expected: string[] = [];
    const input: string[] = [];
    /** the game (its input line) each expected line belongs to */
    const gameOf: number[] = [];
    for (const { stones, picks } of games) {
      const game = new MancalaGame({ ...PROFILES.cs540!.rules, seeds: stones }, 'cs540');
      let s = game.initial();
      const moves: number[] = [];
      for (const pick of picks) {
        if (game.isOver(s)) break;
        const legal = game.legalMoves(s);
        const move = legal[pick % legal.length]!;
        const mover = game.toMove(s) as 0 | 1;
        const before = fromMover(game, s, mover);
        s = game.play(s, move);
        moves.push(move);
        if (game.isOver(s)) {
          // The game's score counts each row with its owner's store, as GameState's status does.
          const again = applyAgain(before, move);
          const bottom = again ? mover : ((1 - mover) as 0 | 1);
          const diff = game.score(s, bottom);
          expected.push(`${again} over true ${diff > 0 ? 1 : diff === 0 ? 0 : -1}`);
          break;
        }
        const again = game.toMove(s) === mover;
        expected.push(`${again} [${fromMover(game, s, game.toMove(s) as 0 | 1).join(',')}] false ${-2147483648}`);
      }
      expected.push('end');
      input.push([stones, ...moves].join(' '));
      while (gameOf.length < expected.length) gameOf.push(input.length - 1);
    }
    const out = execFileSync('java', ['-cp', classes, 'GameStateReplay'], { input: input.join('\n') + '\n', encoding: 'utf8' }).trim().split('\n');
    expect(out).toHaveLength(expected.length);
    out.forEach((line, k) => {
      const want = expected[k]!;
      if (want.includes(' over ')) {
        // At the end, compare who moves next (again), that the game is over, and the result.
        const [again, , , status] = want.split(' ');
        const [gotAgain, , gotOver, gotStatus] = line.split(' ');
        expect([gotAgain, gotOver, gotStatus], `game ${input[gameOf[k]!]}`).toEqual([again, 'true', status]);
      } else {
        expect(line, `game ${input[gameOf[k]!]}`).toBe(want);
      }
    });
    expect(expected.filter((l) => l.includes(' over ')).length).toBeGreaterThan(10);
  });
});

/** Whether the last stone of `move` lands in the mover's mancala, from the board before it (14 ints, mover first). */
function applyAgain(before: number[], move: number): boolean {
  let stones = before[move]!;
  let at = move;
  while (stones > 0) {
    at = (at + 1) % 14;
    if (at === 13) continue;
    stones--;
  }
  return at === 6;
}

describe.runIf(javac)("a student's <name>Player.java, unchanged", () => {
  it('is found as the course API: compiled with the project\'s Player and GameState, run by the bridge', async () => {
    const spec = await findStdioAgent(player('alphaPlayer'));
    expect(spec).toMatchObject({ run: ['java', '-XX:+UseSerialGC', '-cp', '.', 'Cs540Bridge', 'alphaPlayer'], build: 'javac -encoding UTF-8 -nowarn -d . *.java' });
    expect(Object.keys(spec!.supportFiles!).sort()).toEqual(['Cs540Bridge.java', 'GameState.java', 'MancalaAgent.java', 'Player.java']);
    expect(spec!.source).toMatch(/alphaPlayer\.java: alphaPlayer extends the course's Player/);
  });

  it('an iterative-deepening player that never stops on its own beats random under the anytime rule, without a forfeit', async () => {
    const r = await playMatch({ A: player('alphaPlayer'), B: 'random', rules: 'cs540', games: 2, timePerMoveMs: 300, seed: 5 });
    for (const g of r.games) {
      expect(g.forfeit, JSON.stringify(g.forfeit)).toBeNull();
      expect(g.winner).toBe('A');
    }
  }, 120_000);

  it('a player that sets move and keeps searching plays the move it set, every turn', async () => {
    const r = await playMatch({ A: player('stubbornPlayer'), B: 'random', rules: 'cs540', games: 1, timePerMoveMs: 200, seed: 2 });
    const g = r.games[0]!;
    expect(g.forfeit).toBeNull();
    // Replay: each of A's moves is its rightmost legal bin.
    const game = new MancalaGame(PROFILES.cs540!.rules, 'cs540');
    let s = game.initial();
    const aSeat = g.first === 'A' ? 0 : 1;
    let checked = 0;
    g.moves.forEach((m, k) => {
      if (k >= g.openingPlies && game.toMove(s) === aSeat) {
        expect(m, `move ${k}`).toBe(Math.max(...game.legalMoves(s)));
        checked++;
      }
      s = game.play(s, m);
    });
    expect(checked).toBeGreaterThan(3);
  }, 120_000);

  it('a player that throws forfeits, the reason naming the exception', async () => {
    const r = await playMatch({ A: player('throwsPlayer'), B: 'random', rules: 'cs540', games: 1, timePerMoveMs: 300, seed: 1 });
    expect(r.games[0]!.forfeit).toMatchObject({ side: 'A' });
    expect(r.games[0]!.forfeit!.message).toMatch(/throwsPlayer\.move threw java\.lang\.IllegalStateException: throwsPlayer gave up at \d+/);
  }, 120_000);

  it("a public class in a file of another name is a compile error with javac's words", async () => {
    const r = await playMatch({ A: player('wrongName'), B: 'random', rules: 'cs540', games: 1, timePerMoveMs: 300, seed: 1 });
    expect(r.games[0]!.forfeit!.message).toMatch(/compile error[^]*class fooPlayer is public, should be declared in a file named fooPlayer\.java/);
  }, 120_000);

  it('Java sources with no class extending Player are no agent: the message says what was found and what an agent is', async () => {
    const copy = join(work, 'notAPlayer');
    cpSync(player('notAPlayer'), copy, { recursive: true });
    expect(readdirSync(copy)).toEqual(['fooPlayer.java']);
    expect(await findStdioAgent(copy)).toBeUndefined();
    await expect(playMatch({ A: copy, B: 'random', rules: 'cs540', games: 1, timePerMoveMs: 300, seed: 1 })).rejects.toThrow(
      /^no submission here: \S*notAPlayer \(found only fooPlayer\.java\)\. CS540 students hand in <name>Player\.java, a class extending the course's Player/,
    );
  });
});
