/**
 * The positions every submission answers for its behaviour fingerprint: seeded, so the same seed
 * gives the same set (and position i depends only on the seed and i, so a longer set begins with a
 * shorter one), and varied, so two players that differ anywhere are likely to differ somewhere:
 * openings of varied length, mid-games, near-endgames, and positions where a free turn or a
 * capture is on offer (what greedy and heuristic players are built around). A position where only
 * one move is legal says nothing about a player and is never drawn.
 */
import type { Player } from '../contracts/game.ts';
import { UserError } from '../errors.ts';
import { stateToBoard, type BoardSpec } from '../games/mancala/board-io/board.ts';
import type { MancalaGame, MancalaState } from '../games/mancala/engine.ts';
import { mancalaGame } from '../games/mancala/profile-game.ts';
import { findProfile, PROFILE_NAMES, type MancalaProfile } from '../games/mancala/profiles.ts';
import { createRandom, deriveSeed, randomInt, type RandomSource } from '../random.ts';

/** What a position was drawn as (a report may show it beside a pair's disagreements). */
export type PositionKind = 'opening' | 'middle' | 'endgame' | 'free-turn' | 'capture';

/** The kinds in the order positions cycle through them. */
export const POSITION_KINDS: readonly PositionKind[] = ['opening', 'middle', 'endgame', 'free-turn', 'capture'];

export interface BehaviourPosition {
  board: BoardSpec & { toMove: Player };
  kind: PositionKind;
  /** random moves played from the start to reach it */
  plies: number;
}

/** Tries at drawing one position of a kind before any playable position will do. */
const TRIES = 200;

/** The profile's game at its own size; a UserError naming the profiles for an unknown one. */
export function behaviourGame(rules: string): { profile: MancalaProfile; game: MancalaGame } {
  const profile = findProfile(rules);
  if (profile === undefined) throw new UserError(`rules "${rules}": expected one of ${PROFILE_NAMES.join(', ')}`);
  return { profile, game: mancalaGame(profile, profile.rules.pits, profile.rules.seeds) };
}

/** `count` positions of `game` from `seed` (see the module's comment). */
export function behaviourPositions(game: MancalaGame, count: number, seed: number): BehaviourPosition[] {
  if (!Number.isSafeInteger(count) || count < 1) throw new UserError(`positions: expected a whole number ≥ 1, got ${count}`);
  const seen = new Set<string>();
  const out: BehaviourPosition[] = [];
  for (let i = 0; out.length < count; i++) {
    if (i > count * 20) throw new UserError(`positions: ${game.name} has too few different positions with a choice for ${count}`);
    const kind = playableKind(game, POSITION_KINDS[i % POSITION_KINDS.length]!);
    const rand = createRandom(deriveSeed(seed, i));
    const drawn = draw(game, kind, rand) ?? draw(game, 'middle', rand);
    if (drawn === undefined) continue;
    const key = game.key(drawn.state);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ board: { ...stateToBoard(game, drawn.state), toMove: game.toMove(drawn.state) }, kind, plies: drawn.plies });
  }
  return out;
}

/** Rules without free turns or captures have no such positions: a mid-game stands in. */
function playableKind(game: MancalaGame, kind: PositionKind): PositionKind {
  if (kind === 'free-turn' && !game.rules.freeTurn) return 'middle';
  if (kind === 'capture' && game.rules.capture === 'none') return 'middle';
  return kind;
}

/** A random game played from the start until a position of `kind` comes, or undefined after TRIES games. */
function draw(game: MancalaGame, kind: PositionKind, rand: RandomSource): { state: MancalaState; plies: number } | undefined {
  const total = 2 * game.n * game.rules.seeds;
  for (let t = 0; t < TRIES; t++) {
    // Where to stop: a ply count for openings and mid-games; a number of stones left in play otherwise.
    const plies = kind === 'opening' ? randomInt(rand, 2 * game.n + 1) : kind === 'middle' ? 2 * game.n + randomInt(rand, 3 * game.n) : undefined;
    const stonesLeft = kind === 'endgame' ? Math.max(4, Math.round(total * (0.1 + 0.15 * rand()))) : undefined;
    let state = game.initial();
    for (let ply = 0; !game.isOver(state); ply++) {
      if (fits(game, state, kind, ply, plies, stonesLeft)) return { state, plies: ply };
      if (plies !== undefined && ply >= plies) break;
      const legal = game.legalMoves(state);
      state = game.play(state, legal[randomInt(rand, legal.length)]!);
    }
  }
  return undefined;
}

function fits(game: MancalaGame, s: MancalaState, kind: PositionKind, ply: number, plies: number | undefined, stonesLeft: number | undefined): boolean {
  const legal = game.legalMoves(s);
  if (legal.length < 2) return false;
  switch (kind) {
    case 'opening':
    case 'middle':
      return ply === plies;
    case 'endgame':
      return game.rowSum(s, 0) + game.rowSum(s, 1) <= stonesLeft!;
    case 'free-turn':
      // Past the first moves, so the free turn is not the start position's.
      return ply >= 2 && legal.some((m) => freeTurnOf(game, s, m));
    case 'capture':
      return ply >= 2 && legal.some((m) => captureOf(game, s, m));
  }
}

/** The move ends in the mover's store and the game goes on: the mover moves again. */
function freeTurnOf(game: MancalaGame, s: MancalaState, m: number): boolean {
  const next = game.play(s, m);
  return !game.isOver(next) && game.toMove(next) === game.toMove(s);
}

/** Sowing only adds to the opponent's row: fewer stones there after the move is a capture. */
function captureOf(game: MancalaGame, s: MancalaState, m: number): boolean {
  const opponent = (1 - game.toMove(s)) as Player;
  const next = game.play(s, m);
  return !game.isOver(next) && game.rowSum(next, opponent) < game.rowSum(s, opponent);
}
