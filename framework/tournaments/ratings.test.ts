import { describe, expect, it } from 'vitest';
import { computeStandings } from './ratings.ts';
import type { PlayedGame } from './results.ts';

let n = 0;
function game(A: string, B: string, winner: 'A' | 'B' | 'draw', forfeit = false): PlayedGame {
  n++;
  return {
    index: n,
    A,
    B,
    first: 'A',
    winner,
    score: winner === 'A' ? [10, 2] : winner === 'B' ? [2, 10] : [6, 6],
    moves: [0],
    openingPlies: 0,
    forfeit: forfeit && winner !== 'draw' ? { side: winner === 'A' ? 'B' : 'A', reason: 'crash', message: 'boom' } : null,
    time: [1, 1],
  };
}

describe('computeStandings', () => {
  it('counts wins, draws, losses, points and forfeits, and ranks the agent that won above the one that lost', () => {
    n = 0;
    const games = [game('a', 'b', 'A'), game('a', 'b', 'B', true), game('a', 'c', 'A'), game('b', 'c', 'draw'), game('a', 'c', 'A')];
    const s = computeStandings(['a', 'b', 'c'], games);
    expect(s.map((x) => x.agent)).toEqual(['a', 'b', 'c']);
    const a = s[0]!;
    expect([a.wins, a.draws, a.losses, a.points, a.forfeits]).toEqual([3, 0, 1, 3, 1]);
    const b = s[1]!;
    expect([b.wins, b.draws, b.losses, b.points, b.forfeits]).toEqual([1, 1, 1, 1.5, 0]);
  });

  it('the interval is rating ± 2σ around the rating, and narrows as games are played', () => {
    n = 0;
    const few = computeStandings(['a', 'b'], [game('a', 'b', 'A')]);
    n = 0;
    const many = computeStandings(['a', 'b'], Array.from({ length: 20 }, (_, k) => game('a', 'b', k % 3 === 0 ? 'B' : 'A')));
    for (const s of [...few, ...many]) {
      expect(s.ci[0]).toBeLessThan(s.rating);
      expect(s.rating - s.ci[0]).toBeCloseTo(s.ci[1] - s.rating, 9);
    }
    const width = (x: { ci: [number, number] }) => x.ci[1] - x.ci[0];
    expect(width(many[0]!)).toBeLessThan(width(few[0]!));
  });

  it('rates games in index order: the order the results arrive in does not matter', () => {
    n = 0;
    const games = [game('a', 'b', 'A'), game('b', 'c', 'B'), game('c', 'a', 'draw'), game('a', 'b', 'B'), game('b', 'c', 'A')];
    const inOrder = computeStandings(['a', 'b', 'c'], games);
    const shuffled = computeStandings(['a', 'b', 'c'], [games[3]!, games[0]!, games[4]!, games[2]!, games[1]!]);
    expect(shuffled).toEqual(inOrder);
    // ...whereas the ratings really depend on the order games are rated in (so sorting matters).
    const renumbered = [games[3]!, games[0]!, games[4]!, games[2]!, games[1]!].map((g, k) => ({ ...g, index: k + 1 }));
    expect(computeStandings(['a', 'b', 'c'], renumbered).map((s) => s.rating)).not.toEqual(inOrder.map((s) => s.rating));
  });

  it('a draw between equals leaves them equal; an agent that never played keeps the starting rating', () => {
    n = 0;
    const s = computeStandings(['a', 'b', 'idle'], [game('a', 'b', 'draw')]);
    const by = Object.fromEntries(s.map((x) => [x.agent, x]));
    expect(by['a']!.rating).toBeCloseTo(by['b']!.rating, 12);
    expect(by['idle']!.rating).toBe(25);
    expect(by['idle']!.ci).toEqual([25 - (2 * 25) / 3, 25 + (2 * 25) / 3]);
  });
});
