/**
 * What a tournament prints and writes: the standings table, the crosstable (each pair's
 * wins-draws-losses from the row's side), who forfeited and why, and the standings JSON
 * (`mancala tournament --json FILE`).
 */
import type { ForfeitReason } from '../matches/types.ts';
import { CI_SIGMAS, type Standing } from './ratings.ts';
import type { PlayedGame } from './results.ts';
import { studentPath, studentText } from '../student-text.ts';

export interface StandingsJson {
  /** games the standings count */
  games: number;
  standings: {
    agent: string;
    rating: number;
    ci: [number, number];
    wins: number;
    draws: number;
    losses: number;
    points: number;
    forfeits: number;
  }[];
}

/** The JSON text: one standing a line, so files read and diff well. */
export function standingsJsonText(s: StandingsJson): string {
  return `{"games":${s.games},"standings":[\n${s.standings.map((x) => '  ' + JSON.stringify(x)).join(',\n')}\n]}\n`;
}

/** Ratings rounded to 1e-3 so files compare equal across machines' last-bit differences. */
const round3 = (x: number): number => Math.round(x * 1000) / 1000;

export function standingsJson(games: number, standings: readonly Standing[]): StandingsJson {
  return {
    games,
    standings: standings.map((s) => ({
      agent: studentPath(s.agent),
      rating: round3(s.rating),
      ci: [round3(s.ci[0]), round3(s.ci[1])],
      wins: s.wins,
      draws: s.draws,
      losses: s.losses,
      points: s.points,
      forfeits: s.forfeits,
    })),
  };
}

/** A plain-text table: columns padded, numbers right-aligned. */
function table(header: string[], rows: string[][], rightAligned: (col: number) => boolean): string {
  const widths = header.map((h, c) => Math.max(h.length, ...rows.map((r) => r[c]!.length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, c) => (rightAligned(c) ? cell.padStart(widths[c]!) : cell.padEnd(widths[c]!)))
      .join('  ')
      .trimEnd();
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n') + '\n';
}

export function renderStandings(standings: readonly Standing[]): string {
  const rows = standings.map((s, k) => [
    String(k + 1),
    studentPath(s.agent),
    s.rating.toFixed(2),
    `[${s.ci[0].toFixed(1)}, ${s.ci[1].toFixed(1)}]`,
    String(s.wins),
    String(s.draws),
    String(s.losses),
    String(s.points),
    String(s.forfeits),
  ]);
  const header = ['#', 'agent', 'rating', `±${CI_SIGMAS}σ`, 'W', 'D', 'L', 'points', 'forfeits'];
  return table(header, rows, (c) => c !== 1 && c !== 3);
}

/** What one agent did against another, from the first one's side. */
export interface PairRecord {
  wins: number;
  draws: number;
  losses: number;
  /** the games they played, by schedule index, in that order */
  games: number[];
}

/**
 * Every pair's record from each side: `pairRecords(games).get(row)?.get(col)` is row against col
 * (undefined where they did not meet). The CLI's crosstable and the web app's heat map both read it.
 */
export function pairRecords(games: readonly PlayedGame[]): Map<string, Map<string, PairRecord>> {
  const records = new Map<string, Map<string, PairRecord>>();
  const add = (row: string, col: string, result: 'wins' | 'draws' | 'losses', index: number) => {
    const byCol = records.get(row) ?? new Map<string, PairRecord>();
    records.set(row, byCol);
    const c = byCol.get(col) ?? { wins: 0, draws: 0, losses: 0, games: [] };
    byCol.set(col, c);
    c[result]++;
    c.games.push(index);
  };
  for (const g of [...games].sort((x, y) => x.index - y.index)) {
    if (g.winner === 'draw') {
      add(g.A, g.B, 'draws', g.index);
      add(g.B, g.A, 'draws', g.index);
    } else {
      const [winner, loser] = g.winner === 'A' ? [g.A, g.B] : [g.B, g.A];
      add(winner, loser, 'wins', g.index);
      add(loser, winner, 'losses', g.index);
    }
  }
  return records;
}

/** Row agent against column agent: "W-D-L" from the row's side; blank where they did not meet. */
export function renderCrosstable(order: readonly string[], games: readonly PlayedGame[]): string {
  const records = pairRecords(games);
  const rows = order.map((row, r) => [
    String(r + 1),
    studentPath(row),
    ...order.map((col) => {
      if (col === row) return '—';
      const c = records.get(row)?.get(col);
      return c === undefined ? '' : `${c.wins}-${c.draws}-${c.losses}`;
    }),
  ]);
  return table(['#', 'agent (row vs column: W-D-L)', ...order.map((_, c) => String(c + 1))], rows, (c) => c !== 1);
}

/** One line per agent that forfeited: how many games, for which reasons, and the first message of each. */
export function renderForfeits(games: readonly PlayedGame[]): string {
  const byAgent = new Map<string, Map<ForfeitReason, { n: number; first: string; game: number }>>();
  for (const g of [...games].sort((x, y) => x.index - y.index)) {
    if (g.forfeit === null) continue;
    const agent = g.forfeit.side === 'A' ? g.A : g.B;
    const reasons = byAgent.get(agent) ?? new Map();
    byAgent.set(agent, reasons);
    const r = reasons.get(g.forfeit.reason) ?? { n: 0, first: g.forfeit.message, game: g.index };
    r.n++;
    reasons.set(g.forfeit.reason, r);
  }
  if (byAgent.size === 0) return '';
  const lines = ['Forfeits:'];
  for (const [agent, reasons] of byAgent) {
    const total = [...reasons.values()].reduce((s, r) => s + r.n, 0);
    lines.push(`  ${studentPath(agent)}: ${total} game${total === 1 ? '' : 's'}`);
    for (const [reason, r] of reasons) lines.push(`    ${reason} ×${r.n} (first in game ${r.game}: ${oneLine(r.first)})`);
  }
  return lines.join('\n') + '\n';
}

/** A forfeit's message on one line; also terminal-safe here, for a results file recorded before messages were. */
function oneLine(text: string, max = 160): string {
  const flat = studentText(text.replace(/\s+/g, ' ').trim(), { multiline: false, maxChars: Infinity, maxLineChars: Infinity });
  return flat.length > max ? flat.slice(0, max) + '…' : flat;
}
