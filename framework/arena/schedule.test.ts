import { describe, expect, it } from 'vitest';
import { pickLadderPairs, type LadderEntry } from './schedule.ts';

const anchors: LadderEntry[] = [
  { key: 'anchor:random', student: null, rating: 10, games: 0 },
  { key: 'anchor:greedy', student: null, rating: 18, games: 0 },
];

describe('pickLadderPairs', () => {
  it('gives the next game to the submission with the fewest games, against the nearest rating', () => {
    const entries: LadderEntry[] = [...anchors, { key: 'sub:1', student: 'a', rating: 17, games: 10 }, { key: 'sub:2', student: 'b', rating: 11, games: 2 }];
    expect(pickLadderPairs(entries, { met: new Map(), pending: new Map(), wanted: 1, seed: 1 })).toEqual([['sub:2', 'anchor:random']]);
  });

  it('prefers an opponent not met before when ratings are close', () => {
    const entries: LadderEntry[] = [{ key: 'sub:1', student: 'a', rating: 20, games: 0 }, { key: 'sub:2', student: 'b', rating: 20.5, games: 4 }, { key: 'sub:3', student: 'c', rating: 21, games: 4 }];
    const met = new Map([['sub:1|sub:2', 6]]);
    expect(pickLadderPairs(entries, { met, pending: new Map(), wanted: 1, seed: 1 })[0]).toEqual(['sub:1', 'sub:3']);
  });

  it('spreads games evenly over many picks, and never pairs a student with themself', () => {
    const subs: LadderEntry[] = Array.from({ length: 9 }, (_, k) => ({ key: `sub:${k}`, student: `s${k}`, rating: 15 + k, games: 0 }));
    const pairs = pickLadderPairs([...anchors, ...subs], { met: new Map(), pending: new Map(), wanted: 90, seed: 7 });
    const count = new Map<string, number>();
    for (const [a, b] of pairs) {
      expect(a).not.toBe(b);
      for (const k of [a, b]) if (k.startsWith('sub:')) count.set(k, (count.get(k) ?? 0) + 2);
    }
    const games = [...count.values()];
    expect(Math.max(...games) - Math.min(...games)).toBeLessThanOrEqual(4);
  });

  it('is the same for the same seed', () => {
    const subs: LadderEntry[] = Array.from({ length: 5 }, (_, k) => ({ key: `sub:${k}`, student: `s${k}`, rating: 20, games: 0 }));
    const a = pickLadderPairs(subs, { met: new Map(), pending: new Map(), wanted: 6, seed: 3 });
    expect(pickLadderPairs(subs, { met: new Map(), pending: new Map(), wanted: 6, seed: 3 })).toEqual(a);
  });
});

describe('pickLadderPairs with a cap a pair', () => {
  it('pairs nobody beyond the cap, and rests when every pair has met that often', () => {
    const entries: LadderEntry[] = [...anchors, { key: 'sub:1', student: 'a', rating: 17, games: 0 }];
    const met = new Map([['anchor:greedy|sub:1', 4]]);
    expect(pickLadderPairs(entries, { met, pending: new Map(), wanted: 3, seed: 1, maxMet: 4 })).toEqual([['sub:1', 'anchor:random'], ['sub:1', 'anchor:random']]);
    expect(pickLadderPairs(entries, { met: new Map([...met, ['anchor:random|sub:1', 4]]), pending: new Map(), wanted: 3, seed: 1, maxMet: 4 })).toEqual([]);
  });
});
