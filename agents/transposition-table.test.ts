import { describe, expect, it } from 'vitest';
import { BOUND_EXACT, BOUND_LOWER, TranspositionTable } from './transposition-table.ts';

const cells = (...v: number[]) => Int32Array.from(v);

describe('TranspositionTable', () => {
  it('finds what was stored for a position and nothing for another', () => {
    const table = new TranspositionTable(8);
    table.hash(cells(4, 4, 4, 0, 4, 4, 4, 0, 0), 9);
    table.store(12, 3, BOUND_LOWER, 2);
    table.hash(cells(4, 4, 4, 0, 4, 4, 4, 0, 0), 9);
    const slot = table.probe();
    expect(slot).toBeGreaterThanOrEqual(0);
    expect([table.value(slot), table.draft(slot), table.bound(slot), table.move(slot)]).toEqual([12, 3, BOUND_LOWER, 2]);
    table.hash(cells(4, 4, 4, 0, 4, 4, 4, 0, 1), 9); // same board, other player to move
    expect(table.probe()).toBe(-1);
  });

  it('forgets everything at a new search', () => {
    const table = new TranspositionTable(8);
    table.hash(cells(1, 2, 3), 3);
    table.store(5, 1, BOUND_EXACT, 0);
    table.newSearch();
    table.hash(cells(1, 2, 3), 3);
    expect(table.probe()).toBe(-1);
  });

  it('spreads positions over the table: few collide in one slot', () => {
    const table = new TranspositionTable(12);
    const slots = new Set<number>();
    // 1000 neighbouring positions (they differ by a stone or two) into 4096 slots.
    for (let k = 0; k < 1000; k++) {
      table.hash(cells(k % 10, ((k / 10) | 0) % 10, (k / 100) | 0, 0, 4, 4, 4, 0, 0), 9);
      table.store(k, 1, BOUND_EXACT, 0);
      slots.add(table.probe());
    }
    // Uniform hashing puts 1000 keys in about 4096 * (1 - e^(-1000/4096)) ≈ 885 distinct slots.
    expect(slots.size).toBeGreaterThan(840);
  });
});
