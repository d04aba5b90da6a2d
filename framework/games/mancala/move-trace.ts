/**
 * What a move did, worked out from the position before and after it, for whoever shows a game
 * (`mancala play`'s narration, the web app's board): the cells its stones went to, where the last
 * one landed, a free turn, a capture, the end of the game.
 *
 * The engine hands back only the new position (its sowing is generated and allocation-free), so
 * the move is sown again here without any capture rule: whatever the mover's store gained beyond
 * that plain sowing was captured, and the plain sowing's last cell says where. Cells are the
 * engine's indices (engine.ts: the bottom row 0..n-1, its store n, the top row n+1..2n, its store
 * 2n+1).
 */
import type { MancalaGame, MancalaState } from './engine.ts';

export interface MoveTrace {
  /** the cells that received a stone, in the order they first did (each once, whatever the laps) */
  sown: number[];
  /** the cell the last stone landed in */
  last: number;
  /** the mover moves again */
  freeTurn: boolean;
  /** the move ended the game */
  gameOver: boolean;
  /** a capture: the stones it moved into the mover's store (the last stone included when the rule takes it) and the opposite cell, with what it held */
  capture: { stones: number; from: number; fromStones: number } | null;
}

export function traceMove(game: MancalaGame, before: MancalaState, move: number, after: MancalaState): MoveTrace {
  const n = game.n;
  const w = game.w;
  const mover = game.toMove(before);
  const ownStore = mover === 0 ? n : 2 * n + 1;
  const skipped = mover === 0 ? 2 * n + 1 : n;
  const cells = Array.from(before.cells.subarray(0, w));
  let idx = mover === 0 ? move : n + 1 + move;
  let stones = cells[idx]!;
  cells[idx] = 0;
  const sown: number[] = [];
  const seen = new Set<number>();
  // Whole laps first (a stone in every cell but the skipped store), then one at a time.
  const lap = w - 1;
  if (stones >= lap) {
    const laps = Math.floor(stones / lap);
    for (let k = 1; k <= w; k++) {
      const c = (idx + k) % w;
      if (c === skipped) continue;
      cells[c]! += laps;
      if (!seen.has(c)) seen.add(c), sown.push(c);
    }
    stones -= laps * lap;
  }
  while (stones > 0) {
    idx = (idx + 1) % w;
    if (idx === skipped) continue;
    cells[idx]!++;
    stones--;
    if (!seen.has(idx)) seen.add(idx), sown.push(idx);
  }
  const gameOver = game.isOver(after);
  const freeTurn = !gameOver && game.toMove(after) === mover;
  const gained = game.store(after, mover) - cells[ownStore]!;
  const landedOwn = idx !== ownStore && (mover === 0 ? idx < n : idx > n && idx < 2 * n + 1);
  const capture = gained > 0 && landedOwn ? { stones: gained, from: 2 * n - idx, fromStones: cells[2 * n - idx]! } : null;
  return { sown, last: idx, freeTurn, gameOver, capture };
}
