/**
 * Mancala rule flags (DESIGN §4). One engine plays every course's variant; a profile
 * (profiles.ts) names a bundle of these plus the search conventions its course uses.
 */

export type CaptureRule =
  /** the last stone and the opposite pit go to the mover's store (seeds 000, 002, 003; Kalah) */
  | 'last-and-opposite'
  /** the opposite pit goes to the store, the last stone stays in its pit (seed 001) */
  | 'opposite-only'
  | 'none';

export type GameEndRule =
  /** after any move that leaves either row empty; a free turn earned by that move is void */
  | 'either-row-empty'
  /** when the player to move has no stones on their side */
  | 'mover-cannot-move';

export type MoveOrder =
  /** the mover's pits from the one furthest from its store (Kalah, seeds 002 and 003) */
  | 'sowing'
  /** both rows left to right as the bottom player sees them (seeds 000 and 001) */
  | 'left-to-right';

export type PitNaming =
  /** seed 000: A2..A(N+1) top and B2..B(N+1) bottom, left to right; A1 and B(N+2) are the stores */
  | 'csci561'
  /** seed 001: B0..B(N-1) and T0..T(N-1), each row from its owner's left (its sowing order) */
  | 'bt'
  /**
   * seed 002: each player's cups 1..N in its sowing order (the course's MancalaBoard, P1Cups and
   * P2Cups, and its GUI): a move is the mover's cup number; both rows are labelled 1..N
   */
  | 'cups';

export interface MancalaRules {
  /** pits per side, 1..20 */
  pits: number;
  /** stones per pit at the start, 0..1000 */
  seeds: number;
  /** last stone in the mover's own store gives another move */
  freeTurn: boolean;
  capture: CaptureRule;
  /** a capture also happens when the opposite pit is empty (only the last stone is then taken) */
  captureEmptyOpposite: boolean;
  gameEnd: GameEndRule;
  moveOrder: MoveOrder;
  pitNaming: PitNaming;
}

export const LIMITS = { minPits: 1, maxPits: 20, minSeeds: 0, maxSeeds: 1000 } as const;
