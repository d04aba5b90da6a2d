/** Number formatting of the command's output: the hand-made grouping equals what Intl writes. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { grouped } from './options.ts';

describe('grouped', () => {
  it('equals toLocaleString("en-US") on every safe integer', () => {
    fc.assert(fc.property(fc.oneof(fc.integer(), fc.maxSafeInteger(), fc.integer({ min: -1_000_000, max: 1_000_000 })), (n) => grouped(n) === n.toLocaleString('en-US')));
    expect(grouped(1234567)).toBe('1,234,567');
    expect(grouped(-1000)).toBe('-1,000');
    expect(grouped(999)).toBe('999');
  });
});
