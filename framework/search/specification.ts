/**
 * The reference searches as the course texts state them (DESIGN §5), written to be read rather
 * than to be fast: plain minimax and alpha-beta in the AIMA form, where each node returns its
 * value with the move that gave it (4th edition, MAX-VALUE/MIN-VALUE). They use the value layer
 * of the public Game contract only (legalMoves, play, isOver, toMove, score) and count for
 * themselves, so they owe nothing to the fast searches in agents/reference: tests hold those to
 * these, move for move and node for node.
 *
 * The conventions, each stated once below:
 *  - the root player maximises; whoever moves at a node decides whether it is a max or a min
 *    node, so a free turn leaves a max node's child a max node;
 *  - a finished game is always a leaf, and so is a position where the depth has run out;
 *  - unit `move`: every move is one level; unit `turn`: a free turn keeps its depth (so a free
 *    turn earned at the cut-off is still expanded);
 *  - ties go to the first best move in the game's order (strict improvement only);
 *  - nodes = calls of the recursive search (the root included); evaluations = heuristic calls.
 */
import type { Game, Player } from '../contracts/game.ts';
import type { Heuristic } from '../contracts/heuristic.ts';
import type { DepthUnit, TerminalEvaluation } from '../contracts/search-conventions.ts';

/**
 * Where a max node (-INF) and a min node (+INF) start, and alpha-beta's first window. The fast
 * searches use this finite number, not Infinity; the same here keeps fail-soft values and prunes
 * identical even for a node whose every child is valued at the bound.
 */
export const INF = 1_000_000_000;

export interface SpecificationOptions {
  /** the depth limit in `unit`s; null: to the end of the game */
  depth: number | null;
  unit: DepthUnit;
  terminal: TerminalEvaluation;
}

export interface SpecificationResult {
  /** the first move in the game's order with the best value; -1 when the root has no legal move */
  move: number;
  /** from the root player's point of view */
  value: number;
  /** positions visited, the root included */
  nodes: number;
  /** calls of the heuristic */
  evaluations: number;
}

/** A node's answer: its value and the first move that reaches it (-1 at a leaf). */
interface Decision {
  value: number;
  move: number;
}

/** What both searches share: who maximises, when a node is a leaf and what it is worth, how deep a child is, the counts. */
class SearchRules<S> {
  readonly maximizer: Player;
  nodes = 0;
  evaluations = 0;

  constructor(
    readonly game: Game<S>,
    private readonly heuristic: Heuristic<S>,
    root: S,
    private readonly options: SpecificationOptions,
  ) {
    this.maximizer = game.toMove(root);
  }

  get rootDepth(): number {
    return this.options.depth ?? Infinity;
  }

  isLeaf(s: S, depth: number): boolean {
    return this.game.isOver(s) || depth <= 0;
  }

  /** A finished game by its score (terminal `score`: after the sweep), anything else by the heuristic. */
  leafValue(s: S): number {
    if (this.game.isOver(s) && this.options.terminal === 'score') return this.game.score(s, this.maximizer);
    this.evaluations++;
    return this.heuristic.evaluate(s, this.maximizer, this.game);
  }

  /** The depth left at `child` of `s`: one level less, unless unit `turn` and the mover moves again. */
  childDepth(s: S, child: S, depth: number): number {
    const freeTurn = !this.game.isOver(child) && this.game.toMove(child) === this.game.toMove(s);
    return this.options.unit === 'turn' && freeTurn ? depth : depth - 1;
  }

  /** The result at the root; a root that is a leaf still names its first legal move, as an agent must answer with one. */
  result(root: S, decision: Decision): SpecificationResult {
    const move = decision.move >= 0 ? decision.move : (this.game.legalMoves(root)[0] ?? -1);
    return { move, value: decision.value, nodes: this.nodes, evaluations: this.evaluations };
  }
}

/** Minimax: a max node takes its best child, a min node its worst, to the depth limit. */
export function specificationMinimax<S>(game: Game<S>, heuristic: Heuristic<S>, root: S, options: SpecificationOptions): SpecificationResult {
  const rules = new SearchRules(game, heuristic, root, options);

  const search = (s: S, depth: number): Decision => {
    rules.nodes++;
    if (rules.isLeaf(s, depth)) return { value: rules.leafValue(s), move: -1 };
    return game.toMove(s) === rules.maximizer ? maxValue(s, depth) : minValue(s, depth);
  };

  const maxValue = (s: S, depth: number): Decision => {
    let best: Decision = { value: -INF, move: -1 };
    for (const m of game.legalMoves(s)) {
      const child = game.play(s, m);
      const { value } = search(child, rules.childDepth(s, child, depth));
      if (value > best.value) best = { value, move: m };
    }
    return best;
  };

  const minValue = (s: S, depth: number): Decision => {
    let best: Decision = { value: INF, move: -1 };
    for (const m of game.legalMoves(s)) {
      const child = game.play(s, m);
      const { value } = search(child, rules.childDepth(s, child, depth));
      if (value < best.value) best = { value, move: m };
    }
    return best;
  };

  return rules.result(root, search(root, rules.rootDepth));
}

/**
 * Alpha-beta, fail-soft: alpha is the value the maximizer is already sure of on the path to this
 * node, beta the value the minimizer is sure of. A max node stops once v >= beta (the minimizer
 * above will not let play come here), a min node once v <= alpha; either returns v itself, which
 * may lie outside the window. Each child gets the node's current window, a free-turn child too.
 */
export function specificationAlphaBeta<S>(game: Game<S>, heuristic: Heuristic<S>, root: S, options: SpecificationOptions): SpecificationResult {
  const rules = new SearchRules(game, heuristic, root, options);

  const search = (s: S, depth: number, alpha: number, beta: number): Decision => {
    rules.nodes++;
    if (rules.isLeaf(s, depth)) return { value: rules.leafValue(s), move: -1 };
    return game.toMove(s) === rules.maximizer ? maxValue(s, depth, alpha, beta) : minValue(s, depth, alpha, beta);
  };

  const maxValue = (s: S, depth: number, alpha: number, beta: number): Decision => {
    let best: Decision = { value: -INF, move: -1 };
    for (const m of game.legalMoves(s)) {
      const child = game.play(s, m);
      const { value } = search(child, rules.childDepth(s, child, depth), alpha, beta);
      if (value > best.value) {
        best = { value, move: m };
        alpha = Math.max(alpha, value);
      }
      if (best.value >= beta) return best;
    }
    return best;
  };

  const minValue = (s: S, depth: number, alpha: number, beta: number): Decision => {
    let best: Decision = { value: INF, move: -1 };
    for (const m of game.legalMoves(s)) {
      const child = game.play(s, m);
      const { value } = search(child, rules.childDepth(s, child, depth), alpha, beta);
      if (value < best.value) {
        best = { value, move: m };
        beta = Math.min(beta, value);
      }
      if (best.value <= alpha) return best;
    }
    return best;
  };

  return rules.result(root, search(root, rules.rootDepth, -INF, INF));
}
