/**
 * What a match comes to: each side's tally, store margin, forfeits and thinking time, and the
 * match as JSON (`mancala match --json`: no timings, so a seed gives the same bytes).
 */
import type { MatchInfo } from './match-options.ts';
import type { PlayedGameRecord } from './play-game.ts';
import type { ForfeitReason, GameRecord, MatchSummary, Side } from './types.ts';

export interface SideStats {
  wins: number;
  draws: number;
  losses: number;
  /** the sum over games of (own final store − the other's) */
  storeMargin: number;
  /** games this side forfeited (or, under random-move, failed in), by reason */
  forfeits: Record<ForfeitReason, number>;
  /** ms thought over the match, the decisions counted, the longest one */
  timeMs: number;
  decisions: number;
  maxMoveMs: number;
  /** anytime rule: moves that were the side's reported move at a timeout */
  deadlineMoves: number;
}

export interface MatchResult {
  match: MatchInfo;
  /** in game order */
  games: PlayedGameRecord[];
  summary: MatchSummary;
  /** per side: margins, forfeits by reason, time (time is not deterministic: not in matchJson) */
  stats: { A: SideStats; B: SideStats };
}

export const FORFEIT_REASONS: readonly ForfeitReason[] = ['crash', 'timeout', 'illegal-move', 'memory', 'output-limit'];

/** Wins, draws and losses of each side. */
export function summarize(games: readonly GameRecord[]): MatchSummary {
  const tally = (side: Side) => ({
    wins: games.filter((g) => g.winner === side).length,
    draws: games.filter((g) => g.winner === 'draw').length,
    losses: games.filter((g) => g.winner !== side && g.winner !== 'draw').length,
  });
  return { A: tally('A'), B: tally('B') };
}

export function sideStats(games: readonly PlayedGameRecord[], side: Side): SideStats {
  const k = side === 'A' ? 0 : 1;
  const forfeits = Object.fromEntries(FORFEIT_REASONS.map((r) => [r, 0])) as Record<ForfeitReason, number>;
  let storeMargin = 0;
  let timeMs = 0;
  let decisions = 0;
  let maxMoveMs = 0;
  let deadlineMoves = 0;
  for (const g of games) {
    storeMargin += g.score[k] - g.score[1 - k]!;
    if (g.forfeit?.side === side) forfeits[g.forfeit.reason]++;
    timeMs += g.time[k];
    maxMoveMs = Math.max(maxMoveMs, g.maxMoveMs?.[k] ?? 0);
    decisions += g.decisions?.[k] ?? 0;
    deadlineMoves += g.deadlineMoves?.[k] ?? 0;
  }
  const s = summarize(games)[side];
  return { ...s, storeMargin, forfeits, timeMs, decisions, maxMoveMs, deadlineMoves };
}

/**
 * The match as JSON text, the same bytes for the same options and seed when the agents are
 * deterministic: no timings. Keys in a fixed order:
 * `{"match":{…},"games":[{"index","first","winner","score","moves","openingPlies","forfeit",…}],"summary":{"A":{…},"B":{…}}}`.
 */
export function matchJson(r: MatchResult): string {
  const game = (g: PlayedGameRecord) => ({
    index: g.index,
    first: g.first,
    winner: g.winner,
    score: g.score,
    moves: g.moves,
    openingPlies: g.openingPlies,
    forfeit: g.forfeit === null ? null : { side: g.forfeit.side, reason: g.forfeit.reason, message: g.forfeit.message },
    ...(g.randomMoves !== undefined ? { randomMoves: g.randomMoves } : {}),
    ...(g.startPosition !== undefined ? { startPosition: g.startPosition } : {}),
    ...(g.truncated === true ? { truncated: true } : {}),
    ...(g.deadlineMoves !== undefined ? { deadlineMoves: g.deadlineMoves } : {}),
    ...(g.carriedMoves !== undefined ? { carriedMoves: g.carriedMoves } : {}),
    ...(g.bankUsed !== undefined ? { bankUsed: g.bankUsed } : {}),
  });
  const i = r.match;
  // The anytime fields appear only when the rule is on: other matches keep their bytes.
  const side = (s: SideStats) => ({
    wins: s.wins,
    draws: s.draws,
    losses: s.losses,
    storeMargin: s.storeMargin,
    forfeits: s.forfeits,
    ...(i.anytime ? { deadlineMoves: s.deadlineMoves } : {}),
  });
  const match = {
    A: i.A,
    B: i.B,
    rules: i.rules,
    pits: i.pits,
    seeds: i.seeds,
    games: i.games,
    timePerMoveMs: i.timePerMoveMs,
    seed: i.seed,
    openings: i.openings,
    forfeit: i.forfeit,
    ...(i.anytime ? { anytime: true } : {}),
    ...(i.graceMs !== undefined ? { graceMs: i.graceMs } : {}),
    ...(i.carryMove === true ? { carryMove: true } : {}),
    ...(i.timeBankMs !== undefined ? { timeBankMs: i.timeBankMs } : {}),
  };
  return JSON.stringify({ match, games: r.games.map(game), summary: { A: side(r.stats.A), B: side(r.stats.B) } }) + '\n';
}
