/**
 * Endgame databases: the exact future margin of every position with at most S stones left on the
 * board, for one board size and one rule set, so the search stops where few stones remain.
 *
 * Built bottom-up, as Irving et al. build theirs: no stone ever comes back onto the board, so a
 * position's value follows from those of its successors, which hold no more stones than it does.
 * The build goes layer by layer (EndgameIndex: a layer a stone count), each layer once those below
 * it are complete. A successor in the same layer is a move that stayed in the mover's own row, and
 * such moves only push stones towards the store, so the dependencies never loop; a layer is filled
 * in index order, a missing successor computed first (depth-first). LayerFiller fills any range of
 * a layer, so threads can share one (endgame-build.ts): two that meet the same missing successor
 * both compute it and write the same value.
 *
 * A value is the mover's future margin (stores aside), -S..S, one signed byte a position (the
 * mover's row first: a position and its mirror with the other player to move share their entry).
 */
import { totalmem } from 'node:os';
import type { MancalaGame, MancalaState } from '../../framework/games/mancala/engine.ts';
import type { MancalaRules } from '../../framework/games/mancala/rules.ts';
import { binomial, EndgameIndex, layerSize, nextInLayer } from './endgame-index.ts';

/** No value yet (values are -S..S and S is at most 100). */
export const UNKNOWN = -128;
/** Stones per database at most: values must fit a signed byte with UNKNOWN to spare. */
export const MAX_ENDGAME_STONES = 100;
/** Positions per layer at most: a typed array's length. */
export const MAX_LAYER_POSITIONS = 2 ** 32;
/** Share of this machine's memory a database may take (the search's table needs the rest). */
const MEMORY_SHARE = 0.75;

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
  /** layers[k]: the values of the positions with exactly k stones on the board, by EndgameIndex.rank */
  readonly layers: readonly Int8Array[];
  readonly maxStones: number;

  constructor(rules: EndgameRules, maxStones: number, layers: readonly Int8Array[]) {
    this.rules = rules;
    this.maxStones = maxStones;
    this.index = new EndgameIndex(rules.pits, maxStones);
    if (layers.length !== maxStones + 1) throw new RangeError(`expected ${maxStones + 1} layers, got ${layers.length}`);
    layers.forEach((l, k) => {
      if (l.length !== this.index.layerSizes[k]) throw new RangeError(`layer ${k}: expected ${this.index.layerSizes[k]} values, got ${l.length}`);
    });
    this.layers = layers;
  }

  /** Positions held. */
  get positions(): number {
    return this.index.count;
  }

  /** The future margin for `mover` of the position in cells `c`, which has `stones` stones on the board (at most maxStones). */
  probe(c: Int32Array, mover: number, stones: number): number {
    return this.layers[stones]![this.index.rank(c, mover, stones)]!;
  }

  /** True when this database answers for games with these rules. */
  fits(rules: Readonly<MancalaRules>): boolean {
    const mine = this.rules;
    const theirs = endgameRules(rules);
    return (Object.keys(mine) as (keyof EndgameRules)[]).every((k) => mine[k] === theirs[k]);
  }
}

/** Checks a database size before building or loading one; a message saying why not, or undefined. */
export function endgameSizeProblem(pits: number, maxStones: number, memoryBytes = totalmem()): string | undefined {
  if (!Number.isInteger(maxStones) || maxStones < 0 || maxStones > MAX_ENDGAME_STONES) {
    return `stones must be a whole number from 0 to ${MAX_ENDGAME_STONES}, got ${maxStones}`;
  }
  const top = layerSize(pits, maxStones);
  if (top > MAX_LAYER_POSITIONS) return `its ${maxStones}-stone layer alone holds ${top.toExponential(2)} positions, more than an array can (${pits} pits): choose fewer stones`;
  const count = binomial(maxStones + 2 * pits, 2 * pits);
  const limit = Math.floor(memoryBytes * MEMORY_SHARE);
  if (count > limit) return `${count.toExponential(2)} positions (${pits} pits, ${maxStones} stones) take ${(count / 2 ** 30).toFixed(1)} GB, more than ${Math.round(MEMORY_SHARE * 100)}% of this machine's memory: choose fewer stones`;
  return undefined;
}

/**
 * Fills ranges of a database's layers with their values, the layers below complete (or missing
 * values computed on the way). One a thread; the layers may be shared between threads.
 */
export class LayerFiller {
  private readonly game: MancalaGame;
  private readonly index: EndgameIndex;
  private readonly layers: readonly Int8Array[];
  private readonly eitherRow: boolean;
  /** per recursion level: the position (mover at the bottom, stores empty) and a child */
  private readonly positions: MancalaState[] = [];
  private readonly children: MancalaState[] = [];
  private readonly pits: Int32Array;

  constructor(game: MancalaGame, index: EndgameIndex, layers: readonly Int8Array[]) {
    this.game = game;
    this.index = index;
    this.layers = layers;
    this.eitherRow = game.rules.gameEnd === 'either-row-empty';
    this.pits = new Int32Array(2 * game.n);
  }

  private level(d: number): void {
    while (this.positions.length <= d) {
      const [p, c] = this.game.newStates(2);
      this.positions.push(p!);
      this.children.push(c!);
    }
  }

  /** Computes every position of layer `stones` numbered from..to-1 that has no value yet. */
  fill(stones: number, from: number, to: number): void {
    if (from >= to) return;
    const n = this.game.n;
    const w = this.game.w;
    const layer = this.layers[stones]!;
    const pits = this.pits;
    this.level(0);
    const root = this.positions[0]!.cells;
    this.index.unrank(stones, from, pits);
    for (let r = from; r < to; r++) {
      if (r > from) nextInLayer(pits);
      if (layer[r] !== UNKNOWN) continue;
      let mine = 0;
      for (let k = 0; k < n; k++) {
        root[k] = pits[k]!;
        root[n + 1 + k] = pits[n + k]!;
        mine += pits[k]!;
      }
      root[n] = 0;
      root[2 * n + 1] = 0;
      root[w] = 0;
      root[w + 1] = 0;
      const theirs = stones - mine;
      const over = mine === 0 || (this.eitherRow && theirs === 0);
      layer[r] = over ? mine - theirs : this.solve(0, stones);
    }
  }

  /** The value of positions[d] (not finished, `stones` on the board), its successors first where they are missing. */
  private solve(d: number, stones: number): number {
    this.level(d + 1);
    const game = this.game;
    const n = game.n;
    const w = game.w;
    const pos = this.positions[d]!;
    const kid = this.children[d]!;
    const c = kid.cells;
    let best = -Infinity;
    for (let move = 0; move < n; move++) {
      if (pos.cells[move] === 0) continue;
      game.playInto(pos, move, kid);
      const gain = c[n]! - c[2 * n + 1]!;
      let v: number;
      if (c[w + 1] === 1) {
        let rows = 0;
        for (let k = 0; k < n; k++) rows += c[k]! - c[n + 1 + k]!;
        v = gain + rows;
      } else {
        const mover = c[w]!;
        const left = stones - c[n]! - c[2 * n + 1]!;
        let f = this.layers[left]![this.index.rank(c, mover, left)]!;
        if (f === UNKNOWN) {
          this.orient(c, mover, this.positions[d + 1]!.cells);
          f = this.solve(d + 1, left);
        }
        v = mover === 0 ? gain + f : gain - f;
      }
      if (v > best) best = v;
    }
    this.layers[stones]![this.index.rank(pos.cells, 0, stones)] = best;
    return best;
  }

  /** Copies the pits of `from` into `to` with `mover`'s row at the bottom, stores empty, not finished. */
  private orient(from: Int32Array, mover: number, to: Int32Array): void {
    const n = this.game.n;
    const w = this.game.w;
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
  }
}

/** Builds the database of `game`'s rules for at most `maxStones` stones on the board, in this thread. */
export function buildEndgameDb(game: MancalaGame, maxStones: number, onProgress?: (done: number, total: number) => void): EndgameDb {
  const problem = endgameSizeProblem(game.n, maxStones);
  if (problem !== undefined) throw new RangeError(problem);
  const index = new EndgameIndex(game.n, maxStones);
  const layers = index.layerSizes.map((size) => new Int8Array(size).fill(UNKNOWN));
  const filler = new LayerFiller(game, index, layers);
  /** Positions a progress report at most: a layer is filled in slices this size. */
  const SLICE = 1 << 20;
  let done = 0;
  for (let k = 0; k <= maxStones; k++) {
    const size = index.layerSizes[k]!;
    for (let from = 0; from < size; from += SLICE) {
      const to = Math.min(size, from + SLICE);
      filler.fill(k, from, to);
      done += to - from;
      onProgress?.(done, index.count);
    }
  }
  return new EndgameDb(endgameRules(game.rules), maxStones, layers);
}
