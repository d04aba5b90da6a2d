/**
 * A heuristic scores a position for one player: bigger is better for `player`.
 * A heuristic module default-exports a plain object `{ name, evaluate }`.
 */
import type { Game, Player, SearchCounters } from './game.ts';

export interface Heuristic<S = any> {
  name: string;
  /** Which games it understands ('mancala', 'tictactoe'); omitted means any. */
  games?: readonly string[];
  evaluate(state: S, player: Player, game: Game<S>): number;
}

/** A heuristic whose calls are counted: `counted` lets a search that values some leaves itself count them alike. */
export interface CountedHeuristic<S = any> extends Heuristic<S> {
  readonly counted: {
    /** the heuristic that is called */
    readonly inner: Heuristic<S>;
    /** where each call is counted (`evaluations`) */
    readonly counters: SearchCounters;
  };
}

/** Wraps a heuristic so each call is counted in the game's counters (the "evaluations" a report shows). */
export function countingHeuristic<S>(h: Heuristic<S>, game: Game<S>): CountedHeuristic<S> {
  const counters = game.counters;
  return {
    name: h.name,
    games: h.games,
    evaluate(state, player, g) {
      counters.evaluations++;
      return h.evaluate(state, player, g);
    },
    counted: { inner: h, counters },
  };
}
