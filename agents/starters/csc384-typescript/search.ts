/**
 * Provided code (do not change): what the graders hand your searches, and how an agent's options
 * pick the version of your search that runs. Both agent_minimax.ts and agent_alphabeta.ts use it.
 */
import type { AgentContext } from '../../../framework/contracts/agent.ts';
import type { Game, Player } from '../../../framework/contracts/game.ts';
import type { MancalaState } from '../../../framework/games/mancala/engine.ts';

/** What every search function receives. */
export interface Search {
  /** The game. Make moves with `game.play(state, move)` (a new state): it counts the positions you visit. */
  game: Game<MancalaState>;
  /** MAX: the player the agent chooses a move for. Values are always from MAX's point of view. */
  max: Player;
  /**
   * The heuristic value of a position for MAX: at the depth limit, and at the end of the game
   * (a finished position is valued on its stores as they stand, without the end-of-game sweep).
   */
  evaluate(state: MancalaState): number;
}

/** A move and its value. `move` is null where no move is made: the game is over, or the depth limit is reached. */
export interface Best {
  move: number | null;
  value: number;
}

/** `--limit -1`: no depth limit. */
export const NO_LIMIT = -1;

/**
 * The version of the search the options ask for, as the tests call them:
 * `caching` → the depth-limited search with caching (the limit may be NO_LIMIT);
 * a depth limit (a number ≥ 0) → the depth-limited search; no limit → the basic search.
 */
export type Version = { kind: 'basic' } | { kind: 'limit'; limit: number } | { kind: 'caching'; limit: number };

export function versionOf(ctx: AgentContext<MancalaState>): Version {
  const depth = ctx.options.depth;
  const limit = typeof depth === 'number' && depth >= 0 ? depth : NO_LIMIT;
  if (ctx.options.caching === true) return { kind: 'caching', limit };
  return limit === NO_LIMIT ? { kind: 'basic' } : { kind: 'limit', limit };
}

export function searchOf(ctx: AgentContext<MancalaState>): Search {
  const { game, player, heuristic } = ctx;
  const finalScore = ctx.options.terminal === 'score'; // other courses' convention; CSC384 uses the heuristic
  return {
    game,
    max: player,
    evaluate: (state) => (finalScore && game.isOver(state) ? game.score(state, player) : heuristic.evaluate(state, player, game)),
  };
}

/** The agent's answer: the root's best move and its value. */
export function answer(best: Best): { move: number; value: number } {
  if (best.move === null) throw new Error('the search returned no move for the root position');
  return { move: best.move, value: best.value };
}
