/**
 * What the provided players share (CPSC 4610's Player class): the game as the search sees it, the
 * value of a position where the search stops, and the search events the graders compare.
 *
 * Free turns. The provided minimax, and the alpha-beta you write for Problem 2, make the seed's
 * simplifying assumption: "a player simply gets one move per turn". `gameForSearch(ctx.game,
 * 'ignore')` is the game under the same rules with free turns off, so after every move the other
 * player moves. It counts the positions you play on the grader's counters, as ctx.game does. The
 * optional "Full" versions use `'honour'`: the game as it is played.
 */
import type { AgentContext } from '../../../framework/contracts/agent.ts';
import type { Game, Player } from '../../../framework/contracts/game.ts';
import type { Heuristic } from '../../../framework/contracts/heuristic.ts';
import { gameForSearch, type FreeTurns } from '../../../framework/contracts/search-conventions.ts';
import type { TraceEvent } from '../../../framework/contracts/search-trace.ts';

export interface Search<S> {
  /** the game to search (free turns ignored or honoured): play(), legalMoves(), toMove(), isOver(), moveName() */
  game: Game<S>;
  /** the player who chooses the move at the root: the MAX player */
  root: Player;
  /** plies to search; Infinity: to the end of the game (Tic-Tac-Toe) */
  depth: number;
  /** value of a position where the search stops, from the root player's side */
  value(state: S): number;
  /** sends a search event to the grader (and explain-pruning.ts); does nothing when nobody listens */
  emit(event: TraceEvent): void;
}

/**
 * The search of one decision. Depth: the grader's (options.depth; null or -1: none), else
 * `defaultDepth` (the provided player searches 5 plies). `heuristic` overrides the one the grader
 * hands in (ctx.heuristic: the course's provided score, 100 won / 0 lost / 50 otherwise, in the
 * cpsc4610 suites' alpha-beta cases) — your tournament player passes its own.
 */
export function searchOf<S>(ctx: AgentContext<S>, freeTurns: FreeTurns, defaultDepth = 5, heuristic: Heuristic<S> = ctx.heuristic): Search<S> {
  const game = gameForSearch(ctx.game, freeTurns);
  const root = ctx.player;
  const d = ctx.options.depth;
  const depth = d === undefined ? defaultDepth : typeof d === 'number' && d >= 0 ? d : Infinity;
  // A finished game: as the grader says (ctx.options.terminal). 'heuristic' (the cpsc4610 cases, and
  // the default here): the scoring function scores it too, as the provided minimax does; 'score':
  // its final score (store difference after the sweep; Tic-Tac-Toe: +1 / 0 / -1).
  const byScore = (ctx.options.terminal ?? 'heuristic') === 'score';
  const trace = ctx.trace;
  return {
    game,
    root,
    depth,
    value: (s) => (game.isOver(s) && byScore ? game.score(s, root) : heuristic.evaluate(s, root, game)),
    emit: trace === undefined ? () => {} : (e) => trace(e),
  };
}
