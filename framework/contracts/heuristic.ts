/**
 * A heuristic scores a position for one player: bigger is better for `player`.
 * A heuristic module default-exports a plain object `{ name, evaluate }`.
 */
import { z } from 'zod';
import type { Game, Player } from './game.ts';

export interface Heuristic<S = any> {
  name: string;
  /** Which games it understands ('mancala', 'tictactoe'); omitted means any. */
  games?: readonly string[];
  evaluate(state: S, player: Player, game: Game<S>): number;
}

export const heuristicSchema = z.object({
  name: z.string({ error: 'expected a string' }).min(1, 'expected a non-empty string'),
  games: z.array(z.string()).optional(),
  evaluate: z.custom<Heuristic['evaluate']>((v) => typeof v === 'function', 'expected a function (state, player, game) => number'),
});

/** Wraps a heuristic so each call is counted in the game's counters (the "evaluations" a report shows). */
export function countingHeuristic<S>(h: Heuristic<S>, game: Game<S>): Heuristic<S> {
  const counters = game.counters;
  return {
    name: h.name,
    games: h.games,
    evaluate(state, player, g) {
      counters.evaluations++;
      return h.evaluate(state, player, g);
    },
  };
}
