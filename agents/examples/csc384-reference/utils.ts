/**
 * Example submission "csc384-reference": the starter's utils.ts with both heuristics written.
 * The advanced heuristic wins the hidden suite's 20-game playoff (see its comment).
 */
import type { Game, Player } from '../../../framework/contracts/game.ts';
import type { MancalaGame, MancalaState } from '../../../framework/games/mancala/engine.ts';

export const BOTTOM: Player = 0;
export const TOP: Player = 1;

export function opponent(player: Player): Player {
  return player === BOTTOM ? TOP : BOTTOM;
}

export function mancala(game: Game<MancalaState>): MancalaGame {
  return game as MancalaGame;
}

export function store(game: Game<MancalaState>, state: MancalaState, player: Player): number {
  return mancala(game).store(state, player);
}

export function pockets(game: Game<MancalaState>, state: MancalaState, player: Player): number[] {
  const row = mancala(game).row(state, player);
  return player === BOTTOM ? row : row.reverse();
}

export function heuristic_basic(game: Game<MancalaState>, state: MancalaState, player: Player): number {
  return store(game, state, player) - store(game, state, opponent(player));
}

/** Weights of the advanced heuristic's terms (per stone). */
const SIDE = 0.5;
const CAPTURE = 0.5;
const WIN = 100;

/**
 * The stones `player` would capture with its best move if it were to move: a sowing (shorter than a
 * lap) whose last stone lands in one of its own empty pockets takes the opposite pocket.
 */
function bestCapture(g: MancalaGame, state: MancalaState, player: Player): number {
  const n = g.n;
  const row = g.row(state, player); // sowing order: index n-1 is next to the store
  const across = g.row(state, opponent(player));
  let best = 0;
  for (let i = 0; i < n; i++) {
    const stones = row[i]!;
    if (stones === 0 || stones >= 2 * n + 1) continue;
    let landing = -1;
    let facing = 0;
    if (i + stones < n) {
      landing = i + stones;
      if (row[landing] !== 0) continue;
      facing = across[n - 1 - landing]!;
    } else if (stones > 2 * n - i) {
      landing = stones - (2 * n - i) - 1; // went round the opponent's row and back
      if (landing >= i || row[landing] !== 0) continue;
      facing = across[n - 1 - landing]! + 1; // the pass over their row dropped a stone there
    }
    if (landing >= 0 && facing > best) best = facing;
  }
  return best;
}

/**
 * Advanced: the store difference, plus half a point a stone on one's own side of the board (under
 * these rules the game ends as soon as either side is empty and the stones left go to their own
 * side's store), plus half a point a stone of the best capture the player to move has (and minus
 * for the opponent's best capture when the opponent moves). A finished game is worth its real
 * outcome, after the sweep, far above any unfinished position.
 */
export function heuristic_advanced(game: Game<MancalaState>, state: MancalaState, player: Player): number {
  const g = mancala(game);
  const other = opponent(player);
  if (g.isOver(state)) {
    const margin = g.finalStore(state, player) - g.finalStore(state, other);
    return margin + Math.sign(margin) * WIN;
  }
  let value = g.store(state, player) - g.store(state, other);
  value += SIDE * (g.rowSum(state, player) - g.rowSum(state, other));
  const mover = g.toMove(state);
  const capture = CAPTURE * bestCapture(g, state, mover);
  value += mover === player ? capture : -capture;
  return value;
}
