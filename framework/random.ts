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
  const rng = xoroshiro128plus((seed ^ high) | 0);
  return () => uniformFloat64(rng);
}

/** A whole number uniform in 0 .. n-1 drawn from `rand`. */
export function randomInt(rand: RandomSource, n: number): number {
  if (!Number.isSafeInteger(n) || n < 1) throw new RangeError(`randomInt needs a whole number n ≥ 1, got ${n}`);
  // 53 random bits: for any n a course uses, the bias of flooring is far below anything measurable.
  return Math.floor(rand() * n);
}
