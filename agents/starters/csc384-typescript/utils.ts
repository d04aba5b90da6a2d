/**
 * Assignment 001 (CSC384 style), the seed's utils_starter.py: the players' names, a few board
 * helpers, and the two heuristic functions you write.
 *
 * Fill in `heuristic_basic` and `heuristic_advanced` (search for TODO). Do not change the provided
 * code: the graders load `heuristic_basic.ts` and `heuristic_advanced.ts`, which call these.
 */
import type { Game, Player } from '../../../framework/contracts/game.ts';
import type { MancalaGame, MancalaState } from '../../../framework/games/mancala/engine.ts';
import { NotImplementedYet } from '../../../framework/contracts/not-implemented.ts';

/**
 * The two players. Use these names rather than 0 and 1: the framework numbers BOTTOM 0 (bottom
 * moves first) and TOP 1, the other way round from the Python starter code.
 */
export const BOTTOM: Player = 0;
export const TOP: Player = 1;

export function opponent(player: Player): Player {
  return player === BOTTOM ? TOP : BOTTOM;
}

/** The Mancala board behind the Game contract (stores, pockets); the graders always hand you one. */
export function mancala(game: Game<MancalaState>): MancalaGame {
  return game as MancalaGame;
}

/** Stones in `player`'s Mancala store, as they stand (no end-of-game sweep). */
export function store(game: Game<MancalaState>, state: MancalaState, player: Player): number {
  return mancala(game).store(state, player);
}

/**
 * `player`'s pockets by the course's pocket index: left to right as the BOTTOM player sees the
 * board, as in a board file (for TOP that is the reverse of the order its stones are sown in).
 */
export function pockets(game: Game<MancalaState>, state: MancalaState, player: Player): number[] {
  const row = mancala(game).row(state, player); // in sowing order
  return player === BOTTOM ? row : row.reverse();
}

/**
 * The basic heuristic: the stones in `player`'s store minus the stones in the opponent's store.
 * (The seed's example: bottom 8, top 1 gives 7 for BOTTOM and -7 for TOP.)
 */
export function heuristic_basic(game: Game<MancalaState>, state: MancalaState, player: Player): number {
  // TODO: return player's store minus the opponent's store (see `store` and `opponent` above).
  throw new NotImplementedYet('heuristic_basic');
}

/**
 * Your advanced heuristic, from `player`'s point of view (bigger is better for `player`). It is
 * graded by playing OUR alpha-beta with it against our alpha-beta with the basic heuristic: it
 * must win at least half of the games.
 *
 * Ideas (the handout's): empty pockets on each side, the arrangement of empty pockets and the
 * captures they allow, a different strategy in the opening, middle and end game. Remember that a
 * search also asks it about FINISHED positions (game.isOver(state)), whose stores have not been
 * swept yet: what is a finished game really worth?
 */
export function heuristic_advanced(game: Game<MancalaState>, state: MancalaState, player: Player): number {
  // TODO: design and implement your own heuristic.
  throw new NotImplementedYet('heuristic_advanced');
}
