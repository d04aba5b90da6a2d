/**
 * The solver's transposition table: a fixed budget of memory (nothing allocated per probe),
 * holding for each position (its exact BoardKey) a lower and an upper bound of its future margin
 * and the best move found. MTD(f) runs many null-window searches over the same tree, so each
 * entry keeps both bounds, narrowed as the searches prove more.
 *
 * Entries are interleaved in one buffer (key, then bounds, move and work side by side): a probe
 * touches one cache line, not one in each of five arrays, and a big table's first writes fault in
 * one page each, not five (with separate arrays that alone cost 20 µs a store on a fresh table).
 * Two slots a bucket: the first keeps the position whose subtree cost more to search (`work`,
 * log2 of its nodes), so the expensive results near the root survive a full table; the second
 * takes every newcomer.
 */

export class SolveTable {
  readonly size: number;
  private readonly mask: number;
  private readonly words: number;
  /** doubles an entry takes: the key's, then two for bounds, move and work (as four int32) */
  private readonly stride: number;
  private readonly f64: Float64Array;
  private readonly i32: Int32Array;

  /** A table of about `mb` megabytes for keys of `words` doubles. */
  constructor(mb: number, words: number) {
    this.words = words;
    this.stride = words + 2;
    const entryBytes = 8 * this.stride;
    let size = 2;
    while (size * 2 * entryBytes <= mb * 1024 * 1024) size *= 2;
    this.size = size;
    this.mask = size - 1;
    const buffer = new ArrayBuffer(size * entryBytes);
    this.f64 = new Float64Array(buffer);
    this.i32 = new Int32Array(buffer);
  }

  megabytes(): number {
    return (this.size * 8 * this.stride) / (1024 * 1024);
  }

  /** Where slot's int32 fields start: lower, upper, move, work (0: the slot is empty). */
  private fields(slot: number): number {
    return (slot * this.stride + this.words) * 2;
  }

  lower(slot: number): number {
    return this.i32[this.fields(slot)]!;
  }
  upper(slot: number): number {
    return this.i32[this.fields(slot) + 1]!;
  }
  move(slot: number): number {
    return this.i32[this.fields(slot) + 2]!;
  }

  private holds(slot: number, key: Float64Array): boolean {
    const f64 = this.f64;
    const base = slot * this.stride;
    if (this.i32[(base + this.words) * 2 + 3] === 0) return false;
    for (let k = 0; k < this.words; k++) if (f64[base + k] !== key[k]) return false;
    return true;
  }

  /** The slot holding `key` (hashed to `hash`), or -1. */
  find(key: Float64Array, hash: number): number {
    const a = hash & this.mask & ~1;
    if (this.holds(a, key)) return a;
    if (this.holds(a + 1, key)) return a + 1;
    return -1;
  }

  /** Records bounds [lo, hi] for `key`: narrows the entry already there, or takes a slot. */
  store(key: Float64Array, hash: number, lo: number, hi: number, move: number, work: number): void {
    const i32 = this.i32;
    const a = hash & this.mask & ~1;
    const w = work < 1 ? 1 : work;
    let slot = this.holds(a, key) ? a : this.holds(a + 1, key) ? a + 1 : -1;
    if (slot >= 0) {
      const f = this.fields(slot);
      if (lo > i32[f]!) i32[f] = lo;
      if (hi < i32[f + 1]!) i32[f + 1] = hi;
      if (move >= 0) i32[f + 2] = move;
      if (w > i32[f + 3]!) i32[f + 3] = w;
      return;
    }
    const wa = i32[this.fields(a) + 3]!;
    if (wa === 0) {
      slot = a;
    } else if (w >= wa) {
      // The newcomer cost more: it takes the first slot, the one there moves to the second.
      this.f64.copyWithin((a + 1) * this.stride, a * this.stride, (a + 1) * this.stride);
      slot = a;
    } else {
      slot = a + 1;
    }
    const base = slot * this.stride;
    for (let k = 0; k < this.words; k++) this.f64[base + k] = key[k]!;
    const f = this.fields(slot);
    i32[f] = lo;
    i32[f + 1] = hi;
    i32[f + 2] = move;
    i32[f + 3] = w;
  }
}
