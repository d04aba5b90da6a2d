/**
 * The board as the API sends it (../api.ts says what the API is): the seats, the pits and
 * stores, and what one move did.
 */
export type Seat = 'bottom' | 'top';

/** One pit as the board shows it. */
export interface PitView {
  seat: Seat;
  /** the sowing index: what a move names (`move` in the API, in replays) */
  index: number;
  /** the course's name of the pit (`B3`, `A4`, `3`) */
  name: string;
  /** a name no pit of the other side shares (`B3`, `bottom cup 3`) */
  label: string;
  stones: number;
  /** a legal move for the player to move */
  legal: boolean;
}

export interface BoardView {
  pits: number;
  /** the top player's pits, left to right as the bottom player sees them */
  top: PitView[];
  /** the bottom player's pits, left to right */
  bottom: PitView[];
  stores: { top: number; bottom: number };
  toMove: Seat;
  over: boolean;
  /** when over: each store after the end-of-game sweep */
  final?: { top: number; bottom: number };
}

/** A cell of the board: a pit (by its sowing index) or a store. */
export interface CellRef {
  seat: Seat;
  /** a sowing index, or -1 for the store */
  index: number;
}

/** What one move did, worked out by sowing it again on the server (framework/web/server/move-trace.ts). */
export interface MoveView {
  /** 0-based */
  ply: number;
  seat: Seat;
  move: number;
  /** the course's name of the move (the mover's pit) */
  name: string;
  /** the cells that received a stone, in sowing order (a cell twice on a lap) */
  sown: CellRef[];
  /** where the last stone landed */
  last: CellRef;
  /** the mover moves again */
  freeTurn: boolean;
  capture: null | {
    /** stones that went to the mover's store (the last one included when the rule takes it) */
    stones: number;
    /** the mover's pit the last stone landed in */
    landed: CellRef;
    /** the opponent's pit across it, and the stones it held */
    from: CellRef;
    fromStones: number;
    /** one line, with the course's pit names: "B2 captured 5 stones from T3" */
    text: string;
  };
  gameOver: boolean;
  /** who played it: a side's label (`alphabeta:depth=6`, `you`) */
  by: string;
  /** the value the agent gave the move, from its own point of view */
  value?: number;
  /** ms the agent thought */
  ms?: number;
  /** what the agent said of the move (`perfect`: no value proven in its budget, the search's move played) */
  note?: string;
  /** set when the move was an opening's (seeded random) or played for a forfeiting side */
  kind?: 'opening' | 'forfeit';
}
