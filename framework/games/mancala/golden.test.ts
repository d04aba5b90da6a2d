/**
 * Golden rule cases: boards worked by hand from the seed texts (../shared/seeds/) and the
 * rules of DESIGN §4. Each case says where it comes from. Boards are written as the bottom player
 * sees them (both rows left to right), the way every seed prints them; `picture`/`view` convert
 * to and from the engine's sowing order (the top row's sowing order runs right to left).
 */
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Player } from '../../contracts/game.ts';
import { minimax } from '../../../agents/reference/minimax.ts';
import basic from '../../../agents/heuristics/basic.ts';
import { MancalaGame, type MancalaState } from './engine.ts';
import { PROFILES } from './profiles.ts';
import type { MancalaRules } from './rules.ts';
import { CSCI561_OFFICIAL_DIR } from '../../../testcases/shared-data.ts';

/** A board as printed: rows left to right as the bottom player sees them. */
interface Picture {
  top: number[];
  bottom: number[];
  topStore: number;
  bottomStore: number;
  toMove: Player;
}

function picture(game: MancalaGame, p: Picture): MancalaState {
  return game.fromRows(p.bottom, [...p.top].reverse(), p.bottomStore, p.topStore, p.toMove);
}

function view(game: MancalaGame, s: MancalaState): Omit<Picture, 'toMove'> & { toMove: Player | 'over' } {
  return {
    top: game.row(s, 1).reverse(),
    bottom: game.row(s, 0),
    topStore: game.store(s, 1),
    bottomStore: game.store(s, 0),
    toMove: game.isOver(s) ? 'over' : game.toMove(s),
  };
}

function profileGame(name: string, pits = 6, overrides: Partial<MancalaRules> = {}): MancalaGame {
  const profile = PROFILES[name];
  if (profile === undefined) throw new Error(`no profile ${name}`);
  return new MancalaGame({ ...profile.rules, pits, ...overrides }, name);
}

describe('seed 003 (cs540): the worked examples', () => {
  it('from the start (4 stones a bin), bin 2 ends in the mancala and earns another turn', () => {
    // Seed 003, "if you have the first move, you could pick up the stones in bin 2": the printed
    // board after it shows bins 0..4 as 4 4 0 5 5 (its table lost the sixth column, bin 5 = 5)
    // and 1 in the right mancala; "your last stone ended up in your mancala ... another turn".
    const game = profileGame('cs540');
    const after = game.play(game.initial(), 2);
    expect(view(game, after)).toEqual({
      top: [4, 4, 4, 4, 4, 4],
      bottom: [4, 4, 0, 5, 5, 5],
      topStore: 0,
      bottomStore: 1,
      toMove: 0,
    });
  });

  /*
   * Seed 003's capture example. Its top printed row is [left mancala, top bins left to right,
   * right mancala] = 6 | 0 8 0 4 9 0 | 4; the bottom row is bins 0..5 = 5 0 2 2 0 8. "The 6 small
   * bins in front of you and the mancala on your right are yours": the bottom player's store is
   * the right mancala, 4. Bin 2 sows bins 3 and 4; bin 4 was empty, so its stone and the 9 across
   * it (top bin at the same column) go to the mancala: 4 + 9 + 1 = 14.
   */
  const beforeCapture: Picture = { top: [0, 8, 0, 4, 9, 0], bottom: [5, 0, 2, 2, 0, 8], topStore: 6, bottomStore: 4, toMove: 0 };

  it('bin 2 lands in the empty bin 4 and captures 9 + 1 into the mancala, 4 -> 14', () => {
    const game = profileGame('cs540');
    const after = game.play(picture(game, beforeCapture), 2);
    expect(view(game, after)).toEqual({ top: [0, 8, 0, 4, 0, 0], bottom: [5, 0, 0, 3, 0, 8], topStore: 6, bottomStore: 14, toMove: 1 });
  });

  it('the intermediate board the seed prints is the sowing alone (capture none)', () => {
    // "This time when you choose bin 2, you get the following board: 6 | 0 8 0 4 9 0 | 4 over 5 0 0 3 1 8".
    const game = profileGame('cs540', 6, { capture: 'none' });
    const after = game.play(picture(game, beforeCapture), 2);
    expect(view(game, after)).toEqual({ top: [0, 8, 0, 4, 9, 0], bottom: [5, 0, 0, 3, 1, 8], topStore: 6, bottomStore: 4, toMove: 1 });
  });
});

describe('a 13-stone lap ending in the emptied origin pit captures (DESIGN §4)', () => {
  // 6 pits: 13 stones from B0 fill the 13 holes of a lap (the opponent's store skipped) and the
  // last one lands back in B0, which was emptied: a capture. The pit across (top position 0) had
  // 4 and got one on the lap.
  const before: Picture = { top: [4, 4, 4, 4, 4, 4], bottom: [13, 4, 4, 4, 4, 4], topStore: 0, bottomStore: 0, toMove: 0 };

  it('kalah: the last stone and the 5 across go to the store (1 sown + 6)', () => {
    const game = profileGame('kalah');
    expect(view(game, game.play(picture(game, before), 0))).toEqual({
      top: [0, 5, 5, 5, 5, 5],
      bottom: [0, 5, 5, 5, 5, 5],
      topStore: 0,
      bottomStore: 7,
      toMove: 1,
    });
  });

  it('csc384 (seed 001): the 5 across go to the store, the last stone stays', () => {
    const game = profileGame('csc384');
    expect(view(game, game.play(picture(game, before), 0))).toEqual({
      top: [0, 5, 5, 5, 5, 5],
      bottom: [1, 5, 5, 5, 5, 5],
      topStore: 0,
      bottomStore: 6,
      toMove: 1,
    });
  });

  it('26 stones make two laps: the origin holds 2 after the last stone, so nothing is captured', () => {
    const game = profileGame('kalah');
    const twoLaps = { ...before, bottom: [26, 4, 4, 4, 4, 4] };
    expect(view(game, game.play(picture(game, twoLaps), 0))).toEqual({
      top: [6, 6, 6, 6, 6, 6],
      bottom: [2, 6, 6, 6, 6, 6],
      topStore: 0,
      bottomStore: 2,
      toMove: 1,
    });
  });
});

describe('a capture opposite an empty pit, under each flag (DESIGN §4)', () => {
  // B0's single stone lands in the empty B1; the top pit across B1 (second from the left) is empty.
  const before: Picture = { top: [3, 0, 3, 3, 3, 3], bottom: [1, 0, 2, 2, 2, 2], topStore: 0, bottomStore: 0, toMove: 0 };
  const noCapture = { top: [3, 0, 3, 3, 3, 3], bottom: [0, 1, 2, 2, 2, 2], topStore: 0, bottomStore: 0, toMove: 1 };
  const lastStoneToStore = { top: [3, 0, 3, 3, 3, 3], bottom: [0, 0, 2, 2, 2, 2], topStore: 0, bottomStore: 1, toMove: 1 };

  it('kalah (standard, captureEmptyOpposite off): nothing is captured', () => {
    const game = profileGame('kalah');
    expect(view(game, game.play(picture(game, before), 0))).toEqual(noCapture);
  });

  for (const name of ['kalah-empty-capture', 'csci561', 'cpsc4610', 'cs540']) {
    it(`${name}: the last stone alone goes to the store`, () => {
      const game = profileGame(name);
      expect(view(game, game.play(picture(game, before), 0))).toEqual(lastStoneToStore);
    });
  }

  it('csc384 (seed 001: opposite only): the empty pit is "captured", the last stone stays', () => {
    const game = profileGame('csc384');
    expect(view(game, game.play(picture(game, before), 0))).toEqual(noCapture);
  });
});

describe('game end and the sweep (DESIGN §4: "either row empty"; a free turn earned by that move is void)', () => {
  it('a move that empties the mover\'s row and lands in its store ends the game: the free turn is void', () => {
    const game = profileGame('kalah');
    const s = picture(game, { top: [1, 2, 0, 0, 0, 3], bottom: [0, 0, 0, 0, 0, 1], topStore: 22, bottomStore: 20, toMove: 0 });
    const after = game.play(s, 5);
    expect(game.isOver(after)).toBe(true);
    expect(game.legalMoves(after)).toEqual([]);
    expect(() => game.play(after, 0)).toThrow(RangeError);
    // The stores as they stand: 21 and 22; the sweep gives the top its 6 stones on the board.
    expect([game.store(after, 0), game.store(after, 1)]).toEqual([21, 22]);
    expect([game.finalStore(after, 0), game.finalStore(after, 1)]).toEqual([21, 28]);
    expect(game.score(after, 0)).toBe(-7);
    expect(game.score(after, 1)).toBe(7);
    const swept = game.swept(after);
    expect(view(game, swept)).toEqual({ top: [0, 0, 0, 0, 0, 0], bottom: [0, 0, 0, 0, 0, 0], topStore: 28, bottomStore: 21, toMove: 'over' });
    expect(game.store(after, 1)).toBe(22); // swept() is a copy
  });

  it("a capture that empties the opponent's row ends the game; each row is swept to its owner", () => {
    const game = profileGame('kalah');
    const s = picture(game, { top: [0, 3, 0, 0, 0, 0], bottom: [1, 0, 0, 0, 0, 2], topStore: 12, bottomStore: 10, toMove: 0 });
    const after = game.play(s, 0);
    expect(view(game, after)).toEqual({ top: [0, 0, 0, 0, 0, 0], bottom: [0, 0, 0, 0, 0, 2], topStore: 12, bottomStore: 14, toMove: 'over' });
    expect([game.finalStore(after, 0), game.finalStore(after, 1)]).toEqual([16, 12]);
    expect(game.score(after, 0)).toBe(4);
    expect(view(game, game.swept(after))).toEqual({ top: [0, 0, 0, 0, 0, 0], bottom: [0, 0, 0, 0, 0, 0], topStore: 12, bottomStore: 16, toMove: 'over' });
  });

  it('gameEnd decides whether emptying the mover\'s own row ends the game', () => {
    const s: Picture = { top: [1, 1, 1, 1, 1, 1], bottom: [0, 0, 0, 0, 0, 2], topStore: 0, bottomStore: 0, toMove: 0 };
    // B5's 2 stones: one to the store, one to the top's rightmost pit. The bottom row is empty.
    const either = profileGame('kalah');
    expect(game0(either, s)).toEqual({ over: true, score: 1 - 7 });
    // "when the player to move has no move" (seed 000's prose): the top still has stones and moves.
    const moverCannot = profileGame('kalah', 6, { gameEnd: 'mover-cannot-move' });
    expect(game0(moverCannot, s)).toEqual({ over: false, score: 1 - 0 });

    function game0(game: MancalaGame, p: Picture) {
      const after = game.play(picture(game, p), 5);
      return { over: game.isOver(after), score: game.score(after, 0) };
    }
  });
});

describe('seed 001 (csc384): the worked examples, on boards we chose (the figures are missing)', () => {
  // Seed 001 names pockets B0..B5 and T0..T5 left to right as the bottom player sees them. Its
  // figures are missing from the text, so each board below is one we built to fit the prose: the
  // pocket and stone count the text names, the rest of the board arbitrary but not interfering
  // (no accidental capture, no row emptied).
  it('"taking the six stones from B4 and depositing them counterclockwise" puts one in the store', () => {
    const game = profileGame('csc384');
    const s = picture(game, { top: [4, 4, 4, 4, 4, 4], bottom: [4, 4, 4, 4, 6, 4], topStore: 0, bottomStore: 0, toMove: 0 });
    expect(game.moveName(s, 4)).toBe('B4');
    // B5, the store, then the top row right to left: T5, T4, T3, T2.
    expect(view(game, game.play(s, 4))).toEqual({ top: [4, 4, 5, 5, 5, 5], bottom: [4, 4, 4, 4, 0, 5], topStore: 0, bottomStore: 1, toMove: 1 });
  });

  it('"the bottom player takes eight stones in B5 ... skipping the top player\'s store"', () => {
    const game = profileGame('csc384');
    // B0 holds 2 so that the last stone, which lands there, does not capture.
    const s = picture(game, { top: [4, 4, 4, 4, 4, 4], bottom: [2, 4, 4, 4, 4, 8], topStore: 3, bottomStore: 0, toMove: 0 });
    expect(game.moveName(s, 5)).toBe('B5');
    // The store, T5..T0, the top's store skipped, then B0.
    expect(view(game, game.play(s, 5))).toEqual({ top: [5, 5, 5, 5, 5, 5], bottom: [3, 4, 4, 4, 4, 0], topStore: 3, bottomStore: 1, toMove: 1 });
  });

  it('"took the four stones in B0 ... captured the six stones in T1. After this move, the bottom player\'s store has eight stones"', () => {
    const game = profileGame('csc384');
    /*
     * Four stones from B0 land in B1..B4, so the capture happens at B4 (empty before) and takes
     * the top pocket across it: position 4 from the left as the bottom player sees the board. The
     * text calls it "T1": it counts the top row from the top player's own left (the top's sowing
     * index 1), as our 'bt' names do. (Seed 001's board file and code index pockets[TOP][i] left
     * to right, facing pockets[BOTTOM][i]: there it is index 4.) That pocket holds the 6. The store
     * goes to 8, so it held 2 before (this rule leaves the last stone in B4).
     * The top store is 1, which also makes this the state of seed 001's heuristic example
     * ("8 - 1 = 7"; its figure is missing too).
     */
    const s = picture(game, { top: [1, 2, 3, 1, 6, 2], bottom: [4, 1, 1, 1, 0, 3], topStore: 1, bottomStore: 2, toMove: 0 });
    expect(game.moveName(s, 0)).toBe('B0');
    const after = game.play(s, 0);
    expect(view(game, after)).toEqual({ top: [1, 2, 3, 1, 0, 2], bottom: [0, 2, 2, 2, 1, 3], topStore: 1, bottomStore: 8, toMove: 1 });
    expect(game.pitName(1, 1)).toBe('T1'); // the top pocket across B4 is the one the text names
    expect(basic.evaluate(after, 0, game)).toBe(7);
    expect(basic.evaluate(after, 1, game)).toBe(-7);
  });

  it('"Our version of Mancala removes this rule": a last stone in the store passes the turn', () => {
    const game = profileGame('csc384');
    const s = picture(game, { top: [4, 4, 4, 4, 4, 4], bottom: [4, 4, 4, 4, 4, 1], topStore: 0, bottomStore: 0, toMove: 0 });
    expect(view(game, game.play(s, 5))).toEqual({ top: [4, 4, 4, 4, 4, 4], bottom: [4, 4, 4, 4, 4, 0], topStore: 0, bottomStore: 1, toMove: 1 });
  });
});

/*
 * Seed 000's sample (task 2, player 1, depth 2, a 2×3 board) has its figure missing. Its traverse
 * log constrains the board but does not determine it: replaying the log under the official rules,
 * 108 boards with at most 4 stones a pit and stores of 0 or 1 fit it (the 2×3 start position, 3 a pit,
 * among them). With no way to tell which one the figure showed, we use an official graded case
 * instead: testInput_1.txt (Greedy) with its expected next_state_1.txt, read at test time.
 */
const officialDir = CSCI561_OFFICIAL_DIR;
const officialInput = `${officialDir}/testInput_1.txt`;
const officialExpected = `${officialDir}/next_state_1.txt`;
const officialPresent = existsSync(officialInput) && existsSync(officialExpected);
if (!officialPresent) console.warn(`golden.test.ts: skipping the csci561 official case: ${officialInput} or ${officialExpected} is missing`);

describe('seed 000 (csci561): official graded case 1, Greedy', () => {
  it.skipIf(!officialPresent)(`testInput_1.txt gives next_state_1.txt (skipped when ${officialDir} is missing)`, () => {
    const lines = (file: string) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .map((l) => l.trim())
        .filter((l) => l !== '');
    const numbers = (l: string) => l.split(/\s+/).map(Number);
    // Seed 000's input: task, player (1 = bottom), depth, player 2's row (A2..), player 1's row
    // (B2..), both left to right, then player 2's mancala, then player 1's.
    const [task, player, , topLine, bottomLine, topStore, bottomStore] = lines(officialInput);
    expect(task).toBe('1'); // Greedy: minimax at cut-off depth 1; the input's depth is ignored
    const top = numbers(topLine!);
    const game = profileGame('csci561', top.length);
    let s = picture(game, { top, bottom: numbers(bottomLine!), topStore: Number(topStore), bottomStore: Number(bottomStore), toMove: player === '1' ? 0 : 1 });

    // next_state applies the chosen move and then the agent's whole chain of free-turn moves
    // (the official README); each link is the greedy choice from the position it reaches.
    const agent = game.toMove(s);
    const search = PROFILES.csci561!.search;
    do {
      const result = minimax({ game, heuristic: basic, depth: 1, unit: search.depthUnit, terminal: search.terminal }, s);
      s = game.play(s, result.move);
    } while (!game.isOver(s) && game.toMove(s) === agent);

    const out = view(game, game.swept(s));
    const printed = [out.top.join(' '), out.bottom.join(' '), String(out.topStore), String(out.bottomStore)];
    expect(printed).toEqual(lines(officialExpected));
  });
});
