import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { TicTacToeGame, type TicTacToeState } from './game.ts';
import type { Player } from '../../contracts/game.ts';
import basic from '../../../agents/heuristics/basic.ts';
import { minimax } from '../../../agents/reference/minimax.ts';
import { alphaBeta } from '../../../agents/reference/alphabeta.ts';
import type { SearchParams } from '../../../agents/reference/search-stack.ts';

const game = new TicTacToeGame();

/** Full-depth search to the end of the game, as seed 002's "ply = 9" perfect player. */
const fullDepth = (g: TicTacToeGame, caching = false): SearchParams<TicTacToeState> => ({
  game: g,
  heuristic: basic,
  depth: null,
  unit: 'move',
  terminal: 'score',
  caching,
});

// An oracle written apart from the engine: the board as 9 characters and the 8 lines spelled out.
const ORACLE_LINES = ['012', '345', '678', '036', '147', '258', '048', '246'].map((l) => [...l].map(Number));
const marks = (s: TicTacToeState) => game.toBoardString(s).replaceAll('/', '');
const lineOf = (board: string, ch: 'X' | 'O') => ORACLE_LINES.some((l) => l.every((i) => board[i] === ch));
const countOf = (board: string, ch: string) => [...board].filter((c) => c === ch).length;

/** Plays `choices` (each taken modulo the number of legal moves) from the empty board; returns every state passed. */
function playout(choices: number[]): TicTacToeState[] {
  const states = [game.initial()];
  for (const choice of choices) {
    const s = states[states.length - 1]!;
    const moves = game.legalMoves(s);
    if (moves.length === 0) break;
    states.push(game.play(s, moves[choice % moves.length]!));
  }
  return states;
}

const choicesArb = fc.array(fc.nat({ max: 1000 }), { minLength: 0, maxLength: 9 });

describe('Tic-Tac-Toe under the reference searches', () => {
  it('minimax from the empty board: a draw, visiting every node of the full game tree', () => {
    const g = game.fork();
    const r = minimax(fullDepth(g), g.initial());
    expect(r.value).toBe(0);
    // Every opening draws under perfect play and ties go to the first best move: cell 0.
    expect(r.move).toBe(0);
    // 549,946: the number of nodes of the complete Tic-Tac-Toe game tree, the empty root included
    // (a well-known figure; 255,168 of them are finished games). Plain minimax visits each once.
    expect(r.nodes).toBe(549_946);
    expect(r.leaves).toBe(255_168);
    // The instrumented game counts the same positions (plays + the root).
    expect(g.counters.nodes).toBe(549_946);
  });

  it('alpha-beta agrees on move and value and visits strictly fewer nodes', () => {
    const plain = minimax(fullDepth(game.fork()), game.initial());
    const ab = alphaBeta(fullDepth(game.fork()), game.initial());
    expect(ab.value).toBe(plain.value);
    expect(ab.move).toBe(plain.move);
    expect(ab.nodes).toBeLessThan(plain.nodes);
  });

  it('caching keeps move and value and visits fewer nodes, for both searches', () => {
    for (const search of [minimax, alphaBeta]) {
      const plain = search(fullDepth(game.fork()), game.initial());
      const cached = search(fullDepth(game.fork(), true), game.initial());
      expect(cached.value).toBe(plain.value);
      expect(cached.move).toBe(plain.move);
      expect(cached.nodes).toBeLessThan(plain.nodes);
    }
  });

  it('a side that can win in one takes it, even when another move comes first in order', () => {
    // O to move; X threatens cell 2, O completes the middle row at 5 (legal moves: 2, 5, 7, 8).
    const s = game.fromString('XX_/OO_/X__');
    expect(game.toMove(s)).toBe(1);
    for (const search of [minimax, alphaBeta]) {
      const r = search(fullDepth(game.fork()), s);
      expect(r.move).toBe(5);
      expect(r.value).toBe(1);
    }
    const after = game.play(s, 5);
    expect(game.winner(after)).toBe(1);
    expect(game.score(after, 1)).toBe(1);
    expect(game.score(after, 0)).toBe(-1);
  });

  it('a side that cannot stop a fork loses (value -1 for it)', () => {
    // X on 0, 2, 8 and O on 4, 6, O to move: X threatens 1 (top row) and 5 (right column), O has no
    // win in one (its diagonal 2-4-6 is blocked), so O can block only one threat.
    const s = game.fromString('X_X/_O_/O_X');
    expect(game.toMove(s)).toBe(1);
    for (const search of [minimax, alphaBeta]) expect(search(fullDepth(game.fork()), s).value).toBe(-1);
  });
});

describe('Tic-Tac-Toe rules, properties', () => {
  it('random legal play never reaches an illegal state', () => {
    fc.assert(
      fc.property(choicesArb, (choices) => {
        for (const s of playout(choices)) {
          const board = marks(s);
          const xs = countOf(board, 'X');
          const os = countOf(board, 'O');
          expect(xs + os + countOf(board, '_')).toBe(9);
          expect(game.toMove(s)).toBe(xs === os ? 0 : 1);
          expect(lineOf(board, 'X') && lineOf(board, 'O')).toBe(false);
          // fromString rejects every impossible board: a reached one must read back to the same position.
          expect(game.key(game.fromString(game.toBoardString(s)))).toBe(game.key(s));
        }
      }),
      { seed: 2002, numRuns: 300 },
    );
  });

  it('the counts of X and O differ by at most one (X never behind)', () => {
    fc.assert(
      fc.property(choicesArb, (choices) => {
        for (const s of playout(choices)) {
          const board = marks(s);
          const diff = countOf(board, 'X') - countOf(board, 'O');
          expect(diff === 0 || diff === 1).toBe(true);
        }
      }),
      { seed: 2003, numRuns: 300 },
    );
  });

  it('play never mutates its input', () => {
    fc.assert(
      fc.property(choicesArb, fc.nat({ max: 8 }), (choices, pick) => {
        const states = playout(choices);
        const s = states[states.length - 1]!;
        const moves = game.legalMoves(s);
        fc.pre(moves.length > 0);
        const before = Uint8Array.from(s.cells);
        game.play(s, moves[pick % moves.length]!);
        expect(Array.from(s.cells)).toEqual(Array.from(before));
      }),
      { seed: 2004, numRuns: 300 },
    );
  });

  it('playInto agrees with play, into a buffer that held another position, and counts like play', () => {
    fc.assert(
      fc.property(choicesArb, choicesArb, fc.nat({ max: 8 }), (choices, dirtyChoices, pick) => {
        const states = playout(choices);
        const s = states[states.length - 1]!;
        const moves = game.legalMoves(s);
        fc.pre(moves.length > 0);
        const m = moves[pick % moves.length]!;
        const dirty = playout(dirtyChoices);
        const buffer = game.newStates(2)[1]!;
        game.copyInto(dirty[dirty.length - 1]!, buffer);
        const g = game.fork();
        const viaPlay = g.play(s, m);
        expect(g.counters.plays).toBe(1);
        g.playInto(s, m, buffer);
        expect(g.counters.plays).toBe(2);
        expect(Array.from(buffer.cells)).toEqual(Array.from(viaPlay.cells));
        expect(game.key(buffer)).toBe(game.key(viaPlay));
      }),
      { seed: 2005, numRuns: 300 },
    );
  });

  it('the game is over exactly when a line is complete or the board is full', () => {
    fc.assert(
      fc.property(choicesArb, (choices) => {
        for (const s of playout(choices)) {
          const board = marks(s);
          const xLine = lineOf(board, 'X');
          const oLine = lineOf(board, 'O');
          const full = !board.includes('_');
          expect(game.isOver(s)).toBe(xLine || oLine || full);
          expect(game.legalMoves(s).length === 0).toBe(game.isOver(s));
          expect(game.winner(s)).toBe(xLine ? 0 : oLine ? 1 : null);
          for (const p of [0, 1] as Player[]) {
            const won = p === 0 ? xLine : oLine;
            const lost = p === 0 ? oLine : xLine;
            expect(game.score(s, p)).toBe(won ? 1 : lost ? -1 : 0);
          }
        }
      }),
      { seed: 2006, numRuns: 300 },
    );
  });

  it('legalMovesInto lists the empty cells in ascending order', () => {
    fc.assert(
      fc.property(choicesArb, (choices) => {
        for (const s of playout(choices)) {
          const board = marks(s);
          const expected = game.isOver(s) ? [] : [...board].flatMap((ch, i) => (ch === '_' ? [i] : []));
          const out = new Int32Array(game.maxMoves);
          const n = game.legalMovesInto(s, out);
          expect(Array.from(out.subarray(0, n))).toEqual(expected);
          expect(game.legalMoves(s)).toEqual(expected);
        }
      }),
      { seed: 2007, numRuns: 200 },
    );
  });
});

describe('Tic-Tac-Toe states, names and pictures', () => {
  it('starts empty with X to move, and a blank state is that position', () => {
    const s = game.initial();
    expect(game.toBoardString(s)).toBe('___/___/___');
    expect(game.toMove(s)).toBe(0);
    expect(game.isOver(s)).toBe(false);
    expect(game.key(game.newState())).toBe(game.key(s));
    expect(game.kind).toBe('tictactoe');
    expect(game.maxMoves).toBe(9);
  });

  it('key tells apart the board and the player to move, and equal positions share it', () => {
    const a = game.play(game.play(game.initial(), 0), 4);
    const b = game.play(game.play(game.initial(), 0), 4);
    expect(game.key(a)).toBe(game.key(b));
    expect(game.key(a)).toBe('X___O____X');
    expect(game.key(game.play(a, 8))).toBe('X___O___XO');
    expect(game.key(game.play(game.play(game.initial(), 4), 0))).not.toBe(game.key(a));
  });

  it('parseMove and moveName round-trip for every cell', () => {
    const s = game.initial();
    for (let m = 0; m < 9; m++) {
      expect(game.moveName(s, m)).toBe(String(m));
      expect(game.parseMove(s, game.moveName(s, m))).toBe(m);
    }
    expect(game.parseMove(s, ' 4 ')).toBe(4);
    expect(game.parseMove(s, '9')).toBeUndefined();
    expect(game.parseMove(s, '-1')).toBeUndefined();
    expect(game.parseMove(s, '4.5')).toBeUndefined();
    expect(game.parseMove(s, 'B3')).toBeUndefined();
  });

  it('renders the grid with cell numbers in the empty cells, then the status', () => {
    expect(game.render(game.fromString('XX_/OO_/___'))).toBe(
      [' X | X | 2 ', '---+---+---', ' O | O | 5 ', '---+---+---', ' 6 | 7 | 8 ', 'X to move'].join('\n'),
    );
    expect(game.render(game.fromString('XXX/OO_/___')).split('\n').at(-1)).toBe('X wins');
    expect(game.render(game.fromString('XOX/XOO/OXX')).split('\n').at(-1)).toBe('draw');
  });

  it('fromString reads seed 002 printouts and other empty marks, and infers the player to move', () => {
    // Seed 002's TTTBoard prints an empty cell as its number: "XX2 / OO5 / 678".
    const seedStyle = game.fromString('XX2\nOO5\n678');
    expect(game.toBoardString(seedStyle)).toBe('XX_/OO_/___');
    expect(game.key(game.fromString('xx./oo-/___'))).toBe(game.key(seedStyle));
    expect(game.key(game.fromString('XX_OO____'))).toBe(game.key(seedStyle));
    expect(game.toMove(game.fromString('X__/___/___'))).toBe(1);
    expect(game.toMove(game.fromString('X__/___/___', 'O'))).toBe(1);
    expect(game.toMove(game.fromString('XO_/___/___', 0))).toBe(0);
    // Reached by play, the same position.
    const played = [0, 3, 1, 4].reduce((s, m) => game.play(s, m), game.initial());
    expect(game.key(played)).toBe(game.key(seedStyle));
  });

  it('fromString rejects malformed and impossible boards with a RangeError that says why', () => {
    const cases: [string, Player | 'X' | 'O' | undefined, RegExp][] = [
      ['XX_/OO_', undefined, /3 rows of 3 cells/],
      ['XX_/OO_/____', undefined, /3 rows of 3 cells/],
      ['XQ_/OO_/___', undefined, /cell 1 .*'Q'/],
      ['XX3/OO_/___', undefined, /cell 2 .*'3'/],
      ['O__/___/___', undefined, /0 X and 1 O/],
      ['XX_/X__/___', undefined, /3 X and 0 O/],
      ['XXX/OOO/X__', undefined, /both X and O have a line/],
      ['XXX/OO_/O__', undefined, /X has a line, yet O moved after it/],
      ['OOO/XX_/XX_', undefined, /O has a line, yet X moved after it/],
      ['XX_/OO_/___', 'O', /with 2 X and 2 O it is X's turn/],
      ['X__/___/___', 0, /it is O's turn/],
    ];
    for (const [text, toMove, message] of cases) {
      expect(() => game.fromString(text, toMove), text).toThrow(RangeError);
      expect(() => game.fromString(text, toMove), text).toThrow(message);
    }
  });

  it('play rejects illegal moves; fork starts with zeroed counters', () => {
    const s = game.fromString('XX_/OO_/___');
    expect(() => game.play(s, 0)).toThrow(/cell 0 is taken/);
    expect(() => game.play(s, 9)).toThrow(/cells are 0..8/);
    expect(() => game.play(game.fromString('XXX/OO_/___'), 5)).toThrow(/game is over/);
    const g = game.fork();
    g.play(s, 2);
    expect(g.counters.plays).toBe(1);
    const fresh = g.fork();
    expect(fresh).not.toBe(g);
    expect(fresh.counters.plays).toBe(0);
    expect(fresh.counters.evaluations).toBe(0);
  });

  it('copyInto and clone copy the whole position, and newStates hands out independent states', () => {
    const s = game.fromString('XO_/_X_/__O');
    const [a, b] = game.newStates(2);
    game.copyInto(s, a!);
    expect(game.key(a!)).toBe(game.key(s));
    expect(game.key(b!)).toBe(game.key(game.initial()));
    game.playInto(a!, 2, b!);
    expect(game.toBoardString(b!)).toBe('XOX/_X_/__O');
    expect(game.key(a!)).toBe(game.key(s));
    const c = game.clone(s);
    expect(c).not.toBe(s);
    expect(Array.from(c.cells)).toEqual(Array.from(s.cells));
  });
});
