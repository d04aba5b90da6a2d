/**
 * What a move did, worked out from the position before and after it, for `mancala play` to
 * announce: a free turn, a capture (how many stones, from which pit), the end of the game.
 *
 * The engine only hands back the new position, so the capture is found by sowing the move again
 * here without any capture rule: whatever the mover's store gained beyond that plain sowing was
 * captured, and the plain sowing's last pit says where.
 */
import type { Player } from '../contracts/game.ts';
import type { MancalaGame, MancalaState } from '../games/mancala/engine.ts';

export interface Capture {
  /** stones the capture moved into the mover's store (the last stone included when the rule takes it) */
  stones: number;
  /** the mover's pit the last stone landed in (its pitLabel: "B1", "bottom cup 2") */
  landed: string;
  /** the opponent's pit opposite it (its pitLabel), and how many stones it held when captured */
  from: string;
  fromStones: number;
  /** true when the last stone went to the store with the captured ones */
  lastStoneTaken: boolean;
}

export interface MoveEvents {
  /** the mover moves again (the last stone ended in its store) */
  freeTurn: boolean;
  capture: Capture | null;
  /** the move ended the game */
  gameOver: boolean;
}

/** The board cell a cell index names, as (player, sowing index); stores give undefined. */
function pitOfCell(n: number, cell: number): { p: Player; i: number } | undefined {
  if (cell < n) return { p: 0, i: cell };
  if (cell > n && cell < 2 * n + 1) return { p: 1, i: cell - n - 1 };
  return undefined;
}

export function moveEvents(game: MancalaGame, before: MancalaState, move: number, after: MancalaState): MoveEvents {
  const n = game.n;
  const w = game.w;
  const mover = game.toMove(before);
  const ownStore = mover === 0 ? n : 2 * n + 1;
  const skipped = mover === 0 ? 2 * n + 1 : n;
  // Plain sowing, one stone at a time (a few thousand steps at most on the largest boards).
  const cells = Array.from(before.cells.subarray(0, w));
  let idx = mover === 0 ? move : n + 1 + move;
  let stones = cells[idx]!;
  cells[idx] = 0;
  while (stones > 0) {
    idx = (idx + 1) % w;
    if (idx === skipped) continue;
    cells[idx]!++;
    stones--;
  }
  const gameOver = game.isOver(after);
  const freeTurn = !gameOver && game.toMove(after) === mover;
  const gained = game.store(after, mover) - cells[ownStore]!;
  let capture: Capture | null = null;
  const landed = pitOfCell(n, idx);
  if (gained > 0 && landed !== undefined && landed.p === mover) {
    const opposite = pitOfCell(n, 2 * n - idx)!;
    const fromStones = cells[2 * n - idx]!;
    capture = {
      stones: gained,
      landed: game.pitLabel(landed.p, landed.i),
      from: game.pitLabel(opposite.p, opposite.i),
      fromStones,
      lastStoneTaken: gained > fromStones,
    };
  }
  return { freeTurn, capture, gameOver };
}
