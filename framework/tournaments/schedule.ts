/**
 * The schedule: every game of a tournament, numbered, with its sides, who moves first, its seed
 * and its opening, all derived from the tournament's seed. The index is the game's identity: the
 * results file records games by index, a rerun plays the indexes missing from it, and ratings are
 * computed in index order whatever order games finished in.
 *
 * Games are ordered round by round (every pair's first game, then every pair's second, …), pairs
 * shuffled by the seed within a round, so a tournament stopped midway has an even share of each
 * pair's games. Within a pair colours alternate, and the pair's k-th game starts where every
 * pair's k-th game starts (framework/matches/openings.ts planStarts: games 2m and 2m+1 share an
 * opening, colours swapped), so no side and no pair is dealt better openings than another.
 */
import type { Side } from '../matches/types.ts';
import { createRandom, randomInt, type RandomSource } from '../random.ts';
import type { TournamentParams } from './params.ts';

export interface ScheduledGame {
  /** the game's number: its 1-based position in the schedule */
  index: number;
  /** the pair's sides, as given on the command line (gauntlet: A is the contestant, B the reference) */
  A: string;
  B: string;
  /** which side moves first (as the bottom player) */
  first: Side;
  /** the agents' and the forfeit policy's randomness in this game */
  seed: number;
  /** the pair's game number, 0-based: which of the tournament's starts (planStarts) it plays from */
  round: number;
}

/** The pairs that meet: every two contestants (round robin), or each contestant with each reference (gauntlet). */
export function pairings(p: Pick<TournamentParams, 'format' | 'agents' | 'vs'>): [string, string][] {
  const pairs: [string, string][] = [];
  if (p.format === 'gauntlet') {
    for (const a of p.agents) for (const r of p.vs) pairs.push([a, r]);
  } else {
    for (let i = 0; i < p.agents.length; i++) for (let j = i + 1; j < p.agents.length; j++) pairs.push([p.agents[i]!, p.agents[j]!]);
  }
  return pairs;
}

/**
 * How many games the schedule of `p` holds, by arithmetic alone: what a reader checks before it
 * builds a schedule from a header it did not write (3,000 agents × 100,000 games a pair is 4.5 × 10^11).
 */
export function scheduledGameCount(p: Pick<TournamentParams, 'format' | 'agents' | 'vs' | 'gamesPerPair'>): number {
  const n = p.agents.length;
  const pairs = p.format === 'gauntlet' ? n * p.vs.length : (n * (n - 1)) / 2;
  return pairs * p.gamesPerPair;
}

const SEED_RANGE = 2 ** 31;

export function buildSchedule(p: Pick<TournamentParams, 'format' | 'agents' | 'vs' | 'gamesPerPair' | 'seed'>): ScheduledGame[] {
  const pairs = pairings(p);
  const rand = createRandom(p.seed);
  const games: ScheduledGame[] = [];
  for (let round = 0; round < p.gamesPerPair; round++) {
    for (const k of shuffled(pairs.length, rand)) {
      const [A, B] = pairs[k]!;
      games.push({
        index: games.length + 1,
        A,
        B,
        first: round % 2 === 0 ? 'A' : 'B',
        seed: randomInt(rand, SEED_RANGE),
        round,
      });
    }
  }
  return games;
}

/** 0..n-1 in a seeded random order (Fisher–Yates). */
function shuffled(n: number, rand: RandomSource): number[] {
  const order = Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const j = randomInt(rand, i + 1);
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  return order;
}
