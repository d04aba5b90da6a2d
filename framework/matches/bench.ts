/**
 * How fast matches run (for `mancala bench`): reference alpha-beta at depth 4 against random on
 * Kalah(6,4), the match runner's whole path (openings, players, forfeit checks, tally) included.
 * With jobs > 1 one job plays in this thread from the start while the pool's threads start (a few
 * hundred ms, then their code warms up), so the figure also gives the rate over the match's second
 * half, the rate a long match settles to.
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
  /** ms until half the games were finished */
  halfMs: number;
  /** games a second over the second half of the games: the rate a long match settles to */
  steadyGamesPerSecond: number;
  /** games A won (alpha-beta should win nearly all) */
  winsA: number;
}

export const BENCH_MATCH = { A: 'alphabeta:depth=4', B: 'random' } as const;

/** Plays `games` games (default 2000) of A against B (default BENCH_MATCH) with `jobs` jobs (default 2: both cores) and times them. */
export async function gamesPerSecond(o: { A?: string; B?: string; games?: number; jobs?: number; seed?: number } = {}): Promise<MatchSpeed> {
  const pairing = { A: o.A ?? BENCH_MATCH.A, B: o.B ?? BENCH_MATCH.B };
  const games = o.games ?? 2000;
  const jobs = o.jobs ?? 2;
  const start = performance.now();
  let halfMs = 0;
  const half = Math.ceil(games / 2);
  const result = await playMatch({
    ...pairing,
    games,
    jobs,
    seed: o.seed ?? 1,
    onGame: (_record, done) => {
      if (done === half) halfMs = performance.now() - start;
    },
  });
  const ms = performance.now() - start;
  const rest = ms - halfMs;
  return {
    ...pairing,
    games,
    jobs,
    ms,
    gamesPerSecond: (games * 1000) / ms,
    halfMs,
    steadyGamesPerSecond: games > 1 && rest > 0 ? ((games - half) * 1000) / rest : 0,
    winsA: result.summary.A.wins,
  };
}
