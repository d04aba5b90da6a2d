/**
 * The game a suite plays, from its manifest to a Game: the one place that turns a GameSpec into an
 * engine, so the loader, `suite bless`, the runner and the sandboxed child all build the same one.
 */
import type { Game } from '../contracts/game.ts';
import type { SearchConventions } from '../contracts/search-conventions.ts';
import { MancalaGame } from '../games/mancala/engine.ts';
import { findProfile } from '../games/mancala/profiles.ts';
import { TicTacToeGame } from '../games/tictactoe/game.ts';
import type { GameSpec, Manifest, SuiteCase } from './types.ts';

/** `kalah` or `tictactoe`, or a profile resized: {profile: kalah, pits: 4, seeds: 3}. */
export function gameSpec(game: string | { profile: string; pits?: number; seeds?: number }): GameSpec {
  if (game === 'tictactoe') return { kind: 'tictactoe', name: 'tictactoe' };
  const ask = typeof game === 'string' ? { profile: game } : game;
  const profile = findProfile(ask.profile);
  // The manifest schema accepted only known profile names.
  if (profile === undefined) throw new RangeError(`unknown profile ${ask.profile}`);
  const pits = ask.pits ?? profile.rules.pits;
  const seeds = ask.seeds ?? profile.rules.seeds;
  return { kind: 'mancala', profile: profile.name, rules: { ...profile.rules, pits, seeds }, name: `${profile.name}(${pits},${seeds})` };
}

export function createGame(spec: GameSpec): Game<any> {
  return spec.kind === 'tictactoe' ? new TicTacToeGame() : new MancalaGame(spec.rules, spec.name);
}

const TICTACTOE_CONVENTIONS: SearchConventions = { depthUnit: 'move', defaultDepth: null, terminal: 'score' };

/** The search conventions the suite's game implies when a case leaves depth, unit or terminal out. */
export function conventionsOf(spec: GameSpec): SearchConventions {
  if (spec.kind === 'tictactoe') return TICTACTOE_CONVENTIONS;
  return findProfile(spec.profile)!.search;
}

/**
 * The same game on a board of `pits` pits a side: a suite's cases may mix board sizes (the course's
 * own files use 4 to 7 pits), each case's size taken from its board. The same spec object when the
 * size is already right, so a case of the manifest's size hashes and caches as before.
 */
export function resizeGame(spec: GameSpec, pits: number): GameSpec {
  if (spec.kind !== 'mancala' || spec.rules.pits === pits) return spec;
  return { kind: 'mancala', profile: spec.profile, rules: { ...spec.rules, pits }, name: `${spec.profile}(${pits},${spec.rules.seeds})` };
}

/** The game a Mancala board is played in: `spec` at the board's size (a Tic-Tac-Toe spec as it is). */
export function gameForBoard(spec: GameSpec, board: { top: readonly number[] }): GameSpec {
  return spec.kind === 'mancala' ? resizeGame(spec, board.top.length) : spec;
}

/** The game a case plays: the manifest's, at the size of the case's board. */
export function caseGame(manifest: Pick<Manifest, 'game'>, c: Pick<SuiteCase, 'board'>): GameSpec {
  return gameForBoard(manifest.game, c.board);
}

/** Games made once each (an engine per board size), for code that plays many cases. */
export class GameCache {
  private readonly games = new Map<string, Game<any>>();
  get(spec: GameSpec): Game<any> {
    let game = this.games.get(spec.name);
    if (game === undefined) {
      game = createGame(spec);
      this.games.set(spec.name, game);
    }
    return game;
  }
}
