/**
 * Perft: the number of positions at exactly depth D from a position, for any Game. It checks a
 * move generator against an independent one (../shared/bench/kalah.c shares these definitions)
 * and measures its raw speed.
 *  - A game that ends before depth D adds 0 (its end is counted in `earlyTerminals`).
 *  - Unit `move`: every move is one level. Unit `turn`: a move that leaves the same player to
 *    move (a free turn) stays inside the level, so each distinct sequence of moves making up a
 *    turn is one "move" of that level; sequences are not merged even if they reach one position.
 * One state and one move buffer per ply, reused: nothing is allocated per node.
 */
import type { Game, Player } from '../contracts/game.ts';
import type { DepthUnit } from '../contracts/search-conventions.ts';

export interface PerftCount {
  depth: number;
  unit: DepthUnit;
  /** positions at exactly `depth` */
  leaves: number;
  /** moves played (playInto calls): the work done, what moves/s measures */
  moves: number;
  /** finished games reached before `depth` */
  earlyTerminals: number;
}

export interface PerftDivideEntry {
  /** the root move (for unit `turn`: the first move of the root turn) */
  move: number;
  name: string;
  leaves: number;
}

class PerftWalker<S> {
  private readonly states: S[] = [];
  private readonly moves: Int32Array[] = [];
  private readonly turnUnit: boolean;
  moveCount = 0;
  earlyTerminals = 0;

  constructor(
    private readonly game: Game<S>,
    unit: DepthUnit,
  ) {
    this.turnUnit = unit === 'turn';
  }

  reset(): void {
    this.moveCount = 0;
    this.earlyTerminals = 0;
  }

  /** State and move buffers for plies up to `ply` + 1, grown in blocks. */
  ensure(ply: number): void {
    if (this.states.length > ply + 1) return;
    const add = Math.max(ply + 2 - this.states.length, this.states.length, 32);
    this.states.push(...this.game.newStates(add));
    for (let k = 0; k < add; k++) this.moves.push(new Int32Array(this.game.maxMoves));
  }

  /** Loads `root` into ply 0's buffer and returns it. */
  load(root: S): S {
    this.ensure(0);
    const s = this.states[0]!;
    this.game.copyInto(root, s);
    return s;
  }

  count(s: S, depth: number, ply: number): number {
    if (depth === 0) return 1;
    const game = this.game;
    if (game.isOver(s)) {
      this.earlyTerminals++;
      return 0;
    }
    return this.expand(s, game.toMove(s), depth, ply);
  }

  /**
   * The children of s, one level down; in unit `turn` a free turn continues `mover`'s turn at the
   * same depth, so every move sequence of a turn is counted.
   */
  private expand(s: S, mover: Player, depth: number, ply: number): number {
    const game = this.game;
    if (ply + 1 >= this.states.length) this.ensure(ply + 1);
    const moves = this.moves[ply]!;
    const child = this.states[ply + 1]!;
    const n = game.legalMovesInto(s, moves);
    this.moveCount += n;
    let total = 0;
    for (let i = 0; i < n; i++) {
      game.playInto(s, moves[i]!, child);
      if (this.turnUnit && game.toMove(child) === mover && !game.isOver(child)) total += this.expand(child, mover, depth, ply + 1);
      else total += this.count(child, depth - 1, ply + 1);
    }
    return total;
  }

  /** Leaves below each root move; the remaining depth after a root free turn follows the unit. */
  divide(root: S, depth: number): PerftDivideEntry[] {
    const game = this.game;
    const s = this.load(root);
    if (depth === 0 || game.isOver(s)) return [];
    this.ensure(1);
    const moves = this.moves[0]!;
    const child = this.states[1]!;
    const mover = game.toMove(s);
    const n = game.legalMovesInto(s, moves);
    this.moveCount += n;
    const out: PerftDivideEntry[] = [];
    for (let i = 0; i < n; i++) {
      const m = moves[i]!;
      game.playInto(s, m, child);
      const sameTurn = this.turnUnit && game.toMove(child) === mover && !game.isOver(child);
      const leaves = sameTurn ? this.expand(child, mover, depth, 1) : this.count(child, depth - 1, 1);
      out.push({ move: m, name: game.moveName(s, m), leaves });
    }
    return out;
  }
}

function checkDepth(depth: number): void {
  if (!Number.isInteger(depth) || depth < 0) throw new RangeError(`perft depth must be a whole number ≥ 0, got ${depth}`);
}

/** Positions at exactly `depth` from `root`, with the work it took. */
export function perft<S>(game: Game<S>, root: S, depth: number, unit: DepthUnit): PerftCount {
  checkDepth(depth);
  const walker = new PerftWalker(game, unit);
  const leaves = walker.count(walker.load(root), depth, 0);
  return { depth, unit, leaves, moves: walker.moveCount, earlyTerminals: walker.earlyTerminals };
}

/** perft split by root move (for unit `turn`: by the first move of the root turn); the leaves add up to perft's. */
export function perftDivide<S>(game: Game<S>, root: S, depth: number, unit: DepthUnit): PerftDivideEntry[] {
  checkDepth(depth);
  return new PerftWalker(game, unit).divide(root, depth);
}
