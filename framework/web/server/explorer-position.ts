/**
 * The Search explorer's position: a profile's start, or a board typed in any format `mancala
 * search --board` reads. Its own module because both the server (search-explorations.ts) and the
 * pool's threads, which run the searches (search-job.ts), build it from the request.
 */
import { guessBoardFormat, parseBoard, boardToState, type BoardSpec } from '../../games/mancala/board-io/index.ts';
import type { MancalaGame, MancalaState } from '../../games/mancala/engine.ts';
import { mancalaGame } from '../../games/mancala/profile-game.ts';
import { findProfile, type MancalaProfile } from '../../games/mancala/profiles.ts';
import type { GameSetup } from '../../plugins/reference-search.ts';
import type { SearchRequestBody } from '../shared/api.ts';
import { HttpError } from './http-error.ts';

/** The game and position the request asks for; a malformed board is the board reader's one line. */
export function explorerPosition(body: SearchRequestBody): GameSetup & { game: MancalaGame; state: MancalaState; profile: MancalaProfile } {
  const profile = findProfile(body.profile);
  if (profile === undefined) throw new HttpError(400, `body field "profile": unknown profile ${JSON.stringify(body.profile)}`);
  const toMove = body.player === undefined ? undefined : body.player === 'bottom' ? 0 : 1;
  if (body.board === undefined) {
    const pits = body.pits ?? profile.rules.pits;
    const seeds = body.seeds ?? profile.rules.seeds;
    const game = mancalaGame(profile, pits, seeds);
    let state = game.initial();
    if (toMove === 1) state = game.fromRows(game.row(state, 0), game.row(state, 1), 0, 0, 1);
    return { kind: 'mancala', game, state, rules: profile.name, profile, pits, seeds, conventions: profile.search, label: `${profile.name}, ${pits} pits, ${seeds} stones` };
  }
  for (const field of ['pits', 'seeds'] as const) {
    if (body[field] !== undefined) throw new HttpError(400, `body field "${field}": a board has its own size: leave "${field}" out`);
  }
  const board: BoardSpec = parseBoard(body.board, body.boardFormat ?? guessBoardFormat(body.board.trimStart().startsWith('{') ? 'board.json' : 'board', body.board), 'board');
  const game = mancalaGame(profile, board.bottom.length, profile.rules.seeds);
  const state = boardToState(game, board, toMove, 'board');
  return { kind: 'mancala', game, state, rules: profile.name, profile, pits: game.n, conventions: profile.search, label: `${profile.name}, board`, boardFile: 'board', board };
}

