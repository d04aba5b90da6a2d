/**
 * Seeded randomness: every random choice in the project (the random agent, openings of a match,
 * tie-breaks of a tournament) draws from a source built here, so a seed replays it exactly.
 * Built on pure-rand's xoroshiro128+ rather than a hand-rolled generator.
 */
import { uniformFloat64 } from 'pure-rand/distribution/uniformFloat64';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';

/** A source of numbers uniform in [0, 1), the shape of `Math.random` and of `ctx.random`. */
export type RandomSource = () => number;

/**
 * A seeded source of numbers uniform in [0, 1) with 53 random bits each: the same seed gives the
 * same sequence. The seed must be a whole number; pure-rand keeps 32 bits of it, so the high bits
 * of a larger seed are folded in rather than dropped.
 */
export function createRandom(seed: number): RandomSource {
  if (!Number.isSafeInteger(seed)) throw new RangeError(`a random seed must be a whole number, got ${seed}`);
  const high = Math.floor(seed / 0x1_0000_0000);
  // xoroshiro128+ seeded with a small number starts with near-1.0 draws (seeds 0, 1, 7 and 42 all
  // gave 0.99999… first): scramble the seed's bits and drop the first outputs, the usual remedy.
  const rng = xoroshiro128plus(mix32((seed ^ high) | 0) | 0);
  for (let k = 0; k < WARM_UP; k++) rng.next();
  return () => uniformFloat64(rng);
}

const WARM_UP = 8;

/** MurmurHash3's finaliser: every bit of x affects every bit of the result (0 .. 2^32-1). */
export function mix32(x: number): number {
  let h = x >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/**
 * A seed in 0 .. 2^31-1 for one use of `seed` (a game's index, a move's ply, a salt): hashed,
 * not added, so the sources of nearby uses do not start alike.
 */
export function deriveSeed(seed: number, ...parts: number[]): number {
  let h = mix32(mix32(seed) ^ Math.floor(seed / 2 ** 32));
  for (const p of parts) h = mix32(h + Math.imul(p | 0, 0x9e3779b9) + 0x7f4a7c15);
  return h & 0x7fffffff;
}

/** A whole number uniform in 0 .. n-1 drawn from `rand`. */
export function randomInt(rand: RandomSource, n: number): number {
  if (!Number.isSafeInteger(n) || n < 1) throw new RangeError(`randomInt needs a whole number n ≥ 1, got ${n}`);
  // 53 random bits: for any n a course uses, the bias of flooring is far below anything measurable.
  return Math.floor(rand() * n);
}
