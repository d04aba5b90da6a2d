/**
 * Numbering the positions of an endgame database, one layer a stone count: the positions with
 * exactly k stones on the board are every way to put k stones in the 2N pits (the mover's row
 * first), in lexicographic order, numbered 0 .. C(k + 2N - 1, 2N - 1) - 1 within layer k.
 *
 * Layers, not one numbering of every position up to S stones: a layer holds no more than a typed
 * array can (2^32 entries: up to 31 stones on 6 pits a side), and a layer's positions depend only
 * on their own layer and those below it, so a build can share a layer's positions among threads
 * (endgame-build.ts). A pit's contribution to the number depends only on its place, its count and
 * the stones left for it and the pits after it, so `rank` is 2N - 1 table look-ups and additions
 * (the last pit holds what is left).
 */

/** C(a, b) as a double (exact up to 2^53, far beyond any database that fits in memory). */
export function binomial(a: number, b: number): number {
  if (b < 0 || b > a) return 0;
  let r = 1;
  for (let k = 1; k <= b; k++) r = (r * (a - b + k)) / k;
  return Math.round(r);
}

/** Positions with exactly `stones` stones in 2·pits pits. */
export function layerSize(pits: number, stones: number): number {
  return binomial(stones + 2 * pits - 1, 2 * pits - 1);
}

export class EndgameIndex {
  readonly pits: number;
  readonly maxStones: number;
  /** layerSizes[k]: positions with exactly k stones, k = 0..S */
  readonly layerSizes: readonly number[];
  /** positions in all layers: C(S + 2N, 2N) */
  readonly count: number;
  /** step[(i * (S+1) + left) * (S+1) + x]: what pit i holding x adds to the number when exactly `left` stones are in pits i.. */
  private readonly step: Float64Array;

  constructor(pits: number, maxStones: number) {
    this.pits = pits;
    this.maxStones = maxStones;
    const cells = 2 * pits;
    const s1 = maxStones + 1;
    const sizes: number[] = [];
    for (let k = 0; k <= maxStones; k++) sizes.push(layerSize(pits, k));
    this.layerSizes = sizes;
    this.count = binomial(maxStones + cells, cells);
    this.step = new Float64Array(cells * s1 * s1);
    for (let i = 0; i < cells - 1; i++) {
      const after = cells - i - 1; // pits after pit i, at least one
      for (let left = 0; left <= maxStones; left++) {
        let sum = 0;
        for (let x = 0; x <= left; x++) {
          this.step[(i * s1 + left) * s1 + x] = sum;
          // Positions where pit i holds x: the pits after it hold exactly left - x stones.
          sum += binomial(left - x + after - 1, after - 1);
        }
      }
    }
  }

  /** The number within layer `stones` of the position in engine cells `c`, the row of `mover` first; its pits must hold exactly `stones`. */
  rank(c: Int32Array, mover: number, stones: number): number {
    const n = this.pits;
    const s1 = this.maxStones + 1;
    const step = this.step;
    let left = stones;
    let r = 0;
    const a = mover === 0 ? 0 : n + 1;
    const b = mover === 0 ? n + 1 : 0;
    for (let k = 0; k < n; k++) {
      const x = c[a + k]!;
      r += step[(k * s1 + left) * s1 + x]!;
      left -= x;
    }
    // The opponent's row; its last pit holds what is left and adds nothing.
    for (let k = 0; k < n - 1; k++) {
      const x = c[b + k]!;
      r += step[((n + k) * s1 + left) * s1 + x]!;
      left -= x;
    }
    return r;
  }

  /** Writes into `pits` (2N counts, the mover's row first) the position numbered `r` in layer `stones`. */
  unrank(stones: number, r: number, pits: Int32Array): void {
    const cells = 2 * this.pits;
    const s1 = this.maxStones + 1;
    let left = stones;
    for (let i = 0; i < cells - 1; i++) {
      let x = 0;
      while (x < left && this.step[(i * s1 + left) * s1 + x + 1]! <= r) x++;
      r -= this.step[(i * s1 + left) * s1 + x]!;
      pits[i] = x;
      left -= x;
    }
    pits[cells - 1] = left;
  }
}

/** Steps `pits` (2N counts summing to k) to the next position of its layer in lexicographic order; false after the last. */
export function nextInLayer(pits: Int32Array): boolean {
  const last = pits.length - 1;
  // The rightmost pit before the last with stones after it takes one more; the rest go to the last pit.
  let after = pits[last]!;
  let i = last - 1;
  while (i >= 0 && after === 0) {
    after += pits[i]!;
    i--;
  }
  if (i < 0) return false;
  // pits i+1..last hold `after` stones (some nonzero): pit i takes one of them, the last pit the rest.
  pits[i]!++;
  for (let j = i + 1; j < last; j++) pits[j] = 0;
  pits[last] = after - 1;
  return true;
}
