/**
 * The engine's positions and moves as the page draws them (framework/web/shared/api.ts): boards as
 * the bottom player sees them, with each course's pit names, and what a move did — where its
 * stones went, a free turn, a capture — found by sowing it again without any capture rule and
 * comparing with the engine's result (the engine itself hands back only the new position).
 */
import type { Player } from '../../contracts/game.ts';
import type { MancalaGame, MancalaState } from '../../games/mancala/engine.ts';
import type { BoardView, CellRef, MoveView, PitView, Seat } from '../shared/api.ts';

export const seatOf = (p: Player): Seat => (p === 0 ? 'bottom' : 'top');

function pitView(game: MancalaGame, s: MancalaState, p: Player, i: number): PitView {
  return { seat: seatOf(p), index: i, name: game.pitName(p, i), label: game.pitLabel(p, i), stones: game.pit(s, p, i), legal: game.isLegal(s, i) && game.toMove(s) === p };
}

export function boardView(game: MancalaGame, s: MancalaState): BoardView {
  const n = game.n;
  const over = game.isOver(s);
  return {
    pits: n,
    top: Array.from({ length: n }, (_, pos) => pitView(game, s, 1, n - 1 - pos)),
    bottom: Array.from({ length: n }, (_, pos) => pitView(game, s, 0, pos)),
    stores: { top: game.store(s, 1), bottom: game.store(s, 0) },
    toMove: seatOf(game.toMove(s)),
    over,
    ...(over ? { final: { top: game.finalStore(s, 1), bottom: game.finalStore(s, 0) } } : {}),
  };
}

/** The board cell a cell index names (engine.ts's layout). */
function cellRef(n: number, cell: number): CellRef {
  if (cell < n) return { seat: 'bottom', index: cell };
  if (cell === n) return { seat: 'bottom', index: -1 };
  if (cell < 2 * n + 1) return { seat: 'top', index: cell - n - 1 };
  return { seat: 'top', index: -1 };
}

function cellLabel(game: MancalaGame, c: CellRef): string {
  return c.index < 0 ? `${c.seat}'s store` : game.pitLabel(c.seat === 'bottom' ? 0 : 1, c.index);
}

/** What `move` did from `before` to `after` (the engine's result), for the page to show. */
export function traceMove(game: MancalaGame, before: MancalaState, move: number, after: MancalaState, ply: number, by: string): MoveView {
  const n = game.n;
  const w = game.w;
  const mover = game.toMove(before);
  const ownStore = mover === 0 ? n : 2 * n + 1;
  const skipped = mover === 0 ? 2 * n + 1 : n;
  const cells = Array.from(before.cells.subarray(0, w));
  let idx = mover === 0 ? move : n + 1 + move;
  let stones = cells[idx]!;
  cells[idx] = 0;
  // Cells in the order they first received a stone: at most every cell once, whatever the laps.
  const order: number[] = [];
  const seen = new Set<number>();
  // Whole laps first (a stone in every cell but the skipped store), then one at a time.
  const lap = w - 1;
  if (stones >= lap) {
    const laps = Math.floor(stones / lap);
    for (let k = 1; k <= w; k++) {
      const c = (idx + k) % w;
      if (c === skipped) continue;
      cells[c]! += laps;
      if (!seen.has(c)) seen.add(c), order.push(c);
    }
    stones -= laps * lap;
  }
  while (stones > 0) {
    idx = (idx + 1) % w;
    if (idx === skipped) continue;
    cells[idx]!++;
    stones--;
    if (!seen.has(idx)) seen.add(idx), order.push(idx);
  }
  const gameOver = game.isOver(after);
  const freeTurn = !gameOver && game.toMove(after) === mover;
  const gained = game.store(after, mover) - cells[ownStore]!;
  const last = cellRef(n, idx);
  let capture: MoveView['capture'] = null;
  const landedOwn = idx !== ownStore && (mover === 0 ? idx < n : idx > n && idx < 2 * n + 1);
  if (gained > 0 && landedOwn) {
    const from = cellRef(n, 2 * n - idx);
    const fromStones = cells[2 * n - idx]!;
    const taken = fromStones === 1 ? 'stone' : 'stones';
    capture = {
      stones: gained,
      landed: last,
      from,
      fromStones,
      text:
        fromStones === 0
          ? `capture: the last stone landed in the empty ${cellLabel(game, last)}, across the empty ${cellLabel(game, from)}, and went to the store`
          : `capture: the last stone landed in the empty ${cellLabel(game, last)} and took ${fromStones} ${taken} from ${cellLabel(game, from)}` +
            (gained > fromStones ? ` (${gained} to the store with it)` : ` (the last stone stays in ${cellLabel(game, last)})`),
    };
  }
  return {
    ply,
    seat: seatOf(mover),
    move,
    name: game.moveName(before, move),
    sown: order.map((c) => cellRef(n, c)),
    last,
    freeTurn,
    capture,
    gameOver,
    by,
  };
}
