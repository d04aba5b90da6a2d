/**
 * Numbering the positions of an endgame database: every way to put at most S stones in the 2N
 * pits (the mover's row first), in lexicographic order, numbered 0 .. C(S + 2N, 2N) - 1. A pit's
 * contribution to the number depends only on its place, its count and the stones left for it
 * and the pits after it, so `rank` is 2N table look-ups and additions.
 */

/** C(a, b) as a double (exact up to 2^53, far beyond any database that fits in memory). */
export function binomial(a: number, b: number): number {
  if (b < 0 || b > a) return 0;
  let r = 1;
  for (let k = 1; k <= b; k++) r = (r * (a - b + k)) / k;
  return Math.round(r);
}

export class EndgameIndex {
  /** positions numbered: C(S + 2N, 2N) */
  readonly count: number;
  readonly pits: number;
  readonly maxStones: number;
  /** step[(i * (S+1) + left) * (S+1) + x]: what pit i holding x adds to the number when `left` stones remain for pits i.. */
  private readonly step: Float64Array;

  constructor(pits: number, maxStones: number) {
    this.pits = pits;
    this.maxStones = maxStones;
    const cells = 2 * pits;
    const s1 = maxStones + 1;
    this.count = binomial(maxStones + cells, cells);
    this.step = new Float64Array(cells * s1 * s1);
    for (let i = 0; i < cells; i++) {
      const after = cells - i - 1; // pits after pit i
      for (let left = 0; left <= maxStones; left++) {
        let sum = 0;
        for (let x = 0; x <= left; x++) {
          this.step[(i * s1 + left) * s1 + x] = sum;
          // Positions where pit i holds x: the pits after it share at most left - x stones.
          sum += binomial(left - x + after, after);
        }
      }
    }
  }

  /** The number of the position in engine cells `c`, the row of `mover` first; the pits must hold at most S stones. */
  rank(c: Int32Array, mover: number): number {
    const n = this.pits;
    const s1 = this.maxStones + 1;
    const step = this.step;
    let left = this.maxStones;
    let r = 0;
    let first = mover === 0 ? 0 : n + 1;
    let i = 0;
    for (let row = 0; row < 2; row++) {
      for (let k = 0; k < n; k++) {
        const x = c[first + k]!;
        r += step[(i * s1 + left) * s1 + x]!;
        left -= x;
        i++;
      }
      first = first === 0 ? n + 1 : 0;
    }
    return r;
  }
}
