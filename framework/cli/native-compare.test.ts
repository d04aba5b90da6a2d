/**
 * The bench's line against the C baseline where compare.sh is absent (native-compare.slow.test.ts
 * runs the real script).
 */
import { describe, expect, it } from 'vitest';
import { COMPARE_SCRIPT, compareWithC, nativeCompareLine } from './native-compare.ts';

describe('the bench against the C baseline', () => {
  it('says it skipped the comparison, and why, where compare.sh is absent', () => {
    const c = compareWithC(8, COMPARE_SCRIPT + '.absent');
    expect(c).toEqual({ depth: 8, skipped: expect.stringMatching(/^no compare\.sh beside the project/) });
    expect(nativeCompareLine(c)).toMatch(/compare\.sh: skipped \(no compare\.sh /);
  });
});
