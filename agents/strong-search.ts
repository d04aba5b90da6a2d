/**
 * The strong agent's search, Mancala only: negamax alpha-beta (fail-soft) with a transposition
 * table, move ordering (the table's move, then free turns, captures by size, killer moves, pits
 * near the store) and the advanced heuristic. Values are from the side to move's point of view;
 * a free turn keeps the side, so that child's value is taken as it is rather than negated.
 *
 * Positions are played through the game the agent was handed (its playInto), so the framework's
 * node count stays honest and every rule flag is the engine's own.
 */
import type { Heuristic } from '../framework/contracts/heuristic.ts';
import type { MancalaGame, MancalaState } from '../framework/games/mancala/engine.ts';
import { FREE_TURN, sowingOutcome } from './mancala-sowing.ts';
import { BOUND_EXACT, BOUND_LOWER, BOUND_UPPER, TranspositionTable, UNLIMITED_DRAFT } from './transposition-table.ts';

/** Added to the final margin of a finished game, so any win outranks every heuristic estimate. */
export const WIN = 1_000_000;
/** Heuristic values are scaled and rounded to whole numbers (the advanced weights are quarters). */
const EVAL_SCALE = 4;
const INF = 1e9;

export interface StrongSearchParams {
  game: MancalaGame;
  heuristic: Heuristic<MancalaState>;
  table: TranspositionTable;
}

export interface RootResult {
  move: number;
  /** for the side to move, in the search's scale (see valueInStones) */
  value: number;
  /** true when no depth cut-off influenced the value: it is the game's exact outcome */
  exact: boolean;
}

/** A search value as stones of margin (the scale a report shows); wins lose their WIN offset. */
export function valueInStones(value: number): number {
  const offset = value >= WIN / 2 ? WIN : value <= -WIN / 2 ? -WIN : 0;
  return (value - offset) / EVAL_SCALE + 0; // + 0 turns a -0 into 0
}

export class StrongSearch {
  private readonly game: MancalaGame;
  private readonly heuristic: Heuristic<MancalaState>;
  private readonly table: TranspositionTable;
  /** performance.now() time after which the current search stops (`aborted`) */
  private deadline = Infinity;
  /** cells hashed: the board and the player to move */
  private readonly keyLength: number;
  private readonly states: MancalaState[] = [];
  private readonly moves: Int32Array[] = [];
  private readonly scores: Int32Array[] = [];
  /** two killer moves a ply: moves that caused a cut-off among siblings */
  private readonly killers: Int32Array[] = [];
  /** heuristic estimates made (leaves and table hits that rest on a depth cut-off) */
  private estimates = 0;
  private rootMove = -1;
  nodes = 0;
  aborted = false;

  constructor(p: StrongSearchParams) {
    this.game = p.game;
    this.heuristic = p.heuristic;
    this.table = p.table;
    this.keyLength = 2 * p.game.n + 3;
  }

  /** Searches `state` to `depth` plies; undefined when the deadline (performance.now() scale) stopped it. */
  searchRoot(state: MancalaState, depth: number, deadline: number): RootResult | undefined {
    this.deadline = deadline;
    this.aborted = false;
    this.ensure(0);
    this.game.copyInto(state, this.states[0]!);
    this.estimates = 0;
    this.rootMove = -1;
    const value = this.negamax(this.states[0]!, depth, 0, -INF, INF);
    if (this.aborted) return undefined;
    return { move: this.rootMove, value, exact: this.estimates === 0 };
  }

  private ensure(ply: number): void {
    while (this.states.length <= ply + 1) {
      const n = this.game.maxMoves;
      this.states.push(this.game.newState());
      this.moves.push(new Int32Array(n));
      this.scores.push(new Int32Array(n));
      this.killers.push(new Int32Array([-1, -1]));
    }
  }

  /** The finished game's value for its player to move: the margin after the sweep, plus WIN for a win. */
  private terminal(s: MancalaState): number {
    const margin = this.game.score(s, this.game.toMove(s));
    return margin * EVAL_SCALE + (margin > 0 ? WIN : margin < 0 ? -WIN : 0);
  }

  private negamax(s: MancalaState, depth: number, ply: number, alpha: number, beta: number): number {
    if ((++this.nodes & 1023) === 0 && performance.now() > this.deadline) this.aborted = true;
    if (this.aborted) return 0;
    const game = this.game;
    if (game.isOver(s)) return this.terminal(s);
    const mover = game.toMove(s);
    if (depth <= 0) {
      this.estimates++;
      return Math.round(this.heuristic.evaluate(s, mover, game) * EVAL_SCALE);
    }

    const table = this.table;
    table.hash(s.cells, this.keyLength);
    const slot = table.probe();
    let tableMove = -1;
    if (slot >= 0) {
      tableMove = table.move(slot);
      const draft = table.draft(slot);
      // At the root a hit would leave no move to play, so the root always searches.
      if (ply > 0 && draft >= depth) {
        const v = table.value(slot);
        const bound = table.bound(slot);
        if (bound === BOUND_EXACT || (bound === BOUND_LOWER ? v >= beta : v <= alpha)) {
          if (draft !== UNLIMITED_DRAFT) this.estimates++;
          return v;
        }
      }
    }
    const h1 = table.h1;
    const h2 = table.h2;

    this.ensure(ply + 1);
    const moves = this.moves[ply]!;
    const count = this.orderMoves(s, mover, ply, tableMove);
    const child = this.states[ply + 1]!;
    const alphaIn = alpha;
    const estimatesIn = this.estimates;
    let best = -INF;
    let bestMove = moves[0]!;
    for (let k = 0; k < count; k++) {
      const m = moves[k]!;
      game.playInto(s, m, child);
      const v =
        game.toMove(child) === mover
          ? this.negamax(child, depth - 1, ply + 1, alpha, beta)
          : -this.negamax(child, depth - 1, ply + 1, -beta, -alpha);
      if (this.aborted) return 0;
      if (v > best) {
        best = v;
        bestMove = m;
        if (v > alpha) {
          alpha = v;
          if (alpha >= beta) {
            const killers = this.killers[ply]!;
            if (killers[0] !== m) {
              killers[1] = killers[0]!;
              killers[0] = m;
            }
            break;
          }
        }
      }
    }
    if (ply === 0) this.rootMove = bestMove;
    const bound = best <= alphaIn ? BOUND_UPPER : best >= beta ? BOUND_LOWER : BOUND_EXACT;
    table.h1 = h1;
    table.h2 = h2;
    table.store(best, this.estimates === estimatesIn ? UNLIMITED_DRAFT : depth, bound, bestMove);
    return best;
  }

  /** Fills this.moves[ply] with the legal moves, best first; returns how many. */
  private orderMoves(s: MancalaState, mover: 0 | 1, ply: number, tableMove: number): number {
    const game = this.game;
    const moves = this.moves[ply]!;
    const scores = this.scores[ply]!;
    const killers = this.killers[ply]!;
    const count = game.legalMovesInto(s, moves);
    for (let k = 0; k < count; k++) {
      const m = moves[k]!;
      let score: number;
      if (m === tableMove) score = 1 << 30;
      else {
        const outcome = sowingOutcome(game, s, mover, m);
        // Free turns nearest the store first: playing them keeps the others' counts exact.
        if (outcome === FREE_TURN) score = (1 << 20) + m;
        else if (outcome > 0) score = (1 << 10) + outcome;
        else if (m === killers[0] || m === killers[1]) score = 512;
        else score = m;
      }
      // Insertion sort: at most 20 moves, and usually already nearly in order.
      let j = k;
      while (j > 0 && scores[j - 1]! < score) {
        scores[j] = scores[j - 1]!;
        moves[j] = moves[j - 1]!;
        j--;
      }
      scores[j] = score;
      moves[j] = m;
    }
    return count;
  }
}
