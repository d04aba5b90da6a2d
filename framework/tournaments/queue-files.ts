/**
 * What a tournament's games read beyond their setup, for `--queue` (framework/distributed/): the
 * agents given by path (their folders or files, options after the path left out) and a file of
 * start positions. They are sent to the workers with the run.
 */
import { isPathSpec, splitOptions } from '../matches/player.ts';
import { parseOpeningsOption } from '../matches/openings.ts';
import { participants, type TournamentParams } from './params.ts';

export function tournamentFiles(params: TournamentParams): string[] {
  const agents = participants(params)
    .filter(isPathSpec)
    .map((spec) => splitOptions(spec).path);
  const openings = parseOpeningsOption(params.openings);
  return openings.kind === 'file' ? [...agents, openings.file] : agents;
}
