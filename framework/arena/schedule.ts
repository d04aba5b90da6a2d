/**
 * The ladder's pairing: which two play next. Fairness first, then closeness:
 *
 *  - the submission with the fewest games (played and queued) plays next, so every submission's
 *    count grows at the same pace whatever its rating (ties: a seeded order);
 *  - its opponent is the one nearest in rating, less so the more the two have met already (each
 *    earlier meeting costs as much as MET_COST rating points) and the more games it has beyond the
 *    submission's (AHEAD_COST a pair of games): any ladder submission or anchor.
 *
 * Each pair plays two games, one from each seat, from the same seeded opening (arena.ts).
 */
import { createRandom, randomInt } from '../random.ts';

export interface LadderEntry {
  /** `sub:12` or `anchor:greedy` (store.ts playerKey) */
  key: string;
  /** the student, null for an anchor */
  student: string | null;
  rating: number;
  /** rated games played */
  games: number;
}

/** What an earlier meeting of a pair costs, in rating points: after a few, a farther opponent is preferred. */
export const MET_COST = 1.5;
/** What each pair of games an opponent has beyond the submission costs, in rating points. */
export const AHEAD_COST = 1;

export interface PairingState {
  /** rated games each pair has played or has queued, by pairKey */
  met: ReadonlyMap<string, number>;
  /** games each submission has queued or running */
  pending: ReadonlyMap<string, number>;
  /** pairs wanted */
  wanted: number;
  seed: number;
  /** games a pair plays at most (placement games included): a pair that has met that often is not paired again */
  maxMet?: number;
}

function pairKey(a: string, b: string): string {
  return a < b ? `${a}|${b}` : `${b}|${a}`;
}

/** Up to `wanted` pairs [submission, opponent]; none when there is no submission or nobody to play. */
export function pickLadderPairs(entries: readonly LadderEntry[], s: PairingState): [string, string][] {
  const rand = createRandom(s.seed);
  // A seeded tie-break order, drawn once.
  const order = new Map(entries.map((e) => [e.key, randomInt(rand, 1 << 30)]));
  const load = new Map(entries.map((e) => [e.key, e.games + (s.pending.get(e.key) ?? 0)]));
  const met = new Map(s.met);
  const pairs: [string, string][] = [];
  const students = entries.filter((e) => e.student !== null);
  if (students.length === 0 || entries.length < 2) return pairs;
  const maxMet = s.maxMet ?? Infinity;
  /** submissions that have met everyone as often as a pair may */
  const done = new Set<string>();
  for (let k = 0; k < s.wanted; ) {
    const next = students.filter((e) => !done.has(e.key)).sort((x, y) => load.get(x.key)! - load.get(y.key)! || order.get(x.key)! - order.get(y.key)!)[0];
    if (next === undefined) break;
    let best: LadderEntry | undefined;
    let bestCost = Infinity;
    for (const e of entries) {
      if (e.key === next.key || (e.student !== null && e.student === next.student)) continue;
      if ((met.get(pairKey(e.key, next.key)) ?? 0) + 2 > maxMet) continue;
      // A submission ahead in games costs too: the opponent's count grows with the game as well.
      const ahead = e.student === null ? 0 : Math.max(0, load.get(e.key)! - load.get(next.key)!) / 2;
      const cost = Math.abs(e.rating - next.rating) + MET_COST * ((met.get(pairKey(e.key, next.key)) ?? 0) / 2) + AHEAD_COST * ahead;
      if (cost < bestCost || (cost === bestCost && best !== undefined && order.get(e.key)! < order.get(best.key)!)) {
        best = e;
        bestCost = cost;
      }
    }
    if (best === undefined) {
      done.add(next.key);
      continue;
    }
    k++;
    pairs.push([next.key, best.key]);
    load.set(next.key, load.get(next.key)! + 2);
    load.set(best.key, load.get(best.key)! + 2);
    met.set(pairKey(next.key, best.key), (met.get(pairKey(next.key, best.key)) ?? 0) + 2);
  }
  return pairs;
}
