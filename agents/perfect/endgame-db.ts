/**
 * Endgame databases: the exact future margin of every position with at most S stones left on the
 * board, for one board size and one rule set, so the search stops where few stones remain.
 *
 * Built bottom-up, as Irving et al. build theirs: no stone ever comes back onto the board, so a
 * position's value follows from those of its successors, which hold no more stones than it does.
 * A successor with as many stones is a move that stayed in the mover's own row, and such moves
 * only push stones towards the store, so the dependencies never loop; the build fills the table in
 * index order and computes a missing successor first (depth-first), every position exactly once.
 *
 * A value is the mover's future margin (stores aside), -S..S, one signed byte a position, indexed
 * by EndgameIndex (the mover's row first: a position and its mirror with the other player to move
 * share their entry).
 */
import type { MancalaGame, MancalaState } from '../../framework/games/mancala/engine.ts';
import type { MancalaRules } from '../../framework/games/mancala/rules.ts';
import { binomial, EndgameIndex } from './endgame-index.ts';

/** No value yet (values are -S..S and S is at most 100). */
const UNKNOWN = -128;
/** Stones per database at most: values must fit a signed byte with UNKNOWN to spare. */
export const MAX_ENDGAME_STONES = 100;
/** Positions per database at most (bytes of memory). */
export const MAX_ENDGAME_POSITIONS = 2 ** 31 - 1;

/** The rules a database's values depend on (not the move order, names or stones at the start). */
export interface EndgameRules {
  pits: number;
  freeTurn: boolean;
  capture: MancalaRules['capture'];
  captureEmptyOpposite: boolean;
  gameEnd: MancalaRules['gameEnd'];
}

export function endgameRules(rules: Readonly<MancalaRules>): EndgameRules {
  const { pits, freeTurn, capture, captureEmptyOpposite, gameEnd } = rules;
  return { pits, freeTurn, capture, captureEmptyOpposite, gameEnd };
}

export class EndgameDb {
  readonly index: EndgameIndex;
  readonly rules: EndgameRules;
  readonly values: Int8Array;
  readonly maxStones: number;

  constructor(rules: EndgameRules, maxStones: number, values: Int8Array) {
    this.rules = rules;
    this.maxStones = maxStones;
    this.index = new EndgameIndex(rules.pits, maxStones);
    if (values.length !== this.index.count) throw new RangeError(`expected ${this.index.count} values, got ${values.length}`);
    this.values = values;
  }

  /** The future margin for `mover` of the position in cells `c` (at most maxStones stones on the board). */
  probe(c: Int32Array, mover: number): number {
    return this.values[this.index.rank(c, mover)]!;
  }

  /** True when this database answers for games with these rules. */
  fits(rules: Readonly<MancalaRules>): boolean {
    const mine = this.rules;
    const theirs = endgameRules(rules);
    return (Object.keys(mine) as (keyof EndgameRules)[]).every((k) => mine[k] === theirs[k]);
  }
}

/** Checks a database size before building or loading one; a message saying why not, or undefined. */
export function endgameSizeProblem(pits: number, maxStones: number): string | undefined {
  if (!Number.isInteger(maxStones) || maxStones < 0 || maxStones > MAX_ENDGAME_STONES) {
    return `stones must be a whole number from 0 to ${MAX_ENDGAME_STONES}, got ${maxStones}`;
  }
  const count = binomial(maxStones + 2 * pits, 2 * pits);
  if (count > MAX_ENDGAME_POSITIONS) return `${count.toExponential(2)} positions (${pits} pits, ${maxStones} stones) do not fit in memory: choose fewer stones`;
  return undefined;
}

/** Builds the database of `game`'s rules for at most `maxStones` stones on the board. */
export function buildEndgameDb(game: MancalaGame, maxStones: number, onProgress?: (done: number, total: number) => void): EndgameDb {
  const problem = endgameSizeProblem(game.n, maxStones);
  if (problem !== undefined) throw new RangeError(problem);
  const n = game.n;
  const w = game.w;
  const index = new EndgameIndex(n, maxStones);
  const values = new Int8Array(index.count).fill(UNKNOWN);
  const eitherRow = game.rules.gameEnd === 'either-row-empty';
  // Per recursion level: the position (mover at the bottom, stores empty) and a child.
  const positions: MancalaState[] = [];
  const children: MancalaState[] = [];
  const level = (d: number) => {
    while (positions.length <= d) {
      const [p, c] = game.newStates(2);
      positions.push(p!);
      children.push(c!);
    }
  };

  const rowSum = (c: Int32Array, from: number) => {
    let sum = 0;
    for (let k = 0; k < n; k++) sum += c[from + k]!;
    return sum;
  };

  /** The value of positions[d] (not finished), its successors first where they are missing. */
  const solve = (d: number): number => {
    level(d + 1);
    const pos = positions[d]!;
    const kid = children[d]!;
    const c = kid.cells;
    let best = -Infinity;
    for (let move = 0; move < n; move++) {
      if (pos.cells[move] === 0) continue;
      game.playInto(pos, move, kid);
      const gain = c[n]! - c[2 * n + 1]!;
      let v: number;
      if (c[w + 1] === 1) {
        v = gain + rowSum(c, 0) - rowSum(c, n + 1);
      } else {
        const mover = c[w]!;
        let f = values[index.rank(c, mover)]!;
        if (f === UNKNOWN) {
          orient(c, mover, positions[d + 1]!.cells);
          f = solve(d + 1);
        }
        v = mover === 0 ? gain + f : gain - f;
      }
      if (v > best) best = v;
    }
    values[index.rank(pos.cells, 0)] = best;
    return best;
  };

  /** Copies the pits of `from` into `to` with `mover`'s row at the bottom, stores empty, not finished. */
  const orient = (from: Int32Array, mover: number, to: Int32Array) => {
    const a = mover === 0 ? 0 : n + 1;
    const b = mover === 0 ? n + 1 : 0;
    for (let k = 0; k < n; k++) {
      to[k] = from[a + k]!;
      to[n + 1 + k] = from[b + k]!;
    }
    to[n] = 0;
    to[2 * n + 1] = 0;
    to[w] = 0;
    to[w + 1] = 0;
  };

  // Every position in index order (an odometer over the pits, the mover's row first).
  level(0);
  const pits = new Int32Array(2 * n);
  const root = positions[0]!.cells;
  let total = 0;
  for (let r = 0; r < index.count; r++) {
    if (r > 0) {
      // The next position in lexicographic order: a stone more in the last pit while there is room;
      // when full, the last nonempty pit empties and the pit before it takes one more.
      if (total < maxStones) {
        pits[2 * n - 1]!++;
        total++;
      } else {
        let j = 2 * n - 1;
        while (pits[j] === 0) j--;
        total -= pits[j]! - 1;
        pits[j] = 0;
        pits[j - 1]!++;
      }
    }
    if (values[r] !== UNKNOWN) continue;
    for (let k = 0; k < n; k++) {
      root[k] = pits[k]!;
      root[n + 1 + k] = pits[n + k]!;
    }
    root[n] = 0;
    root[2 * n + 1] = 0;
    root[w] = 0;
    const mine = rowSum(root, 0);
    const theirs = rowSum(root, n + 1);
    const over = mine === 0 || (eitherRow && theirs === 0);
    root[w + 1] = 0;
    values[r] = over ? mine - theirs : solve(0);
    if (onProgress !== undefined && (r & 0xfffff) === 0) onProgress(r, index.count);
  }
  return new EndgameDb(endgameRules(game.rules), maxStones, values);
}
