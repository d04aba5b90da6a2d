/** Small helpers of alice's agent: a submission may be several files. */

/** The depth used when the options set no limit: deep enough for any game, still a number. */
export const NO_LIMIT = 1 << 30;

/** Moves a prune skips: those after position k in the move list. */
export function countLegalAfter(moves: readonly number[], k: number): number {
  return moves.length - k - 1;
}
