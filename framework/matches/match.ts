/**
 * A match: many games between two agents named on the command line (`playMatch`), what
 * `mancala match`, the cs540 gauntlet and `mancala bench` run.
 *
 * - Sides are A and B. `first` is the side in the bottom seat: A in games 1, 3, 5, … and B in
 *   games 2, 4, 6, …; games 2p+1 and 2p+2 share their start (openings.ts), so each side plays each
 *   opening from both seats. Each game is played by playGame (play-game.ts: clocks, forfeits, the
 *   anytime rule).
 * - Everything random derives from the match's seed and the game's index (deriveSeed): each game's
 *   opening, the seed an agent gets for each move, the moves played for a failing side. A game's
 *   result does not depend on which job played it, so a seed gives the same games for any --jobs.
 * - With `jobs` > 1 the games run on the worker pool's threads (framework/workers/pool.ts), each
 *   job with its own pair of players (a sandboxed submission gets one process a job), so both
 *   cores are used even by reference agents, which search in their job's thread.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { UserError } from '../errors.ts';
import { runJobs } from '../workers/pool.ts';
import { MATCH_JOB, type MatchJobSetup, type PlayedGame } from './match-job.ts';
import { gameOrders, resolveMatch, type MatchInfo, type MatchOptions } from './match-options.ts';
import { sideStats, summarize, type MatchResult } from './match-results.ts';
import type { PlayedGameRecord } from './play-game.ts';
import { replayEnd, replayFileName, writeReplay, type ReplayHeader } from './replay.ts';
import { studentPath } from '../student-text.ts';

/**
 * Plays a match (see the module's comment) and returns every game in order with the tally.
 * A bad option, an unknown agent or a missing path, a bad openings file: UserError, before any
 * game is played (a submission folder without an agent module: when its players are opened).
 */
export async function playMatch(o: MatchOptions): Promise<MatchResult> {
  const m = resolveMatch(o);
  const setup: MatchJobSetup = {
    A: m.info.A,
    B: m.info.B,
    gameSpec: m.gameSpec as MatchJobSetup['gameSpec'],
    conventions: m.conventions,
    memoryMb: m.memoryMb,
    ...(o.sandbox !== undefined ? { sandbox: o.sandbox } : {}),
    timePerMoveMs: m.info.timePerMoveMs,
    forfeit: m.info.forfeit,
    anytime: m.info.anytime,
    ...(m.info.graceMs !== undefined ? { graceMs: m.info.graceMs } : {}),
    ...(m.info.carryMove === true ? { carryMove: true } : {}),
    ...(m.info.timeBankMs !== undefined ? { timeBankMs: m.info.timeBankMs } : {}),
    replays: o.replays !== undefined,
  };
  if (o.replays !== undefined) {
    try {
      mkdirSync(o.replays, { recursive: true });
    } catch (e) {
      throw new UserError(`--replays ${o.replays}: cannot create the folder: ${(e as Error).message}`);
    }
  }
  const records: PlayedGameRecord[] = new Array(m.info.games);
  let done = 0;
  await runJobs({
    kind: MATCH_JOB,
    setup,
    items: gameOrders(m),
    jobs: m.jobs,
    onResult: (p: PlayedGame) => {
      records[p.record.index - 1] = p.record;
      if (o.replays !== undefined) writeGameReplay(o.replays, m.info, p);
      o.onGame?.(p.record, ++done);
    },
  });
  // A side's name may be a student's folder name: terminal-safe in the result every writer prints.
  const match = { ...m.info, A: studentPath(m.info.A), B: studentPath(m.info.B) };
  return { match, games: records, summary: summarize(records), stats: { A: sideStats(records, 'A'), B: sideStats(records, 'B') } };
}

function writeGameReplay(dir: string, info: MatchInfo, p: PlayedGame): void {
  const r = p.record;
  const header: ReplayHeader = {
    type: 'game',
    version: 1,
    game: r.index,
    rules: info.rules,
    pits: info.pits,
    seeds: info.seeds,
    A: studentPath(info.A),
    B: studentPath(info.B),
    first: r.first,
    seed: info.seed,
    timePerMoveMs: info.timePerMoveMs,
    forfeitPolicy: info.forfeit,
    ...(r.startPosition !== undefined ? { startPosition: r.startPosition } : {}),
  };
  writeReplay(join(dir, replayFileName(r.index, info.games)), { header, moves: p.replay, end: replayEnd(r) });
}
