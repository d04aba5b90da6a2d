/**
 * A match's options as `mancala match` and the other callers give them, their defaults, and the
 * match they resolve to: the game built, every option checked (a mistake is a UserError before any
 * game is played) and every game's order planned (its start, opening, seats and seed).
 */
import { UserError } from '../errors.ts';
import { stateToBoard, type BoardSpec } from '../games/mancala/board-io/board.ts';
import { MancalaGame } from '../games/mancala/engine.ts';
import { findProfile, PROFILE_NAMES } from '../games/mancala/profiles.ts';
import { LIMITS } from '../games/mancala/rules.ts';
import { deriveSeed } from '../random.ts';
import type { SandboxMode } from '../sandbox/jail/mechanisms.ts';
import type { SearchConventions } from '../contracts/search-conventions.ts';
import type { GameSpec } from '../suites/types.ts';
import { describeOpenings, planStarts, readStartPositions, type OpeningsSpec } from './openings.ts';
import { anytimeByDefault, type PlayedGameRecord } from './play-game.ts';
import { checkAgentSpec } from './player.ts';
import type { ForfeitPolicy, Side } from './types.ts';

/** Salt of the match's openings (deriveSeed), apart from its games' seeds (game numbers ≥ 1). */
const MATCH_OPENINGS_SOURCE = -3;

export interface MatchOptions {
  /** the agents, as `mancala match` takes them: a reference name with options, or a path */
  A: string;
  B: string;
  /** rules profile; default `kalah` */
  rules?: string;
  /** board size; default the profile's (with an openings file: the file's boards') */
  pits?: number;
  seeds?: number;
  /** default 10 */
  games?: number;
  /** default 1000 */
  timePerMoveMs?: number;
  /** each side's time bank a game, ms (play-game.ts: a move over the clock draws on it); default none */
  timeBankMs?: number;
  /** default 1 */
  seed?: number;
  /** default random:2 */
  openings?: OpeningsSpec;
  /** default loss */
  forfeit?: ForfeitPolicy;
  /** the anytime rule (PlayGameOptions.anytime); default: on for ANYTIME_PROFILES (cs540), off otherwise */
  anytime?: boolean;
  /**
   * A fixed grace after the time per move, for both sides: a later answer is late, and a sandboxed
   * side still thinking is stopped then (cs540's course match rules: 500). Default: the grace of
   * the rule in force (anytimeGraceMs or timeGraceMs) and the sandbox's own hard limit.
   */
  graceMs?: number;
  /** under the anytime rule, a side with no legal report this turn plays its previous move if legal (PlayGameOptions.carryMove); default false */
  carryMove?: boolean;
  /** games played at once, each job in a worker thread with its own players; default 1 (in this thread) */
  jobs?: number;
  /** memory cap of a sandboxed submission's process, MB; default 512 */
  memoryMb?: number;
  /** how sandboxed submissions are confined (sandbox/jail/mechanisms.ts); default full */
  sandbox?: SandboxMode;
  /** a folder to write each game's replay to (replay.ts) */
  replays?: string;
  /** called as each game ends (in any order when jobs > 1), with the number of games done */
  onGame?: (record: PlayedGameRecord, done: number) => void;
}

export const MATCH_DEFAULTS = {
  rules: 'kalah',
  games: 10,
  timePerMoveMs: 1000,
  seed: 1,
  openings: { kind: 'random', plies: 2 } as OpeningsSpec,
  forfeit: 'loss' as ForfeitPolicy,
  jobs: 1,
  memoryMb: 512,
};

/** The match's parameters as resolved: what the JSON output and replays record. */
export interface MatchInfo {
  A: string;
  B: string;
  rules: string;
  pits: number;
  seeds: number;
  games: number;
  timePerMoveMs: number;
  seed: number;
  openings: string;
  forfeit: ForfeitPolicy;
  /** the anytime rule is on: a timeout plays the side's last reported legal move */
  anytime: boolean;
  /** set only when MatchOptions.graceMs was given */
  graceMs?: number;
  /** set only when on (MatchOptions.carryMove) */
  carryMove?: true;
  /** set only when MatchOptions.timeBankMs was given and > 0 */
  timeBankMs?: number;
}

export interface ResolvedMatch {
  info: MatchInfo;
  game: MancalaGame;
  gameSpec: GameSpec;
  conventions: SearchConventions;
  memoryMb: number;
  jobs: number;
  starts: { start: BoardSpec; opening: number[]; startPosition?: number }[];
}

function checkRange(value: number, min: number, max: number, what: string): void {
  if (!Number.isSafeInteger(value) || value < min || value > max) throw new UserError(`${what}: expected a whole number from ${min} to ${max}, got ${value}`);
}

/** The options with defaults filled in, the game built and every game's start planned; every mistake a UserError. */
export function resolveMatch(o: MatchOptions): ResolvedMatch {
  const rules = o.rules ?? MATCH_DEFAULTS.rules;
  const profile = findProfile(rules);
  if (profile === undefined) throw new UserError(`rules "${rules}": expected one of ${PROFILE_NAMES.join(', ')}`);
  const games = o.games ?? MATCH_DEFAULTS.games;
  const timePerMoveMs = o.timePerMoveMs ?? MATCH_DEFAULTS.timePerMoveMs;
  const seed = o.seed ?? MATCH_DEFAULTS.seed;
  const jobs = o.jobs ?? MATCH_DEFAULTS.jobs;
  const openings = o.openings ?? MATCH_DEFAULTS.openings;
  checkRange(games, 1, 1_000_000, 'games');
  checkRange(jobs, 1, 64, 'jobs');
  if (!(timePerMoveMs > 0 && Number.isFinite(timePerMoveMs))) throw new UserError(`time per move: expected a number of ms > 0, got ${timePerMoveMs}`);
  if (!Number.isSafeInteger(seed)) throw new UserError(`seed: expected a whole number, got ${seed}`);
  if (o.timeBankMs !== undefined && !(o.timeBankMs >= 0 && o.timeBankMs <= 3_600_000)) throw new UserError(`time bank: expected a number of ms from 0 to 3600000, got ${o.timeBankMs}`);
  if (o.graceMs !== undefined && !(o.graceMs >= 0 && o.graceMs <= 3_600_000)) throw new UserError(`grace: expected a number of ms from 0 to 3600000, got ${o.graceMs}`);
  const anytime = o.anytime ?? anytimeByDefault(profile.name);
  if (o.carryMove === true && !anytime) throw new UserError('carrying the previous move over applies under the anytime rule only (rules cs540, or anytime on)');
  checkAgentSpec(o.A);
  checkAgentSpec(o.B);
  const boards = openings.kind === 'file' ? readStartPositions(openings.file) : undefined;
  const pits = o.pits ?? boards?.[0]?.bottom.length ?? profile.rules.pits;
  const seeds = o.seeds ?? profile.rules.seeds;
  checkRange(pits, LIMITS.minPits, LIMITS.maxPits, 'pits');
  checkRange(seeds, LIMITS.minSeeds, LIMITS.maxSeeds, 'seeds');
  const name = `${profile.name}(${pits},${seeds})`;
  const gameRules = { ...profile.rules, pits, seeds };
  const game = new MancalaGame(gameRules, name);
  const planned = planStarts(game, openings, { profile: profile.name, seed: deriveSeed(seed, MATCH_OPENINGS_SOURCE), games, ...(boards ? { boards } : {}) });
  return {
    info: {
      A: o.A,
      B: o.B,
      rules: profile.name,
      pits,
      seeds,
      games,
      timePerMoveMs,
      seed,
      openings: describeOpenings(openings),
      forfeit: o.forfeit ?? MATCH_DEFAULTS.forfeit,
      anytime,
      ...(o.graceMs !== undefined ? { graceMs: o.graceMs } : {}),
      ...(o.carryMove === true ? { carryMove: true as const } : {}),
      ...(o.timeBankMs !== undefined && o.timeBankMs > 0 ? { timeBankMs: o.timeBankMs } : {}),
    },
    game,
    gameSpec: { kind: 'mancala', profile: profile.name, rules: gameRules, name },
    conventions: profile.search,
    memoryMb: o.memoryMb ?? MATCH_DEFAULTS.memoryMb,
    jobs: Math.min(jobs, games),
    starts: planned.map((p) => ({ start: stateToBoard(game, p.start), opening: p.opening, ...(p.position !== undefined ? { startPosition: p.position } : {}) })),
  };
}

/** What one game needs beyond the players: plain data, so it can be posted to a worker. */
export interface GameOrder {
  index: number;
  first: Side;
  start: BoardSpec;
  opening: number[];
  startPosition?: number;
  seed: number;
}

export function gameOrders(m: ResolvedMatch): GameOrder[] {
  return m.starts.map((s, g) => ({
    index: g + 1,
    first: g % 2 === 0 ? 'A' : 'B',
    start: s.start,
    opening: s.opening,
    ...(s.startPosition !== undefined ? { startPosition: s.startPosition } : {}),
    seed: deriveSeed(m.info.seed, g + 1),
  }));
}
