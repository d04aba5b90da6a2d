/**
 * Example submission "csc384-reference": the starter's agent_minimax.ts (agents/starters/csc384-typescript/)
 * filled in as a student would, getting full marks on testcases/csc384-public and csc384-hidden.
 */
import type { Agent } from '../../../framework/contracts/agent.ts';
import type { MancalaState } from '../../../framework/games/mancala/engine.ts';
import { answer, searchOf, versionOf, type Best, type Search } from './search.ts';

/** Cached results: key → the position's Best. */
export type Cache = Map<string, Best>;

// ---- 1. basic minimax -------------------------------------------------------------------------

export function minimax_max_basic(search: Search, state: MancalaState): Best {
  const { game } = search;
  if (game.isOver(state)) return { move: null, value: search.evaluate(state) };
  let best: Best = { move: null, value: -Infinity };
  for (const move of game.legalMoves(state)) {
    const { value } = minimax_min_basic(search, game.play(state, move));
    if (value > best.value) best = { move, value };
  }
  return best;
}

export function minimax_min_basic(search: Search, state: MancalaState): Best {
  const { game } = search;
  if (game.isOver(state)) return { move: null, value: search.evaluate(state) };
  let best: Best = { move: null, value: Infinity };
  for (const move of game.legalMoves(state)) {
    const { value } = minimax_max_basic(search, game.play(state, move));
    if (value < best.value) best = { move, value };
  }
  return best;
}

// ---- 2. with a depth limit ----------------------------------------------------------------------

export function minimax_max_limit(search: Search, state: MancalaState, limit: number): Best {
  const { game } = search;
  if (game.isOver(state) || limit === 0) return { move: null, value: search.evaluate(state) };
  let best: Best = { move: null, value: -Infinity };
  for (const move of game.legalMoves(state)) {
    const { value } = minimax_min_limit(search, game.play(state, move), limit - 1);
    if (value > best.value) best = { move, value };
  }
  return best;
}

export function minimax_min_limit(search: Search, state: MancalaState, limit: number): Best {
  const { game } = search;
  if (game.isOver(state) || limit === 0) return { move: null, value: search.evaluate(state) };
  let best: Best = { move: null, value: Infinity };
  for (const move of game.legalMoves(state)) {
    const { value } = minimax_max_limit(search, game.play(state, move), limit - 1);
    if (value < best.value) best = { move, value };
  }
  return best;
}

// ---- 3. with a depth limit and caching ----------------------------------------------------------

export function minimax_max_limit_caching(search: Search, state: MancalaState, limit: number, cache: Cache): Best {
  const { game } = search;
  if (game.isOver(state) || limit === 0) return { move: null, value: search.evaluate(state) };
  const key = `${game.key(state)}|${limit}`;
  const cached = cache.get(key);
  if (cached !== undefined) return cached;
  let best: Best = { move: null, value: -Infinity };
  for (const move of game.legalMoves(state)) {
    const { value } = minimax_min_limit_caching(search, game.play(state, move), limit - 1, cache);
    if (value > best.value) best = { move, value };
  }
  cache.set(key, best);
  return best;
}

export function minimax_min_limit_caching(search: Search, state: MancalaState, limit: number, cache: Cache): Best {
  const { game } = search;
  if (game.isOver(state) || limit === 0) return { move: null, value: search.evaluate(state) };
  const key = `${game.key(state)}|${limit}`;
  const cached = cache.get(key);
  if (cached !== undefined) return cached;
  let best: Best = { move: null, value: Infinity };
  for (const move of game.legalMoves(state)) {
    const { value } = minimax_max_limit_caching(search, game.play(state, move), limit - 1, cache);
    if (value < best.value) best = { move, value };
  }
  cache.set(key, best);
  return best;
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
