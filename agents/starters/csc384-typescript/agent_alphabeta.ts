/**
 * Assignment 001 (CSC384 style), the seed's agent_alphabeta_starter.py: alpha-beta pruning.
 *
 * The same structure as agent_minimax.ts (read its rules first: values from MAX's point of view,
 * moves in `legalMoves` order, the first best move kept, moves made with `search.game.play`).
 * Fill in the six functions below (search for TODO):
 *  1. alphabeta_max_basic / alphabeta_min_basic: no depth limit, no caching;
 *  2. alphabeta_max_limit / alphabeta_min_limit: with a depth limit;
 *  3. alphabeta_max_limit_caching / alphabeta_min_limit_caching: with a depth limit and caching.
 *
 * Pruning, as the tests count nodes (shown beside ours in your report; graded only if your
 * instructor turns node counts on): `alpha` is the value MAX can already secure, `beta` the value
 * MIN can. A MAX node stops trying moves as soon as its best value is >= beta; otherwise it raises
 * alpha to its best value. A MIN node stops as soon as its best value is <= alpha; otherwise it
 * lowers beta. Each child is searched with the current alpha and beta. Return the node's best value
 * even when it stopped early.
 *
 * Provided code (do not change): the imports, the types and the agent at the bottom.
 */
import type { Agent } from '../../../framework/contracts/agent.ts';
import type { MancalaState } from '../../../framework/games/mancala/engine.ts';
import { answer, searchOf, versionOf, type Best, type Search } from './search.ts';
import { NotImplementedYet } from '../../../framework/contracts/not-implemented.ts';

/**
 * A cached result. With pruning, a node's value may be only a bound: a MAX node that stopped at
 * v >= beta is worth AT LEAST v (`lower`), a node whose value came out <= the alpha it was given is
 * worth AT MOST v (`upper`); otherwise v is `exact`.
 */
export interface CacheEntry extends Best {
  bound: 'exact' | 'lower' | 'upper';
}

export type Cache = Map<string, CacheEntry>;

// ---- 1. basic alpha-beta ------------------------------------------------------------------------

/** The best move for MAX in `state` (MAX to move) and its value, searched within (alpha, beta). */
export function alphabeta_max_basic(search: Search, state: MancalaState, alpha: number, beta: number): Best {
  // TODO
  throw new NotImplementedYet('alphabeta_max_basic');
}

export function alphabeta_min_basic(search: Search, state: MancalaState, alpha: number, beta: number): Best {
  // TODO
  throw new NotImplementedYet('alphabeta_min_basic');
}

// ---- 2. with a depth limit ----------------------------------------------------------------------

export function alphabeta_max_limit(search: Search, state: MancalaState, alpha: number, beta: number, limit: number): Best {
  // TODO
  throw new NotImplementedYet('alphabeta_max_limit');
}

export function alphabeta_min_limit(search: Search, state: MancalaState, alpha: number, beta: number, limit: number): Best {
  // TODO
  throw new NotImplementedYet('alphabeta_min_limit');
}

// ---- 3. with a depth limit and caching ----------------------------------------------------------

/**
 * As alphabeta_max_limit, with a cache keyed as in minimax (`${search.game.key(state)}|${limit}`).
 * Use an entry only where it decides the node: an `exact` one always, a `lower` one when its value
 * is >= beta, an `upper` one when its value is <= alpha. Store each searched node with its bound
 * (compare its value with the alpha and beta it was called with). Your report compares your node
 * count with ours (a factor 1.25 is accepted where node counts are graded); a cache that keeps
 * exact values only saves too little on some.
 */
export function alphabeta_max_limit_caching(search: Search, state: MancalaState, alpha: number, beta: number, limit: number, cache: Cache): Best {
  // TODO
  throw new NotImplementedYet('alphabeta_max_limit_caching');
}

export function alphabeta_min_limit_caching(search: Search, state: MancalaState, alpha: number, beta: number, limit: number, cache: Cache): Best {
  // TODO
  throw new NotImplementedYet('alphabeta_min_limit_caching');
}

// ---- provided: the agent the tests and `mancala play` run ----------------------------------------

const agent: Agent<MancalaState> = {
  name: 'agent_alphabeta',
  description: 'alpha-beta: basic, with a depth limit, with a depth limit and caching (options depth, caching)',
  chooseMove(ctx) {
    const search = searchOf(ctx);
    const version = versionOf(ctx);
    switch (version.kind) {
      case 'basic':
        return answer(alphabeta_max_basic(search, ctx.state, -Infinity, Infinity));
      case 'limit':
        return answer(alphabeta_max_limit(search, ctx.state, -Infinity, Infinity, version.limit));
      case 'caching':
        return answer(alphabeta_max_limit_caching(search, ctx.state, -Infinity, Infinity, version.limit, new Map()));
    }
  },
};

export default agent;
