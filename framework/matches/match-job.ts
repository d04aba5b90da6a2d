/**
 * A match's job: a pair of players of its own, opened once and kept for every game the job plays
 * (a sandboxed submission: one process a job, reused), closed when the match's games run out.
 * It runs in this thread (--jobs 1) or on a thread of the worker pool (framework/workers/pool.ts).
 */
import { boardToState } from '../games/mancala/board-io/board.ts';
import { MancalaGame } from '../games/mancala/engine.ts';
import type { SandboxMode } from '../sandbox/jail/mechanisms.ts';
import type { SearchConventions } from '../contracts/search-conventions.ts';
import type { GameSpec } from '../suites/types.ts';
import { jobKind, type Job } from '../workers/job.ts';
import type { GameOrder } from './match-options.ts';
import { playGame, type PlayedGameRecord } from './play-game.ts';
import { openPlayer } from './player.ts';
import type { ForfeitPolicy, MatchPlayer, ReplayLine } from './types.ts';

/** Everything a job needs to open its players and play games (plain data: it crosses to worker threads). */
export interface MatchJobSetup {
  A: string;
  B: string;
  gameSpec: Extract<GameSpec, { kind: 'mancala' }>;
  conventions: SearchConventions;
  memoryMb: number;
  sandbox?: SandboxMode;
  timePerMoveMs: number;
  forfeit: ForfeitPolicy;
  anytime: boolean;
  /** MatchOptions.graceMs: both sides' grace, each also stopped then */
  graceMs?: number;
  carryMove?: boolean;
  /** MatchOptions.timeBankMs */
  timeBankMs?: number;
  replays: boolean;
}

export interface PlayedGame {
  record: PlayedGameRecord;
  /** the game's replay lines when the setup asks for replays, else empty */
  replay: ReplayLine[];
}

async function openPair(setup: MatchJobSetup): Promise<{ A: MatchPlayer; B: MatchPlayer }> {
  const o = { game: setup.gameSpec, conventions: setup.conventions, memoryMb: setup.memoryMb, ...(setup.sandbox !== undefined ? { sandbox: setup.sandbox } : {}) };
  const A = await openPlayer(setup.A, o);
  try {
    return { A, B: await openPlayer(setup.B, o) };
  } catch (e) {
    await A.close();
    throw e;
  }
}

export async function matchJob(setup: MatchJobSetup): Promise<Job<GameOrder, PlayedGame>> {
  const players = await openPair(setup);
  const game = new MancalaGame(setup.gameSpec.rules, setup.gameSpec.name);
  return {
    async run(order) {
      const replay: ReplayLine[] = [];
      const record = await playGame({
        game,
        start: boardToState(game, order.start),
        opening: order.opening,
        players,
        first: order.first,
        index: order.index,
        timePerMoveMs: setup.timePerMoveMs,
        forfeit: setup.forfeit,
        anytime: setup.anytime,
        ...(setup.graceMs !== undefined ? { graceMs: { A: setup.graceMs, B: setup.graceMs }, stopAtGrace: true } : {}),
        ...(setup.carryMove === true ? { carryMove: true } : {}),
        ...(setup.timeBankMs !== undefined ? { timeBankMs: setup.timeBankMs } : {}),
        seed: order.seed,
        ...(setup.replays ? { onReplay: (l: ReplayLine) => void replay.push(l) } : {}),
        ...(order.startPosition !== undefined ? { startPosition: order.startPosition } : {}),
      });
      return { record, replay };
    },
    close: async () => void (await Promise.all([players.A.close(), players.B.close()])),
  };
}

export const MATCH_JOB = jobKind(import.meta.url, 'matchJob', matchJob);
