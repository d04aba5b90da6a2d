/**
 * The readable specification of perfect play: exhaustive negamax over the whole game tree, no
 * pruning, no table. Exponential, so only for small boards (tests hold the fast solver to it).
 */
import type { MancalaGame, MancalaState } from '../../framework/games/mancala/engine.ts';
import type { SolveResult } from './solve-types.ts';

/** The perfect-play margin for the player to move in s. */
export function plainValue(game: MancalaGame, s: MancalaState, counter = { nodes: 0 }): number {
  counter.nodes++;
  const mover = game.toMove(s);
  if (game.isOver(s)) return game.score(s, mover);
  let best = -Infinity;
  for (const move of game.legalMoves(s)) {
    const child = game.play(s, move);
    // A free turn keeps the mover; otherwise the child's value is the opponent's, negated.
    const v = game.toMove(child) === mover ? plainValue(game, child, counter) : -plainValue(game, child, counter);
    if (v > best) best = v;
  }
  return best === 0 ? 0 : best; // no -0 from negating a draw
}

/** Solves s exhaustively: its value, every best move and each move's value. */
export function plainSolve(game: MancalaGame, s: MancalaState): SolveResult {
  const started = performance.now();
  const counter = { nodes: 1 };
  const mover = game.toMove(s);
  const moveValues = new Map<number, number>();
  if (!game.isOver(s)) {
    for (const move of game.legalMoves(s)) {
      const child = game.play(s, move);
      const v = game.toMove(child) === mover ? plainValue(game, child, counter) : -plainValue(game, child, counter);
      moveValues.set(move, v === 0 ? 0 : v);
    }
  }
  const value = game.isOver(s) ? game.score(s, mover) : Math.max(...moveValues.values());
  const bestMoves = [...moveValues].filter(([, v]) => v === value).map(([m]) => m);
  return { value, bestMoves, moveValues, proven: true, nodes: counter.nodes, ms: performance.now() - started };
}
