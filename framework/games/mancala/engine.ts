/**
 * The Mancala engine: the hot path of every search, so it is written for speed.
 *
 * A state's `cells` are one flat Int32Array (W = 2N + 2 board cells, then two flags):
 *   0 .. N-1     bottom player's pits, in sowing order (left to right as the bottom player sees them)
 *   N            bottom player's store
 *   N+1 .. 2N    top player's pits, in sowing order (right to left as the bottom player sees them)
 *   2N+1         top player's store
 *   W            player to move (0 = bottom, who moves first; 1 = top)
 *   W+1          1 when the game is over
 * Sowing runs to increasing indices and wraps; the opposite of pit cell i is 2N - i.
 *
 * The end-of-game sweep is not written into the board: a finished position keeps the stones
 * where the last sowing left them, and `score` adds each row to its owner's store. That keeps
 * both evaluations the courses use one call away: after the sweep (`score`, seed 000 and the
 * C baseline) and on the stores as they stand (a heuristic on the state, seed 001).
 */
import { SearchCounters, type Game, type Player } from '../../contracts/game.ts';
import type { MancalaRules } from './rules.ts';
import { compileRules, type LeafValueFunction, type SowFunction } from './sowing.ts';

/**
 * One position. `cells` is the board (layout above); `words` views the same bytes as 64-bit
 * words so that copying a state moves N+2 words instead of 2N+4 cells, several times faster than
 * Int32Array.set on a small board. That copy is exact: every cell holds a count in 0..2^20, so
 * no word's bit pattern is a NaN, the only value a Float64Array store may rewrite.
 */
export class MancalaState {
  readonly cells: Int32Array;
  readonly words: Float64Array;
  /** A state of its own, or the `index`-th of a block of states sharing `buffer` (MancalaGame.newStates). */
  constructor(pits: number, buffer = new ArrayBuffer(stateBytes(pits)), index = 0) {
    const words = pits + 2; // (2N + 4) cells of 4 bytes
    this.cells = new Int32Array(buffer, index * 8 * words, 2 * words);
    this.words = new Float64Array(buffer, index * 8 * words, words);
  }
}

function stateBytes(pits: number): number {
  return 8 * (pits + 2);
}


/** Cells hold counts below 2^20 (see MancalaState); 40,000 is 20 pits a side of 1,000 stones. */
export const MAX_TOTAL_STONES = 40_000;

function rowEmpty(c: Int32Array, from: number, to: number): boolean {
  for (let k = from; k < to; k++) if (c[k] !== 0) return false;
  return true;
}

export class MancalaGame implements Game<MancalaState> {
  readonly kind = 'mancala';
  readonly name: string;
  readonly rules: Readonly<MancalaRules>;
  readonly counters = new SearchCounters();
  /** pits per side */
  readonly n: number;
  /** board cells (2N + 2); the two flags follow */
  readonly w: number;
  readonly maxMoves: number;

  private readonly endEither: boolean;
  /** the move function compiled for these rules (sowing.ts) */
  private readonly sow: SowFunction;
  /** a leaf's value without making the move (Game.playLeaf; sowing.ts) */
  private readonly leafValue: LeafValueFunction;
  /** search order for each player: sowing indices, N for the bottom player then N for the top */
  private readonly order: Int32Array;

  constructor(rules: MancalaRules, name?: string) {
    // A fork passes its parent's frozen rules: kept, so every fork of a game shares one rules object.
    this.rules = Object.isFrozen(rules) ? rules : Object.freeze({ ...rules });
    this.n = rules.pits;
    this.w = 2 * rules.pits + 2;
    this.maxMoves = rules.pits;
    // The caller's rules object: a fork passes its parent's frozen one, whose functions are known.
    const compiled = compileRules(rules);
    this.sow = compiled.sow;
    this.leafValue = compiled.leafValue;
    this.name = name ?? `mancala(${rules.pits},${rules.seeds})`;
    this.endEither = rules.gameEnd === 'either-row-empty';
    const n = rules.pits;
    this.order = new Int32Array(2 * n);
    for (let i = 0; i < n; i++) {
      this.order[i] = i; // bottom: left to right is its sowing order
      // top: sowing index j sits at position N-1-j from the left, so left to right is N-1 .. 0
      this.order[n + i] = rules.moveOrder === 'sowing' ? i : n - 1 - i;
    }
  }

  fork(): MancalaGame {
    return new MancalaGame(this.rules, this.name);
  }

  // ---- states ------------------------------------------------------------------------------

  newState(): MancalaState {
    return new MancalaState(this.n);
  }

  /**
   * `count` states in one buffer: a search's stack of states costs one allocation, not one a level
   * (each ArrayBuffer is memory outside the heap, allocated and swept apart; a match of many short
   * searches spent a third of its time on them, and two threads contended for the allocator).
   */
  newStates(count: number): MancalaState[] {
    const buffer = new ArrayBuffer(count * stateBytes(this.n));
    return Array.from({ length: count }, (_, k) => new MancalaState(this.n, buffer, k));
  }

  initial(): MancalaState {
    const n = this.n;
    const seeds = Array<number>(n).fill(this.rules.seeds);
    return this.fromRows(seeds, seeds, 0, 0, 0);
  }

  /**
   * A state from rows given in sowing order. Throws RangeError on a wrong length or a count
   * that is not a whole number ≥ 0; the board readers turn that into a message naming the file.
   */
  fromRows(bottomPits: readonly number[], topPits: readonly number[], bottomStore: number, topStore: number, toMove: Player): MancalaState {
    const n = this.n;
    if (bottomPits.length !== n || topPits.length !== n) {
      throw new RangeError(`expected ${n} pits a side, got ${bottomPits.length} and ${topPits.length}`);
    }
    const all = [...bottomPits, ...topPits, bottomStore, topStore];
    for (const v of all) {
      if (!Number.isInteger(v) || v < 0) throw new RangeError(`stone counts must be whole numbers ≥ 0, got ${v}`);
    }
    const total = all.reduce((a, b) => a + b, 0);
    if (total > MAX_TOTAL_STONES) throw new RangeError(`at most ${MAX_TOTAL_STONES} stones on a board, got ${total}`);
    const s = this.newState();
    const c = s.cells;
    for (let i = 0; i < n; i++) {
      c[i] = bottomPits[i]!;
      c[n + 1 + i] = topPits[i]!;
    }
    c[n] = bottomStore;
    c[2 * n + 1] = topStore;
    c[this.w] = toMove;
    this.settle(s);
    return s;
  }

  copyInto(from: MancalaState, to: MancalaState): void {
    to.words.set(from.words);
  }

  clone(s: MancalaState): MancalaState {
    const t = this.newState();
    t.words.set(s.words);
    return t;
  }

  /** Recomputes the game-over flag from the board and the player to move. */
  private settle(s: MancalaState): void {
    const c = s.cells;
    const n = this.n;
    const bottomEmpty = rowEmpty(c, 0, n);
    const topEmpty = rowEmpty(c, n + 1, 2 * n + 1);
    const over = this.endEither ? bottomEmpty || topEmpty : c[this.w] === 0 ? bottomEmpty : topEmpty;
    c[this.w + 1] = over ? 1 : 0;
  }

  // ---- accessors ---------------------------------------------------------------------------

  toMove(s: MancalaState): Player {
    return s.cells[this.w] as Player;
  }

  isOver(s: MancalaState): boolean {
    return s.cells[this.w + 1] === 1;
  }

  /** Stones in pit i (sowing index) of player p. */
  pit(s: MancalaState, p: Player, i: number): number {
    return s.cells[p === 0 ? i : this.n + 1 + i]!;
  }

  /** Stones in p's store as they stand (before any end-of-game sweep). */
  store(s: MancalaState, p: Player): number {
    return s.cells[p === 0 ? this.n : 2 * this.n + 1]!;
  }

  /** Stones on p's side of the board. */
  rowSum(s: MancalaState, p: Player): number {
    const base = p === 0 ? 0 : this.n + 1;
    let sum = 0;
    for (let k = 0; k < this.n; k++) sum += s.cells[base + k]!;
    return sum;
  }

  /** p's pits in sowing order. */
  row(s: MancalaState, p: Player): number[] {
    return Array.from({ length: this.n }, (_, i) => this.pit(s, p, i));
  }

  /** p's store after the sweep if the game is over, else as it stands. */
  finalStore(s: MancalaState, p: Player): number {
    return this.isOver(s) ? this.store(s, p) + this.rowSum(s, p) : this.store(s, p);
  }

  /** The board after the end-of-game sweep (a copy; `s` is unchanged). */
  swept(s: MancalaState): MancalaState {
    const t = this.clone(s);
    if (!this.isOver(s)) return t;
    const n = this.n;
    const c = t.cells;
    c[n] = this.finalStore(s, 0);
    c[2 * n + 1] = this.finalStore(s, 1);
    for (let k = 0; k < n; k++) {
      c[k] = 0;
      c[n + 1 + k] = 0;
    }
    return t;
  }

  score(s: MancalaState, p: Player): number {
    const d = this.finalStore(s, 0) - this.finalStore(s, 1);
    return p === 0 ? d : 0 - d; // 0 - d, not -d: a tie is 0 for both players, never -0
  }

  // ---- moves -------------------------------------------------------------------------------

  legalMovesInto(s: MancalaState, out: Int32Array): number {
    const c = s.cells;
    if (c[this.w + 1] === 1) return 0;
    const n = this.n;
    const top = c[this.w] === 1;
    const base = top ? n + 1 : 0;
    const ob = top ? n : 0;
    const order = this.order;
    let count = 0;
    for (let k = 0; k < n; k++) {
      const i = order[ob + k]!;
      if (c[base + i] !== 0) out[count++] = i;
    }
    return count;
  }

  moveAt(s: MancalaState, k: number): number {
    const c = s.cells;
    const top = c[this.w] === 1;
    const i = this.order[top ? this.n + k : k]!;
    return c[top ? this.n + 1 + i : i] !== 0 ? i : -1;
  }

  legalMoves(s: MancalaState): number[] {
    const buf = new Int32Array(this.n);
    return Array.from(buf.subarray(0, this.legalMovesInto(s, buf)));
  }

  isLegal(s: MancalaState, move: number): boolean {
    return Number.isInteger(move) && move >= 0 && move < this.n && !this.isOver(s) && this.pit(s, this.toMove(s), move) > 0;
  }

  play(s: MancalaState, move: number): MancalaState {
    if (!this.isLegal(s, move)) throw new RangeError(`illegal move ${move} for ${this.toMove(s) === 0 ? 'bottom' : 'top'} in ${this.describe(s)}`);
    const out = this.newState();
    this.playInto(s, move, out);
    return out;
  }

  /** The hot path: sow pit `move` (sowing index) of the player to move into `out`; no allocation. */
  playInto(s: MancalaState, move: number, out: MancalaState): void {
    this.counters.plays++;
    this.sow(s.words, out.words, out.cells, move);
  }

  /** Game.playLeaf: mostly without making the move (sowing.ts, leafValue); counted as a play all the same. */
  playLeaf(s: MancalaState, move: number, out: MancalaState, final: boolean, keepTurn: boolean): number {
    this.counters.plays++;
    return this.leafValue(s.cells, s.words, out.words, out.cells, move, final, keepTurn);
  }

  key(s: MancalaState): string {
    // One UTF-16 unit a cell (counts stay below 65536): short keys, cheap to hash.
    return String.fromCharCode.apply(null, s.cells.subarray(0, this.w + 1) as unknown as number[]);
  }

  /** A one-line description: rows left to right as the bottom player sees them. */
  describe(s: MancalaState): string {
    const n = this.n;
    const top = Array.from({ length: n }, (_, pos) => this.pit(s, 1, n - 1 - pos));
    const bottom = this.row(s, 0);
    return `top [${top.join(' ')}] store ${this.store(s, 1)}, bottom [${bottom.join(' ')}] store ${this.store(s, 0)}, ${this.toMove(s) === 0 ? 'bottom' : 'top'} to move`;
  }

  // ---- names -------------------------------------------------------------------------------

  /** Left-to-right position (as the bottom player sees the board) of p's pit with sowing index i. */
  position(p: Player, i: number): number {
    return p === 0 ? i : this.n - 1 - i;
  }

  /**
   * The name of p's pit with sowing index i, in the profile's naming, as the board labels it.
   * 'bt' counts each row from its owner's left, as seed 001's figures do ("captured the six
   * stones in T1"): B0 and T0 are the pits furthest from their stores. 'csci561' counts both rows
   * left to right as the bottom player sees the board, from 2 (A1 and B(N+2) are the stores).
   * 'cups' numbers each player's cups 1..N in its sowing order, as seed 002's MancalaBoard and GUI
   * do: both rows have a cup 3, so where either side's pit may be meant, use pitLabel.
   */
  pitName(p: Player, i: number): string {
    switch (this.rules.pitNaming) {
      case 'csci561':
        return `${p === 0 ? 'B' : 'A'}${this.position(p, i) + 2}`;
      case 'cups':
        return String(i + 1);
      case 'bt':
        return `${p === 0 ? 'B' : 'T'}${i}`;
    }
  }

  /**
   * p's pit by a name no pit of the other side shares, for text where either side's pits may be
   * meant (a capture: the mover's pit and the opponent's across it). 'bt' and 'csci561' names are
   * already unique on the board; 'cups' says whose cup: "bottom cup 3", "top cup 4".
   */
  pitLabel(p: Player, i: number): string {
    return this.rules.pitNaming === 'cups' ? `${p === 0 ? 'bottom' : 'top'} cup ${i + 1}` : this.pitName(p, i);
  }

  /** The move's name: the mover's pit (under 'cups', the mover's cup number: "3"). */
  moveName(s: MancalaState, move: number): string {
    return this.pitName(this.toMove(s), move);
  }

  /**
   * A pit of the player to move, by its name ("B3", "t2") or the name's number alone ("3").
   * Under 'cups' the name is the number: "3", "cup 3", or the mover's pitLabel ("bottom cup 3").
   */
  parseMove(s: MancalaState, text: string): number | undefined {
    const p = this.toMove(s);
    const t = text.trim().toUpperCase();
    if (this.rules.pitNaming === 'cups') {
      const m = /^(?:(BOTTOM|TOP)\s+)?(?:CUP\s*)?(\d+)$/.exec(t.replace(/\s+/g, ' '));
      if (m === null || (m[1] !== undefined && m[1] !== (p === 0 ? 'BOTTOM' : 'TOP'))) return undefined;
      for (let i = 0; i < this.n; i++) if (this.pitName(p, i) === m[2]) return i;
      return undefined;
    }
    for (let i = 0; i < this.n; i++) {
      const name = this.pitName(p, i);
      if (name === t || name.slice(1) === t) return i;
    }
    return undefined;
  }

  // ---- rendering ---------------------------------------------------------------------------

  render(s: MancalaState): string {
    const n = this.n;
    const top: string[] = [];
    const bottom: string[] = [];
    const topNames: string[] = [];
    const bottomNames: string[] = [];
    for (let pos = 0; pos < n; pos++) {
      const j = n - 1 - pos;
      top.push(String(this.pit(s, 1, j)));
      topNames.push(this.pitName(1, j));
      bottom.push(String(this.pit(s, 0, pos)));
      bottomNames.push(this.pitName(0, pos));
    }
    const cellW = Math.max(3, ...top.map((x) => x.length), ...bottom.map((x) => x.length), ...topNames.map((x) => x.length)) + 2;
    const topStore = String(this.store(s, 1));
    const bottomStore = String(this.store(s, 0));
    const margin = Math.max(topStore.length, 3) + 1;
    const pad = (x: string) => x.padStart(Math.ceil((cellW + x.length) / 2)).padEnd(cellW);
    const rule = ' '.repeat(margin) + '+' + Array(n).fill('-'.repeat(cellW)).join('+') + '+';
    const row = (cells: string[]) => ' '.repeat(margin) + '|' + cells.map(pad).join('|') + '|';
    const names = (cells: string[]) => (' '.repeat(margin + 1) + cells.map(pad).join(' ')).trimEnd();
    const middle = topStore.padStart(margin - 1) + ' ' + rule.trimStart().replace(/\+$/, '+') + ' ' + bottomStore;
    const lines = [names(topNames), rule, row(top), middle, row(bottom), rule, names(bottomNames)];
    const stores = `stores: top ${topStore} (left), bottom ${bottomStore} (right)`;
    if (this.isOver(s)) {
      lines.push(`${stores}; game over: after the sweep bottom ${this.finalStore(s, 0)}, top ${this.finalStore(s, 1)}`);
    } else {
      lines.push(`${stores}; ${this.toMove(s) === 0 ? 'bottom' : 'top'} to move`);
    }
    return lines.join('\n');
  }
}
