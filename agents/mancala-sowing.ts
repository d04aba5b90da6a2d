/**
 * What a sowing will do at once, read off the board without playing it: a free turn, a capture
 * of so many stones, or neither. The advanced heuristic counts these prospects; the strong
 * agent tries such moves first. It reads the rule flags (free turns, the capture rule, captures
 * from an empty opposite pit); sowings of a full lap or more (they refill every pit) report 0.
 */
import type { Player } from '../framework/contracts/game.ts';
import type { MancalaGame, MancalaState } from '../framework/games/mancala/engine.ts';

/** The outcome code for a sowing that ends in the mover's store (with free turns on). */
export const FREE_TURN = -1;

/**
 * FREE_TURN, or the stones a capture would put in p's store (> 0), or 0, for p sowing its pit
 * with sowing index i (p need not be the player to move: this also reads threats).
 */
export function sowingOutcome(g: MancalaGame, s: MancalaState, p: Player, i: number): number {
  const n = g.n;
  const rules = g.rules;
  const stones = g.pit(s, p, i);
  if (stones === 0) return 0;
  const lap = 2 * n + 1; // one stone in every cell but the opponent's store
  const toStore = n - i;
  if (rules.freeTurn && stones % lap === toStore) return FREE_TURN;
  if (rules.capture === 'none' || stones >= lap) return 0;
  // Where the last stone lands on p's side, and how many stones then face it.
  let landing: number;
  let opposite: number;
  if (stones < toStore) {
    landing = i + stones;
    if (g.pit(s, p, landing) !== 0) return 0;
    opposite = g.pit(s, p === 0 ? 1 : 0, n - 1 - landing);
  } else if (stones > toStore + n) {
    landing = stones - toStore - n - 1; // wrapped round (less than a lap): 0 ≤ landing < i
    if (g.pit(s, p, landing) !== 0) return 0;
    opposite = g.pit(s, p === 0 ? 1 : 0, n - 1 - landing) + 1; // the pass over the opponent's row dropped one there
  } else {
    return 0; // ends in the store without a free turn, or on the opponent's side
  }
  if (opposite === 0 && !rules.captureEmptyOpposite) return 0;
  return rules.capture === 'last-and-opposite' ? opposite + 1 : opposite;
}
