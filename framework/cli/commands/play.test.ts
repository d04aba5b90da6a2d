/**
 * `mancala play` driven by scripted input: the humans' lines come from a stream, everything
 * printed is captured. Games against reference agents run in this process; the forfeit checks run
 * zoo submissions in the real sandbox.
 */
import { PassThrough, Readable } from 'node:stream';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Command, CommanderError } from 'commander';
import { describe, expect, it } from 'vitest';
import { UserError } from '../../errors.ts';
import { findProfile } from '../../games/mancala/profiles.ts';
import { mancalaGame } from '../game-setup.ts';
import { moveEvents } from '../move-events.ts';
import { readPitInput } from '../pit-input.ts';
import { addPlayCommand, runPlay, type PlayOptions } from './play.ts';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const zoo = (name: string) => join(root, 'framework/sandbox/zoo', name);

function scripted(lines: readonly string[]): Readable {
  return Readable.from(lines.map((l) => l + '\n'));
}

/** The command as main() runs it: exit code 0 when the action resolves, 2 for a user's mistake. */
async function cli(args: string[], lines: readonly string[] | Readable): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const io = { out: (t: string) => void (out += t), err: (t: string) => void (err += t) };
  const program = new Command('mancala').exitOverride().configureOutput({ writeOut: io.out, writeErr: io.err, outputError: () => {} });
  addPlayCommand(program, io, Array.isArray(lines) ? scripted(lines) : (lines as Readable));
  try {
    await program.parseAsync(['play', ...args], { from: 'user' });
    return { code: 0, out, err };
  } catch (e) {
    if (e instanceof CommanderError) return { code: e.exitCode === 0 ? 0 : 2, out, err: err + e.message };
    if (e instanceof UserError) return { code: e.exitCode, out, err: err + e.message };
    throw e;
  }
}

function lastLine(text: string): string {
  return text.trimEnd().split('\n').at(-1)!;
}

/** Pit numbers 0..5 over and over: at each prompt the re-asking skips the ones that are not legal. */
const CYCLE = Array.from({ length: 600 }, (_, k) => String(k % 6));

const kalah = (o: Partial<PlayOptions>): PlayOptions => ({ bottom: 'human', top: 'random', rules: 'kalah', timePerMove: 1000, seed: 3, ...o });

describe('mancala play: a human against an agent', () => {
  it('plays a full game against random, every move legal, ending with the score and the winner', async () => {
    let out = '';
    const result = await runPlay(kalah({}), { out: (t) => void (out += t), err: () => {} }, scripted(CYCLE));
    expect(result.ending).toBe('finished');
    // Replaying the moves on the engine gives the score the game reported.
    const game = mancalaGame(findProfile('kalah')!, 6, 4);
    let s = game.initial();
    let bottomMoves = 0;
    for (const m of result.moves) {
      if (game.toMove(s) === 0) bottomMoves++;
      s = game.play(s, m);
    }
    expect(game.isOver(s)).toBe(true);
    expect(result.score).toEqual([game.finalStore(s, 0), game.finalStore(s, 1)]);
    expect(out.match(/^> bottom \(you\) plays B\d$/gm)).toHaveLength(bottomMoves);
    expect(out.match(/^> top \(random\) plays T\d: /gm)).toHaveLength(result.moves.length - bottomMoves);
    expect(out).toContain(`final score: bottom ${result.score[0]}, top ${result.score[1]} after ${result.moves.length} moves`);
    const [b, t] = result.score;
    expect(lastLine(out)).toBe(b === t ? `a draw: ${b} to ${t}` : `winner: ${b > t ? 'bottom (you)' : 'top (random)'} by ${Math.abs(b - t)}`);
    // The board, with its pit names, is drawn before every move; illegal numbers in the script were re-asked.
    expect(out.match(/^ +B0 +B1 +B2 +B3 +B4 +B5$/gm)!.length).toBe(result.moves.length + 1);
    expect(out).toMatch(/^  B\d is empty: legal now: (B\d ?)+$/m);
  });

  it('is deterministic for a seed: the same input gives the same game', async () => {
    const a = await runPlay(kalah({ seed: 11 }), { out: () => {}, err: () => {} }, scripted(CYCLE));
    const b = await runPlay(kalah({ seed: 11 }), { out: () => {}, err: () => {} }, scripted(CYCLE));
    expect(b.moves).toEqual(a.moves);
  });

  it('announces a free turn as "ends in your store: move again" and shows the agent\'s value and depth', async () => {
    const r = await cli(['--top', 'alphabeta:depth=3', '--seed', '1'], ['2', 'quit']);
    expect(r.code).toBe(0);
    expect(r.out).toContain('> bottom (you) plays B2\n  B2 ends in your store: move again\n');
    // After the free turn bottom is asked again, before the agent moves.
    expect(r.out).toMatch(/move again\n\n[^>]*bottom \(you\) to move \[B0 B1 B3 B4 B5\]: quit\n/);
    expect(r.out).not.toContain('alphabeta:depth=3) plays');
  });

  it('shows an agent\'s move with its value, depth, positions and time', async () => {
    const r = await cli(['--top', 'ids:depth=4', '--seed', '1'], ['0', 'quit']);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^> top \(ids:depth=4\) plays T\d: value [+-]?\d+ for top, depth 4, [\d,]+ positions, [\d.,]+ ms$/m);
  });
});

describe('mancala play: input', () => {
  it('re-asks after bad input, saying what is valid', async () => {
    const r = await cli(['--top', 'random', '--seed', '1'], ['', 'xyz', '9', 'T2', 'Q7', '2', '2', 'help', 'quit']);
    expect(r.code).toBe(0);
    const legal = 'legal now: B0 B1 B2 B3 B4 B5';
    expect(r.out).toContain(`  type a pit: ${legal}; "help" explains, "quit" stops\n`);
    expect(r.out).toContain(`  "xyz" is not a pit name or a number: your pits are B0..B5 (or just the number); ${legal}\n`);
    expect(r.out).toContain(`  there is no pit 9 on your side: your pits are B0..B5 (or just the number); ${legal}\n`);
    expect(r.out).toContain(`  T2 is top's pit: your pits are B0..B5 (or just the number); ${legal}\n`);
    expect(r.out).toContain(`  unknown pit Q7: your pits are B0..B5 (or just the number); ${legal}\n`);
    // B2 was played (a free turn), so it is empty when typed again.
    expect(r.out).toContain('  B2 is empty: legal now: B0 B1 B3 B4 B5\n');
    expect(r.out).toContain('A last stone in your own store gives you another move.');
    expect(r.out).toContain('bottom (you) quit: the game stops after 1 move with the stores at bottom 1, top 0.');
    expect(lastLine(r.out)).toBe('no winner: the game was not finished');
  });

  it('stops cleanly with exit code 0 at the end of the input', async () => {
    const r = await cli(['--top', 'random', '--seed', '1'], ['0']);
    expect(r.code).toBe(0);
    expect(r.err).toBe('');
    expect(r.out).toMatch(/the input ended: the game stops after 2 moves/);
    expect(lastLine(r.out)).toBe('no winner: the game was not finished');
  });

  it('stops at an input that ends without a newline mid-game, and at "exit"', async () => {
    const input = new PassThrough();
    const done = cli(['--top', 'greedy', '--seed', '1'], input);
    input.write('1\n');
    input.end('exit');
    const r = await done;
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/bottom \(you\) quit: the game stops after \d+ moves/);
  });

  it('reads the csci561 names (B2..B7, A2..A7) and their numbers', async () => {
    const r = await cli(['--rules', 'csci561', '--bottom', 'human', '--top', 'human'], ['B4', 'A3', '4', '7', '3', 'quit']);
    expect(r.code).toBe(0);
    expect(r.out).toContain('  B4 ends in bottom\'s store: bottom moves again\n');
    expect(r.out).toContain('  A3 is top\'s pit: your pits are B2..B7 (or just the number); legal now: B2 B3 B5 B6 B7\n');
    expect(r.out).toContain('  B4 is empty: legal now: B2 B3 B5 B6 B7\n');
    expect(r.out).toContain('> bottom plays B7\n');
    expect(r.out).toContain('> top plays A3\n');
  });
});

describe('mancala play: announcements', () => {
  it('announces a free turn and a capture between two humans', async () => {
    // B0; T3 ends beyond top's store in B0; B1 ends in bottom's store; B0's single stone lands in the empty B1.
    const r = await cli(['--bottom', 'human', '--top', 'human'], ['B0', 'T3', '1', '0', 'quit']);
    expect(r.code).toBe(0);
    expect(r.out).toContain('> bottom plays B1\n  B1 ends in bottom\'s store: bottom moves again\n');
    expect(r.out).toContain('> bottom plays B0\n  B0 ends in the empty B1 and captures 6 stones (5 from T4 and the last stone)\n');
    expect(r.out).toContain('stores: top 1 (left), bottom 7 (right); top to move');
  });

  it('works out captures under every capture rule from the positions before and after', () => {
    const at = (profile: string, bottom: number[], top: number[], move = 0) => {
      const game = mancalaGame(findProfile(profile)!, 6, 4);
      const s = game.fromRows(bottom, top, 0, 0, 0);
      return moveEvents(game, s, move, game.play(s, move));
    };
    // B0's one stone lands in the empty B1, opposite T4 (top's sowing index 4).
    const full = [1, 0, 0, 2, 0, 0];
    const top = [2, 0, 0, 0, 3, 0];
    expect(at('kalah', full, top).capture).toEqual({ stones: 4, landed: 'B1', from: 'T4', fromStones: 3, lastStoneTaken: true });
    expect(at('csc384', full, top).capture).toEqual({ stones: 3, landed: 'B1', from: 'T4', fromStones: 3, lastStoneTaken: false });
    const emptyOpposite = [2, 0, 0, 0, 0, 0];
    expect(at('kalah', full, emptyOpposite).capture).toBeNull();
    expect(at('kalah-empty-capture', full, emptyOpposite).capture).toEqual({ stones: 1, landed: 'B1', from: 'T4', fromStones: 0, lastStoneTaken: true });
    // A last stone in the store that ends the game gives no free turn.
    const end = at('kalah', [0, 0, 0, 0, 0, 1], top, 5);
    expect(end).toEqual({ freeTurn: false, capture: null, gameOver: true });
    // Thirteen stones go round the board and land back in their own, emptied, pit.
    expect(at('kalah', [13, 1, 1, 1, 1, 1], [1, 1, 1, 1, 1, 1]).capture).toEqual({ stones: 3, landed: 'B0', from: 'T5', fromStones: 2, lastStoneTaken: true });
  });

  it('classifies what a human typed', () => {
    const game = mancalaGame(findProfile('kalah')!, 6, 4);
    const s = game.initial();
    expect(readPitInput(game, s, ' b3 ')).toEqual({ kind: 'move', move: 3 });
    expect(readPitInput(game, s, '5')).toEqual({ kind: 'move', move: 5 });
    expect(readPitInput(game, s, 'QUIT')).toEqual({ kind: 'quit' });
    expect(readPitInput(game, s, '?')).toEqual({ kind: 'help' });
    expect(readPitInput(game, s, '-1').kind).toBe('invalid');
  });
});

describe('mancala play: agents', () => {
  it('plays agent against agent without reading the input', async () => {
    const never = new PassThrough(); // never ends: reading it would hang the test
    const r = await cli(['--bottom', 'greedy', '--top', 'random', '--seed', '4'], never);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^> bottom \(greedy\) plays B\d: value [+-]?\d+ for bottom, [\d,]+ positions, /m);
    expect(lastLine(r.out)).toMatch(/^winner: (bottom \(greedy\)|top \(random\)) by \d+$|^a draw: /);
  });

  it('ends the game with a forfeit when a submission crashes', async () => {
    const r = await cli(['--top', zoo('throws'), '--seed', '1'], ['0']);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(new RegExp(`^top \\(${zoo('throws')}\\) forfeits: it crashed: .*the zoo agent gave up`, 'm'));
    expect(lastLine(r.out)).toBe('winner: bottom (you), by forfeit after 1 move');
  }, 30_000);

  it('ends the game with a forfeit when a submission plays an illegal move', async () => {
    const r = await cli(['--bottom', zoo('illegal-move'), '--top', 'random'], []);
    expect(r.code).toBe(0);
    expect(r.out).toContain(`bottom (${zoo('illegal-move')}) forfeits: it played pit index 99, an illegal move (legal: B0 B1 B2 B3 B4 B5)\n`);
    expect(lastLine(r.out)).toBe('winner: top (random), by forfeit after 0 moves');
  }, 30_000);

  it('refuses an unknown agent or profile as a user mistake', async () => {
    const agent = await cli(['--top', 'nonesuch'], []);
    expect(agent.code).toBe(2);
    expect(agent.err).toMatch(/unknown agent "nonesuch": expected one of random, greedy/);
    const rules = await cli(['--rules', 'bogus'], []);
    expect(rules.code).toBe(2);
    expect(rules.err).toMatch(/--rules/);
  });
});
