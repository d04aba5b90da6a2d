/**
 * The server's side of the page's reference searches (search-job.ts runs them on the worker pool's
 * threads): how many threads, how many searches at once (beyond, a 503: the page asks again), and
 * how long each may take once its thread has it, past which its thread is ended:
 *
 *  - a Play game's move: twice its time per move and 2 s (a reference agent stops at its deadline
 *    by itself; the cap is for one that would not), the time per move being at most
 *    MAX_WEB_MOVE_MS (the CLI's 3,600,000 ms is for a run its user started; here any page asks);
 *  - a hint: HINT_CAP_MS; an explorer's search: EXPLORE_CAP_MS a depth; a node's solve: its own
 *    deadline (solved-values.ts) and 2 s.
 */
import { availableParallelism } from 'node:os';
import { stateToBoard } from '../../games/mancala/board-io/board.ts';
import type { MancalaGame, MancalaState } from '../../games/mancala/engine.ts';
import type { MatchPlayer, MoveAttempt } from '../../matches/types.ts';
import { PoolThreadCapped, runOnPoolThread } from '../../workers/pool.ts';
import { HttpError } from './http-error.ts';
import { WEB_SEARCH_JOB, type PositionItem, type SearchItem, type SearchResult } from './search-job.ts';
import { EXPLORER_SOLVE_MS } from './solved-values.ts';

/** The longest time per move a Play game may ask for, ms. */
export const MAX_WEB_MOVE_MS = 60_000;
export const HINT_CAP_MS = 10_000;
export const EXPLORE_CAP_MS = 30_000;
export const SOLVE_CAP_MS = EXPLORER_SOLVE_MS + 2000;
/** Searches running or waiting for a thread at once; one more is a 503. */
export const MAX_SEARCHES = 16;
/** The pool's threads: every core but one for the server, at least one, at most four. */
export const SEARCH_THREADS = Math.max(1, Math.min(4, availableParallelism() - 1));

let inFlight = 0;

/** `item` run on a pool thread within `capMs`; a 503 when too many are running. */
export async function runSearchItem<R extends SearchResult>(item: SearchItem, capMs: number): Promise<R> {
  if (inFlight >= MAX_SEARCHES) throw new HttpError(503, `the server is busy with ${MAX_SEARCHES} searches: try again in a moment`);
  inFlight++;
  try {
    return (await runOnPoolThread(WEB_SEARCH_JOB, null, item, { threads: SEARCH_THREADS, capMs })) as R;
  } finally {
    inFlight--;
  }
}

/** A position as it crosses to a pool thread. */
export function positionItem(rules: string, game: MancalaGame, state: MancalaState): PositionItem {
  return { rules, pits: game.n, seeds: game.rules.seeds, board: stateToBoard(game, state) };
}

/** A reference agent of a Play game, whose every move is searched on the pool (the server's loop stays free). */
export function pooledReference(spec: string, rules: string): MatchPlayer {
  return {
    label: spec,
    async chooseMove(game, state, timeLimitMs, seed): Promise<MoveAttempt> {
      const capMs = 2 * timeLimitMs + 2000;
      const start = performance.now();
      try {
        return await runSearchItem<MoveAttempt>({ kind: 'move', spec, timeLimitMs, seed, ...positionItem(rules, game, state) }, capMs);
      } catch (e) {
        if (e instanceof PoolThreadCapped) return { status: 'timeout', message: `still searching after ${capMs} ms (its time a move is ${timeLimitMs} ms): stopped`, ms: performance.now() - start };
        if (e instanceof HttpError) throw e;
        return { status: 'error', message: e instanceof Error ? e.message : String(e), ms: performance.now() - start };
      }
    },
    close: async () => {},
  };
}

/** A pool thread's cap passed, as the page is told. */
export function cappedRefusal(what: string, capMs: number): HttpError {
  return new HttpError(422, `${what}: still running after ${capMs / 1000} s, the most this server gives it: stopped`);
}
