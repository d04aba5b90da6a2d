/**
 * Assignment 001 (CSC384 style), the seed's agent_minimax_starter.py: depth-first minimax.
 *
 * Fill in the six functions below (search for TODO), in this order, testing each before the next:
 *  1. minimax_max_basic / minimax_min_basic: no depth limit, no caching;
 *  2. minimax_max_limit / minimax_min_limit: with a depth limit;
 *  3. minimax_max_limit_caching / minimax_min_limit_caching: with a depth limit and caching.
 * Most of their code is the same; that is on purpose, so each version is tested on its own.
 *
 * The rules every version follows (the tests grade your move and value; your report also compares
 * your node count with ours, graded only if your instructor turns node counts on):
 *  - values are from MAX's point of view (`search.max`): MAX maximises, MIN minimises;
 *  - a finished position (`search.game.isOver(state)`) and a position at the depth limit are
 *    valued with `search.evaluate(state)`, and their move is null;
 *  - try the moves in the order `search.game.legalMoves(state)` gives them (the pocket index,
 *    left to right as the bottom player sees the board) and keep the FIRST best move: replace the
 *    best only when a value is strictly better;
 *  - make a move with `search.game.play(state, move)`, which returns a new state and counts it;
 *  - there are no free turns: after a move the opponent moves (`search.game.toMove(state)`).
 * The depth limit counts moves: with limit 1, each move of the player to move is valued directly.
 *
 * Provided code (do not change): the imports, the types and the agent at the bottom.
 */
import type { Agent } from '../../../framework/contracts/agent.ts';
import type { MancalaState } from '../../../framework/games/mancala/engine.ts';
import { answer, searchOf, versionOf, type Best, type Search } from './search.ts';
import { NotImplementedYet } from '../../../framework/contracts/not-implemented.ts';

/** Cached results: key → the position's Best. */
export type Cache = Map<string, Best>;

// ---- 1. basic minimax -------------------------------------------------------------------------

/** The best move for MAX in `state` (MAX to move) and its minimax value. */
export function minimax_max_basic(search: Search, state: MancalaState): Best {
  // TODO
  throw new NotImplementedYet('minimax_max_basic');
}

/** The best move for MIN in `state` (MIN to move) and its minimax value (still from MAX's point of view). */
export function minimax_min_basic(search: Search, state: MancalaState): Best {
  // TODO
  throw new NotImplementedYet('minimax_min_basic');
}

// ---- 2. with a depth limit ----------------------------------------------------------------------

/** As minimax_max_basic, looking at most `limit` moves ahead (`limit` 0: value `state` itself). */
export function minimax_max_limit(search: Search, state: MancalaState, limit: number): Best {
  // TODO
  throw new NotImplementedYet('minimax_max_limit');
}

export function minimax_min_limit(search: Search, state: MancalaState, limit: number): Best {
  // TODO
  throw new NotImplementedYet('minimax_min_limit');
}

// ---- 3. with a depth limit and caching ----------------------------------------------------------

/**
 * As minimax_max_limit, remembering what each position searched was worth: before searching a
 * position, look it up in `cache`; after searching it, store the result. A position searched with
 * fewer moves left can be worth something else, so key an entry by the position and the limit
 * left: `${search.game.key(state)}|${limit}` (game.key covers the stones and who is to move).
 * `limit` may be -1 (no limit, from `--limit -1 --caching`): it then never reaches 0.
 */
export function minimax_max_limit_caching(search: Search, state: MancalaState, limit: number, cache: Cache): Best {
  // TODO
  throw new NotImplementedYet('minimax_max_limit_caching');
}

export function minimax_min_limit_caching(search: Search, state: MancalaState, limit: number, cache: Cache): Best {
  // TODO
  throw new NotImplementedYet('minimax_min_limit_caching');
}

// ---- provided: the agent the tests and `mancala play` run ----------------------------------------

const agent: Agent<MancalaState> = {
  name: 'agent_minimax',
  description: 'minimax: basic, with a depth limit, with a depth limit and caching (options depth, caching)',
  chooseMove(ctx) {
    const search = searchOf(ctx);
    const version = versionOf(ctx);
    switch (version.kind) {
      case 'basic':
        return answer(minimax_max_basic(search, ctx.state));
      case 'limit':
        return answer(minimax_max_limit(search, ctx.state, version.limit));
      case 'caching':
        // A new cache for each decision: cached values are from this MAX's point of view.
        return answer(minimax_max_limit_caching(search, ctx.state, version.limit, new Map()));
    }
  },
};

export default agent;
