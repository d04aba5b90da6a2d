/**
 * What every reference search shares: one preallocated state and move buffer per level (so the
 * recursion allocates nothing per node), leaf evaluation by the conventions, the depth step for
 * free turns, and a deadline that stops a search cleanly.
 */
import type { Game, Player } from '../../framework/contracts/game.ts';
import type { Heuristic } from '../../framework/contracts/heuristic.ts';
import { NO_DEPTH_LIMIT, type DepthUnit, type TerminalEvaluation } from '../../framework/search/conventions.ts';
import type { TraceSink } from '../../framework/search/trace.ts';

export interface SearchParams<S> {
  game: Game<S>;
  heuristic: Heuristic<S>;
  /** depth limit in `unit`s; null/undefined: to the end of the game */
  depth?: number | null;
  unit: DepthUnit;
  terminal: TerminalEvaluation;
  caching?: boolean;
  trace?: TraceSink;
  /** performance.now() time after which the search gives up (result.aborted) */
  deadline?: number;
}

export interface SearchResult {
  /** the first move with the best value in the game's move order; -1 when there is no legal move */
  move: number;
  /** from the root player's point of view */
  value: number;
  /** positions visited, the root included */
  nodes: number;
  /** heuristic or score evaluations at leaves */
  leaves: number;
  /** true when the deadline stopped the search (move and value are then unreliable) */
  aborted: boolean;
  /** true when some leaf was cut off by the depth limit (a deeper search could differ) */
  cutoff: boolean;
}

/** The deadline is looked at once every 1024 nodes. */
export const DEADLINE_MASK = 1023;

export abstract class SearchStack<S> {
  protected readonly game: Game<S>;
  protected readonly heuristic: Heuristic<S>;
  protected readonly turnUnit: boolean;
  protected readonly terminalByScore: boolean;
  protected readonly trace: TraceSink | undefined;
  protected readonly deadline: number;
  protected readonly rootDepth: number;
  protected root: Player = 0;
  protected states: S[] = [];
  protected moves: Int32Array[] = [];
  protected nodes = 0;
  protected leaves = 0;
  protected aborted = false;
  protected cutoff = false;
  protected bestMove = -1;

  constructor(p: SearchParams<S>) {
    this.game = p.game;
    this.heuristic = p.heuristic;
    this.turnUnit = p.unit === 'turn';
    this.terminalByScore = p.terminal === 'score';
    this.trace = p.trace;
    this.deadline = p.deadline ?? Infinity;
    this.rootDepth = p.depth === null || p.depth === undefined || p.depth < 0 ? NO_DEPTH_LIMIT : p.depth;
  }

  run(state: S): SearchResult {
    this.root = this.game.toMove(state);
    this.nodes = 0;
    this.leaves = 0;
    this.aborted = false;
    this.cutoff = false;
    this.ensure(0);
    this.game.copyInto(state, this.states[0]!);
    const first = this.moves[0]!;
    const count = this.game.legalMovesInto(state, first);
    this.bestMove = count > 0 ? first[0]! : -1;
    const value = this.searchRoot(this.states[0]!, this.rootDepth);
    return {
      move: this.bestMove,
      value,
      nodes: this.nodes,
      leaves: this.leaves,
      aborted: this.aborted,
      cutoff: this.cutoff,
    };
  }

  protected abstract searchRoot(s: S, depth: number): number;

  /** Buffers for `level` and the level below it. */
  protected ensure(level: number): void {
    if (this.states.length > level + 1) return;
    // Grow in blocks so a stack usually lives in one buffer (see Game.newStates).
    const add = Math.max(level + 2 - this.states.length, this.states.length, 32);
    this.states.push(...this.game.newStates(add));
    for (let k = 0; k < add; k++) this.moves.push(new Int32Array(this.game.maxMoves));
  }

  /** Counts the node; true when the deadline has passed (checked every 1024 nodes). */
  protected visit(): boolean {
    return (++this.nodes & DEADLINE_MASK) === 0 && this.pastDeadline();
  }

  /** Called every 1024 nodes: sets `aborted` once the deadline has passed. */
  protected pastDeadline(): boolean {
    if (this.deadline !== Infinity && performance.now() > this.deadline) this.aborted = true;
    return this.aborted;
  }

  /** Value of a leaf: a finished game by the conventions, else the heuristic; root player's view. */
  protected evaluate(s: S, over: boolean): number {
    this.leaves++;
    if (over && this.terminalByScore) return this.game.score(s, this.root);
    return this.heuristic.evaluate(s, this.root, this.game);
  }

  /** Depth left below a child: a free turn keeps its depth in unit `turn`. */
  protected childDepth(child: S, mover: Player, depth: number): number {
    return this.turnUnit && this.game.toMove(child) === mover && !this.game.isOver(child) ? depth : depth - 1;
  }

  /** The depth a trace shows for a node with `depth` left (the root is 0; a free turn keeps it in unit `turn`). */
  protected levelOf(depth: number): number {
    return this.rootDepth - depth;
  }
}
