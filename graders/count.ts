/**
 * How `nodes` and `evaluations` compare a count with the reference's (CountCheck): exactly, at
 * most, or within a factor. One helper, so both checks word their verdicts the same way.
 */
import type { CountCheck } from '../framework/suites/types.ts';

export interface CountVerdict {
  passed: boolean;
  /** what was expected, e.g. "exactly 1,234 (the reference's count)" */
  expectation: string;
}

const fmt = (n: number): string => n.toLocaleString('en-US');

/** The range a ratio check accepts for a reference count (whole numbers, both ends included). */
export function ratioRange(reference: number, ratio: number): { low: number; high: number } {
  // A factor below 1 means the same band as its inverse.
  const factor = ratio >= 1 ? ratio : 1 / ratio;
  // A small epsilon keeps, e.g., 1000 / 1.1 * 1.1 from landing a hair outside the band.
  const eps = 1e-9;
  return { low: Math.ceil(reference / factor - eps), high: Math.floor(reference * factor + eps) };
}

export function compareCount(check: CountCheck, reference: number, got: number): CountVerdict {
  switch (check.mode) {
    case 'exact':
      return { passed: got === reference, expectation: `exactly ${fmt(reference)} (the reference's count)` };
    case 'at-most':
      return { passed: got <= reference, expectation: `at most ${fmt(reference)} (the reference's count)` };
    case 'ratio': {
      const { low, high } = ratioRange(reference, check.ratio);
      return {
        passed: got >= low && got <= high,
        expectation: `${fmt(low)} to ${fmt(high)} (the reference's ${fmt(reference)} within a factor of ${check.ratio})`,
      };
    }
  }
}

/** "expected exactly 1,234 (the reference's count), got 1,240 (6 more)" */
export function countMismatch(verdict: CountVerdict, reference: number, got: number): string {
  const diff = got - reference;
  const delta = diff === 0 ? '' : ` (${fmt(Math.abs(diff))} ${diff > 0 ? 'more' : 'fewer'} than the reference)`;
  return `expected ${verdict.expectation}, got ${fmt(got)}${delta}`;
}
