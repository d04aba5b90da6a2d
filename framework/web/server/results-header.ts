/**
 * A results file's header, checked before the page builds anything from it. The header declares
 * the tournament's size (its agents, its games a pair), and the schedule, the crosstable and the
 * standings are allocated from that: a 26 KB file declaring 3,000 agents × 100,000 games a pair
 * asked for 4.5 × 10^11 scheduled games, and the server went past 5 GB and died. So the size is
 * computed by arithmetic first (scheduledGameCount) and refused, one line, beyond what this page
 * shows, saying how many lines the file actually holds. Within those bounds a header is still
 * only words: a 1 KB file declaring 1,000 agents × 1 game a pair asks for half a million games.
 * So beyond a small tournament's size the file must also hold one game line for every
 * GAMES_PER_LINE games it declares (a running tournament's page opens once it has played that
 * share), counted in bounded reads before anything is allocated.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { readResultsHeader } from '../../tournaments/results.ts';
import { scheduledGameCount } from '../../tournaments/schedule.ts';
import { fileProblem } from './file-problem.ts';
import { HttpError } from './http-error.ts';

/** The most scheduled games a view builds a schedule for (a game of it is about 100 bytes). */
export const MAX_VIEW_GAMES = 500_000;
/** The most agents a view rates and crosses (the crosstable is agents × agents cells). */
export const MAX_VIEW_AGENTS = 1000;

/** Games a header may declare whatever the file holds: a fresh round robin of 200 agents. */
export const FREE_VIEW_GAMES = 20_000;
/** Beyond FREE_VIEW_GAMES, the file holds a game line for each this many declared games. */
export const GAMES_PER_LINE = 100;
/** The most bytes read to count lines: the lines asked for at a long line each (a game's moves, its decisions). */
const LINE_COUNT_BYTES = 64 * 1024 * 1024;

/** The number of lines in `file` (a last one without its newline included), counting stops at `enough` or after LINE_COUNT_BYTES. */
export function countLines(file: string, enough: number): number {
  const fd = openSync(file, 'r');
  try {
    const buf = Buffer.allocUnsafe(64 * 1024);
    let lines = 0;
    let read = 0;
    let last = 0x0a;
    for (let n; lines < enough && read < LINE_COUNT_BYTES && (n = readSync(fd, buf, 0, buf.length, null)) > 0; read += n) {
      for (let i = buf.indexOf(0x0a); i >= 0 && i < n; i = buf.indexOf(0x0a, i + 1)) lines++;
      last = buf[n - 1]!;
    }
    return lines + (last === 0x0a || lines >= enough ? 0 : 1);
  } finally {
    closeSync(fd);
  }
}

/** The header of the results file `real` (shown to the page as `shown`), within the view's bounds; 422 otherwise. */
export function boundedResultsHeader(real: string, shown: string): ReturnType<typeof readResultsHeader> {
  let header: ReturnType<typeof readResultsHeader>;
  try {
    header = readResultsHeader(real);
  } catch (e) {
    fileProblem(e, real, shown);
  }
  const { params } = header;
  const agents = params.agents.length + params.vs.length;
  const games = scheduledGameCount(params);
  const size = (n: number) => n.toLocaleString('en-US');
  const declares = `${shown}:1: the header declares ${size(agents)} agents and ${size(params.gamesPerPair)} game${params.gamesPerPair === 1 ? '' : 's'} a pair (${size(games)} games)`;
  const holds = (lines: number) => `the file holds ${size(lines)}${lines > MAX_VIEW_GAMES ? ' or more' : ''} line${lines === 1 ? '' : 's'}`;
  if (agents > MAX_VIEW_AGENTS || games > MAX_VIEW_GAMES) {
    throw new HttpError(422, `${declares}, more than this page shows (${size(MAX_VIEW_AGENTS)} agents, ${size(MAX_VIEW_GAMES)} games); ${holds(countLines(real, MAX_VIEW_GAMES + 1))}`);
  }
  if (games > FREE_VIEW_GAMES) {
    const asked = Math.ceil(games / GAMES_PER_LINE);
    // The header line is one of the lines; the rest are games.
    const lines = countLines(real, asked + 1);
    if (lines - 1 < asked) {
      throw new HttpError(422, `${declares}, more than its lines hold: beyond ${size(FREE_VIEW_GAMES)} games this page needs a game line for every ${GAMES_PER_LINE} declared (${size(asked)}); ${holds(lines)}`);
    }
  }
  return header;
}
