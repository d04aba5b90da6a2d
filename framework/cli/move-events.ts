/**
 * What a move did (games/mancala/move-trace.ts), in the words `mancala play` announces it with:
 * a free turn, a capture (how many stones, from which pit, by the course's pit labels), the end
 * of the game.
 */
import type { Player } from '../contracts/game.ts';
import type { MancalaGame, MancalaState } from '../games/mancala/engine.ts';
import { traceMove, type MoveTrace } from '../games/mancala/move-trace.ts';

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
  const t = traceMove(game, before, move, after);
  return { freeTurn: t.freeTurn, capture: t.capture === null ? null : captureOf(game, t.last, t.capture), gameOver: t.gameOver };
}

/** A capture in pit labels: the last stone landed in one of the mover's pits (`last`), across from `from`. */
function captureOf(game: MancalaGame, last: number, c: NonNullable<MoveTrace['capture']>): Capture {
  const landed = pitOfCell(game.n, last)!;
  const opposite = pitOfCell(game.n, c.from)!;
  return {
    stones: c.stones,
    landed: game.pitLabel(landed.p, landed.i),
    from: game.pitLabel(opposite.p, opposite.i),
    fromStones: c.fromStones,
    lastStoneTaken: c.stones > c.fromStones,
  };
}
