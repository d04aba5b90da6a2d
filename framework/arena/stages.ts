/**
 * A new submission's games before the ladder: the sanity stage (`sanityGames` against random, both
 * seats, openings 0, 1, …: the same for every submission) and, once it passed, the placement set
 * (`placementGames` against each anchor, both seats, from one seeded opening an anchor).
 */
import { UserError } from '../errors.ts';
import { deriveSeed } from '../random.ts';
import { OPENING_PAIRS, RateLimited, type ArenaSettings } from './settings.ts';
import type { ArenaStore, GameRow, GameSide, NewGame, SubmissionRow } from './store.ts';

export function sanityGames(settings: ArenaSettings, id: number): NewGame[] {
  const games: NewGame[] = [];
  for (let k = 0; k < settings.sanityGames; k++) {
    games.push({ kind: 'sanity', A: { submission: id }, B: { anchor: 'random' }, first: k % 2 === 0 ? 'A' : 'B', seed: deriveSeed(settings.seed, id, k, 1), opening: k });
  }
  return games;
}

export interface SanityResult {
  wins: number;
  games: number;
  opponent: 'random';
  /** the submission's forfeits: `game 12: crash: …` */
  forfeits: string[];
  /** more than half the games won */
  passed: boolean;
}

/** The sanity stage's verdict on submission `id` from its games, all done. */
export function sanityVerdict(games: readonly GameRow[], id: number): SanityResult {
  const own = (g: GameRow) => (g.a_submission === id ? 'A' : 'B');
  const wins = games.filter((g) => g.winner === own(g)).length;
  const forfeits = games
    .map((g) => ({ g, f: g.forfeit === null ? null : (JSON.parse(g.forfeit) as { side: 'A' | 'B'; reason: string; message: string }) }))
    .filter(({ g, f }) => f !== null && f.side === own(g))
    .map(({ g, f }) => `game ${g.id}: ${f!.reason}: ${f!.message}`);
  const passed = wins * 2 > games.length;
  return { wins, games: games.length, opponent: 'random', forfeits, passed };
}

export function placementGames(settings: ArenaSettings, id: number): NewGame[] {
  const games: NewGame[] = [];
  for (const [a, anchor] of settings.anchors.entries()) {
    for (let k = 0; k < settings.placementGames; k++) {
      const pair = deriveSeed(settings.seed, id, a, 2) % OPENING_PAIRS;
      games.push({ kind: 'placement', A: { submission: id }, B: { anchor: anchor.spec }, first: k % 2 === 0 ? 'A' : 'B', seed: deriveSeed(settings.seed, id, a, k, 3), opening: 2 * pair + (k % 2) });
    }
  }
  return games;
}

/**
 * A scrim's two games (both seats, one seeded opening): the student's current submission against
 * an anchor or a classmate's by pseudonym. Refused without a current submission, for an unknown
 * opponent, or past the hourly limit.
 */
export function scrimGames(store: ArenaStore, settings: ArenaSettings, student: string, opponent: string, current: (student: string) => SubmissionRow | undefined): NewGame[] {
  const mine = current(student);
  if (mine === undefined) throw new UserError('you have no submission on the ladder yet: a scrim plays your current one');
  const since = new Date(Date.now() - 3600_000).toISOString();
  const recent = Number((store.db.get("SELECT count(*) AS n FROM games WHERE kind = 'scrim' AND requested_by = ? AND created_at >= ? AND first = 'A'", [student, since]) as { n: number }).n);
  if (recent >= settings.scrimsPerHour) throw new RateLimited(`refused: ${settings.scrimsPerHour} scrims in the last hour, the most this arena plays for one student; try again later`);
  let side: GameSide;
  const anchor = settings.anchors.find((a) => a.spec === opponent || a.spec.split(':')[0] === opponent);
  if (anchor !== undefined) side = { anchor: anchor.spec };
  else {
    const other = store.studentByPseudonym(opponent);
    const theirs = other === undefined ? undefined : current(other.id);
    if (theirs === undefined) throw new UserError(`no anchor or pseudonym on the ladder named ${JSON.stringify(opponent.slice(0, 60))}: the anchors are ${settings.anchors.map((a) => a.spec).join(', ')}`);
    side = { submission: theirs.id };
  }
  const k = Number((store.db.get('SELECT count(*) AS n FROM games') as { n: number }).n);
  const pair = deriveSeed(settings.seed, k, 4) % OPENING_PAIRS;
  return (['A', 'B'] as const).map((first, j) => ({ kind: 'scrim', A: { submission: mine.id }, B: side, first, seed: deriveSeed(settings.seed, k, j, 5), opening: 2 * pair + j, requestedBy: student }));
}
