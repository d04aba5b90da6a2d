/**
 * The cold-start figures `mancala bench` prints come from real runs of the built command: each
 * command named succeeds (a failing one stops the measurement), and the figures are times.
 * Not a speed test: how fast is for `npm run bench` to show.
 */
import { describe, expect, it } from 'vitest';
import { measureColdStarts } from './cold-start.ts';

describe('measureColdStarts', () => {
  it('runs node alone and each command in a fresh process, to a successful exit', () => {
    const c = measureColdStarts(1);
    expect(c.runs).toBe(1);
    expect(c.nodeAloneMs).toBeGreaterThan(0);
    expect(c.commands.map((k) => k.command)).toEqual([
      'mancala --version',
      'mancala search --rules kalah --algo alphabeta --depth 6',
      'mancala csci561 input.txt (MiniMax, depth 2)',
    ]);
    for (const k of c.commands) expect(k.medianMs, k.command).toBeGreaterThan(0);
  });
});
