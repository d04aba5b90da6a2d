/**
 * Runs a tournament: checks the parameters, builds the schedule, reopens the results file and
 * plays the games it lacks on `jobs` jobs (each with its own players; on the worker pool's threads
 * when there are several: framework/workers/pool.ts), appending each game as it finishes. A rerun after an interruption plays only the
 * missing games; the standings are computed from every recorded game in schedule order, so they
 * are the same as an uninterrupted run's.
 */
import { UserError } from '../errors.ts';
import { findProfile } from '../games/mancala/profiles.ts';
import type { SandboxMode } from '../sandbox/jail/mechanisms.ts';
import { shardItems, type ShardSpec } from '../shard-spec.ts';
import { runJobs } from '../workers/pool.ts';
import { tournamentFiles } from './queue-files.ts';
import { DEFAULT_MEMORY_MB, TOURNAMENT_JOB, tournamentStarts, validateAgentSpec, type JobSetup } from './executor.ts';
import { participants, type TournamentParams } from './params.ts';
import { computeStandings, type Standing } from './ratings.ts';
import { openResults, type PlayedGame } from './results.ts';
import { buildSchedule, type ScheduledGame } from './schedule.ts';
import type { GameRecord } from '../matches/types.ts';

export interface TournamentProgress {
  /** games recorded so far, earlier runs' included */
  done: number;
  total: number;
  /** the game that just finished (undefined for the first event, sent before any game is played) */
  game?: PlayedGame;
}

export interface RunTournamentOptions {
  params: TournamentParams;
  /** the folder of results.jsonl */
  outDir: string;
  jobs: number;
  memoryMb?: number;
  /** how sandboxed submissions are confined (sandbox/jail/mechanisms.ts); default full */
  sandbox?: SandboxMode;
  /** sandboxed submissions a job keeps open between games (executor.ts MAX_OPEN_SUBMISSIONS) */
  maxOpenSubmissions?: number;
  /** play at most this many new games, then stop (the rest are left for a rerun) */
  maxGames?: number;
  /**
   * `--shard i/n`: play only this shard's scheduled games (game k is shard ((k − 1) mod n) + 1),
   * with the seeds and openings they have in the whole schedule; the results file says so.
   */
  shard?: ShardSpec;
  /** `--queue redis://…`: the games are played by `mancala worker`s through that Redis (framework/distributed/), not by local jobs */
  queue?: string;
  /** what the queue has to say beyond results (a worker refused the run, Redis lost it, …) */
  onNotice?(line: string): void;
  onProgress?(p: TournamentProgress): void;
  /** when aborted, no game starts and games in play are abandoned, not recorded */
  signal?: AbortSignal;
}

export interface TournamentOutcome {
  file: string;
  /** the games to play: the whole schedule, or a shard's games of it */
  schedule: ScheduledGame[];
  /** every recorded game, in schedule order */
  games: PlayedGame[];
  /** games played by this run */
  playedNow: number;
  /** games found in the results file */
  resumed: number;
  /** every scheduled game is recorded */
  complete: boolean;
  standings: Standing[];
  /** e.g. a torn last line of the results file was dropped */
  notes: string[];
}

/** Refuses parameters that make no tournament, before any file is touched. */
export function validateParams(p: TournamentParams): void {
  if (findProfile(p.rules) === undefined) throw new UserError(`--rules ${p.rules}: unknown rules profile`);
  const everyone = participants(p);
  const seen = new Set<string>();
  for (const a of everyone) {
    if (seen.has(a)) throw new UserError(`agent ${a} is given twice${p.vs.includes(a) && p.agents.includes(a) ? ' (as a contestant and as a --vs reference)' : ''}: name each agent once`);
    seen.add(a);
  }
  if (p.format === 'round-robin') {
    if (p.vs.length > 0) throw new UserError(`option '--vs' applies to --format gauntlet only (a round robin pairs the given agents with each other)`);
    if (p.agents.length < 2) throw new UserError(`a round robin needs at least 2 agents, got ${p.agents.length}`);
  } else if (p.vs.length === 0) {
    throw new UserError(`--format gauntlet needs the references to play: --vs REF... (e.g. --vs random greedy strong)`);
  }
  for (const a of everyone) validateAgentSpec(a);
  // A file of start positions that does not fit the board is refused now, not in every job.
  tournamentStarts(p);
}

export async function runTournament(o: RunTournamentOptions): Promise<TournamentOutcome> {
  const { params } = o;
  validateParams(params);
  const whole = buildSchedule(params);
  const schedule = shardItems(whole, o.shard);
  const store = openResults(o.outDir, params, whole, o.shard);
  const resumed = store.recorded.size;
  const games = new Map(store.recorded);
  const unplayed = schedule.filter((g) => !games.has(g.index)).slice(0, o.maxGames ?? Infinity);
  const setup: JobSetup = {
    params,
    memoryMb: o.memoryMb ?? DEFAULT_MEMORY_MB,
    ...(o.sandbox !== undefined ? { sandbox: o.sandbox } : {}),
    ...(o.maxOpenSubmissions !== undefined ? { maxOpenSubmissions: o.maxOpenSubmissions } : {}),
  };
  let playedNow = 0;
  try {
    o.onProgress?.({ done: games.size, total: schedule.length });
    const run = {
      kind: TOURNAMENT_JOB,
      setup,
      items: unplayed,
      onResult: (record: GameRecord, g: ScheduledGame) => {
        const played: PlayedGame = { ...record, index: g.index, A: g.A, B: g.B, first: g.first };
        store.append(played);
        games.set(g.index, played);
        playedNow++;
        o.onProgress?.({ done: games.size, total: schedule.length, game: played });
      },
      ...(o.signal !== undefined ? { signal: o.signal } : {}),
    };
    if (o.queue === undefined) await runJobs({ ...run, jobs: o.jobs });
    else {
      const onNotice = o.onNotice;
      // Loaded only here: BullMQ is no part of a local run's start.
      const { runJobsOnQueue } = await import('../distributed/coordinator.ts');
      // A game's key is its place in the whole schedule: the same job in every rerun (and every shard).
      await runJobsOnQueue({ ...run, queue: o.queue, label: 'tournament', keyOf: (g) => String(g.index), files: tournamentFiles(params), ...(onNotice !== undefined ? { onNotice } : {}) });
    }
  } finally {
    store.close();
  }
  const inOrder = [...games.values()].sort((x, y) => x.index - y.index);
  return {
    file: store.file,
    schedule,
    games: inOrder,
    playedNow,
    resumed,
    complete: inOrder.length === schedule.length,
    standings: computeStandings(participants(params), inOrder),
    notes: store.notes,
  };
}
