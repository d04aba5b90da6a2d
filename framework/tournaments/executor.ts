/**
 * A tournament's job: plays scheduled games one at a time with players of its own, in this thread
 * or on a thread of the worker pool (framework/workers/pool.ts). It opens each agent the
 * first time one of its games comes up and keeps it for the job's later games (a sandboxed
 * submission: one process per job, reused). Jobs never share players, so two jobs never wait on
 * one submission's process.
 *
 * A submission that cannot be loaded at all (no agent module, a syntax error, an import that
 * leaves the submission) forfeits each of its games as a crash with that message rather than
 * stopping the tournament: one broken submission must not hold up a class's tournament. Bad
 * command-line names are refused before any game starts (validateAgentSpec).
 */
import { UserError } from '../errors.ts';
import { unreadableSubmission } from '../files/submission-entries.ts';
import type { MancalaGame } from '../games/mancala/engine.ts';
import { mancalaGame } from '../games/mancala/profile-game.ts';
import { findProfile } from '../games/mancala/profiles.ts';
import { deriveSeed } from '../random.ts';
import { anytimeByDefault, playGame } from '../matches/play-game.ts';
import { parseOpeningsOption, planStarts, type GameStart } from '../matches/openings.ts';
import { checkAgentSpec, isPathSpec, openPlayer, type OpenPlayerOptions } from '../matches/player.ts';
import type { GameRecord, MatchPlayer, MoveAttempt } from '../matches/types.ts';
import type { SandboxMode } from '../sandbox/jail/mechanisms.ts';
import { DEFAULT_LIMITS } from '../suites/schema.ts';
import { gameSpec } from '../suites/game.ts';
import type { TournamentParams } from './params.ts';
import type { ScheduledGame } from './schedule.ts';
import { jobKind, type Job } from '../workers/job.ts';

/** What every job needs to play the tournament's games (plain data: it crosses to worker threads). */
export interface JobSetup {
  params: TournamentParams;
  /** memory cap of a sandboxed submission, MB */
  memoryMb: number;
  /** how sandboxed submissions are confined (sandbox/jail/mechanisms.ts); default full */
  sandbox?: SandboxMode;
  /** sandboxed submissions a job keeps open between games; default MAX_OPEN_SUBMISSIONS */
  maxOpenSubmissions?: number;
  /** record each move's time and side, and each side's stderr, in the game's record (GameRecord.moveMs, moveSides, stderr): the arena shows a student their clock and their logs */
  moveTimes?: boolean;
}

export const DEFAULT_MEMORY_MB = DEFAULT_LIMITS.memoryMb;

/**
 * Sandboxed submissions a job keeps open (a process each, tens of MB): in a class's round robin
 * a job meets every submission, and keeping them all would hold a process per student per job.
 * Reopening one costs about its bundling and start-up, small beside a game.
 */
export const MAX_OPEN_SUBMISSIONS = 6;

/** Salt of the openings' seed (deriveSeed), apart from the schedule's own draws. */
const OPENINGS_SALT = -101;

/**
 * Refuses, before anything runs, a name that cannot be an agent: an unknown reference agent or a
 * bad option (parseAgentSpec says which), or a path that does not exist.
 */
/** The check every side gets before a game starts (framework/matches/player.ts). */
export const validateAgentSpec = checkAgentSpec;

/**
 * Where each round's games start: every pair's k-th game starts from start k (random openings
 * drawn from the tournament's seed, or a file's positions), so pairs meet on equal terms.
 */
export function tournamentStarts(params: TournamentParams, game: MancalaGame = tournamentGame(params)): GameStart[] {
  // A seed of its own: the schedule's shuffle draws from params.seed itself.
  return planStarts(game, parseOpeningsOption(params.openings), { profile: params.rules, seed: deriveSeed(params.seed, OPENINGS_SALT), games: params.gamesPerPair });
}

export function tournamentGame(params: TournamentParams): MancalaGame {
  const profile = findProfile(params.rules);
  if (profile === undefined) throw new UserError(`--rules ${params.rules}: unknown rules profile`);
  return mancalaGame(profile, params.pits, params.seeds);
}

/** A job; its close() closes every player it opened (sandboxed processes are killed, their copies removed). */
export function tournamentJob(setup: JobSetup): Job<ScheduledGame, GameRecord> {
  const { params } = setup;
  const maxOpen = setup.maxOpenSubmissions ?? MAX_OPEN_SUBMISSIONS;
  const profile = findProfile(params.rules)!;
  const game = tournamentGame(params);
  const starts = tournamentStarts(params, game);
  const open: OpenPlayerOptions = {
    game: gameSpec({ profile: params.rules, pits: params.pits, seeds: params.seeds }),
    conventions: profile.search,
    memoryMb: setup.memoryMb,
    ...(setup.sandbox !== undefined ? { sandbox: setup.sandbox } : {}),
  };
  // Insertion order is use order: a player is moved to the end each time it plays.
  const players = new Map<string, Promise<MatchPlayer>>();
  const playerFor = (spec: string): Promise<MatchPlayer> => {
    let p = players.get(spec);
    if (p === undefined) {
      p = openPlayer(spec, open).catch((e: unknown) => {
        // A submission that cannot be set up (its own error, or a folder of it that cannot be read) forfeits; the tournament goes on.
        const why = e instanceof UserError ? e.message : unreadableSubmission(e);
        if (why !== undefined && isPathSpec(spec)) return brokenPlayer(spec, why);
        throw e;
      });
    }
    players.delete(spec);
    players.set(spec, p);
    return p;
  };
  /** Closes the least recently used submissions beyond MAX_OPEN_SUBMISSIONS (never one of `keep`). */
  const closeIdle = async (keep: readonly string[]): Promise<void> => {
    const idle = [...players.keys()].filter((spec) => isPathSpec(spec) && !keep.includes(spec));
    const needed = keep.filter(isPathSpec).length;
    for (const spec of idle.slice(0, Math.max(0, idle.length + needed - maxOpen))) {
      const p = players.get(spec)!;
      players.delete(spec);
      await p.then((player) => player.close()).catch(() => {});
    }
  };
  return {
    async run(g) {
      await closeIdle([g.A, g.B]);
      const [A, B] = await Promise.all([playerFor(g.A), playerFor(g.B)]);
      const s = starts[g.round]!;
      const moveMs: number[] = [];
      const moveBankMs: number[] = [];
      let moveSides = '';
      const stderrBefore = [A.stderr?.().total ?? 0, B.stderr?.().total ?? 0];
      const record = await playGame({
        game,
        start: s.start,
        opening: s.opening,
        players: { A, B },
        first: g.first,
        index: g.index,
        timePerMoveMs: params.timePerMoveMs,
        ...(params.timeBankMs !== undefined && params.timeBankMs > 0 ? { timeBankMs: params.timeBankMs } : {}),
        forfeit: params.forfeit,
        seed: g.seed,
        // cs540's anytime rule applies in its tournaments as in its matches
        anytime: anytimeByDefault(params.rules),
        ...(s.position !== undefined ? { startPosition: s.position } : {}),
        ...(setup.moveTimes === true
          ? {
              observers: [
                {
                  onMove: (e: { ms: number; side: 'A' | 'B'; bankLeftMs?: number }) => {
                    moveMs.push(Math.round(e.ms * 10) / 10);
                    // an opening move leaves the bank whole
                    moveBankMs.push(e.bankLeftMs ?? params.timeBankMs ?? 0);
                    moveSides += e.side;
                  },
                },
              ],
            }
          : {}),
      });
      if (setup.moveTimes !== true) return record;
      const stderr = [A, B].map((p, k) => gameStderr(p, stderrBefore[k]!)) as [string, string];
      return { ...record, moveMs, moveSides, stderr, ...(record.timeBankMs !== undefined ? { moveBankMs } : {}) };
    },
    async close() {
      const opened = await Promise.allSettled(players.values());
      players.clear();
      await Promise.allSettled(opened.map((p) => (p.status === 'fulfilled' ? p.value.close() : undefined)));
    },
  };
}

export const TOURNAMENT_JOB = jobKind(import.meta.url, 'tournamentJob', tournamentJob);

/**
 * What a player wrote on stderr since its total was `before`: the new part of its bounded tail (a
 * process started again since, after a crash, counts from its start).
 */
function gameStderr(p: MatchPlayer, before: number): string {
  const now = p.stderr?.();
  if (now === undefined) return '';
  const grew = now.total >= before ? now.total - before : now.total;
  return grew === 0 ? '' : now.text.slice(-Math.min(grew, now.text.length));
}

/** A submission that could not be loaded: every move it is asked for is a crash with the reason. */
function brokenPlayer(label: string, message: string): MatchPlayer {
  return {
    label,
    chooseMove: async (): Promise<MoveAttempt> => ({ status: 'error', message, ms: 0 }),
    close: async () => {},
  };
}
