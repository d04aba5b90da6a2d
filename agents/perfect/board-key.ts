/**
 * The exact key of a position for the solver's table: the pits alone, the mover's row first.
 *
 * Stores never change what happens next (no rule reads them), so the solver values a position by
 * its pits and the player to move, as the future margin: what the mover will still gain over the
 * opponent from here. Positions that differ only in their stores, or that are mirror images with
 * the other player to move, then share one entry. The key is exact, not a hash that might collide:
 * the 2N pit counts are packed as digits in base (stones + 1) into a few doubles, as many digits a
 * double as stay below 2^53 (two doubles on every board up to 6 pits and 400 stones).
 */

export class BoardKey {
  /** doubles a key takes */
  readonly words: number;
  /** the packed key of the last `pack` call */
  readonly scratch: Float64Array;
  private readonly radix: number;
  private readonly perWord: number;
  private readonly n: number;

  /** For boards of `pits` pits a side holding at most `maxStones` stones between them. */
  constructor(pits: number, maxStones: number) {
    this.n = pits;
    this.radix = maxStones + 1;
    let perWord = 1;
    while (perWord < 2 * pits && this.radix ** (perWord + 1) <= 2 ** 53) perWord++;
    this.perWord = perWord;
    this.words = Math.ceil((2 * pits) / perWord);
    this.scratch = new Float64Array(this.words);
  }

  /** Packs the pits of `c` (engine cells), the row of `mover` first, into `scratch`; returns a 32-bit hash of them. */
  pack(c: Int32Array, mover: number): number {
    const n = this.n;
    const radix = this.radix;
    const perWord = this.perWord;
    const scratch = this.scratch;
    let first = mover === 0 ? 0 : n + 1;
    let h = 0x811c9dc5 | 0;
    let word = 0;
    let inWord = 0;
    let k = 0;
    for (let row = 0; row < 2; row++) {
      for (let i = 0; i < n; i++) {
        const a = c[first + i]!;
        word = word * radix + a;
        h = Math.imul(h ^ a, 0x01000193) ^ (h >>> 13);
        if (++inWord === perWord) {
          scratch[k++] = word;
          word = 0;
          inWord = 0;
        }
      }
      first = first === 0 ? n + 1 : 0;
    }
    if (inWord > 0) scratch[k] = word;
    // Murmur3's finaliser: every pit reaches every bit of the table index.
    h ^= h >>> 16;
    h = Math.imul(h, 0x85ebca6b);
    h ^= h >>> 13;
    h = Math.imul(h, 0xc2b2ae35);
    return h ^ (h >>> 16);
  }
}
