/**
 * The live standings: each student's current ladder submission and each anchor, with its rating
 * (an anchor's is fixed), its rated games and its wins, draws and losses in placement and ladder
 * games (sanity games and scrims count for nothing). Best first.
 */
import { ANCHOR_SIGMA, type Anchor, type Standing } from './settings.ts';
import { playerKey, type ArenaStore, type GameRow, type SubmissionRow } from './store.ts';

export function arenaStandings(store: ArenaStore, anchors: readonly Anchor[], current: (student: string) => SubmissionRow | undefined): Standing[] {
  const tally = new Map<string, { wins: number; draws: number; losses: number }>();
  const rows = store.db.all("SELECT a_submission, a_anchor, b_submission, b_anchor, winner FROM games WHERE status = 'done' AND kind IN ('placement','ladder')") as unknown as GameRow[];
  for (const g of rows) {
    for (const side of ['A', 'B'] as const) {
      const key = side === 'A' ? (g.a_submission !== null ? `sub:${g.a_submission}` : `anchor:${g.a_anchor}`) : g.b_submission !== null ? `sub:${g.b_submission}` : `anchor:${g.b_anchor}`;
      const t = tally.get(key) ?? { wins: 0, draws: 0, losses: 0 };
      if (g.winner === 'draw') t.draws++;
      else if (g.winner === side) t.wins++;
      else t.losses++;
      tally.set(key, t);
    }
  }
  const out: Standing[] = [];
  for (const s of store.students()) {
    const sub = current(s.id);
    if (sub === undefined) continue;
    const key = playerKey({ submission: sub.id });
    const r = store.rating(key);
    const t = tally.get(key) ?? { wins: 0, draws: 0, losses: 0 };
    out.push({ student: s.id, pseudonym: s.pseudonym, anchor: false, rating: r?.mu ?? 25, sigma: r?.sigma ?? 25 / 3, games: r?.games ?? 0, submission: sub.id, ...t });
  }
  for (const a of anchors) {
    const key = playerKey({ anchor: a.spec });
    const r = store.rating(key);
    const t = tally.get(key) ?? { wins: 0, draws: 0, losses: 0 };
    out.push({ student: null, pseudonym: a.spec, anchor: true, rating: a.mu, sigma: ANCHOR_SIGMA, games: r?.games ?? 0, submission: null, ...t });
  }
  return out.sort((x, y) => y.rating - x.rating || (x.pseudonym < y.pseudonym ? -1 : 1));
}
