/**
 * Standings: each participant's wins, draws and losses, and a rating with its interval from
 * openskill (Weng–Lin's Bayesian approximation, Plackett–Luce model, default scale: a new agent
 * starts at mu 25, sigma 25/3).
 *
 * Every agent's skill is a normal belief N(mu, sigma²), updated game by game. The rating shown is
 * mu; the interval is mu ± 2·sigma, about 95% of that belief: the range the agent's skill on this
 * scale lies in, given these games, as the model sees it. Two agents whose intervals overlap
 * widely have not been separated by the tournament; play more games per pair to narrow them.
 *
 * Deterministic: games are rated in schedule index order, never in the order they finished, so
 * the same results give the same ratings however many jobs played them. The dynamics factor tau
 * is 0 (openskill's default adds a little uncertainty before every game, for players whose skill
 * drifts over time; an agent's code does not drift within a tournament).
 */
import { rate, rating, type Rating } from 'openskill';
import type { Side } from '../matches/types.ts';
import type { PlayedGame } from './results.ts';

export interface Standing {
  agent: string;
  /** openskill mu */
  rating: number;
  /** [mu − 2σ, mu + 2σ] */
  ci: [number, number];
  wins: number;
  draws: number;
  losses: number;
  /** wins + draws / 2 */
  points: number;
  /** games this agent lost by forfeit (crash, timeout, illegal move, memory) */
  forfeits: number;
}

/** How many sigmas each side of mu the interval spans. */
export const CI_SIGMAS = 2;

/** Standings sorted best first: by rating, then points, then name (for a stable order). */
export function computeStandings(participants: readonly string[], games: readonly PlayedGame[]): Standing[] {
  const ratings = new Map<string, Rating>(participants.map((p) => [p, rating()]));
  const tally = new Map(participants.map((p) => [p, { wins: 0, draws: 0, losses: 0, forfeits: 0 }]));
  const inOrder = [...games].sort((x, y) => x.index - y.index);
  for (const g of inOrder) {
    const a = ratings.get(g.A);
    const b = ratings.get(g.B);
    if (a === undefined || b === undefined) throw new Error(`internal: game ${g.index} names an agent outside the tournament`);
    // Lower rank is better; equal ranks are a draw.
    const rank = g.winner === 'draw' ? [1, 1] : g.winner === 'A' ? [1, 2] : [2, 1];
    const [[a2], [b2]] = rate([[a], [b]], { rank, tau: 0 });
    ratings.set(g.A, a2!);
    ratings.set(g.B, b2!);
    count(tally.get(g.A)!, g, 'A');
    count(tally.get(g.B)!, g, 'B');
  }
  const standings = participants.map((agent): Standing => {
    const { mu, sigma } = ratings.get(agent)!;
    const t = tally.get(agent)!;
    return { agent, rating: mu, ci: [mu - CI_SIGMAS * sigma, mu + CI_SIGMAS * sigma], ...t, points: t.wins + t.draws / 2 };
  });
  return standings.sort((x, y) => y.rating - x.rating || y.points - x.points || (x.agent < y.agent ? -1 : x.agent > y.agent ? 1 : 0));
}

function count(t: { wins: number; draws: number; losses: number; forfeits: number }, g: PlayedGame, side: Side): void {
  if (g.winner === 'draw') t.draws++;
  else if (g.winner === side) t.wins++;
  else t.losses++;
  if (g.forfeit !== null && g.forfeit.side === side) t.forfeits++;
}
