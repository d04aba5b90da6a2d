import { describe, expect, it } from 'vitest';
import { buildSchedule, pairings } from './schedule.ts';

const rr = (agents: string[], gamesPerPair: number, seed = 1) => ({ format: 'round-robin' as const, agents, vs: [], gamesPerPair, seed });

describe('pairings', () => {
  it('a round robin pairs every two agents once; a gauntlet each agent with each reference', () => {
    expect(pairings(rr(['a', 'b', 'c'], 1))).toEqual([
      ['a', 'b'],
      ['a', 'c'],
      ['b', 'c'],
    ]);
    expect(pairings({ format: 'gauntlet', agents: ['x', 'y'], vs: ['r1', 'r2'] })).toEqual([
      ['x', 'r1'],
      ['x', 'r2'],
      ['y', 'r1'],
      ['y', 'r2'],
    ]);
  });
});

describe('buildSchedule', () => {
  const agents = ['a', 'b', 'c', 'd', 'e'];

  it('numbers the games 1..N, each pair playing gamesPerPair games with colours alternating', () => {
    const s = buildSchedule(rr(agents, 4));
    expect(s.map((g) => g.index)).toEqual(Array.from({ length: 40 }, (_, k) => k + 1));
    for (const [A, B] of pairings(rr(agents, 4))) {
      const games = s.filter((g) => g.A === A && g.B === B);
      expect(games.map((g) => g.round)).toEqual([0, 1, 2, 3]);
      expect(games.map((g) => g.first)).toEqual(['A', 'B', 'A', 'B']);
    }
  });

  it('plays round by round: every pair has played k games before any pair plays its k+2-th', () => {
    const s = buildSchedule(rr(agents, 3));
    const rounds = s.map((g) => g.round);
    expect(rounds).toEqual([...rounds].sort((x, y) => x - y));
  });

  it('is a function of the seed: the same seed gives the same schedule, another seed another order and other game seeds', () => {
    expect(buildSchedule(rr(agents, 2, 7))).toEqual(buildSchedule(rr(agents, 2, 7)));
    const a = buildSchedule(rr(agents, 2, 7));
    const b = buildSchedule(rr(agents, 2, 8));
    expect(a.map((g) => `${g.A}-${g.B}`)).not.toEqual(b.map((g) => `${g.A}-${g.B}`));
    expect(a.map((g) => g.seed)).not.toEqual(b.map((g) => g.seed));
    expect(new Set(a.map((g) => g.seed)).size).toBe(a.length);
  });

  it('a gauntlet puts the contestant on side A and the reference on side B', () => {
    const s = buildSchedule({ format: 'gauntlet', agents: ['x', 'y'], vs: ['r'], gamesPerPair: 2, seed: 1 });
    expect(s).toHaveLength(4);
    expect(s.every((g) => ['x', 'y'].includes(g.A) && g.B === 'r')).toBe(true);
  });
});
