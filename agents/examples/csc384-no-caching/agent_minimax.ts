/**
 * Example submission "csc384-no-caching": the reference submission (../csc384-reference) with one
 * classic bug: the *_limit_caching functions look positions up in the cache but never store what
 * they searched, so the cache stays empty and the search visits as many positions as without one.
 * Everything else is identical, so its moves and values are right and the csc384 suites, whose
 * node counts are information, give it full marks while telling each caching case's count and the
 * grader's "name the bug": "no transposition table where caching is expected"; with node counts
 * graded (`mancala grade --node-counts graded`) it loses exactly the two caching categories.
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
  // (the bug: the result is never stored in the cache, so every lookup misses)
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
  // (the bug: the result is never stored in the cache, so every lookup misses)
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
