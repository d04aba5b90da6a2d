/**
 * What every reference search shares: one preallocated state and move buffer per level (so the
 * recursion allocates nothing per node), leaf evaluation by the conventions, the depth step for
 * free turns, and a deadline that stops a search cleanly.
 */
import { SearchCounters, type Game, type Player } from '../../framework/contracts/game.ts';
import type { CountedHeuristic, Heuristic } from '../../framework/contracts/heuristic.ts';
import basic from '../heuristics/basic.ts';
import { gameForSearch, NO_DEPTH_LIMIT, type DepthUnit, type FreeTurns, type TerminalEvaluation } from '../../framework/contracts/search-conventions.ts';
import type { TraceSink } from '../../framework/contracts/search-trace.ts';

export interface SearchParams<S> {
  game: Game<S>;
  heuristic: Heuristic<S>;
  /** depth limit in `unit`s; null/undefined: to the end of the game */
  depth?: number | null;
  unit: DepthUnit;
  terminal: TerminalEvaluation;
  caching?: boolean;
  /** absent or `honour`: a free turn is the same player's move; `ignore`: players alternate every move (seed 002's provided minimax) */
  freeTurns?: FreeTurns;
  trace?: TraceSink;
  /** performance.now() time after which the search gives up (result.aborted) */
  deadline?: number;
  /** false: never the generated WebAssembly search of alpha-beta (native-alphabeta.ts), so tests can compare the two */
  native?: boolean;
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

/**
 * A transposition table stops taking entries at this size (a Map holds at most 2^24, and a
 * search without a depth limit on a full board would reach that and crash). Entries already in
 * it stay valid, so the cap changes node counts of such huge searches, never values or moves.
 */
export const TABLE_LIMIT = 4_000_000;

/** The deadline is looked at once every 256 expanded nodes. */
export const DEADLINE_MASK = 255;

/**
 * The initial value of a max (-INF) or min (+INF) node. A small integer rather than Infinity keeps
 * the search's values in V8's fast integer representation (about 15% faster); traces show it as
 * ±Infinity. Heuristic values must stay strictly inside ±INF.
 */
export const INF = 1_000_000_000;

/** How a value appears in a trace: ±Infinity for the initial values of max and min nodes. */
export function shown(v: number): number {
  return v >= INF ? Infinity : v <= -INF ? -Infinity : v;
}

/**
 * Stacks of states and move buffers kept from one search to the next, by game family (a Mancala
 * game and its forks share their rules object, and so their states' shape): an agent searches
 * once a move, each time in a fresh fork (framework/search/run-agent.ts), and building its stack
 * anew was a quarter of a match's time. A search takes the spare stack while it runs, so a search
 * started inside another (a heuristic that searches) builds its own.
 */
const spareStacks = new WeakMap<object, { states: unknown[]; moves: Int32Array[] }>();

/** What games whose states are interchangeable share. */
function stackFamily(game: Game<unknown>): object {
  return (game as { rules?: object }).rules ?? game;
}

export abstract class SearchStack<S> {
  protected readonly game: Game<S>;
  /** whose spare stack it takes: the caller's game's family, also when it searches the twin without free turns (same states) */
  private readonly family: object;
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
  /** nodes that were expanded (not leaves): the deadline is checked as these grow */
  protected expanded = 0;
  protected leaves = 0;
  protected aborted = false;
  protected cutoff = false;
  protected bestMove = -1;
  /**
   * Set when leaves may be valued from Game.playLeaf instead of building and evaluating them
   * (the same values and counts, several times cheaper): the heuristic is `basic`, counted or not,
   * the game offers playLeaf, and nothing is traced. The search then counts the heuristic calls
   * it stands in for here: the counted heuristic's counters, or a sink nobody reads.
   */
  protected readonly leafCounters: SearchCounters | undefined;
  /** 0 when the root player is player 0, else -1: `(x ^ flip) - flip` is x from the root's view */
  protected flip = 0;

  constructor(p: SearchParams<S>) {
    // `ignore` searches a twin of the game without free turns that counts on the same counters,
    // so the search functions themselves stay the same (and as fast) for both conventions.
    this.game = p.freeTurns === 'ignore' ? gameForSearch(p.game, 'ignore') : p.game;
    this.family = stackFamily(p.game);
    this.heuristic = p.heuristic;
    this.turnUnit = p.unit === 'turn';
    this.terminalByScore = p.terminal === 'score';
    this.trace = p.trace;
    this.deadline = p.deadline ?? Infinity;
    this.rootDepth = p.depth === null || p.depth === undefined || p.depth < 0 ? NO_DEPTH_LIMIT : p.depth;
    const counted = (p.heuristic as Partial<CountedHeuristic<S>>).counted;
    const inner = counted === undefined ? p.heuristic : counted.inner;
    this.leafCounters =
      inner === basic && this.game.playLeaf !== undefined && p.trace === undefined ? (counted?.counters ?? new SearchCounters()) : undefined;
  }

  run(state: S): SearchResult {
    this.root = this.game.toMove(state);
    this.flip = this.root === 0 ? 0 : -1;
    this.nodes = 0;
    this.leaves = 0;
    this.aborted = false;
    this.cutoff = false;
    const spare = spareStacks.get(this.family);
    if (spare !== undefined && this.states.length === 0) {
      spareStacks.delete(this.family);
      this.states = spare.states as S[];
      this.moves = spare.moves;
    }
    this.ensure(0);
    this.game.copyInto(state, this.states[0]!);
    const first = this.moves[0]!;
    const count = this.game.legalMovesInto(state, first);
    this.bestMove = count > 0 ? first[0]! : -1;
    const value = this.searchRoot(this.states[0]!, this.rootDepth);
    spareStacks.set(this.family, { states: this.states, moves: this.moves });
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
    // Grow in blocks, doubling, so a stack lives in a few buffers (see Game.newStates); the first
    // is small because most searches are shallow and a match makes one for every move.
    const add = Math.max(level + 2 - this.states.length, this.states.length, 8);
    this.states.push(...this.game.newStates(add));
    for (let k = 0; k < add; k++) this.moves.push(new Int32Array(this.game.maxMoves));
  }

  /** Called every 1024 nodes: sets `aborted` once the deadline has passed. */
  protected pastDeadline(): boolean {
    if (this.deadline !== Infinity && performance.now() > this.deadline) this.aborted = true;
    return this.aborted;
  }

  /** Value of a leaf: a finished game by the conventions, else the heuristic; root player's view. */
  protected evaluate(s: S, over: boolean): number {
    this.leaves++;
    if (over) {
      if (this.terminalByScore) return this.game.score(s, this.root);
    } else {
      this.cutoff = true;
    }
    return this.heuristic.evaluate(s, this.root, this.game);
  }

  /** A child that is a leaf, evaluated without a recursive call: counted as a visited node. */
  protected leaf(s: S, over: boolean, depth: number, name: string, alpha?: number, beta?: number): number {
    this.nodes++; // the deadline is watched at expanded nodes, each of which has at most maxMoves leaves
    return this.evaluateLeaf(s, over, depth, name, alpha, beta);
  }

  protected evaluateLeaf(s: S, over: boolean, depth: number, name: string, alpha?: number, beta?: number): number {
    const value = this.evaluate(s, over);
    if (this.trace !== undefined) this.traceLeaf(s, name, depth, value, over, alpha, beta);
    return value;
  }

  /** Legal moves after candidate k: what a prune skips (for traces). */
  protected movesAfter(s: S, k: number): number {
    let count = 0;
    for (let j = k + 1; j < this.game.maxMoves; j++) if (this.game.moveAt(s, j) >= 0) count++;
    return count;
  }

  // ---- trace events (kept out of the search functions so those stay small) -----------------

  protected traceLeaf(s: S, name: string, depth: number, value: number, over: boolean, alpha?: number, beta?: number): void {
    const maximizing = this.game.toMove(s) === this.root;
    const reason = over ? 'game-over' : 'depth';
    const level = this.levelOf(depth);
    this.trace!(
      alpha === undefined
        ? { type: 'leaf', name, level, maximizing, value, reason }
        : { type: 'leaf', name, level, maximizing, value, reason, alpha: shown(alpha), beta: shown(beta!) },
    );
  }

  protected traceCached(name: string, depth: number, value: number): void {
    this.trace!({ type: 'cached', name, level: this.levelOf(depth), value });
  }

  protected traceNode(type: 'enter' | 'update', name: string, depth: number, maximizing: boolean, value: number, alpha?: number, beta?: number): void {
    const level = this.levelOf(depth);
    const v = shown(value);
    this.trace!(
      alpha === undefined
        ? { type, name, level, maximizing, value: v }
        : { type, name, level, maximizing, value: v, alpha: shown(alpha), beta: shown(beta!) },
    );
  }

  protected tracePrune(name: string, depth: number, maximizing: boolean, value: number, alpha: number, beta: number, skipped: number): void {
    this.trace!({ type: 'prune', name, level: this.levelOf(depth), maximizing, value: shown(value), alpha: shown(alpha), beta: shown(beta), skipped });
  }

  /** The depth a trace shows for a node with `depth` left (the root is 0; a free turn keeps it in unit `turn`). */
  protected levelOf(depth: number): number {
    return this.rootDepth - depth;
  }
}
