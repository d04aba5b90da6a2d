/**
 * Seed 002's (CPSC 4610) students write a tournament player in Python against the course's own
 * MancalaBoard. The project's MancalaBoard (agents/clients/cpsc4610/) plays by the cpsc4610 rules
 * exactly as the engine does, and a student's NAME.py runs unchanged through the bridge; each way
 * a player can fail is a forfeit whose reason says what it did.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MancalaGame } from '../framework/games/mancala/engine.ts';
import { PROFILES } from '../framework/games/mancala/profiles.ts';
import { playMatch } from '../framework/matches/match.ts';
import { findStdioAgent } from '../framework/sandbox/stdio-agent-spec.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const PLAYERS = join(ROOT, 'testcases/fixtures/course-apis/cpsc4610');
const API = join(ROOT, 'agents/clients/cpsc4610');
const python = spawnSync('python3', ['--version']).status === 0;
const player = (name: string) => join(PLAYERS, name);

describe.runIf(python)("the course's MancalaBoard, as the project wrote it", () => {
  it('makeMove and gameOver agree with the engine under the cpsc4610 rules, move by move, on random games', () => {
    const games = fc.sample(fc.array(fc.nat(), { minLength: 200, maxLength: 200 }), { numRuns: 150, seed: 4610 });
    const game = new MancalaGame(PROFILES.cpsc4610!.rules, 'cpsc4610');
    const input: string[] = [];
    const expected: string[][] = [];
    for (const picks of games) {
      let s = game.initial();
      const first = game.toMove(s);
      const cups: number[] = [];
      const lines: string[] = [];
      for (const pick of picks) {
        if (game.isOver(s)) break;
        const legal = game.legalMoves(s);
        const move = legal[pick % legal.length]!;
        const mover = game.toMove(s);
        s = game.play(s, move);
        cups.push(move + 1);
        const over = game.isOver(s);
        // Over, both rows are swept into their owners' Mancalas (the board's gameOver does the same).
        const p1 = over ? [0, 0, 0, 0, 0, 0] : game.row(s, 0);
        const p2 = over ? [0, 0, 0, 0, 0, 0] : game.row(s, 1);
        const score = over ? [game.store(s, 0) + game.row(s, 0).reduce((a, b) => a + b, 0), game.store(s, 1) + game.row(s, 1).reduce((a, b) => a + b, 0)] : [game.store(s, 0), game.store(s, 1)];
        const again = !over && game.toMove(s) === mover;
        lines.push(over ? `over ${JSON.stringify(score)}` : `${again ? 'True' : 'False'} ${JSON.stringify(p1)} ${JSON.stringify(p2)} ${JSON.stringify(score)} False`);
      }
      input.push([first + 1, ...cups].join(' '));
      expected.push(lines);
    }
    const out = execFileSync('python3', [join(PLAYERS, 'harness', 'board_replay.py'), API], { input: input.join('\n') + '\n', encoding: 'utf8' });
    const got = out.trim().split('\nend').map((g) => g.trim().split('\n').filter((l) => l !== ''));
    let overs = 0;
    expected.forEach((lines, k) => {
      lines.forEach((want, i) => {
        const line = got[k]![i]!.replace(/, /g, ',');
        if (want.startsWith('over ')) {
          // At the end: the game is over, and the Mancalas hold what the engine's final count says.
          overs++;
          expect(line.endsWith(' True'), `game ${input[k]}`).toBe(true);
          expect(line.split(' ')[3], `game ${input[k]}`).toBe(want.slice('over '.length));
        } else {
          expect(line, `game ${input[k]}, move ${i + 1}`).toBe(want);
        }
      });
    });
    expect(overs).toBeGreaterThan(100);
  });
});

describe.runIf(python)("a student's NAME.py, unchanged", () => {
  it('is found as the course API and run by the bridge with the project\'s MancalaBoard', async () => {
    const spec = await findStdioAgent(player('DavesPlayer'));
    expect(spec).toMatchObject({ run: ['python3', join(API, 'cpsc4610_bridge.py'), 'DavesPlayer'] });
    expect(spec!.source).toMatch(/DavesPlayer\.py: class DavesPlayer\(Player\)/);
  });

  it('an alpha-beta player plays whole games from both seats without a forfeit, and beats random', async () => {
    const r = await playMatch({ A: player('DavesPlayer'), B: 'random', rules: 'cpsc4610', games: 4, timePerMoveMs: 3000, seed: 11 });
    for (const g of r.games) expect(g.forfeit, JSON.stringify(g.forfeit)).toBeNull();
    expect(r.games.filter((g) => g.winner === 'A').length).toBeGreaterThanOrEqual(3);
  }, 180_000);

  it('a player that returns None forfeits, the reason naming what it returned', async () => {
    const r = await playMatch({ A: player('NonePlayer'), B: 'random', rules: 'cpsc4610', games: 1, timePerMoveMs: 2000, seed: 1 });
    expect(r.games[0]!.forfeit!.message).toMatch(/NonePlayer\.chooseMove returned None: expected a cup number, 1 to 6/);
  }, 60_000);

  it('a player that raises forfeits, the reason naming the exception', async () => {
    const r = await playMatch({ A: player('RaisesPlayer'), B: 'random', rules: 'cpsc4610', games: 1, timePerMoveMs: 2000, seed: 1 });
    expect(r.games[0]!.forfeit!.message).toMatch(/RaisesPlayer\.chooseMove raised ValueError: RaisesPlayer has no idea with \d+ in its Mancala\n  File "RaisesPlayer\.py", line \d+, in chooseMove/);
  }, 60_000);

  it('a Python 2 file is said to be Python 2, never a raw traceback', async () => {
    const r = await playMatch({ A: player('OldPlayer'), B: 'random', rules: 'cpsc4610', games: 1, timePerMoveMs: 2000, seed: 1 });
    const message = r.games[0]!.forfeit!.message;
    expect(message).toMatch(/OldPlayer\.py looks like Python 2 \(line 15\), which cannot run on Python 3\.\d+: print\(\.\.\.\) is a function in Python 3[^]*--python PATH/);
    expect(message).not.toMatch(/Traceback/);
  }, 60_000);
});
