import { describe, expect, it } from 'vitest';
import { createRandom, randomInt } from './random.ts';

const take = (rand: () => number, k: number) => Array.from({ length: k }, rand);

describe('createRandom', () => {
  it('replays the same sequence for the same seed', () => {
    expect(take(createRandom(42), 50)).toEqual(take(createRandom(42), 50));
  });

  it('gives different sequences for different seeds, including seeds that differ only above 32 bits', () => {
    const a = take(createRandom(1), 10);
    expect(take(createRandom(2), 10)).not.toEqual(a);
    expect(take(createRandom(1 + 2 ** 32), 10)).not.toEqual(a);
  });

  it('stays in [0, 1) and spreads evenly over it', () => {
    const values = take(createRandom(7), 20_000);
    expect(values.every((v) => v >= 0 && v < 1)).toBe(true);
    const buckets = Array<number>(10).fill(0);
    for (const v of values) buckets[Math.floor(v * 10)]!++;
    // Each bucket expects 2,000; ±10% is over 7 standard deviations.
    for (const b of buckets) expect(Math.abs(b - 2000)).toBeLessThan(200);
  });

  it('starts well for small seeds: the first draws of seeds 0..199 spread over [0, 1)', () => {
    // A re-seeded random agent plays its first draw: those must not all be near 1 (they were).
    const first = Array.from({ length: 200 }, (_, seed) => createRandom(seed)());
    const buckets = Array<number>(4).fill(0);
    for (const v of first) buckets[Math.floor(v * 4)]!++;
    for (const b of buckets) expect(b).toBeGreaterThan(25); // 50 expected in each
  });

  it('rejects a seed that is not a whole number', () => {
    expect(() => createRandom(1.5)).toThrow(/whole number/);
    expect(() => createRandom(Number.NaN)).toThrow(/whole number/);
  });
});

describe('randomInt', () => {
  it('draws every value of 0..n-1 and nothing else', () => {
    const rand = createRandom(3);
    const seen = new Set<number>();
    for (let k = 0; k < 500; k++) seen.add(randomInt(rand, 6));
    expect([...seen].sort()).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it('is deterministic for a seed', () => {
    const draw = (seed: number) => {
      const rand = createRandom(seed);
      return Array.from({ length: 20 }, () => randomInt(rand, 1000));
    };
    expect(draw(9)).toEqual(draw(9));
    expect(draw(9)).not.toEqual(draw(10));
  });

  it('rejects n < 1 or a fractional n', () => {
    const rand = createRandom(0);
    expect(() => randomInt(rand, 0)).toThrow(RangeError);
    expect(() => randomInt(rand, 2.5)).toThrow(RangeError);
  });
});
