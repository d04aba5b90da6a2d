/**
 * The Tournaments page's view of a results file (`mancala tournament --out DIR`: DIR/results.jsonl,
 * framework/tournaments/results.ts): how many of the scheduled games are played, the standings
 * with their ratings and intervals, and the crosstable with each pairing's games.
 *
 * The numbers are the CLI's own: the file is read by the tournament's reader (which checks every
 * line against the schedule), the standings by computeStandings and the pairs' records by
 * pairRecords, exactly as `mancala tournament` prints them; this module only arranges them for
 * the page. The file may be growing while it is read (a tournament in progress appends a line a
 * game): a last line not yet complete is left out, and the next read counts it. Anything else
 * malformed is a 422 naming the file, the line and the field.
 */
import { statSync } from 'node:fs';
import { inShard, shardLabel } from '../../shard-spec.ts';
import { pairRecords } from '../../tournaments/crosstable.ts';
import { participants } from '../../tournaments/params.ts';
import { computeStandings } from '../../tournaments/ratings.ts';
import { readResults, readResultsHeader, type PlayedGame } from '../../tournaments/results.ts';
import { buildSchedule } from '../../tournaments/schedule.ts';
import type { CrosstableCell, PairGame, TournamentStandings } from '../shared/api.ts';
import { HttpError } from './http-error.ts';
import { boundedResultsHeader } from './results-header.ts';
import { fileProblem, withoutFileText } from './file-problem.ts';
import { MAX_FILE_BYTES, resolveUnder, shownPath } from './replay-files.ts';

/** A results file under the root: its real path (to read) and its name as the page shows it. */
export interface ResultsFile {
  real: string;
  shown: string;
}

/** `path` resolved under the root (nothing outside it is read). */
export function resultsFile(root: string, path: string): ResultsFile {
  const real = resolveUnder(root, path);
  return { real, shown: shownPath(root, real) };
}

/** What tells that the file changed: appending grows it; a repair (a torn line cut off) shrinks it. */
export function fileStamp(f: ResultsFile): string {
  try {
    const s = statSync(f.real);
    return `${s.ino}:${s.size}:${s.mtimeMs}`;
  } catch (e) {
    return `missing:${(e as NodeJS.ErrnoException).code ?? ''}`;
  }
}

/** The view of a results file as it stands now; 4xx (one line) when it cannot be read or is malformed. */
export function tournamentStandings(f: ResultsFile): TournamentStandings {
  const { real, shown } = f;
  let updated: number;
  try {
    const info = statSync(real);
    if (info.isDirectory()) throw new HttpError(400, `${shown}: a folder, not a tournament's results.jsonl`);
    if (info.size > MAX_FILE_BYTES) throw new HttpError(413, `${shown}: ${info.size} bytes, more than the ${MAX_FILE_BYTES} this page opens`);
    updated = info.mtimeMs;
  } catch (e) {
    if (e instanceof HttpError) throw e;
    throw new HttpError(404, `${shown}: cannot read it (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
  let header: ReturnType<typeof readResultsHeader>;
  let recorded: Map<number, PlayedGame>;
  const notes: string[] = [];
  let schedule: ReturnType<typeof buildSchedule>;
  try {
    header = boundedResultsHeader(real, shown);
    schedule = buildSchedule(header.params);
    // repair: false — the page only reads; a tournament writing the file may be in the middle of a line.
    recorded = readResults(real, header.params, schedule, notes, { repair: false, ...(header.shard !== undefined ? { shard: header.shard } : {}) });
  } catch (e) {
    // The reader names the real path; the page knows the file by its path under the root (and sees none of its text).
    fileProblem(e, real, shown);
  }
  const { params, shard } = header;
  const planned = shard === undefined ? schedule : schedule.filter((_, k) => inShard(k, shard));
  const games = [...recorded.values()];
  const standings = computeStandings(participants(params), games);
  const order = standings.map((s) => s.agent);

  const scheduled = new Map<string, number>();
  const pairKey = (a: string, b: string) => (a < b ? `${a}\u0000${b}` : `${b}\u0000${a}`);
  for (const g of planned) scheduled.set(pairKey(g.A, g.B), (scheduled.get(pairKey(g.A, g.B)) ?? 0) + 1);
  const records = pairRecords(games);

  const crosstable = order.map((row) =>
    order.map((col): CrosstableCell | null => {
      const meetings = row === col ? 0 : (scheduled.get(pairKey(row, col)) ?? 0);
      if (meetings === 0) return null;
      const r = records.get(row)?.get(col) ?? { wins: 0, draws: 0, losses: 0, games: [] };
      return {
        scheduled: meetings,
        wins: r.wins,
        draws: r.draws,
        losses: r.losses,
        points: r.wins + r.draws / 2,
        games: r.games.map((index) => pairGame(recorded.get(index)!, row)),
      };
    }),
  );

  return {
    file: shown,
    format: params.format,
    rules: params.rules,
    pits: params.pits,
    seeds: params.seeds,
    gamesPerPair: params.gamesPerPair,
    timePerMoveMs: params.timePerMoveMs,
    shard: shard === undefined ? null : shardLabel(shard),
    played: recorded.size,
    total: planned.length,
    updated,
    notes: notes.map((n) => readerNote(withoutFileText(n.split(real).join(shown)))),
    standings: standings.map((s, k) => ({
      rank: k + 1,
      agent: s.agent,
      rating: s.rating,
      ci: s.ci,
      wins: s.wins,
      draws: s.draws,
      losses: s.losses,
      points: s.points,
      forfeits: s.forfeits,
    })),
    crosstable,
  };
}

/** A game as the row agent sees it. */
function pairGame(g: PlayedGame, row: string): PairGame {
  const side = g.A === row ? 'A' : 'B';
  const [mine, theirs] = side === 'A' ? [g.score[0], g.score[1]] : [g.score[1], g.score[0]];
  return {
    index: g.index,
    result: g.winner === 'draw' ? 'draw' : g.winner === side ? 'win' : 'loss',
    score: [mine, theirs],
    rowFirst: g.first === side,
    forfeit: g.forfeit === null ? null : g.forfeit.side === side ? 'row' : 'column',
  };
}

/**
 * The reader's note said for a file that may be being written: its last line cut short is, while a
 * tournament runs, the game it is writing (the reader's own words assume an interrupted run).
 */
function readerNote(note: string): string {
  const torn = /^(.*):(\d+): dropped a last line cut short\b/.exec(note);
  return torn === null ? note : `${torn[1]}:${torn[2]}: left out until complete — a game being written, or cut short if the run was stopped`;
}
