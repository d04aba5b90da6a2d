/**
 * Drawing random openings for `distinctRandomOpenings` (openings.ts), fast: the same random
 * numbers and the same moves as `randomOpening`, plus the key of the position each opening reaches.
 *
 * Why a tree: on a small board or a short opening the same few move prefixes are drawn over and
 * over (Kalah(6,4) has about 35 positions two plies in, and once a match has seen them all each
 * further opening is drawn 64 times before a repeat is accepted). So the positions reached by
 * drawn prefixes are kept in a tree, with their legal moves and the opening that ends there:
 * drawing a prefix again costs only its random numbers. A prefix gets its node the second time it
 * is drawn, so the long openings of `random:30` or `random:100`, which seldom repeat past their
 * first few plies, add few nodes and are played on in two scratch states instead. The tree lives
 * in flat typed arrays rather than one object a node, and stops growing at MAX_PREFIX_NODES.
 */
import type { MancalaGame, MancalaState } from '../games/mancala/engine.ts';
import { randomInt, type RandomSource } from '../random.ts';

/** The most nodes the tree holds: about 10 MB on a 6-pit board. */
export const MAX_PREFIX_NODES = 100_000;

/** One drawn opening: its moves, and `game.key` of the position they reach. */
export interface DrawnOpening {
  moves: number[];
  reached: string;
}

/** `child` of a move drawn once: it has no node yet. */
const DRAWN_ONCE = -1;

/** Draws openings of `plies` moves from `start` from one random source (see above). */
export class OpeningDrawer {
  /** moves per node: the game's most legal moves */
  private readonly n: number;
  /** 64-bit words of one state (MancalaState.words) */
  private readonly stride: number;
  private size = 0;
  private capacity = 0;
  // Node k (the root, `start`, is node 0):
  /** its position: words k·stride .. (k+1)·stride - 1 */
  private states = new Float64Array(0);
  /** 1 when the game is over in its position */
  private over = new Uint8Array(0);
  /** how many legal moves it has, and which: k·n .. k·n + count - 1 (game.legalMoves order) */
  private count = new Uint8Array(0);
  private legal = new Int8Array(0);
  /** the node its i-th legal move leads to at k·n + i: 0 if never drawn (0, the root, is no one's child), or DRAWN_ONCE */
  private child = new Int32Array(0);
  /** the node it is a child of, and the move that leads there from it (the root: 0 and 0) */
  private parent = new Int32Array(0);
  private moveIn = new Int8Array(0);
  /** the opening that ends there, once one has */
  private readonly ends: (DrawnOpening | undefined)[] = [];

  /** scratch states, and room for the legal moves of one position */
  private readonly a: MancalaState;
  private readonly b: MancalaState;
  private readonly legalHere: Int32Array;

  constructor(
    private readonly game: MancalaGame,
    start: MancalaState,
    private readonly plies: number,
    private readonly random: RandomSource,
    /** the tree's size limit; smaller only in tests */
    private readonly maxNodes = MAX_PREFIX_NODES,
  ) {
    this.n = game.maxMoves;
    this.a = game.newState();
    this.b = game.newState();
    this.stride = this.a.words.length;
    this.legalHere = new Int32Array(this.n);
    this.add(start, 0, 0);
  }

  /**
   * The next opening: what `randomOpening(game, start, plies, random)` would return, and where it
   * ends. An opening that ends in the tree is the same object each time it is drawn: copy its moves.
   */
  draw(): DrawnOpening {
    let k = 0;
    for (let ply = 0; ply < this.plies && this.over[k] === 0; ply++) {
      const slot = k * this.n + randomInt(this.random, this.count[k]!);
      const move = this.legal[slot]!;
      let next = this.child[slot]!;
      if (next <= 0) {
        this.load(k, this.a);
        this.game.playInto(this.a, move, this.b);
        if (next === 0 || this.size === this.maxNodes) {
          if (next === 0) this.child[slot] = DRAWN_ONCE;
          return this.playOn(this.b, [...this.movesTo(k), move]);
        }
        next = this.add(this.b, k, move);
        this.child[slot] = next;
      }
      k = next;
    }
    return (this.ends[k] ??= { moves: this.movesTo(k), reached: this.keyOf(k) });
  }

  /** Beyond the tree: the rest of the opening from `s` (a scratch state) after `moves`, as randomOpening plays it. */
  private playOn(s: MancalaState, moves: number[]): DrawnOpening {
    const game = this.game;
    let t = s === this.a ? this.b : this.a;
    while (moves.length < this.plies && !game.isOver(s)) {
      const move = this.legalHere[randomInt(this.random, game.legalMovesInto(s, this.legalHere))]!;
      moves.push(move);
      game.playInto(s, move, t);
      [s, t] = [t, s];
    }
    return { moves, reached: game.key(s) };
  }

  /** The moves from the root to node k. */
  private movesTo(k: number): number[] {
    const moves: number[] = [];
    for (let at = k; at !== 0; at = this.parent[at]!) moves.push(this.moveIn[at]!);
    return moves.reverse();
  }

  private keyOf(k: number): string {
    this.load(k, this.a);
    return this.game.key(this.a);
  }

  /** A new node for position `s`, reached by `move` from node `parent`; its number. */
  private add(s: MancalaState, parent: number, move: number): number {
    if (this.size === this.capacity) this.grow();
    const k = this.size++;
    this.parent[k] = parent;
    this.moveIn[k] = move;
    this.states.set(s.words, k * this.stride);
    const count = this.game.legalMovesInto(s, this.legalHere); // 0 when over
    this.over[k] = this.game.isOver(s) ? 1 : 0;
    this.count[k] = count;
    for (let i = 0; i < count; i++) this.legal[k * this.n + i] = this.legalHere[i]!;
    this.ends.push(undefined);
    return k;
  }

  /** Node k's position into state `s`. */
  private load(k: number, s: MancalaState): void {
    const words = s.words;
    const from = k * this.stride;
    for (let j = 0; j < this.stride; j++) words[j] = this.states[from + j]!;
  }

  private grow(): void {
    const capacity = Math.min(this.maxNodes, Math.max(64, 2 * this.capacity));
    this.states = copied(this.states, new Float64Array(capacity * this.stride));
    this.over = copied(this.over, new Uint8Array(capacity));
    this.count = copied(this.count, new Uint8Array(capacity));
    this.legal = copied(this.legal, new Int8Array(capacity * this.n));
    this.child = copied(this.child, new Int32Array(capacity * this.n));
    this.parent = copied(this.parent, new Int32Array(capacity));
    this.moveIn = copied(this.moveIn, new Int8Array(capacity));
    this.capacity = capacity;
  }
}

/** `into` holding `from` at its start. */
function copied<T extends { set(array: ArrayLike<number>): void }>(from: ArrayLike<number>, into: T): T {
  into.set(from);
  return into;
}
