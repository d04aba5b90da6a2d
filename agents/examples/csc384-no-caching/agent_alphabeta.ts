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

export interface CacheEntry extends Best {
  bound: 'exact' | 'lower' | 'upper';
}

export type Cache = Map<string, CacheEntry>;

// ---- 1. basic alpha-beta ------------------------------------------------------------------------

export function alphabeta_max_basic(search: Search, state: MancalaState, alpha: number, beta: number): Best {
  const { game } = search;
  if (game.isOver(state)) return { move: null, value: search.evaluate(state) };
  let best: Best = { move: null, value: -Infinity };
  for (const move of game.legalMoves(state)) {
    const { value } = alphabeta_min_basic(search, game.play(state, move), alpha, beta);
    if (value > best.value) best = { move, value };
    if (best.value >= beta) break;
    alpha = Math.max(alpha, best.value);
  }
  return best;
}

export function alphabeta_min_basic(search: Search, state: MancalaState, alpha: number, beta: number): Best {
  const { game } = search;
  if (game.isOver(state)) return { move: null, value: search.evaluate(state) };
  let best: Best = { move: null, value: Infinity };
  for (const move of game.legalMoves(state)) {
    const { value } = alphabeta_max_basic(search, game.play(state, move), alpha, beta);
    if (value < best.value) best = { move, value };
    if (best.value <= alpha) break;
    beta = Math.min(beta, best.value);
  }
  return best;
}

// ---- 2. with a depth limit ----------------------------------------------------------------------

export function alphabeta_max_limit(search: Search, state: MancalaState, alpha: number, beta: number, limit: number): Best {
  const { game } = search;
  if (game.isOver(state) || limit === 0) return { move: null, value: search.evaluate(state) };
  let best: Best = { move: null, value: -Infinity };
  for (const move of game.legalMoves(state)) {
    const { value } = alphabeta_min_limit(search, game.play(state, move), alpha, beta, limit - 1);
    if (value > best.value) best = { move, value };
    if (best.value >= beta) break;
    alpha = Math.max(alpha, best.value);
  }
  return best;
}

export function alphabeta_min_limit(search: Search, state: MancalaState, alpha: number, beta: number, limit: number): Best {
  const { game } = search;
  if (game.isOver(state) || limit === 0) return { move: null, value: search.evaluate(state) };
  let best: Best = { move: null, value: Infinity };
  for (const move of game.legalMoves(state)) {
    const { value } = alphabeta_max_limit(search, game.play(state, move), alpha, beta, limit - 1);
    if (value < best.value) best = { move, value };
    if (best.value <= alpha) break;
    beta = Math.min(beta, best.value);
  }
  return best;
}

// ---- 3. with a depth limit and caching ----------------------------------------------------------

/** The cached entry for `key` when it decides the node within (alpha, beta), else undefined. */
function usable(cache: Cache, key: string, alpha: number, beta: number): CacheEntry | undefined {
  const entry = cache.get(key);
  if (entry === undefined) return undefined;
  if (entry.bound === 'exact' || (entry.bound === 'lower' && entry.value >= beta) || (entry.bound === 'upper' && entry.value <= alpha)) return entry;
  return undefined;
}

function boundOf(value: number, alpha: number, beta: number): CacheEntry['bound'] {
  return value <= alpha ? 'upper' : value >= beta ? 'lower' : 'exact';
}

export function alphabeta_max_limit_caching(search: Search, state: MancalaState, alpha: number, beta: number, limit: number, cache: Cache): Best {
  const { game } = search;
  if (game.isOver(state) || limit === 0) return { move: null, value: search.evaluate(state) };
  const key = `${game.key(state)}|${limit}`;
  const cached = usable(cache, key, alpha, beta);
  if (cached !== undefined) return cached;
  const alphaIn = alpha;
  let best: Best = { move: null, value: -Infinity };
  for (const move of game.legalMoves(state)) {
    const { value } = alphabeta_min_limit_caching(search, game.play(state, move), alpha, beta, limit - 1, cache);
    if (value > best.value) best = { move, value };
    if (best.value >= beta) break;
    alpha = Math.max(alpha, best.value);
  }
  // (the bug: the result is never stored in the cache, so every lookup misses)
  return best;
}

export function alphabeta_min_limit_caching(search: Search, state: MancalaState, alpha: number, beta: number, limit: number, cache: Cache): Best {
  const { game } = search;
  if (game.isOver(state) || limit === 0) return { move: null, value: search.evaluate(state) };
  const key = `${game.key(state)}|${limit}`;
  const cached = usable(cache, key, alpha, beta);
  if (cached !== undefined) return cached;
  const betaIn = beta;
  let best: Best = { move: null, value: Infinity };
  for (const move of game.legalMoves(state)) {
    const { value } = alphabeta_max_limit_caching(search, game.play(state, move), alpha, beta, limit - 1, cache);
    if (value < best.value) best = { move, value };
    if (best.value <= alpha) break;
    beta = Math.min(beta, best.value);
  }
  // (the bug: the result is never stored in the cache, so every lookup misses)
  return best;
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
