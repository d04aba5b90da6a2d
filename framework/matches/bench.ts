/**
 * How fast matches run (for `mancala bench`): reference alpha-beta at depth 4 against random on
 * Kalah(6,4), the match runner's whole path (openings, players, forfeit checks, tally) included.
 * With jobs > 1 the games run on the worker pool's threads, each of which first loads the
 * framework (a few hundred ms), so the figure also gives the rate once the first game is in.
 */
import { playMatch } from './match.ts';

export interface MatchSpeed {
  A: string;
  B: string;
  games: number;
  jobs: number;
  /** wall-clock ms of the whole match, workers' start included */
  ms: number;
  gamesPerSecond: number;
  /** ms until the first game was finished (with jobs > 1: mostly starting the workers) */
  firstGameMs: number;
  /** games a second after the first one was in: the rate a long match settles to */
  steadyGamesPerSecond: number;
  /** games A won (alpha-beta should win nearly all) */
  winsA: number;
}

export const BENCH_MATCH = { A: 'alphabeta:depth=4', B: 'random' } as const;

/** Plays `games` games (default 2000) of BENCH_MATCH with `jobs` jobs (default 2: both cores) and times them. */
export async function gamesPerSecond(o: { games?: number; jobs?: number; seed?: number } = {}): Promise<MatchSpeed> {
  const games = o.games ?? 2000;
  const jobs = o.jobs ?? 2;
  const start = performance.now();
  let firstGameMs = 0;
  const result = await playMatch({
    ...BENCH_MATCH,
    games,
    jobs,
    seed: o.seed ?? 1,
    onGame: (_record, done) => {
      if (done === 1) firstGameMs = performance.now() - start;
    },
  });
  const ms = performance.now() - start;
  const rest = ms - firstGameMs;
  return {
    ...BENCH_MATCH,
    games,
    jobs,
    ms,
    gamesPerSecond: (games * 1000) / ms,
    firstGameMs,
    steadyGamesPerSecond: games > 1 && rest > 0 ? ((games - 1) * 1000) / rest : 0,
    winsA: result.summary.A.wins,
  };
}
