/**
 * The `quality` check's expected answers: the perfect-play value of every legal move of the
 * case's position, proven by the solver (framework/plugins/perfect-solver.ts) when the suite is
 * blessed. Grading then needs no solver: the values sit in expected.json, in the parent, as
 * every other expected answer does.
 */
import { UserError } from '../errors.ts';
import type { MancalaGame, MancalaState } from '../games/mancala/engine.ts';
import { solvePerfect } from '../plugins/perfect-solver.ts';

/** How long blessing gives the solver for one case's position before it says the board is too big. */
export const BLESS_SOLVE_MS = 120_000;

/** Every legal move's proven value (the mover's final store margin under perfect play), by move index. */
export function blessMoveValues(game: MancalaGame, state: MancalaState, where: string): Record<string, number> {
  const result = solvePerfect(game, state, { deadlineMs: BLESS_SOLVE_MS });
  const values = result.moveValues;
  const legal = game.legalMoves(state);
  if (!result.proven || values === undefined || legal.some((m) => !values.has(m))) {
    throw new UserError(
      `${where}: checks.quality: the perfect-play solver proved no value for every move within ${BLESS_SOLVE_MS / 1000} s (${result.nodes} nodes): lower max_stones, or give a position with fewer stones`,
    );
  }
  return Object.fromEntries(legal.map((m) => [String(m), values.get(m)!]));
}
