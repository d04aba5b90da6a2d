/**
 * Starter for seed 000's homework (CSCI-561 style) as the csci561 pack grades it: fill in the
 * TODOs. agent.ts (Alpha-Beta, task 3) and minimax.ts (MiniMax, task 2; at depth 1 also Greedy,
 * task 1) both call `courseSearch`. Check your work with
 *
 *   npx mancala check agents/starters/csci561 --suite testcases/csci561-public
 *
 * The conventions the course's official cases settle (testcases/csci561-public/README.md):
 *  - you (ctx.player) are the max player; a node is max when you are to move there, min otherwise;
 *  - the depth counts TURNS: a move that earns a free turn keeps the depth (ctx.options.depth);
 *  - moves in the order game.legalMoves gives (B2, B3, … for player 1, A2, A3, … for player 2);
 *    ties go to the first best move;
 *  - a finished game (game.isOver) is a leaf worth game.score(state, you) — the sweep included —
 *    and voids a free turn; at the cut-off a position is worth ctx.heuristic.evaluate(state, you, game)
 *    (your store minus the opponent's);
 *  - Alpha-Beta prunes on v >= beta (max) and v <= alpha (min), reporting alpha/beta as they were.
 *
 * The traverse log is written from the events you send to ctx.trace (see framework/contracts/search-trace.ts):
 *  - a node you expand: { type: 'enter', name, level, maximizing, value: ±Infinity, alpha?, beta? };
 *  - a leaf: { type: 'leaf', name, level, maximizing, value, reason: 'depth' | 'game-over', alpha?, beta? };
 *  - after each child returns: { type: 'update', name, level, maximizing, value, alpha?, beta? };
 *  - on a cut, after that update: { type: 'prune', name, level, maximizing, value, alpha, beta, skipped };
 * where `name` is game.moveName(parent, move) ('root' at the root), `level` is the cut-off depth
 * minus the depth left, and alpha/beta are sent by Alpha-Beta only.
 */
import type { AgentContext, MoveChoice } from '../../../framework/contracts/agent.ts';

export function courseSearch<S>(ctx: AgentContext<S>, pruning: boolean): MoveChoice {
  const { game, state } = ctx;
  const moves = game.legalMoves(state);
  // TODO: search the game tree to ctx.options.depth turns (with pruning when `pruning`), emitting
  // trace events, and return the first best move with its value.
  void pruning;
  return { move: moves[0]!, value: 0 };
}
