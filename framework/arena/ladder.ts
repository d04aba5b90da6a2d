/**
 * The ladder's next games: the pairs the scheduler (schedule.ts) picks from the standings, each
 * pair's two games from one seeded opening, one from each seat, every choice drawn from the
 * arena's seed and the number of games so far.
 */
import { rate, rating } from 'openskill';
import { deriveSeed } from '../random.ts';
import { pickLadderPairs, type LadderEntry } from './schedule.ts';
import { OPENING_PAIRS, pairKey, type ArenaSettings, type Standing } from './settings.ts';
import { playerKey, type ArenaStore, type GameRow, type GameSide, type NewGame } from './store.ts';

/** Ladder games to queue now so that `ahead` are queued or running: the pairs pickLadderPairs chooses, two games each. */
export function nextLadderGames(store: ArenaStore, settings: ArenaSettings, standings: readonly Standing[], ahead: number): NewGame[] {
  const queued = store.countGames('queued', 'ladder') + store.countGames('running', 'ladder');
  if (queued >= ahead) return [];
  const entries: LadderEntry[] = standings.map((s) => ({ key: s.anchor ? playerKey({ anchor: s.pseudonym }) : playerKey({ submission: s.submission! }), student: s.student, rating: s.rating, games: s.games }));
  if (entries.filter((e) => e.student !== null).length === 0) return [];
  const met = new Map<string, number>();
  for (const r of store.db.all("SELECT a_submission, a_anchor, b_submission, b_anchor, count(*) AS n FROM games WHERE kind IN ('placement','ladder') GROUP BY 1,2,3,4") as unknown as (GameRow & { n: number })[]) {
    const a = r.a_submission !== null ? `sub:${r.a_submission}` : `anchor:${r.a_anchor}`;
    const b = r.b_submission !== null ? `sub:${r.b_submission}` : `anchor:${r.b_anchor}`;
    met.set(pairKey(a, b), (met.get(pairKey(a, b)) ?? 0) + Number(r.n));
  }
  const pending = new Map<string, number>();
  for (const r of store.db.all("SELECT a_submission, b_submission, b_anchor FROM games WHERE kind IN ('placement','ladder') AND status <> 'done'") as unknown as GameRow[]) {
    for (const s of [r.a_submission, r.b_submission]) if (s !== null) pending.set(`sub:${s}`, (pending.get(`sub:${s}`) ?? 0) + 1);
  }
  const total = Number((store.db.get('SELECT count(*) AS n FROM games') as { n: number }).n);
  const pairs = pickLadderPairs(entries, { met, pending, wanted: Math.ceil((ahead - queued) / 2), seed: deriveSeed(settings.seed, total, 6), maxMet: settings.maxGamesPerPair });
  const games: NewGame[] = [];
  for (const [k, [a, b]] of pairs.entries()) {
    const pair = deriveSeed(settings.seed, total, k, 7) % OPENING_PAIRS;
    for (const [j, first] of (['A', 'B'] as const).entries()) {
      games.push({ kind: 'ladder', A: sideOf(a), B: sideOf(b), first, seed: deriveSeed(settings.seed, total, k, j, 8), opening: 2 * pair + j });
    }
  }
  return games;
}

function sideOf(key: string): GameSide {
  return key.startsWith('sub:') ? { submission: Number(key.slice(4)) } : { anchor: key.slice('anchor:'.length) };
}

/**
 * A rated game's ratings update (openskill, as the tournaments' standings: tau 0), in the
 * transaction that records it; an anchor's rating stays as fixed (store.ts updateRating).
 */
export function rateGame(store: ArenaStore, g: GameRow, winner: 'A' | 'B' | 'draw'): void {
  const a = g.a_submission !== null ? playerKey({ submission: g.a_submission }) : playerKey({ anchor: g.a_anchor! });
  const b = g.b_submission !== null ? playerKey({ submission: g.b_submission }) : playerKey({ anchor: g.b_anchor! });
  const ra = store.rating(a) ?? rating();
  const rb = store.rating(b) ?? rating();
  const rank = winner === 'draw' ? [1, 1] : winner === 'A' ? [1, 2] : [2, 1];
  const [[a2], [b2]] = rate([[rating({ mu: ra.mu, sigma: ra.sigma })], [rating({ mu: rb.mu, sigma: rb.sigma })]], { rank, tau: 0 });
  store.updateRating(a, a2!.mu, a2!.sigma, g.id);
  store.updateRating(b, b2!.mu, b2!.sigma, g.id);
}
