/**
 * The Tournaments page's scales: the plot's round ticks and the heat map's colours (the drawing
 * itself is checked in a browser: testcases/web-tournaments.slow.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { niceTicks, shareColour } from './tournament-charts.ts';

describe('niceTicks', () => {
  it('covers the range with round steps', () => {
    expect(niceTicks(3.2, 47.9, 5)).toEqual([0, 10, 20, 30, 40, 50]);
    expect(niceTicks(18.3, 33.1, 8)).toEqual([18, 20, 22, 24, 26, 28, 30, 32, 34]);
    expect(niceTicks(-4.5, 4.5, 4)).toEqual([-5, 0, 5]);
    expect(niceTicks(24.99, 25.01, 4)).toEqual([24.99, 25, 25.01]);
  });

  it('never loops on a degenerate range', () => {
    expect(niceTicks(25, 25)).toEqual([25]);
    expect(niceTicks(Number.NaN, 3)).toEqual([]);
  });
});

describe('shareColour', () => {
  it('runs from red (all lost) through pale (even) to green (all won), and clamps', () => {
    expect(shareColour(0)).toBe('rgb(226, 122, 122)');
    expect(shareColour(0.5)).toBe('rgb(243, 236, 222)');
    expect(shareColour(1)).toBe('rgb(104, 186, 140)');
    expect(shareColour(2)).toBe(shareColour(1));
    expect(shareColour(-1)).toBe(shareColour(0));
    const green = (s: number) => Number(/rgb\(\d+, (\d+)/.exec(shareColour(s))![1]);
    expect(green(0.25)).toBeGreaterThan(green(0));
    expect(green(0.25)).toBeLessThan(green(0.5));
  });
});
