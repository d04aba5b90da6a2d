/**
 * Matches and tournaments: the shapes every part shares (the match runner, `mancala match`,
 * `mancala tournament`, `mancala play`, replays).
 *
 * Sides are called A and B as the command line names them; `first` says which side moved first
 * (as the bottom player, who always moves first). Colours alternate game by game.
 */
import type { Player } from '../contracts/game.ts';
import type { BoardSpec } from '../games/mancala/board-io/board.ts';
import type { MancalaGame, MancalaState } from '../games/mancala/engine.ts';

export type Side = 'A' | 'B';

/** Why a side lost a game without playing it out. */
export type ForfeitReason = 'crash' | 'timeout' | 'illegal-move' | 'memory' | 'output-limit';

/** What a side does when the other side forfeits is not a question; this is what happens to the side that fails. */
export type ForfeitPolicy =
  /** the failing side loses the game at once */
  | 'loss'
  /** a random legal move (seeded) is played for it and the game goes on; the failure is still recorded */
  | 'random-move';

/** One decision of one side. */
export type MoveAttempt =
  | { status: 'ok'; move: number; value?: number; depth?: number; nodes?: number; ms: number; reported?: { move: number; value?: number }; note?: string }
  | { status: 'error' | 'timeout' | 'memory' | 'output-limit'; message: string; ms: number; reported?: { move: number; value?: number }; illegalMove?: number | string };

/**
 * A side of a match: a reference agent run in-process (trusted) or a submission run in its
 * sandboxed process (framework/sandbox). Open with openPlayer (framework/matches/player.ts).
 */
export interface MatchPlayer {
  /** as given on the command line: `alphabeta:depth=4`, `agents/examples/alice` */
  readonly label: string;
  /**
   * `graceMs`, when given: a side still thinking that long after `timeLimitMs` is stopped (a
   * sandboxed submission; an in-process agent cannot be). Without it, the sandbox's own hard limit.
   */
  /**
   * `bankMs`, when given: the side's time bank left (play-game.ts): it may think that much past
   * `timeLimitMs` (plus the grace) before it is stopped, and a submission is told it.
   */
  chooseMove(game: MancalaGame, state: MancalaState, timeLimitMs: number, seed: number, graceMs?: number, bankMs?: number): Promise<MoveAttempt>;
  /** a sandboxed submission's stderr: the bounded tail of its process's, and how many characters it wrote in all */
  stderr?(): { text: string; total: number };
  close(): Promise<void>;
}

export interface GameRecord {
  index: number;
  first: Side;
  winner: Side | 'draw';
  /** final stores (after the sweep) of A and B */
  score: [number, number];
  /** every move in order, as sowing indices of the mover */
  moves: number[];
  /** how many of `moves` were the seeded opening */
  openingPlies: number;
  forfeit: null | { side: Side; reason: ForfeitReason; message: string };
  /** under the anytime rule (cs540): moves each side had played for it from its last report */
  deadlineMoves?: [number, number];
  /** with `carryMove` (cs540's course match rules): those of deadlineMoves that were the side's previous move, carried over */
  carriedMoves?: [number, number];
  /** with a time bank (play-game.ts): each side's bank at the start, ms */
  timeBankMs?: number;
  /** with a time bank: ms of it A and B used (what their moves took over the clock) */
  bankUsed?: [number, number];
  /** ms each side spent thinking */
  time: [number, number];
  /** decisions each side was asked for (its moves after the opening, a failed attempt included) */
  decisions?: [number, number];
  /** with the tournament job's `moveTimes`: each move's thinking time, ms to a tenth, in the order of `moves` (0 for opening moves) */
  moveMs?: number[];
  /** with `moveTimes` and a time bank: the mover's bank left after each move, ms, in the order of `moves` */
  moveBankMs?: number[];
  /** with `moveTimes`: the side that made each move, one letter a move (`ABBA…`) */
  moveSides?: string;
  /** with `moveTimes`: what each side (a sandboxed submission) wrote on stderr during the game, its last part; '' for none */
  stderr?: [string, string];
  /** the longest single decision of each side, ms */
  maxMoveMs?: [number, number];
  /** forfeit policy `random-move`: moves played for each side after it failed (`forfeit` holds its first failure) */
  randomMoves?: [number, number];
  /** the 1-based start position of an openings file the game started from */
  startPosition?: number;
  /** the game was stopped after the most moves a game may have and scored as it stood */
  truncated?: boolean;
  /** the game was stopped before its end (PlayGameOptions.signal: a human quit) and scored as it stood */
  stopped?: boolean;
}

/** One line of a replay file (JSON lines): a move with the position before it. */
export interface ReplayLine {
  game: number;
  ply: number;
  /** the side that moved */
  side: Side;
  /** the board before the move, as the bottom player sees it */
  before: BoardSpec;
  move: number;
  moveName: string;
  /** ms the side thought; 0 for opening moves */
  ms: number;
  /** set on opening moves (seeded random) and on moves played for a forfeiting side */
  by?: 'opening' | 'forfeit';
  value?: number;
  /** what the agent said of its move (MoveChoice.note): `perfect` proving no value in its budget */
  note?: string;
  /** with a time bank: the mover's bank left after this move, ms */
  bankLeftMs?: number;
}

export interface MatchSummary {
  A: { wins: number; draws: number; losses: number };
  B: { wins: number; draws: number; losses: number };
}

/** Who moves in state s, as a side, given which side moved first. */
export function sideToMove(toMove: Player, first: Side): Side {
  return (toMove === 0) === (first === 'A') ? 'A' : 'B';
}
