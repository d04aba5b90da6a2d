/**
 * Seed 003 (cs540) grades an agent by matches: "If your agent can beat our random agent … half the
 * total points. If your agent can beat our simple agent, 100% of the points. If your agent can
 * beat an advanced agent, 100% of the points plus a bonus." — "testing and grading using various
 * time limits and numbers of stones" (3 to 5 a bin).
 *
 * The gauntlet plays the submission against each opponent under every setting (stones a bin ×
 * time per move), `gamesPerSetting` games each, colours alternating and each opening played from
 * both seats, under the anytime rule (framework/matches/match.ts): a move that runs out of time is
 * the agent's last reported legal move of that turn, and only an agent with none forfeits. The
 * match rules (match-rules.ts) choose between this project's way (random openings, the sandbox's
 * grace) and the course's own Match (the initial board, a 500 ms grace, the previous move kept).
 *
 * How it scores (the seed's words, read literally; each rule is a choice, documented in the pack's
 * README):
 *  - "beat" an opponent: win more games than it loses, over all its games (every setting, both
 *    seats); a draw counts for neither side;
 *  - each tier stands alone: the score is the points of the strongest opponent beaten
 *    (random 50, simple 100, advanced 100 + bonus), 0 if none — beating simple is 100 even after
 *    a fluke loss to random;
 *  - the maximum is 100; the bonus (default 10 points) is extra credit above it.
 */
import { join } from 'node:path';
import type { ForfeitReason, Side } from '../../matches/types.ts';
import type { OpeningsSpec } from '../../matches/openings.ts';
import { UserError } from '../../errors.ts';
import { unreadableSubmission } from '../../files/submission-entries.ts';
import { unfinishedPart } from '../../contracts/not-implemented.ts';
import { playMatch } from '../../matches/match.ts';
import { FORFEIT_REASONS, sideStats } from '../../matches/match-results.ts';
import type { PlayedGameRecord } from '../../matches/play-game.ts';
import { checkAgentSpec } from '../../matches/player.ts';
import type { SandboxMode } from '../../sandbox/jail/mechanisms.ts';
import { LIMITS } from '../../games/mancala/rules.ts';
import { DEFAULT_MATCH_RULES, matchRulesSettings, parseMatchRules, PROJECT_OPENINGS, type MatchRules } from './match-rules.ts';
import { studentPath, studentText } from '../../student-text.ts';

/** One opponent of the gauntlet, and the score beating it earns. */
export interface GauntletOpponent {
  /** as reports name it */
  name: string;
  /** the agent, as `mancala match` names one (agents/index.ts) */
  spec: string;
  /** the score (of 100) beating it earns */
  points: number;
  /** beating it also earns the bonus (the seed's advanced agent) */
  bonus?: boolean;
}

/** The seed's three opponents, weakest first (agents/random.ts, agents/simple.ts, agents/advanced.ts). */
export const CS540_OPPONENTS: readonly GauntletOpponent[] = [
  { name: 'random', spec: 'random', points: 50 },
  { name: 'simple', spec: 'simple', points: 100 },
  { name: 'advanced', spec: 'advanced', points: 100, bonus: true },
];

export const GAUNTLET_DEFAULTS = {
  stones: [3, 4, 5] as readonly number[],
  timesPerMoveMs: [1000] as readonly number[],
  /** one opening, played from both seats */
  gamesPerSetting: 2,
  seed: 1,
  /** under match rules project; the course's have none */
  openings: PROJECT_OPENINGS,
  matchRules: DEFAULT_MATCH_RULES,
  /** extra points above 100 for beating the advanced agent */
  bonus: 10,
  jobs: 1,
  memoryMb: 512,
};

/** The total without the bonus. */
export const MAX_SCORE = 100;

export interface GauntletOptions {
  /** a submission (file or folder, run sandboxed) or a reference agent spec */
  submission: string;
  /** stones a bin; default 3, 4, 5 */
  stones?: readonly number[];
  /** default 1000 ms */
  timesPerMoveMs?: readonly number[];
  /** games against each opponent at each (stones, time) setting; default 2 */
  gamesPerSetting?: number;
  seed?: number;
  /** default: 2 random plies under match rules project; under course none (any other is a UserError) */
  openings?: OpeningsSpec;
  /** default project (match-rules.ts) */
  matchRules?: MatchRules;
  /** a folder to write every game's replay to: REPLAYS/<opponent>/<stones>-stones-<ms>ms/game-NNN.jsonl */
  replays?: string;
  bonus?: number;
  opponents?: readonly GauntletOpponent[];
  /** games played at once (worker threads) */
  jobs?: number;
  memoryMb?: number;
  /** how a sandboxed submission is confined (sandbox/jail/mechanisms.ts); default full */
  sandbox?: SandboxMode;
  /** after each game, with the number of games done and the gauntlet's total */
  onGame?: (done: number, total: number) => void;
}

/** The games against one opponent under one setting. */
export interface SettingResult {
  stones: number;
  timePerMoveMs: number;
  games: number;
  wins: number;
  draws: number;
  losses: number;
  /** sum over games of the submission's final store minus the opponent's */
  storeMargin: number;
  /** games the submission forfeited, by reason */
  forfeits: Record<ForfeitReason, number>;
  /** the submission's moves that were its reported move at a timeout (the anytime rule) */
  deadlineMoves: number;
  /** match rules course: those of deadlineMoves that were its previous move, carried over */
  carriedMoves?: number;
  /** the submission's thinking: ms over its decisions, decisions, the longest */
  timeMs: number;
  decisions: number;
  maxMoveMs: number;
  /** each forfeit of the submission: the game and the reason's message */
  forfeitMessages: string[];
  /** of the crash forfeits, those on a starter's function not written yet (present when there are any) */
  unfinished?: number;
}

export interface OpponentResult {
  opponent: GauntletOpponent;
  settings: SettingResult[];
  games: number;
  wins: number;
  draws: number;
  losses: number;
  storeMargin: number;
  forfeits: Record<ForfeitReason, number>;
  deadlineMoves: number;
  /** match rules course: those of deadlineMoves that were its previous move, carried over */
  carriedMoves?: number;
  /** of the crash forfeits, those on a starter's function not written yet (present when there are any) */
  unfinished?: number;
  /** more wins than losses */
  beaten: boolean;
  /** the submission could not be run at all (it did not load): no game was played, this says why */
  error?: string;
}

export interface GauntletResult {
  submission: string;
  stones: number[];
  timesPerMoveMs: number[];
  gamesPerSetting: number;
  seed: number;
  openings: OpeningsSpec;
  matchRules: MatchRules;
  /** the grace after each time per move (in the order of timesPerMoveMs), ms */
  graceMs: number[];
  bonus: number;
  opponents: OpponentResult[];
  /** the strongest opponent beaten, if any */
  strongestBeaten?: string;
  score: number;
  maxScore: number;
}

const noForfeits = (): Record<ForfeitReason, number> => Object.fromEntries(FORFEIT_REASONS.map((r) => [r, 0])) as Record<ForfeitReason, number>;

/** Whole numbers in a range, at least one, no repeats: a bad list is a UserError naming the option. */
function checkList(values: readonly number[], min: number, max: number, what: string): number[] {
  if (values.length === 0) throw new UserError(`${what}: expected at least one value`);
  for (const v of values) {
    if (!Number.isSafeInteger(v) || v < min || v > max) throw new UserError(`${what}: expected whole numbers from ${min} to ${max}, got ${v}`);
  }
  if (new Set(values).size !== values.length) throw new UserError(`${what}: a value is given twice (${values.join(',')})`);
  return [...values];
}

/** The score a gauntlet earns: the points of the strongest opponent beaten (+ the bonus), else 0. */
export function gauntletScore(opponents: readonly { opponent: GauntletOpponent; beaten: boolean }[], bonus: number): { score: number; strongestBeaten?: string } {
  let best: { score: number; strongestBeaten?: string } = { score: 0 };
  for (const o of opponents) {
    if (!o.beaten) continue;
    const score = o.opponent.points + (o.opponent.bonus === true ? bonus : 0);
    if (score >= best.score) best = { score, strongestBeaten: o.opponent.name };
  }
  return best;
}

function settingResult(stones: number, timePerMoveMs: number, games: readonly PlayedGameRecord[], submissionSide: Side, carry: boolean): SettingResult {
  // The submission's side of these games, tallied as a match tallies a side; plus why it forfeited.
  // A starter's function not written yet is an unfinished part, not a crash: named as such.
  let unfinished = 0;
  const forfeitMessages = games.flatMap((g) => {
    if (g.forfeit?.side !== submissionSide) return [];
    const part = g.forfeit.reason === 'crash' ? unfinishedPart(g.forfeit.message) : undefined;
    if (part !== undefined) unfinished++;
    return [`game ${g.index} (${stones} stones, ${timePerMoveMs} ms): ${part !== undefined ? `not written yet: ${part}` : `${g.forfeit.reason} ${g.forfeit.message}`}`];
  });
  const t = sideStats(games, submissionSide);
  // Keys in the order the gauntlet's JSON has always had them.
  return {
    stones,
    timePerMoveMs,
    games: games.length,
    wins: t.wins,
    draws: t.draws,
    losses: t.losses,
    storeMargin: t.storeMargin,
    forfeits: t.forfeits,
    deadlineMoves: t.deadlineMoves,
    ...(carry ? { carriedMoves: games.reduce((n, g) => n + (g.carriedMoves?.[g.first === submissionSide ? 0 : 1] ?? 0), 0) } : {}),
    timeMs: t.timeMs,
    decisions: t.decisions,
    maxMoveMs: t.maxMoveMs,
    forfeitMessages,
    ...(unfinished > 0 ? { unfinished } : {}),
  };
}

function opponentResult(opponent: GauntletOpponent, settings: SettingResult[], carry: boolean, error?: string): OpponentResult {
  const sum = (f: (s: SettingResult) => number) => settings.reduce((t, s) => t + f(s), 0);
  const forfeits = noForfeits();
  for (const s of settings) for (const r of FORFEIT_REASONS) forfeits[r] += s.forfeits[r];
  const wins = sum((s) => s.wins);
  const losses = sum((s) => s.losses);
  return {
    opponent,
    settings,
    games: sum((s) => s.games),
    wins,
    draws: sum((s) => s.draws),
    losses,
    storeMargin: sum((s) => s.storeMargin),
    forfeits,
    deadlineMoves: sum((s) => s.deadlineMoves),
    ...(carry ? { carriedMoves: sum((s) => s.carriedMoves ?? 0) } : {}),
    ...(sum((s) => s.unfinished ?? 0) > 0 ? { unfinished: sum((s) => s.unfinished ?? 0) } : {}),
    beaten: error === undefined && wins > losses,
    ...(error !== undefined ? { error } : {}),
  };
}

/** The settings in play order: every stones count under every time per move. */
function settingsOf(stones: readonly number[], times: readonly number[]): { stones: number; timePerMoveMs: number }[] {
  return stones.flatMap((s) => times.map((t) => ({ stones: s, timePerMoveMs: t })));
}

/**
 * Plays the gauntlet and scores it. Bad options, an unknown reference agent or a missing path:
 * UserError before any game. A submission that cannot be run (no agent module, a bundling error)
 * is not an error of the gauntlet: it loses every game, and each opponent's result says why.
 */
export async function runGauntlet(o: GauntletOptions): Promise<GauntletResult> {
  const stones = checkList(o.stones ?? GAUNTLET_DEFAULTS.stones, LIMITS.minSeeds, LIMITS.maxSeeds, 'stones');
  const timesPerMoveMs = checkList(o.timesPerMoveMs ?? GAUNTLET_DEFAULTS.timesPerMoveMs, 1, 3_600_000, 'time per move');
  const gamesPerSetting = o.gamesPerSetting ?? GAUNTLET_DEFAULTS.gamesPerSetting;
  if (!Number.isSafeInteger(gamesPerSetting) || gamesPerSetting < 1 || gamesPerSetting > 10_000) {
    throw new UserError(`games per setting: expected a whole number from 1 to 10000, got ${gamesPerSetting}`);
  }
  const bonus = o.bonus ?? GAUNTLET_DEFAULTS.bonus;
  if (!(bonus >= 0 && Number.isFinite(bonus))) throw new UserError(`bonus: expected a number of points ≥ 0, got ${bonus}`);
  const opponents = o.opponents ?? CS540_OPPONENTS;
  checkAgentSpec(o.submission);
  for (const op of opponents) checkAgentSpec(op.spec);
  const seed = o.seed ?? GAUNTLET_DEFAULTS.seed;
  const matchRules = o.matchRules === undefined ? GAUNTLET_DEFAULTS.matchRules : parseMatchRules(o.matchRules);
  const rulesFor = (t: number) => matchRulesSettings(matchRules, t, o.openings);
  const openings = rulesFor(timesPerMoveMs[0]!).match.openings;
  const carry = rulesFor(timesPerMoveMs[0]!).match.carryMove === true;
  const settings = settingsOf(stones, timesPerMoveMs);
  const total = opponents.length * settings.length * gamesPerSetting;
  let done = 0;
  let broken: string | undefined;

  const results: OpponentResult[] = [];
  for (const opponent of opponents) {
    const played: SettingResult[] = [];
    for (const setting of settings) {
      if (broken !== undefined) break;
      try {
        const r = await playMatch({
          A: o.submission,
          B: opponent.spec,
          rules: 'cs540',
          seeds: setting.stones,
          games: gamesPerSetting,
          timePerMoveMs: setting.timePerMoveMs,
          // The same seed for every opponent: each meets the submission from the same openings.
          seed,
          ...rulesFor(setting.timePerMoveMs).match,
          forfeit: 'loss',
          jobs: o.jobs ?? GAUNTLET_DEFAULTS.jobs,
          memoryMb: o.memoryMb ?? GAUNTLET_DEFAULTS.memoryMb,
          ...(o.sandbox !== undefined ? { sandbox: o.sandbox } : {}),
          ...(o.replays !== undefined ? { replays: join(o.replays, opponent.name, `${setting.stones}-stones-${setting.timePerMoveMs}ms`) } : {}),
          onGame: () => o.onGame?.(++done, total),
        });
        played.push(settingResult(setting.stones, setting.timePerMoveMs, r.games, 'A', carry));
      } catch (e) {
        // The options were checked above: what fails now is opening the submission.
        const why = e instanceof UserError ? e.message : unreadableSubmission(e);
        if (why === undefined) throw e;
        broken = why;
      }
    }
    results.push(opponentResult(opponent, played, carry, broken));
  }
  if (broken !== undefined) {
    // It broke when it was first opened, before any game: every opponent says why.
    for (const r of results) r.error = studentText(broken);
    o.onGame?.(total, total);
  }
  const { score, strongestBeaten } = gauntletScore(results, bonus);
  return {
    // A folder's name, and why it could not be opened, are the student's: terminal-safe in every writer.
    submission: studentPath(o.submission),
    stones,
    timesPerMoveMs,
    gamesPerSetting,
    seed,
    openings,
    matchRules,
    graceMs: timesPerMoveMs.map((t) => rulesFor(t).graceMs),
    bonus,
    opponents: results,
    ...(strongestBeaten !== undefined ? { strongestBeaten } : {}),
    score,
    maxScore: MAX_SCORE,
  };
}
