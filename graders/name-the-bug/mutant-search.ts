/**
 * One small reference search, minimax or alpha-beta, with a switch for each bug "name the bug"
 * knows. With every switch off it visits exactly the nodes of the reference searches in
 * agents/reference/ (DESIGN §5: AIMA fail-soft alpha-beta, max/min by the player to move, ties to
 * the first best move, a free turn keeping its depth in unit `turn`, the transposition table keyed
 * on position and depth left), and returns the same move, value, node and evaluation counts; the
 * test beside it checks that on random positions.
 *
 * It runs on the Game value layer (`legalMoves`, `play`) and allocates freely: correctness over
 * speed, since it only reruns the small positions of failed cases. Mistakes that change the
 * rules (a capture variant, free turns) are made by handing it a game with other rules; the
 * depth, the unit and the algorithm are plain settings.
 */
import type { Game, Player } from '../../framework/contracts/game.ts';
import type { Heuristic } from '../../framework/contracts/heuristic.ts';
import { NO_DEPTH_LIMIT, type DepthUnit, type TerminalEvaluation } from '../../framework/contracts/search-conventions.ts';
import { MancalaGame } from '../../framework/games/mancala/engine.ts';

export type Algorithm = 'minimax' | 'alphabeta';

/**
 * How a finished position is valued: the conventions' two (`score`: after the sweep;
 * `heuristic`: the heuristic), or Mancala's store difference as the stones stand, which is what
 * a search that forgets the end-of-game sweep computes.
 */
export type TerminalRule = TerminalEvaluation | 'stores-as-they-stand';

export interface MutantSearchConfig<S> {
  game: Game<S>;
  heuristic: Heuristic<S>;
  algorithm: Algorithm;
  /** null or negative: no depth limit */
  depth: number | null;
  unit: DepthUnit;
  terminal: TerminalRule;
  caching: boolean;
  /** alpha-beta prunes on v > beta / v < alpha instead of v >= beta / v <= alpha */
  strictPruning?: boolean;
  /** max and min alternate by ply instead of following the player to move (a free turn taken for the opponent's move) */
  alternateByPly?: boolean;
  /** the game is the twin without free turns of a game that has them (the reference ignores free turns): only for wording */
  freeTurnsIgnored?: boolean;
  /** the root keeps the last of equally good moves instead of the first */
  lastBestMove?: boolean;
  /** give up (result undefined) after visiting this many nodes */
  maxNodes?: number;
}

export interface MutantResult {
  /** the chosen move; -1 when the root has no legal move */
  move: number;
  /** from the root player's point of view */
  value: number;
  /** positions visited, the root included */
  nodes: number;
  /** heuristic calls */
  evaluations: number;
}

/** The reference searches' initial values (search-stack.ts INF): kept equal so values and prunes match. */
const INF = 1_000_000_000;

const EXACT = 0;
const LOWER = 1;
const UPPER = 2;

class OutOfBudget extends Error {}

export function mutantSearch<S>(config: MutantSearchConfig<S>, state: S): MutantResult | undefined {
  const { game, heuristic, algorithm, unit, terminal, caching } = config;
  const strict = config.strictPruning === true;
  const byPly = config.alternateByPly === true;
  const lastBest = config.lastBestMove === true;
  const maxNodes = config.maxNodes ?? Infinity;
  const pruning = algorithm === 'alphabeta';
  const root: Player = game.toMove(state);
  const table = new Map<string, { value: number; bound: number }>();
  let nodes = 0;
  let evaluations = 0;
  let bestMove = game.legalMoves(state)[0] ?? -1;

  const evaluate = (s: S, over: boolean): number => {
    if (over && terminal === 'score') return game.score(s, root);
    if (over && terminal === 'stores-as-they-stand') return storeDifference(game, s, root);
    evaluations++;
    return heuristic.evaluate(s, root, game);
  };

  const search = (s: S, depth: number, ply: number, alpha: number, beta: number): number => {
    if (++nodes > maxNodes) throw new OutOfBudget();
    const over = game.isOver(s);
    if (over || depth <= 0) return evaluate(s, over);
    const key = caching ? `${game.key(s)}|${depth}` : '';
    if (caching) {
      const hit = table.get(key);
      if (hit !== undefined && (hit.bound === EXACT || (hit.bound === LOWER ? hit.value >= beta : hit.value <= alpha))) return hit.value;
    }
    const alphaIn = alpha;
    const betaIn = beta;
    const mover = game.toMove(s);
    const maximizing = byPly ? ply % 2 === 0 : mover === root;
    let v = maximizing ? -INF : INF;
    for (const m of game.legalMoves(s)) {
      const child = game.play(s, m);
      const keepsDepth = unit === 'turn' && game.toMove(child) === mover && !game.isOver(child);
      const cv = search(child, keepsDepth ? depth : depth - 1, ply + 1, alpha, beta);
      let cut = false;
      if (maximizing) {
        if (cv > v || (lastBest && ply === 0 && cv === v)) {
          v = cv;
          if (ply === 0) bestMove = m;
        }
        if (pruning) {
          cut = strict ? v > beta : v >= beta;
          if (!cut && v > alpha) alpha = v;
        }
      } else {
        if (cv < v) v = cv;
        if (pruning) {
          cut = strict ? v < alpha : v <= alpha;
          if (!cut && v < beta) beta = v;
        }
      }
      if (cut) break;
    }
    if (caching) table.set(key, { value: v, bound: !pruning ? EXACT : v <= alphaIn ? UPPER : v >= betaIn ? LOWER : EXACT });
    return v;
  };

  const depth = config.depth === null || config.depth < 0 ? NO_DEPTH_LIMIT : config.depth;
  try {
    const value = search(state, depth, 0, -INF, INF);
    return { move: bestMove, value, nodes, evaluations };
  } catch (e) {
    if (e instanceof OutOfBudget) return undefined;
    throw e;
  }
}

/** p's store minus the opponent's as the stones stand (no sweep); Mancala only. */
function storeDifference<S>(game: Game<S>, s: S, p: Player): number {
  if (!(game instanceof MancalaGame)) throw new TypeError(`'stores-as-they-stand' needs a Mancala game, got ${game.kind}`);
  const g = game as MancalaGame;
  const st = s as unknown as Parameters<MancalaGame['store']>[0];
  return g.store(st, p) - g.store(st, p === 0 ? 1 : 0);
}
