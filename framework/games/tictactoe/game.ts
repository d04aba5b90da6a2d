/**
 * Tic-Tac-Toe through the same Game contract as Mancala, so every reference search runs on it
 * unchanged (seed 002 has students test alpha-beta on it before Mancala).
 *
 * Conventions, as seed 002's TTTBoard numbers them:
 *  - cells 0..8 row-major, 0 top-left; a move is the cell it fills and is named by its number
 *    ("0".."8"); legal moves come in ascending cell order (the search and tie-break order);
 *  - X moves first: player 0 = X, player 1 = O;
 *  - `score(s, p)` is +1 when p has a line, -1 when the opponent has one, 0 for a draw and for
 *    an unfinished game;
 *  - an empty cell is drawn with its number, as seed 002's board printout does ("XX2 / OO5 / 678").
 *
 * A state's `cells` are 12 bytes:
 *   0 .. 8   the board: 0 empty, 1 X, 2 O
 *   9        player to move (0 = X, 1 = O)
 *   10       cells filled
 *   11       status: 0 in play, 1 X has a line, 2 O has a line, 3 draw
 * `words` views the same bytes as three 32-bit words, so copying a state is three stores.
 */
import { SearchCounters, type Game, type Player } from '../../contracts/game.ts';

const STATE_BYTES = 12;
const STATE_WORDS = STATE_BYTES / 4;
const TO_MOVE = 9;
const FILLED = 10;
const STATUS = 11;

const IN_PLAY = 0;
const DRAW = 3;
/** Status for "player p has a line" is p + 1, the same number as p's mark on the board. */
const markOf = (p: Player): number => p + 1;

export class TicTacToeState {
  readonly cells: Uint8Array;
  readonly words: Int32Array;
  constructor(buffer: ArrayBuffer = new ArrayBuffer(STATE_BYTES), byteOffset = 0) {
    this.cells = new Uint8Array(buffer, byteOffset, STATE_BYTES);
    this.words = new Int32Array(buffer, byteOffset, STATE_WORDS);
  }
}

/** The eight lines: rows, columns, diagonals. */
export const LINES: readonly (readonly [number, number, number])[] = [
  [0, 1, 2],
  [3, 4, 5],
  [6, 7, 8],
  [0, 3, 6],
  [1, 4, 7],
  [2, 5, 8],
  [0, 4, 8],
  [2, 4, 6],
];

/** For each cell, the other two cells of every line through it, flattened: a move checks only these. */
const LINES_THROUGH: readonly Int8Array[] = Array.from({ length: 9 }, (_, cell) => {
  const others: number[] = [];
  for (const line of LINES) if (line.includes(cell)) others.push(...line.filter((c) => c !== cell));
  return Int8Array.from(others);
});

const MARK_CHAR = ['_', 'X', 'O'] as const;
const PLAYER_NAME = ['X', 'O'] as const;

/** True when `mark` fills some line of the board. */
function hasLine(c: Uint8Array, mark: number): boolean {
  for (const [a, b, d] of LINES) if (c[a] === mark && c[b] === mark && c[d] === mark) return true;
  return false;
}

export class TicTacToeGame implements Game<TicTacToeState> {
  readonly kind = 'tictactoe';
  readonly name = 'tictactoe';
  readonly maxMoves = 9;
  readonly counters = new SearchCounters();

  fork(): TicTacToeGame {
    return new TicTacToeGame();
  }

  // ---- states ------------------------------------------------------------------------------

  /** A blank state is the empty board with X to move. */
  newState(): TicTacToeState {
    return new TicTacToeState();
  }

  /** One buffer for all of them, so a search stack sits in a few cache lines. */
  newStates(count: number): TicTacToeState[] {
    const buffer = new ArrayBuffer(STATE_BYTES * count);
    return Array.from({ length: count }, (_, k) => new TicTacToeState(buffer, k * STATE_BYTES));
  }

  initial(): TicTacToeState {
    return this.newState();
  }

  copyInto(from: TicTacToeState, to: TicTacToeState): void {
    const f = from.words;
    const t = to.words;
    t[0] = f[0]!;
    t[1] = f[1]!;
    t[2] = f[2]!;
  }

  clone(s: TicTacToeState): TicTacToeState {
    const t = this.newState();
    this.copyInto(s, t);
    return t;
  }

  /**
   * A position from rows, e.g. `fromString('XX_/OO_/___')`. Rows are separated by '/' or white
   * space (or the nine cells are given in one run); a cell is X, O (either case) or empty: '_',
   * '.', '-' or its own number, so seed 002's printout "XX2 OO5 678" reads as it is.
   * The player to move follows from the counts (X moves first); if `toMove` is given it must agree.
   * Throws RangeError, naming what is wrong, for a malformed text or a position no game reaches.
   */
  fromString(text: string, toMove?: Player | 'X' | 'O'): TicTacToeState {
    const rows = text.trim().split(/[\s/]+/);
    const flat = rows.length === 1 ? rows[0]! : rows.every((r) => r.length === 3) && rows.length === 3 ? rows.join('') : '';
    if (flat.length !== 9) {
      throw new RangeError(`expected a board of 3 rows of 3 cells like 'XX_/OO_/___', got '${text}'`);
    }
    const s = this.newState();
    const c = s.cells;
    let xs = 0;
    let os = 0;
    for (let i = 0; i < 9; i++) {
      const ch = flat[i]!;
      if (ch === 'X' || ch === 'x') {
        c[i] = 1;
        xs++;
      } else if (ch === 'O' || ch === 'o') {
        c[i] = 2;
        os++;
      } else if (ch !== '_' && ch !== '.' && ch !== '-' && ch !== String(i)) {
        throw new RangeError(`cell ${i} of '${text}' is '${ch}': expected X, O, or an empty mark ('_', '.', '-' or ${i})`);
      }
    }
    // X moves first, so a reachable board has as many X as O (X to move) or one X more (O to move).
    if (xs !== os && xs !== os + 1) {
      throw new RangeError(`impossible board '${text}': ${xs} X and ${os} O, but X moves first, so X must have as many marks as O or one more`);
    }
    const xWon = hasLine(c, 1);
    const oWon = hasLine(c, 2);
    if (xWon && oWon) throw new RangeError(`impossible board '${text}': both X and O have a line`);
    // The winner made the last move: after X's winning move X has one mark more, after O's the counts are equal.
    if (xWon && xs !== os + 1) throw new RangeError(`impossible board '${text}': X has a line, yet O moved after it`);
    if (oWon && xs !== os) throw new RangeError(`impossible board '${text}': O has a line, yet X moved after it`);
    // Two lines of one player on a 3×3 board always share a cell (parallel lines need too many marks),
    // so one move could have completed them both: no further check is needed.
    const mover: Player = xs === os ? 0 : 1;
    if (toMove !== undefined) {
      const asked: Player = toMove === 'X' ? 0 : toMove === 'O' ? 1 : toMove;
      if (asked !== mover) {
        throw new RangeError(
          `impossible board '${text}' with ${PLAYER_NAME[asked]} to move: with ${xs} X and ${os} O it is ${PLAYER_NAME[mover]}'s turn (X moves first)`,
        );
      }
    }
    c[TO_MOVE] = mover;
    c[FILLED] = xs + os;
    c[STATUS] = xWon ? 1 : oWon ? 2 : xs + os === 9 ? DRAW : IN_PLAY;
    return s;
  }

  /** The board in `fromString`'s form, e.g. 'XX_/OO_/___'. */
  toBoardString(s: TicTacToeState): string {
    const c = s.cells;
    let out = '';
    for (let i = 0; i < 9; i++) {
      if (i > 0 && i % 3 === 0) out += '/';
      out += MARK_CHAR[c[i]!];
    }
    return out;
  }

  // ---- accessors ---------------------------------------------------------------------------

  toMove(s: TicTacToeState): Player {
    return s.cells[TO_MOVE] as Player;
  }

  isOver(s: TicTacToeState): boolean {
    return s.cells[STATUS] !== IN_PLAY;
  }

  /** Who holds cell i: 0 (X), 1 (O), or null when it is empty. */
  cell(s: TicTacToeState, i: number): Player | null {
    const m = s.cells[i]!;
    return m === 0 ? null : ((m - 1) as Player);
  }

  /** The player with a line, or null (game in play or drawn). */
  winner(s: TicTacToeState): Player | null {
    const st = s.cells[STATUS]!;
    return st === 1 ? 0 : st === 2 ? 1 : null;
  }

  score(s: TicTacToeState, p: Player): number {
    const st = s.cells[STATUS]!;
    if (st === IN_PLAY || st === DRAW) return 0;
    return st === markOf(p) ? 1 : -1;
  }

  // ---- moves -------------------------------------------------------------------------------

  legalMovesInto(s: TicTacToeState, out: Int32Array): number {
    const c = s.cells;
    if (c[STATUS] !== IN_PLAY) return 0;
    let count = 0;
    for (let i = 0; i < 9; i++) if (c[i] === 0) out[count++] = i;
    return count;
  }

  moveAt(s: TicTacToeState, k: number): number {
    return s.cells[k] === 0 ? k : -1;
  }

  legalMoves(s: TicTacToeState): number[] {
    const buf = new Int32Array(9);
    return Array.from(buf.subarray(0, this.legalMovesInto(s, buf)));
  }

  isLegal(s: TicTacToeState, move: number): boolean {
    return Number.isInteger(move) && move >= 0 && move < 9 && !this.isOver(s) && s.cells[move] === 0;
  }

  play(s: TicTacToeState, move: number): TicTacToeState {
    if (!this.isLegal(s, move)) {
      const why = this.isOver(s) ? 'the game is over' : Number.isInteger(move) && move >= 0 && move < 9 ? `cell ${move} is taken` : 'cells are 0..8';
      throw new RangeError(`illegal move ${move} for ${PLAYER_NAME[this.toMove(s)]} in ${this.toBoardString(s)}: ${why}`);
    }
    const out = this.newState();
    this.playInto(s, move, out);
    return out;
  }

  /** The hot path: mark `move` for the player to move into `out`; only the lines through it can be new. */
  playInto(s: TicTacToeState, move: number, out: TicTacToeState): void {
    this.counters.plays++;
    const f = s.words;
    const t = out.words;
    t[0] = f[0]!;
    t[1] = f[1]!;
    t[2] = f[2]!;
    const c = out.cells;
    const mover = c[TO_MOVE]!;
    const mark = mover + 1;
    c[move] = mark;
    const filled = c[FILLED]! + 1;
    c[FILLED] = filled;
    c[TO_MOVE] = mover ^ 1;
    const others = LINES_THROUGH[move]!;
    let status = filled === 9 ? DRAW : IN_PLAY;
    for (let k = 0; k < others.length; k += 2) {
      if (c[others[k]!] === mark && c[others[k + 1]!] === mark) {
        status = mark;
        break;
      }
    }
    c[STATUS] = status;
  }

  key(s: TicTacToeState): string {
    // The board and the player to move, one character each: 'XX_OO____X'.
    const c = s.cells;
    let k = '';
    for (let i = 0; i < 9; i++) k += MARK_CHAR[c[i]!];
    return k + PLAYER_NAME[c[TO_MOVE]!];
  }

  // ---- names -------------------------------------------------------------------------------

  moveName(_s: TicTacToeState, move: number): string {
    return String(move);
  }

  /** A cell number 0..8 (surrounding spaces allowed); whether the cell is free is `isLegal`'s business. */
  parseMove(_s: TicTacToeState, text: string): number | undefined {
    const t = text.trim();
    return /^[0-8]$/.test(t) ? Number(t) : undefined;
  }

  // ---- rendering ---------------------------------------------------------------------------

  /**
   * The grid with each empty cell showing its number (the move that fills it), then the status:
   *
   *      X | X | 2
   *     ---+---+---
   *      O | O | 5
   *     ---+---+---
   *      6 | 7 | 8
   *     X to move
   */
  render(s: TicTacToeState): string {
    const c = s.cells;
    const row = (r: number) =>
      [0, 1, 2]
        .map((k) => {
          const i = 3 * r + k;
          return ` ${c[i] === 0 ? String(i) : MARK_CHAR[c[i]!]} `;
        })
        .join('|');
    const st = c[STATUS]!;
    const status = st === IN_PLAY ? `${PLAYER_NAME[c[TO_MOVE]!]} to move` : st === DRAW ? 'draw' : `${MARK_CHAR[st]} wins`;
    return [row(0), '---+---+---', row(1), '---+---+---', row(2), status].join('\n');
  }
}
