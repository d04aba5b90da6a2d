/**
 * Search conventions (DESIGN §5): what "the reference" means, so node counts, values and traces
 * are gradable. A profile fixes them per course; the CLI and suites may override each. Part of
 * the contracts: an agent's options name them (AgentOptions.unit, .terminal).
 */
import type { Game } from './game.ts';

export type DepthUnit =
  /** a move that earns a free turn keeps its depth; a free turn earned at the cut-off is still expanded (seed 000) */
  | 'turn'
  /** every move is one level (seeds 001, 002, 003) */
  | 'move';

export type TerminalEvaluation =
  /** a finished position is worth the game's score: store difference after the sweep (seed 000, the C baseline) */
  | 'score'
  /** a finished position is evaluated by the heuristic on the board as it stands, without the sweep (seed 001) */
  | 'heuristic';

/**
 * What a search makes of a free turn (the mover's last stone in its own store).
 *  - `honour`: the same player moves again (a max node stays a max node): the rules as played,
 *    and seed 002's optional "Full" searches (minimaxFull, abPruneFull);
 *  - `ignore`: players simply alternate every move, as seed 002's provided minimax does ("you can
 *    assume that a player simply gets one move per turn"): the search runs on the same rules with
 *    free turns off. Only Mancala has free turns; for any other game both are the same.
 */
export type FreeTurns = 'honour' | 'ignore';
export const FREE_TURNS: readonly FreeTurns[] = ['honour', 'ignore'];

export interface SearchConventions {
  depthUnit: DepthUnit;
  /** the depth limit when none is given; null means search to the end of the game */
  defaultDepth: number | null;
  terminal: TerminalEvaluation;
  /** absent: `honour` (the rules as played) */
  freeTurns?: FreeTurns;
}

/** Depth given to a search that has no limit (kept an int so the hot recursion stays on small integers). */
export const NO_DEPTH_LIMIT = 1 << 30;

/** What a Mancala game shows of itself here (duck-typed: a submission's bundle has its own copy of the engine class). */
interface WithFreeTurnRule {
  readonly rules: { readonly freeTurn: boolean };
}

/**
 * The game a search explores under a free-turn convention: `game` itself, or for `ignore` on a
 * Mancala game with free turns, the same rules with free turns off, so every move passes the turn
 * (same sowing, captures and game end). That game counts on `game`'s counters: the positions it
 * plays are the instrumented game's nodes, as if `game` had played them. Use it for the whole
 * search, root included:
 *
 *   const g = gameForSearch(ctx.game, 'ignore');  // then g.play, g.toMove, g.legalMoves, …
 */
export function gameForSearch<S>(game: Game<S>, freeTurns: FreeTurns | undefined): Game<S> {
  if (freeTurns !== 'ignore' || game.kind !== 'mancala') return game;
  const rules = (game as unknown as Partial<WithFreeTurnRule>).rules;
  if (rules === undefined || rules.freeTurn !== true) return game;
  // The game's own class (not an import of it): the twin is the same engine, whichever copy the caller has.
  const Engine = game.constructor as new (rules: unknown, name: string) => Game<S>;
  const twin = new Engine({ ...rules, freeTurn: false }, game.name);
  (twin as { counters: Game<S>['counters'] }).counters = game.counters;
  return twin;
}
