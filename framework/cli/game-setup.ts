/**
 * From the command line to a game and a position: --game, --rules, --pits, --seeds, and for
 * `search` a board file and the player to move. Every mistake here is the user's (UserError).
 */
import type { Player } from '../contracts/game.ts';
import type { SearchConventions } from '../contracts/search-conventions.ts';
import type { GameSetup } from '../plugins/reference-search.ts';
import { UserError } from '../errors.ts';
import type { MancalaGame, MancalaState } from '../games/mancala/engine.ts';
import { mancalaGame } from '../games/mancala/profile-game.ts';
import { findProfile, PROFILE_NAMES, type MancalaProfile } from '../games/mancala/profiles.ts';
import { boardToState, readBoardFile, type BoardFormat } from '../games/mancala/board-io/index.ts';
import { TicTacToeGame } from '../games/tictactoe/game.ts';
import type { GameOptions, PlayerSide } from './options.ts';

// The setup a search runs on is the search's type (plugins/reference-search.ts, below the CLI).
export type { GameSetup } from '../plugins/reference-search.ts';

export interface PositionOptions {
  board?: string;
  boardFormat?: BoardFormat;
  player?: PlayerSide;
}

const TICTACTOE_CONVENTIONS: SearchConventions = { depthUnit: 'move', defaultDepth: null, terminal: 'score' };

function requireProfile(opts: GameOptions): MancalaProfile {
  if (opts.rules === undefined) {
    throw new UserError(`missing option '--rules <profile>': expected one of ${PROFILE_NAMES.join(', ')}`);
  }
  // The option's parser already accepted only known names.
  return findProfile(opts.rules)!;
}

function rejectForTicTacToe(flags: Record<string, unknown>): void {
  for (const [flag, value] of Object.entries(flags)) {
    if (value !== undefined) throw new UserError(`option '${flag}' applies to --game mancala only (Tic-Tac-Toe has one board and X moves first)`);
  }
}

/** The game and its start position (perft, bench, demo). */
export function setupGame(opts: GameOptions): GameSetup {
  if (opts.game === 'tictactoe') {
    rejectForTicTacToe({ '--rules': opts.rules, '--pits': opts.pits, '--seeds': opts.seeds });
    const game = new TicTacToeGame();
    return { kind: 'tictactoe', game, state: game.initial(), rules: null, conventions: TICTACTOE_CONVENTIONS, label: 'tictactoe' };
  }
  const profile = requireProfile(opts);
  const pits = opts.pits ?? profile.rules.pits;
  const seeds = opts.seeds ?? profile.rules.seeds;
  const game = mancalaGame(profile, pits, seeds);
  return {
    kind: 'mancala',
    game,
    state: game.initial(),
    rules: profile.name,
    profile,
    pits,
    seeds,
    conventions: profile.search,
    label: `${profile.name}, ${pits} pits, ${seeds} stones`,
  };
}

const SIDE: Record<PlayerSide, Player> = { bottom: 0, top: 1 };

/** The game and the position `search` starts from: a board file, or the start position. */
export function setupPosition(opts: GameOptions & PositionOptions): GameSetup {
  if (opts.game === 'tictactoe') {
    rejectForTicTacToe({ '--board': opts.board, '--board-format': opts.boardFormat, '--player': opts.player });
    return setupGame(opts);
  }
  if (opts.boardFormat !== undefined && opts.board === undefined) {
    throw new UserError(`option '--board-format' needs '--board <file>' (the format of that file)`);
  }
  const toMove = opts.player === undefined ? undefined : SIDE[opts.player];
  if (opts.board === undefined) {
    const setup = setupGame(opts);
    if (toMove !== undefined && toMove !== 0) {
      // The start position with the top player moving first.
      const g = setup.game as MancalaGame;
      const s = setup.state as MancalaState;
      setup.state = g.fromRows(g.row(s, 0), g.row(s, 1), 0, 0, toMove);
    }
    return setup;
  }
  const profile = requireProfile(opts);
  const board = readBoardFile(opts.board, opts.boardFormat);
  const pits = board.bottom.length;
  const game = mancalaGame(profile, pits, profile.rules.seeds);
  const state = boardToState(game, board, toMove, opts.board);
  return {
    kind: 'mancala',
    game,
    state,
    rules: profile.name,
    profile,
    pits,
    conventions: profile.search,
    label: `${profile.name}, ${pits} pits, board ${opts.board}`,
    boardFile: opts.board,
    board,
  };
}
