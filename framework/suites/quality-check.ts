/**
 * The `quality` check's rules of the suite: which boards are small enough for the perfect-play
 * solver, and how a case's check fields become a QualityCheck. The stones a move gives up are
 * graded by graders/quality.ts against the move values `suite bless` has the solver prove
 * (bless-quality.ts).
 *
 * A board's size for the solver is the stones still in its pits (stores hold no choices). The
 * suite declares its bound per case (`max_stones`, usually once in a case file's `defaults`); a
 * board over it is refused when the suite loads, before anything is blessed or graded.
 */
import type { BoardSpec } from '../games/mancala/board-io/board.ts';
import type { GameSpec, QualityCheck } from './types.ts';

/** `max_stones` when a case says `quality: true`: a few seconds of the plain solver, no time at all of the fast one. */
export const DEFAULT_QUALITY_STONES = 12;
/**
 * The largest `max_stones` a suite may declare: Kalah(6,4)'s start, which the literature's
 * methods solve in seconds on one core. Blessing asks more than that of no solver.
 */
export const MAX_QUALITY_STONES = 48;

/** The stones in the pits of a board (its stores excluded): what the solver's work grows with. */
export function stonesInPits(board: BoardSpec): number {
  return [...board.top, ...board.bottom].reduce((a, b) => a + b, 0);
}

/** The check's fields as the case file gives them (schema.ts validates each on its own). */
export type QualityFile = true | { max_stones?: number | undefined; tolerance?: number | undefined; no_credit_at?: number | undefined };

/**
 * The resolved check, or the one-line reason the case cannot have it; `field` names the field
 * at fault (relative to `checks.quality`).
 */
export function resolveQuality(raw: QualityFile, game: GameSpec, board: BoardSpec): QualityCheck | { field: string[]; error: string } {
  if (game.kind !== 'mancala') return { field: [], error: 'applies to Mancala suites (the perfect-play solver solves Kalah positions)' };
  const given = raw === true ? {} : raw;
  const maxStones = given.max_stones ?? DEFAULT_QUALITY_STONES;
  const tolerance = given.tolerance ?? 0;
  const stones = stonesInPits(board);
  if (stones > maxStones) {
    const declared = given.max_stones === undefined ? `the default max_stones ${DEFAULT_QUALITY_STONES}` : `max_stones ${maxStones}`;
    return {
      field: given.max_stones === undefined ? [] : ['max_stones'],
      error: `the board holds ${stones} stones in its pits, more than ${declared}: the solver is asked only boards the suite declares small enough (a position with fewer stones, or max_stones up to ${MAX_QUALITY_STONES})`,
    };
  }
  if (given.no_credit_at !== undefined && given.no_credit_at <= tolerance) {
    return { field: ['no_credit_at'], error: `expected more stones than the tolerance (${tolerance}): partial credit falls from full marks at the tolerance to 0 here, got ${given.no_credit_at}` };
  }
  return { maxStones, tolerance, ...(given.no_credit_at !== undefined ? { noCreditAt: given.no_credit_at } : {}) };
}

/** The share of a case's points a move that gives up `lost` stones earns (1 within the tolerance). */
export function qualityCredit(check: QualityCheck, lost: number): number {
  if (lost <= check.tolerance) return 1;
  if (check.noCreditAt === undefined || lost >= check.noCreditAt) return 0;
  return (check.noCreditAt - lost) / (check.noCreditAt - check.tolerance);
}
