/**
 * What the arena page shows besides each standing's rating: its win rate against each anchor
 * (placement and ladder games; an anchor's row has none) and its rating history, the last
 * HISTORY_POINTS ratings, for the page's sparkline. Read from the store as it is; nothing stored.
 */
import type { Standing } from './settings.ts';
import { playerKey, type ArenaStore } from './store.ts';

/** A sparkline needs a shape, not every game of a term. */
export const HISTORY_POINTS = 60;

export interface VersusAnchor {
  games: number;
  wins: number;
  draws: number;
}

/** Per submission, per anchor: games, wins and draws of the submission's rated games against it. */
export function versusAnchors(store: ArenaStore, submissions: readonly number[]): Map<number, Record<string, VersusAnchor>> {
  const out = new Map<number, Record<string, VersusAnchor>>();
  if (submissions.length === 0) return out;
  const marks = submissions.map(() => '?').join(',');
  const rows = store.db.all(
    `SELECT a_submission AS sub, b_anchor AS anchor, count(*) AS games, sum(winner = 'A') AS wins, sum(winner = 'draw') AS draws FROM games
       WHERE status = 'done' AND kind IN ('placement','ladder') AND b_anchor IS NOT NULL AND a_submission IN (${marks}) GROUP BY a_submission, b_anchor
     UNION ALL
     SELECT b_submission, a_anchor, count(*), sum(winner = 'B'), sum(winner = 'draw') FROM games
       WHERE status = 'done' AND kind IN ('placement','ladder') AND a_anchor IS NOT NULL AND b_submission IN (${marks}) GROUP BY b_submission, a_anchor`,
    [...submissions, ...submissions],
  ) as { sub: number; anchor: string; games: number; wins: number; draws: number }[];
  for (const r of rows) {
    const per = out.get(Number(r.sub)) ?? {};
    const v = per[r.anchor] ?? { games: 0, wins: 0, draws: 0 };
    per[r.anchor] = { games: v.games + Number(r.games), wins: v.wins + Number(r.wins), draws: v.draws + Number(r.draws) };
    out.set(Number(r.sub), per);
  }
  return out;
}

/** The last HISTORY_POINTS ratings (mu) of a standing's submission, oldest first; an anchor's is fixed: none. */
export function recentRatings(store: ArenaStore, s: Standing): number[] {
  if (s.submission === null) return [];
  const rows = store.db.all('SELECT mu FROM rating_history WHERE player = ? ORDER BY id DESC LIMIT ?', [playerKey({ submission: s.submission }), HISTORY_POINTS]) as { mu: number }[];
  return rows.map((r) => Math.round(Number(r.mu) * 100) / 100).reverse();
}
