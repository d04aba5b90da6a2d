/**
 * The Search explorer's solved values: the perfect-play value of a node's position and of each
 * child the search visited, by the perfect-play solver (reached only through
 * plugins/perfect-solver.ts), shown beside the search's own values. Only on boards small enough
 * (EXPLORER_SOLVE_MAX_STONES stones in the pits), and each solve with a deadline, so a request
 * never holds the server longer than EXPLORER_SOLVE_MS; what is not proven in time says so.
 *
 * Values are in the tree's terms: the final store margin from the root player's point of view
 * (the solver's are the mover's at the node: negated at a min node).
 */
import { UserError } from '../../errors.ts';
import type { MancalaGame, MancalaState } from '../../games/mancala/engine.ts';
import { solvePerfect } from '../../plugins/perfect-solver.ts';
import type { SolvedValues } from '../shared/api.ts';

/** The largest board (stones in the pits, stores excluded) the explorer asks the solver about. */
export const EXPLORER_SOLVE_MAX_STONES = 20;
/** The most one node's solve may take: the server answers within this whatever the position. */
export const EXPLORER_SOLVE_MS = 1500;

function stonesInPits(game: MancalaGame, s: MancalaState): number {
  return [...game.row(s, 0), ...game.row(s, 1)].reduce((a, b) => a + b, 0);
}

/**
 * The solved value of the position `s` and of each of `childMoves` (from the root player's view:
 * `maximizing` says whether the root player moves at s), or the reason there are none.
 */
export function solvedValues(game: MancalaGame, s: MancalaState, childMoves: readonly number[], maximizing: boolean): SolvedValues {
  const stones = stonesInPits(game, s);
  if (stones > EXPLORER_SOLVE_MAX_STONES) {
    return { note: `not solved: ${stones} stones in the pits, more than the ${EXPLORER_SOLVE_MAX_STONES} the explorer solves` };
  }
  const sign = maximizing ? 1 : -1;
  const rootView = (v: number | undefined): number | null => (v === undefined ? null : sign * v || 0);
  if (game.isOver(s)) return { value: rootView(game.score(s, game.toMove(s))), children: [] };
  let result;
  try {
    result = solvePerfect(game, s, { deadlineMs: EXPLORER_SOLVE_MS });
  } catch (e) {
    // A student kit leaves the solver out, as it does every reference.
    if (e instanceof UserError) return { note: `not solved: ${e.message}` };
    throw e;
  }
  const children = childMoves.map((m) => rootView(result.moveValues?.get(m)));
  const value = result.proven ? rootView(result.value) : null;
  const missing = value === null || children.some((v) => v === null);
  return {
    value,
    children,
    ...(missing ? { note: `not all proven within ${EXPLORER_SOLVE_MS / 1000} s (${result.nodes.toLocaleString('en-US')} positions)` } : {}),
  };
}
