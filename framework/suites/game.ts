/**
 * The game a suite plays, from its manifest to a Game: the one place that turns a GameSpec into an
 * engine, so the loader, `suite bless`, the runner and the sandboxed child all build the same one.
 */
import type { Game } from '../contracts/game.ts';
import type { SearchConventions } from '../contracts/search-conventions.ts';
import { MancalaGame } from '../games/mancala/engine.ts';
import { findProfile } from '../games/mancala/profiles.ts';
import { TicTacToeGame } from '../games/tictactoe/game.ts';
import type { GameSpec } from './types.ts';

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
