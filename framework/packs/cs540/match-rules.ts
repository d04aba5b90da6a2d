/**
 * How the cs540 gauntlet plays its games (`mancala gauntlet --match-rules`):
 *
 * - `project` (the default, the gauntlet as it has always been): each pair of games opens with 2
 *   seeded random moves (`--openings`), so deterministic agents play different games; a side is
 *   stopped at the sandbox's hard limit (the time per move plus a quarter, 250 ms to 2 s); a side
 *   that has not answered by then plays its last legal report of this turn, or forfeits.
 * - `course`: as the course's own Match plays (seed 003's framework): every game from the initial
 *   board; a fixed 500 ms grace after the time per move (a later answer is late, and a sandboxed
 *   side is stopped then); a late side plays its last legal report of this turn, else its previous
 *   move (the course's Java field `move` is never reset between turns: its last move played from
 *   its own answer or report) when that move is legal now. The seed does not say what its
 *   framework does with a `move` that is not legal; here the side forfeits (timeout), as it does
 *   under `project` with nothing to play.
 */
import type { MatchOptions } from '../../matches/match-options.ts';
import { describeOpenings, type OpeningsSpec } from '../../matches/openings.ts';
import { anytimeGraceMs } from '../../matches/play-game.ts';
import { UserError } from '../../errors.ts';

export const MATCH_RULES = ['project', 'course'] as const;
export type MatchRules = (typeof MATCH_RULES)[number];
export const DEFAULT_MATCH_RULES: MatchRules = 'project';

/** The course's grace after the time per move, ms. */
export const COURSE_GRACE_MS = 500;
/** The project's openings: 2 seeded random moves open each pair of games. */
export const PROJECT_OPENINGS: OpeningsSpec = { kind: 'random', plies: 2 };
/** The course's: none, every game from the initial board. */
export const COURSE_OPENINGS: OpeningsSpec = { kind: 'random', plies: 0 };

/** What a setting's matches are played with under `rules`. */
export interface MatchRulesSettings {
  /** what playMatch is given */
  match: Required<Pick<MatchOptions, 'openings' | 'anytime'>> & Pick<MatchOptions, 'graceMs' | 'carryMove'>;
  /** ms after the time per move before a side is late (and a sandboxed side stopped) */
  graceMs: number;
}

/** `--match-rules`: one of MATCH_RULES, else a UserError of one line. */
export function parseMatchRules(text: string): MatchRules {
  const t = text.trim();
  if ((MATCH_RULES as readonly string[]).includes(t)) return t as MatchRules;
  throw new UserError(`match rules "${text}": expected project (the default: random openings, the sandbox's grace) or course (as the course's Match: the initial board, a 500 ms grace, the previous move when late)`);
}

/**
 * The match options of `rules` for a time per move. `openings` (the instructor's) applies under
 * `project`; under `course` any other than none is a UserError, as the course has no openings.
 */
export function matchRulesSettings(rules: MatchRules, timePerMoveMs: number, openings?: OpeningsSpec): MatchRulesSettings {
  if (rules === 'course') {
    if (openings !== undefined && describeOpenings(openings) !== describeOpenings(COURSE_OPENINGS)) {
      throw new UserError(`openings ${describeOpenings(openings)}: under the course's match rules every game starts from the initial board; give no openings, or use match rules project`);
    }
    return { match: { openings: COURSE_OPENINGS, anytime: true, graceMs: COURSE_GRACE_MS, carryMove: true }, graceMs: COURSE_GRACE_MS };
  }
  // Today's behaviour: playMatch's own grace under the anytime rule (the sandbox's hard limit).
  return { match: { openings: openings ?? PROJECT_OPENINGS, anytime: true }, graceMs: anytimeGraceMs(timePerMoveMs) };
}
