import { describe, expect, it } from 'vitest';
import { mancalaGame } from '../../framework/games/mancala/profile-game.ts';
import { PROFILES } from '../../framework/games/mancala/profiles.ts';
import { plainSolve } from './plain-solve.ts';

// Irving, Donkers & Uiterwijk (2000), Table 9, on the rules of the published solutions.
describe('plainSolve, the specification of perfect play', () => {
  it.each([
    [3, 1, undefined],
    [4, 1, 2],
    [5, 1, 0],
  ])('Kalah(%i,%i) empty capture: the published value', (pits, seeds, published) => {
    const game = mancalaGame(PROFILES['kalah-empty-capture']!, pits, seeds);
    const result = plainSolve(game, game.initial());
    if (published !== undefined) expect(result.value).toBe(published);
    expect(result.bestMoves.length).toBeGreaterThan(0);
    for (const m of result.bestMoves) expect(result.moveValues!.get(m)).toBe(result.value);
  });
});
