/**
 * A results file's header, checked before the page builds anything from it. The header declares
 * the tournament's size (its agents, its games a pair), and the schedule, the crosstable and the
 * standings are allocated from that: a 26 KB file declaring 3,000 agents × 100,000 games a pair
 * asked for 4.5 × 10^11 scheduled games, and the server went past 5 GB and died. So the size is
 * computed by arithmetic first (scheduledGameCount) and refused, one line, beyond what this page
 * shows, saying how many lines the file actually holds.
 */
import { readFileSync } from 'node:fs';
import { readResultsHeader } from '../../tournaments/results.ts';
import { scheduledGameCount } from '../../tournaments/schedule.ts';
import { fileProblem } from './file-problem.ts';
import { HttpError } from './http-error.ts';

/** The most scheduled games a view builds a schedule for (a game of it is about 100 bytes). */
export const MAX_VIEW_GAMES = 500_000;
/** The most agents a view rates and crosses (the crosstable is agents × agents cells). */
export const MAX_VIEW_AGENTS = 1000;

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
  if (agents > MAX_VIEW_AGENTS || games > MAX_VIEW_GAMES) {
    const lines = readFileSync(real, 'utf8').split('\n').filter((l) => l.trim() !== '').length;
    throw new HttpError(
      422,
      `${shown}:1: the header declares ${agents.toLocaleString('en-US')} agents and ${params.gamesPerPair.toLocaleString('en-US')} games a pair ` +
        `(${games.toLocaleString('en-US')} games), more than this page shows (${MAX_VIEW_AGENTS.toLocaleString('en-US')} agents, ` +
        `${MAX_VIEW_GAMES.toLocaleString('en-US')} games); the file holds ${lines.toLocaleString('en-US')} line${lines === 1 ? '' : 's'}`,
    );
  }
  return header;
}
