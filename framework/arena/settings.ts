/**
 * The arena's settings and shapes: what an arena is made with (stored in its database when it is
 * created: a restart keeps them), its anchors, and the refusals its API turns into HTTP codes.
 */
import { UserError } from '../errors.ts';
import type { SandboxMode } from '../sandbox/jail/mechanisms.ts';
import { DEFAULT_MEMORY_MB, type JobSetup } from '../tournaments/executor.ts';
import type { TournamentParams } from '../tournaments/params.ts';

export const DB_FILE = 'arena.sqlite';
export const SUBMISSIONS_DIR = 'submissions';
export const TOKENS_FILE = 'tokens.csv';
export const INSTRUCTOR_TOKEN_FILE = 'instructor.token';

/** A request refused for now, not for what it is: too many uploads or scrims in the last hour (HTTP 429). */
export class RateLimited extends UserError {}
/** A request the arena no longer takes: it is frozen (HTTP 403). */
export class ArenaFrozen extends UserError {}

/** An anchor: a reference agent whose rating is fixed. */
export interface Anchor {
  spec: string;
  mu: number;
}

/**
 * The anchors' fixed ratings, on openskill's scale (a new player starts at 25, σ 25/3): far enough
 * apart that a win against the one above moves a student up. They hold the scale; a course may give
 * its own with --anchors.
 */
export const DEFAULT_ANCHORS: readonly Anchor[] = [
  { spec: 'random', mu: 10 },
  { spec: 'greedy', mu: 18 },
  { spec: 'alphabeta:depth=4', mu: 26 },
  { spec: 'strong:ms=100', mu: 34 },
];
/** An anchor's σ: small, so a game against it moves the student as against a well-known player. */
export const ANCHOR_SIGMA = 1;

export interface ArenaSettings {
  course: string;
  rules: string;
  pits: number;
  seeds: number;
  timePerMoveMs: number;
  /** each side's time bank a game, ms (matches/play-game.ts); 0: the plain clock. An arena saved before it has none */
  timeBankMs?: number;
  /** random plies before the agents play (openings.ts random:K) */
  openingPlies: number;
  seed: number;
  /** sanity games against random (even: both seats) */
  sanityGames: number;
  /** placement games against each anchor (even: both seats) */
  placementGames: number;
  anchors: Anchor[];
  /** uploads a student may make in an hour */
  uploadsPerHour: number;
  /** scrims a student may ask for in an hour */
  scrimsPerHour: number;
  /** ladder games a pair plays at most: an arena with nothing new to learn rests */
  maxGamesPerPair: number;
}

export const DEFAULT_SETTINGS: Omit<ArenaSettings, 'course' | 'rules' | 'pits' | 'seeds'> = {
  timePerMoveMs: 1000,
  openingPlies: 4,
  seed: 1,
  sanityGames: 4,
  placementGames: 2,
  anchors: [...DEFAULT_ANCHORS],
  uploadsPerHour: 12,
  scrimsPerHour: 20,
  maxGamesPerPair: 20,
};

/** Distinct openings a pair's games are drawn from (each played from both seats). */
export const OPENING_PAIRS = 32;

export interface ArenaOptions {
  sandbox?: SandboxMode;
  memoryMb?: number;
  /** games played at once on the local pool */
  jobs?: number;
  /** `redis://…`: games are played by `mancala worker`s (framework/distributed) */
  queue?: string;
  /** ladder games kept queued ahead (default 2 × jobs) */
  ladderAhead?: number;
  /** a line on what the arena does (a game that could not be played, a queue notice) */
  log?(line: string): void;
}

export interface Standing {
  student: string | null;
  pseudonym: string;
  anchor: boolean;
  rating: number;
  sigma: number;
  games: number;
  submission: number | null;
  wins: number;
  draws: number;
  losses: number;
}

export interface ArenaMetrics {
  queued: number;
  running: number;
  done: number;
  gamesLastMinute: number;
  workers: number;
  submissions: Record<string, number>;
}

export const SETTINGS_KEY = 'settings';
export const FROZEN_KEY = 'frozen';

export function pairKey(a: string, b: string): string {
  return a < b ? `${a}|${b}` : `${b}|${a}`;
}

export function parseFeedback(text: string | null): Record<string, unknown> {
  if (text === null) return {};
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch {
    return {};
  }
}

/** A round robin under the arena's rules, clock, time bank and openings: its ladder's games and its final's stages. */
export function arenaRoundRobin(s: ArenaSettings, o: { agents: string[]; gamesPerPair: number; seed: number }): TournamentParams {
  return {
    format: 'round-robin',
    agents: o.agents,
    vs: [],
    gamesPerPair: o.gamesPerPair,
    seed: o.seed,
    rules: s.rules,
    pits: s.pits,
    seeds: s.seeds,
    timePerMoveMs: s.timePerMoveMs,
    ...(s.timeBankMs !== undefined && s.timeBankMs > 0 ? { timeBankMs: s.timeBankMs } : {}),
    openings: `random:${s.openingPlies}`,
    openingsSha256: null,
    forfeit: 'loss',
  };
}

/** The tournament job's setup for the arena's games: the arena's rules, clock and openings. */
export function arenaJobSetup(s: ArenaSettings, o: Pick<ArenaOptions, 'memoryMb' | 'sandbox'>): JobSetup {
  const params = arenaRoundRobin(s, { agents: [], gamesPerPair: OPENING_PAIRS * 2, seed: s.seed });
  return { params, memoryMb: o.memoryMb ?? DEFAULT_MEMORY_MB, ...(o.sandbox !== undefined ? { sandbox: o.sandbox } : {}), moveTimes: true };
}
