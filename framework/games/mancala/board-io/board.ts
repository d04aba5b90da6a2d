/**
 * The board as files describe it, and its conversion to and from the engine's state.
 *
 * Every file format writes the board the way people look at it: two rows, each left to right as
 * the bottom player sees the board, so `top[i]` sits opposite `bottom[i]`. The engine keeps each
 * row in its owner's sowing order instead, and the top player sows right to left; this module is
 * the one place that turns one into the other (the top row is reversed, the bottom row is not).
 *
 * The text readers share `TextLines` and `parseRow` below, so every format reports a mistake the
 * same way: one line, "file:line: expected …, got …".
 */
import type { Player } from '../../../contracts/game.ts';
import { located, UserError } from '../../../errors.ts';
import { MAX_TOTAL_STONES, type MancalaGame, type MancalaState } from '../engine.ts';
import { LIMITS } from '../rules.ts';

export type BoardFormat = 'json' | 'csc384' | 'csci561';

export const BOARD_FORMATS: readonly BoardFormat[] = ['json', 'csc384', 'csci561'];

export interface BoardSpec {
  /** the top player's pits, left to right as the bottom player sees the board */
  top: number[];
  /** the bottom player's pits, left to right (the bottom player's sowing order) */
  bottom: number[];
  topStore: number;
  bottomStore: number;
  /** 0 bottom, 1 top; undefined when the format does not say (csc384, csci561 next_state) */
  toMove?: Player;
  /** the rules profile a JSON board names, if any */
  profile?: string;
  /** the extra lines of a csci561 input file */
  csci561?: { task: 1 | 2 | 3 | 4; depth: number };
}

/**
 * The state for `board` in `game`. An explicit `toMove` wins over the board's own; a board that
 * does not say who moves starts with the bottom player, who moves first in every course.
 * `fileName` (when the board came from a file) names it in the error.
 */
export function boardToState(game: MancalaGame, board: BoardSpec, toMove?: Player, fileName = 'board'): MancalaState {
  if (board.top.length !== game.n || board.bottom.length !== game.n) {
    const got = board.top.length === board.bottom.length ? `${board.top.length}` : `${board.top.length} (top) and ${board.bottom.length} (bottom)`;
    throw new UserError(`${fileName}: expected ${game.n} pits a side (the game's size), got ${got}`);
  }
  try {
    return game.fromRows(board.bottom, [...board.top].reverse(), board.bottomStore, board.topStore, toMove ?? board.toMove ?? 0);
  } catch (e) {
    // fromRows checks counts and the stone total; a BoardSpec built by hand may break either.
    if (e instanceof RangeError) throw new UserError(`${fileName}: ${e.message}`);
    throw e;
  }
}

/** The board of `state`, rows left to right as the bottom player sees them (no sweep applied). */
export function stateToBoard(game: MancalaGame, state: MancalaState): BoardSpec {
  const n = game.n;
  return {
    top: Array.from({ length: n }, (_, pos) => game.pit(state, 1, n - 1 - pos)),
    bottom: game.row(state, 0),
    topStore: game.store(state, 1),
    bottomStore: game.store(state, 0),
    toMove: game.toMove(state),
  };
}

// ---- shared by the text readers ---------------------------------------------------------------

/** A line's text as an error quotes it: JSON-quoted (so spaces and tabs show), cut short. */
export function quote(text: string): string {
  const max = 40;
  return JSON.stringify(text.length > max ? `${text.slice(0, max)}…` : text);
}

/**
 * The lines of a text file, trimmed; CRLF, CR and a leading byte-order mark are tolerated, and
 * blank lines at the end do not count (editors add them).
 */
export class TextLines {
  readonly lines: string[];
  /** lines up to the last non-blank one */
  readonly count: number;

  constructor(
    text: string,
    readonly fileName: string,
  ) {
    this.lines = text.replace(/^\uFEFF/, '').split(/\r\n|\r|\n/).map((l) => l.trim());
    let count = this.lines.length;
    while (count > 0 && this.lines[count - 1] === '') count--;
    this.count = count;
  }

  /** The text of line `k` (1-based); `what` says what the line should hold when it is missing. */
  line(k: number, what: string): string {
    if (k > this.count) {
      const end = this.count === 0 ? 'the file is empty' : `the file ends after line ${this.count}`;
      throw located(this.fileName, k, `expected ${what} on line ${k}, but ${end}`);
    }
    return this.lines[k - 1]!;
  }

  /** Throws on the first non-blank line after line `last`. */
  expectEnd(last: number): void {
    if (this.count <= last) return;
    let k = last + 1;
    while (this.lines[k - 1] === '') k++;
    throw located(this.fileName, k, `expected the end of the file after line ${last}, got ${quote(this.lines[k - 1]!)}`);
  }

  error(k: number, message: string): UserError {
    return located(this.fileName, k, message);
  }
}

/** A whole number written in decimal digits, or undefined. */
export function wholeNumber(token: string): number | undefined {
  return /^\d+$/.test(token) ? Number(token) : undefined;
}

export interface RowSyntax {
  /** splits the line into tokens */
  separator: RegExp;
  /** what the format calls a pit: "pits" (csci561) or "pockets" (csc384) */
  unit: string;
  /** how the expected form is described: "separated by spaces" */
  separatedBy: string;
  /** what the row is: "the top row (player 2's pits)" */
  what: string;
  /** the name of the pit at left-to-right position `pos`, for messages */
  pitName: (pos: number) => string;
  /** the length the row must have (the first row's), and how to say where it comes from */
  sameAs?: { length: number; source: string };
}

/** A row of pit counts: whole numbers, 1..20 of them, each 0..1000. */
export function parseRow(lines: TextLines, k: number, syntax: RowSyntax): number[] {
  const text = lines.line(k, syntax.what);
  const tokens = text === '' ? [] : text.split(syntax.separator).map((t) => t.trim());
  if (tokens.length === 0 || tokens.some((t) => !/^-?\d+$/.test(t))) {
    throw lines.error(k, `expected ${syntax.what} as whole numbers ${syntax.separatedBy}, got ${quote(text)}`);
  }
  if (syntax.sameAs && tokens.length !== syntax.sameAs.length) {
    throw lines.error(k, `expected ${syntax.sameAs.length} ${syntax.unit} (as many as ${syntax.sameAs.source}), got ${tokens.length}`);
  }
  if (tokens.length < LIMITS.minPits || tokens.length > LIMITS.maxPits) {
    throw lines.error(k, `expected ${LIMITS.minPits} to ${LIMITS.maxPits} ${syntax.unit} a row, got ${tokens.length}`);
  }
  const row = tokens.map((t) => Number(t) || 0); // "-0" reads as 0, not as JavaScript's -0
  row.forEach((v, pos) => {
    if (v < 0) throw lines.error(k, `expected stone counts ≥ 0, got ${tokens[pos]} (${syntax.pitName(pos)})`);
    if (v > MAX_TOTAL_STONES) throw lines.error(k, `expected at most ${MAX_TOTAL_STONES} stones a ${syntax.unit.replace(/s$/, '')}, got ${tokens[pos]} (${syntax.pitName(pos)})`);
  });
  return row;
}

/** A store: one whole number ≥ 0 on its own line. */
export function parseStore(lines: TextLines, k: number, what: string): number {
  const text = lines.line(k, what);
  const v = wholeNumber(text);
  if (v === undefined) throw lines.error(k, `expected ${what} as a whole number ≥ 0, got ${quote(text)}`);
  return v;
}

/** The engine's limit on the stones of a whole board, checked once every count is read. */
export function checkTotal(board: BoardSpec, fileName: string): void {
  const total = [...board.top, ...board.bottom, board.topStore, board.bottomStore].reduce((a, b) => a + b, 0);
  if (total > MAX_TOTAL_STONES) throw new UserError(`${fileName}: expected at most ${MAX_TOTAL_STONES} stones on the board, got ${total}`);
}
