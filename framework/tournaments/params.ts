/**
 * A tournament's parameters: everything that decides which games are played and how. They are
 * recorded in the results file's header, so a rerun with different ones is refused rather than
 * mixing two tournaments' games. How many jobs run is not a parameter: it changes the speed,
 * never the games.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describeOpenings, parseOpeningsOption, readStartPositions } from '../matches/openings.ts';
import type { ForfeitPolicy } from '../matches/types.ts';

export const FORMATS = ['round-robin', 'gauntlet'] as const;
export type TournamentFormat = (typeof FORMATS)[number];

export interface TournamentParams {
  format: TournamentFormat;
  /** the contestants, as given on the command line */
  agents: string[];
  /** gauntlet: the references every contestant plays; empty for a round robin */
  vs: string[];
  /** games each pair plays (colours alternate game by game) */
  gamesPerPair: number;
  /** the schedule's order, each game's seed and its opening derive from it */
  seed: number;
  /** a Mancala profile name, and the board size */
  rules: string;
  pits: number;
  seeds: number;
  timePerMoveMs: number;
  /** `--openings` as framework/matches/openings.ts describes it: `random:K` (K = 0: none) or a file of start positions */
  openings: string;
  /** with a file of start positions: the SHA-256 of its content (a changed file is a different tournament); else null */
  openingsSha256: string | null;
  forfeit: ForfeitPolicy;
  /** each side's time bank a game, ms (matches/play-game.ts); absent: none (headers before it have none) */
  timeBankMs?: number;
}

/** Each parameter's command-line flag and how to show its value: for "refused, differs" messages. */
const SHOWN: { [K in keyof TournamentParams]: { flag: string; show(v: TournamentParams[K]): string } } = {
  format: { flag: '--format', show: (v) => v },
  agents: { flag: 'agents', show: (v) => v.join(' ') },
  vs: { flag: '--vs', show: (v) => (v.length === 0 ? '(none)' : v.join(' ')) },
  gamesPerPair: { flag: '--games-per-pair', show: String },
  seed: { flag: '--seed', show: String },
  rules: { flag: '--rules', show: (v) => v },
  pits: { flag: '--pits', show: String },
  seeds: { flag: '--seeds', show: String },
  timePerMoveMs: { flag: '--time-per-move', show: String },
  openings: { flag: '--openings', show: (v) => v },
  openingsSha256: { flag: '--openings file, whose content', show: (v) => (v === null ? '(no file)' : `sha256 ${v.slice(0, 12)}…`) },
  forfeit: { flag: '--forfeit', show: (v) => v },
  timeBankMs: { flag: '--time-bank', show: (v) => String(v ?? 0) },
};

export const PARAM_KEYS = Object.keys(SHOWN) as (keyof TournamentParams)[];

/** The parameters in a fixed key order, as the header records them. */
export function canonicalParams(p: TournamentParams): TournamentParams {
  const out: Record<string, unknown> = {};
  // an absent optional key stays absent: a tournament without a time bank keeps its header as before
  for (const k of PARAM_KEYS) if (p[k] !== undefined) out[k] = p[k];
  return out as unknown as TournamentParams;
}

/** "--seed 7 there, 8 now; --games-per-pair 4 there, 2 now", or '' when they agree. */
export function describeDifferences(recorded: TournamentParams, now: TournamentParams): string {
  const parts: string[] = [];
  for (const k of PARAM_KEYS) {
    const s = SHOWN[k] as { flag: string; show(v: unknown): string };
    const a = s.show(recorded[k]);
    const b = s.show(now[k]);
    if (a !== b) parts.push(`${s.flag} ${a} there, ${b} now`);
  }
  return parts.join('; ');
}

/** Everyone rated: the contestants, then the gauntlet's references. */
export function participants(p: Pick<TournamentParams, 'agents' | 'vs'>): string[] {
  return [...p.agents, ...p.vs];
}

/**
 * `--openings` as the parameters record it: `random:K`, or a start-positions file (checked now,
 * so a malformed one is refused before any game) with the digest of its content.
 */
export function openingsParams(text: string): Pick<TournamentParams, 'openings' | 'openingsSha256'> {
  const spec = parseOpeningsOption(text);
  if (spec.kind === 'random') return { openings: describeOpenings(spec), openingsSha256: null };
  readStartPositions(spec.file);
  return { openings: describeOpenings(spec), openingsSha256: createHash('sha256').update(readFileSync(spec.file)).digest('hex') };
}
