/**
 * The engine's positions and moves as the page draws them (framework/web/shared/api.ts): boards as
 * the bottom player sees them, with each course's pit names, and what a move did — where its
 * stones went, a free turn, a capture (games/mancala/move-trace.ts), in the page's words.
 */
import type { Player } from '../../contracts/game.ts';
import type { MancalaGame, MancalaState } from '../../games/mancala/engine.ts';
import { traceMove as traceSowing } from '../../games/mancala/move-trace.ts';
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

/** What `move` did from `before` to `after` (games/mancala/move-trace.ts), for the page to show. */
export function traceMove(game: MancalaGame, before: MancalaState, move: number, after: MancalaState, ply: number, by: string): MoveView {
  const n = game.n;
  const mover = game.toMove(before);
  const t = traceSowing(game, before, move, after);
  const { freeTurn, gameOver } = t;
  const last = cellRef(n, t.last);
  let capture: MoveView['capture'] = null;
  if (t.capture !== null) {
    const from = cellRef(n, t.capture.from);
    const { stones: gained, fromStones } = t.capture;
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
    sown: t.sown.map((c) => cellRef(n, c)),
    last,
    freeTurn,
    capture,
    gameOver,
    by,
  };
}
