import { describe, expect, it } from 'vitest';
import { solve } from '../agents/perfect/index.ts';
import { mancalaGame } from '../framework/games/mancala/profile-game.ts';
import { PROFILES } from '../framework/games/mancala/profiles.ts';

// Irving, Donkers & Uiterwijk (2000), Table 9: the entries the solver proves in seconds to a
// minute here (the unit tests have the quickest ones; docs/perfect-play.md the whole table).
describe('the published values of Kalah (empty-capture rules)', () => {
  it.each([
    [4, 3, 8],
    [5, 3, 8],
    [6, 2, 10],
    [6, 3, 2],
  ])('Kalah(%i,%i) is %i', (pits, seeds, published) => {
    const game = mancalaGame(PROFILES['kalah-empty-capture']!, pits, seeds);
    const r = solve(game, game.initial(), { moveValues: 'best' });
    expect(r.proven).toBe(true);
    expect(r.value).toBe(published);
  });
});
