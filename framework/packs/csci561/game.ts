/** Seed 000's game: the csci561 profile's rules on an input's board size (its inputs set the stones, so none to start). */
import { MancalaGame } from '../../games/mancala/engine.ts';
import { PROFILES } from '../../games/mancala/profiles.ts';

export function csci561Game(pits: number): MancalaGame {
  return new MancalaGame({ ...PROFILES.csci561!.rules, pits, seeds: 0 }, `csci561(${pits})`);
}
