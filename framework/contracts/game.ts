/**
 * The Game contract: every search in agents/ runs on any game that implements it.
 *
 * Two layers over the same rules:
 *  - the value layer (`play`, `legalMoves`) returns fresh objects: what a student writes first;
 *  - the buffer layer (`playInto`, `legalMovesInto`) writes into storage the caller owns, so a
 *    search can preallocate one state and one move list per level and allocate nothing per node.
 * Moves are small integers (for Mancala: the index in the mover's sowing order; for Tic-Tac-Toe:
 * the cell 0..8), which keeps both layers cheap and makes moves printable in JSON as they are.
 */

export type Player = 0 | 1;

export const other = (p: Player): Player => (p === 0 ? 1 : 0);

/** What the instrumented game counts while an agent thinks (DESIGN §5 "counts"). */
export class SearchCounters {
  /** Positions produced by play/playInto. Positions visited = this + 1 (the root). */
  plays = 0;
  /** Calls of the heuristic handed to the agent. */
  evaluations = 0;

  reset(): void {
    this.plays = 0;
    this.evaluations = 0;
  }

  /** `nodes` as reports define it: positions visited, the root included. */
  get nodes(): number {
    return this.plays + 1;
  }
}

export interface Game<S = unknown> {
  /** 'mancala' or 'tictactoe': lets a heuristic or a renderer know what it looks at. */
  readonly kind: string;
  /** A short human name, e.g. "kalah(6,4)". */
  readonly name: string;
  /** An upper bound on the number of legal moves in any position (size of a move buffer). */
  readonly maxMoves: number;
  /** Counts positions and evaluations; a fresh game from `fork()` starts at zero. */
  readonly counters: SearchCounters;

  /** The start position. */
  initial(): S;
  /** A blank state to be filled by `playInto` or `copyInto`. */
  newState(): S;
  /** `count` blank states for a search stack (a game may lay them out for fast copying). */
  newStates(count: number): S[];
  copyInto(from: S, to: S): void;
  clone(s: S): S;

  toMove(s: S): Player;
  isOver(s: S): boolean;
  /** Legal moves in the game's search (tie-break) order. */
  legalMoves(s: S): number[];
  /** Writes the legal moves into `out` in search order; returns how many. */
  legalMovesInto(s: S, out: Int32Array): number;
  /**
   * The k-th candidate move in search order (0 <= k < maxMoves) if it is legal in s, else -1.
   * Searches loop k over 0..maxMoves-1 with it: no move list to write and read back, which the
   * benchmarks show is worth about 8% on Mancala. Only meaningful while the game is not over.
   */
  moveAt(s: S, k: number): number;
  isLegal(s: S, move: number): boolean;
  /** A new state after `move`; free turns show up in toMove(). */
  play(s: S, move: number): S;
  /** Like play, into a state the caller owns (`out` must not be `s`). */
  playInto(s: S, move: number, out: S): void;

  /**
   * Optional, a fast path for the searches' leaves. Counted as a play, like playInto, and returns
   * `value << 2 | (same player to move ? 2 : 0) | (game over ? 1 : 0)` for the position after the
   * move, where `value` is, for player 0: score() there when the game is over and `final` is
   * true, else what the bundled `basic` heuristic gives (Mancala: bottom store - top store, as
   * they stand); player 1's is its negation. A search may then value a leaf without building it,
   * when its heuristic is `basic`. `out` is written only as far as the caller needs it: with
   * `keepTurn`, it holds the position after the move whenever the same player moves again in a
   * game that is not over (a search in unit `turn` goes on from it); otherwise it is scratch.
   */
  playLeaf?(s: S, move: number, out: S, final: boolean, keepTurn: boolean): number;

  /** The outcome from p's point of view, as the game's rules settle it (Mancala: store difference after the sweep). */
  score(s: S, p: Player): number;
  /** A canonical key of the position and the player to move, for caches and transposition tables. */
  key(s: S): string;
  /** How the course names a move in state s: "B3", "T2", "A4", "5". */
  moveName(s: S, move: number): string;
  /** The move a name denotes for the player to move in s, or undefined. */
  parseMove(s: S, text: string): number | undefined;
  /** A readable multi-line picture of the position. */
  render(s: S): string;

  /** The same rules with fresh counters: what the framework hands each agent call. */
  fork(): Game<S>;
}
