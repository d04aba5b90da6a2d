/**
 * `mancala play` driven by scripted input: the humans' lines come from a stream, everything
 * printed is captured. Games against reference agents run in this process; the forfeit checks run
 * zoo submissions in the real sandbox. Seed 001's flags (--dimension, --initialBoard, --agentTop,
 * --agentBottom, --heuristicTop, --heuristicBottom, --limit, --caching) each have a test that
 * compares what the agent played with the reference run directly.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { PassThrough, Readable } from 'node:stream';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Command, CommanderError } from 'commander';
import { afterAll, describe, expect, it } from 'vitest';
import { findAgent, findHeuristic } from '../../../agents/index.ts';
import { UserError } from '../../errors.ts';
import { boardToState, readBoardFile } from '../../games/mancala/board-io/index.ts';
import { mancalaGame } from '../../games/mancala/profile-game.ts';
import { findProfile } from '../../games/mancala/profiles.ts';
import { createRandom } from '../../random.ts';
import { runAgent } from '../../search/run-agent.ts';
import { moveEvents } from '../move-events.ts';
import { readPitInput } from '../pit-input.ts';
import type { PlayOptions } from '../play-setup.ts';
import { addPlayCommand, runPlay } from './play.ts';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const zoo = (name: string) => join(root, 'testcases/fixtures/hostile-agents', name);

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

describe('mancala play: the perfect agent', () => {
  it('plays its proven best move and says its value', async () => {
    const r = await cli(['--top', 'perfect', '--rules', 'kalah-empty-capture', '--pits', '3', '--seeds', '2', '--seed', '1'], CYCLE);
    expect(r.code).toBe(0);
    const lines = r.out.split('\n').filter((l) => l.startsWith('> top (perfect) plays'));
    expect(lines.length).toBeGreaterThan(0);
    for (const l of lines) expect(l).toMatch(/^> top \(perfect\) plays T\d: value [+-]?\d+ for top, [\d,]+ positions?, [\d.,]+ ms$/);
    // every value proven: no note that the solver ran out
    expect(r.out).not.toContain('no value proven');
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

  it("reads cpsc4610's cups as the course's board numbers them: the mover's 1 to 6", () => {
    const game = mancalaGame(findProfile('cpsc4610')!, 6, 4);
    const s = game.initial();
    expect(readPitInput(game, s, '1')).toEqual({ kind: 'move', move: 0 });
    expect(readPitInput(game, s, ' cup 6 ')).toEqual({ kind: 'move', move: 5 });
    expect(readPitInput(game, s, '0')).toEqual({ kind: 'invalid', message: 'there is no cup 0 on your side: your cups are 1..6; legal now: 1 2 3 4 5 6' });
    expect(readPitInput(game, s, '7')).toMatchObject({ kind: 'invalid', message: expect.stringMatching(/^there is no cup 7 on your side/) });
    expect(readPitInput(game, s, 'top cup 2')).toEqual({ kind: 'invalid', message: "top cup 2 is top's cup: your cups are 1..6; legal now: 1 2 3 4 5 6" });
    expect(readPitInput(game, s, 'B2')).toMatchObject({ kind: 'invalid', message: expect.stringMatching(/^unknown cup B2: your cups are 1\.\.6/) });
    // The top player's cups read right to left on the board: its cup 1 is the rightmost.
    const after = game.play(s, 0);
    expect(readPitInput(game, after, '1')).toEqual({ kind: 'move', move: 0 });
    expect(readPitInput(game, after, '').kind).toBe('invalid');
    const emptied = game.play(after, 0);
    expect(readPitInput(game, emptied, '1')).toEqual({ kind: 'invalid', message: 'cup 1 is empty: legal now: 2 3 4 5 6' });
  });

  it('plays a cpsc4610 game at the prompt in cup numbers, and narrates captures with whose cup', async () => {
    const r = await cli(['--rules', 'cpsc4610', '--bottom', 'human', '--top', 'human'], [...CYCLE.map((k) => String(Number(k) + 1))]);
    expect(r.code).toBe(0);
    expect(r.out).toContain('bottom plays the cups 1..6: type a cup\'s number; "help" explains, "quit" stops.\n');
    expect(r.out).toMatch(/^bottom to move \[1 2 3 4 5 6\]: /m);
    expect(r.out).toMatch(/^> bottom plays cup [1-6]\n/m);
    expect(r.out).toMatch(/^> top plays cup [1-6]\n/m);
    expect(r.out).not.toMatch(/\b[BT][0-5]\b/);
    // Either side's cups in one sentence say whose they are.
    for (const m of r.out.matchAll(/^ {2}cup \d ends in the empty (.*) and captures/gm)) expect(m[1]).toMatch(/^(bottom|top) cup \d$/);
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

// ---- seed 001's flags (CSC384's mancala_cmdline.py) ------------------------------------------------

describe("mancala play: the handout's flags (seed 001)", () => {
  const work = mkdtempSync(join(tmpdir(), 'play-handout-'));
  afterAll(() => rmSync(work, { recursive: true, force: true }));
  /** A csc384 board file: top row, bottom row (left to right as bottom sees them), top store, bottom store. */
  const boardFile = (name: string, text: string): string => {
    const path = join(work, name);
    writeFileSync(path, text);
    return path;
  };
  const endgame = boardFile('test_board1.txt', '0,0,2,1,0,0\n3,0,2,0,1,0\n27\n12\n');
  const csc384 = (pits = 6) => mancalaGame(findProfile('csc384')!, pits, 4);
  const endgameState = () => boardToState(csc384(), readBoardFile(endgame), 0);
  const never = () => new PassThrough(); // agent against agent must not read it

  /** The first move `side` played, as the game's output shows it. */
  function agentMove(out: string, side: 'bottom' | 'top'): { name: string; value: number; nodes: number } {
    const m = new RegExp(`^> ${side} \\([^)]*\\) plays (\\S+): value ([+-]?[\\d.]+) for ${side}, ([\\d,]+) positions?, `, 'm').exec(out);
    if (m === null) throw new Error(`no move of ${side} in:\n${out}`);
    return { name: m[1]!, value: Number(m[2]), nodes: Number(m[3]!.replace(/,/g, '')) };
  }

  /** What a reference agent answers on the end-game board, bottom to move. */
  async function reference(name: string, options: Record<string, unknown>, heuristic = 'basic') {
    const game = csc384();
    const state = endgameState();
    const run = await runAgent(findAgent(name)!, { game, state, heuristic: findHeuristic(heuristic)!, options: { unit: 'move', terminal: 'heuristic', ...options }, random: createRandom(1) });
    return { name: game.moveName(state, run.choice.move), value: run.choice.value, nodes: run.nodes };
  }

  it('--dimension (-d): csc384 rules on that many pockets, both players human when no agent is named', async () => {
    for (const flag of ['--dimension', '-d']) {
      const r = await cli([flag, '4'], ['B0', 'T0', 'help', 'quit']);
      expect(r.code).toBe(0);
      expect(r.out).toContain('Mancala: csc384(4,4), no free turns;');
      expect(r.out).toContain('bottom = human, top = human; bottom moves first.');
      expect(r.out).toMatch(/^ +B0 +B1 +B2 +B3$/m);
      expect(r.out).toContain('> bottom plays B0\n');
      expect(r.out).toContain('> top plays T0\n');
      expect(r.out).toContain('There are no free turns in these rules.');
    }
  });

  it('--initialBoard (-i): the game starts from a board file, its size taken from the file', async () => {
    const small = boardFile('small.txt', '1,0,2,0\n0,3,0,1\n10\n15\n');
    const r = await cli(['-i', small], ['quit']);
    expect(r.code).toBe(0);
    expect(r.out).toContain('Mancala: csc384(4,4)');
    const game = csc384(4);
    expect(r.out).toContain(game.render(boardToState(game, readBoardFile(small), 0)));
    // A JSON board says who moves.
    const json = boardFile('top.json', JSON.stringify({ top: [1, 0, 2, 0], bottom: [0, 3, 0, 1], stores: { top: 10, bottom: 15 }, toMove: 'top' }));
    const t = await cli(['--initialBoard', json], ['quit']);
    expect(t.out).toContain('bottom = human, top = human; top moves first.');
    expect(t.out).toContain('top quit: the game stops after 0 moves');
  });

  it("--agentTop / --agentBottom (-t / -b): reference agents by name or by the handout's file names, or human", async () => {
    const r = await cli(['-i', endgame, '-t', 'agent_random.py', '--agentBottom', 'alphabeta', '--seed', '2'], never());
    expect(r.code).toBe(0);
    expect(r.out).toContain('bottom = alphabeta, top = agent_random.py;');
    expect(r.out).toContain("  top: the reference random (for the handout's agent_random.py)\n");
    expect(r.out).toContain('  bottom: the reference alphabeta, no depth limit, the basic heuristic\n');
    expect(r.out).toMatch(/^> top \(agent_random\.py\) plays T\d: /m);
    expect(lastLine(r.out)).toMatch(/^winner: |^a draw: /);
    const human = await cli(['--agentBottom', 'human', '--agentTop', 'agent_minimax.py', '-l', '1'], ['quit']);
    expect(human.out).toContain('bottom = human, top = agent_minimax.py;');
    expect(human.out).toContain('bottom (you) quit');
  });

  it('--limit (-l): the depth limit of both agents; -1 is no limit', async () => {
    for (const [args, depth] of [[['-l', '2'], 2], [['--limit', '-1'], null]] as const) {
      const r = await cli(['-i', endgame, '-b', 'minimax', ...args], ['quit']);
      expect(r.code).toBe(0);
      expect(r.out).toContain(`  bottom: the reference minimax, ${depth === null ? 'no depth limit' : `depth limit ${depth}`}, the basic heuristic\n`);
      expect(agentMove(r.out, 'bottom')).toEqual(await reference('minimax', { depth }));
      // Without a limit, what happens when a search cannot finish in time is said up front.
      expect(r.out.includes('note: without a depth limit a search must finish within 1,000 ms a move'), args.join(' ')).toBe(depth === null);
    }
  });

  it('--caching: both agents cache positions (the same move and value, fewer positions)', async () => {
    const r = await cli(['-i', endgame, '-b', 'minimax', '-l', '6', '--caching'], ['quit']);
    expect(r.code).toBe(0);
    expect(r.out).toContain('  bottom: the reference minimax, depth limit 6, caching, the basic heuristic\n');
    const cached = await reference('minimax', { depth: 6, caching: true });
    const plain = await reference('minimax', { depth: 6 });
    expect(agentMove(r.out, 'bottom')).toEqual(cached);
    expect(cached.nodes).toBeLessThan(plain.nodes);
  });

  it('--heuristicBottom / --heuristicTop (-hb / -ht): 1 gives a reference agent the advanced heuristic, 0 the basic one', async () => {
    const advanced = await reference('alphabeta', { depth: 2 }, 'advanced');
    const basic = await reference('alphabeta', { depth: 2 });
    expect(advanced.value).not.toBe(basic.value);
    for (const flag of ['--heuristicBottom', '-hb']) {
      const r = await cli(['-i', endgame, '-b', 'alphabeta', '-l', '2', flag, '1'], ['quit']);
      expect(r.code).toBe(0);
      expect(r.out).toContain('  bottom: the reference alphabeta, depth limit 2, the advanced heuristic\n');
      expect(agentMove(r.out, 'bottom')).toEqual(advanced);
    }
    const zero = await cli(['-i', endgame, '-b', 'alphabeta', '-l', '2', '-hb', '0'], ['quit']);
    expect(agentMove(zero.out, 'bottom')).toEqual(basic);
    // The top side's flag, after a human move by bottom.
    const game = csc384();
    const afterB0 = game.play(endgameState(), 0);
    const top = await runAgent(findAgent('alphabeta')!, { game, state: afterB0, heuristic: findHeuristic('advanced')!, options: { depth: 2, unit: 'move', terminal: 'heuristic' }, random: createRandom(1) });
    for (const flag of ['--heuristicTop', '-ht']) {
      const r = await cli(['-i', endgame, '-t', 'alphabeta', '-l', '2', flag, '1'], ['B0', 'quit']);
      expect(r.out).toContain('  top: the reference alphabeta, depth limit 2, the advanced heuristic\n');
      expect(agentMove(r.out, 'top')).toEqual({ name: game.moveName(afterB0, top.choice.move), value: top.choice.value, nodes: top.nodes });
    }
  });

  it("a submission's agent file plays sandboxed, with the files beside it and, for 1, its own heuristic_advanced", async () => {
    const folder = join(root, 'agents/examples/csc384-reference');
    const file = join(folder, 'agent_alphabeta.ts');
    const agent = (await import('../../../agents/examples/csc384-reference/agent_alphabeta.ts')).default;
    const own = (await import('../../../agents/examples/csc384-reference/heuristic_advanced.ts')).default;
    const game = csc384();
    const state = endgameState();
    const expected = await runAgent(agent, { game, state, heuristic: own, options: { depth: 3, unit: 'move', terminal: 'heuristic' }, random: createRandom(1) });
    const r = await cli(['-i', endgame, '-b', file, '-l', '3', '-hb', '1'], ['quit']);
    expect(r.code).toBe(0);
    expect(r.out).toContain(`  bottom: ${file}, sandboxed, depth limit 3, its heuristic_advanced\n`);
    expect(agentMove(r.out, 'bottom')).toEqual({ name: game.moveName(state, expected.choice.move), value: expected.choice.value, nodes: expected.nodes });
    // Asking for a heuristic_advanced the submission does not have is the user's mistake.
    const lonely = join(work, 'lonely');
    mkdirSync(lonely);
    writeFileSync(join(lonely, 'agent.js'), 'export default { name: "first", chooseMove: (ctx) => ctx.game.legalMoves(ctx.state)[0] };\n');
    const missing = await cli(['-b', join(lonely, 'agent.js'), '-hb', '1'], ['quit']);
    expect(missing.code).toBe(2);
    expect(missing.err).toMatch(/--heuristicBottom 1: the heuristic of .*lonely\/agent\.js: no module found for role heuristic_advanced \(looked for heuristic_advanced\.ts/);
  }, 30_000);

  it('refuses bad values and contradictions as the user\'s mistakes', async () => {
    const cases: [string[], RegExp][] = [
      [['-ht', '2'], /--heuristicTop <0\|1>.*Expected 0 \(heuristic_basic\) or 1 \(heuristic_advanced\)/],
      [['--limit', '-2'], /--limit <n>.*Expected a whole number ≥ 0, or -1 for no depth limit/],
      [['-d', '0'], /--dimension <n>.*Expected pockets a side: a whole number from 1 to 20/],
      [['-t', 'my_agent.py'], /--agentTop': my_agent\.py is a Python program, which does not run here/],
      [['-t', 'nonesuch'], /unknown agent "nonesuch"/],
      [['--top', 'random', '--agentTop', 'minimax'], /options '--top' and '--agentTop' name the same thing/],
      [['-i', endgame, '-d', '5'], /test_board1\.txt: the board has 6 pockets a side, but --dimension\/--pits asks for 5/],
      [['-i', join(work, 'missing.txt')], /missing\.txt: cannot read the board file/],
    ];
    for (const [args, message] of cases) {
      const r = await cli(args, []);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.err, args.join(' ')).toMatch(message);
    }
  });

  it('without the handout\'s flags nothing changes: kalah, bottom human, top alphabeta', async () => {
    const r = await cli(['--seed', '1'], ['quit']);
    expect(r.out).toContain('Mancala: kalah(6,4)');
    expect(r.out).toContain('bottom = human, top = alphabeta; bottom moves first.');
    expect(r.out).not.toContain('  top: the reference');
  });
});
