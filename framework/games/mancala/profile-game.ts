/**
 * The Mancala game of a rule profile on a board of `pits` pits and `seeds` stones each, named after
 * all three (`kalah(6,4)`).
 */
import { MancalaGame } from './engine.ts';
import type { MancalaProfile } from './profiles.ts';

export function mancalaGame(profile: MancalaProfile, pits: number, seeds: number): MancalaGame {
  return new MancalaGame({ ...profile.rules, pits, seeds }, `${profile.name}(${pits},${seeds})`);
}
