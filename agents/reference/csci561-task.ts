/**
 * Seed 000's file-in/file-out homework, tasks 1–3: input.txt in, next_state.txt (and, for
 * MiniMax and Alpha-Beta, traverse_log.txt) out, by the conventions the official graded cases
 * settle (../shared/conformance/csci561-official/README.md).
 *
 * The files are read and written by board-io/csci561.ts; the player the input names is the
 * agent, to move, and it maximises.
 *
 * This is the homework's reference solution, so it runs the reference searches from agents/.
 */
import { located } from '../../framework/errors.ts';
import basic from '../heuristics/basic.ts';
import { minimax } from './minimax.ts';
import { alphaBeta } from './alphabeta.ts';
import type { SearchParams } from './search-stack.ts';
import { collectTrace } from '../../framework/contracts/search-trace.ts';
import { boardToState, parseCsci561Input, writeCsci561NextState } from '../../framework/games/mancala/board-io/index.ts';
import type { MancalaState } from '../../framework/games/mancala/engine.ts';
import { PROFILES } from '../../framework/games/mancala/profiles.ts';
import { csci561Game } from '../../framework/packs/csci561/game.ts';
import type { Csci561Output } from '../../framework/plugins/csci561-solver.ts';
import { renderTraverseLog, type TraverseLogOptions } from '../../framework/search/traverse-log.ts';

export function solveCsci561(inputText: string, fileName: string, logOptions: Pick<TraverseLogOptions, 'optionalLines'> = {}): Csci561Output {
  const board = parseCsci561Input(inputText, fileName);
  const { task, depth: inputDepth } = board.csci561!;
  if (task === 4) {
    throw located(fileName, 1, 'task 4 (Competition) has no single right answer; this solver does tasks 1 (Greedy), 2 (MiniMax) and 3 (Alpha-Beta)');
  }
  if (task !== 1 && inputDepth < 1) throw located(fileName, 3, `expected a cut-off depth ≥ 1 for ${task === 2 ? 'MiniMax' : 'Alpha-Beta'}, got ${inputDepth}`);
  const game = csci561Game(board.top.length);
  const start = boardToState(game, board, undefined, fileName);
  const agent = game.toMove(start);
  if (game.legalMoves(start).length === 0) {
    throw located(fileName, undefined, `player ${agent + 1} has no legal move (the game is over on this board)`);
  }
  const conventions = PROFILES.csci561!.search;
  const search = task === 3 ? alphaBeta : minimax;
  // Greedy is MiniMax with cut-off depth 1, whatever the input says.
  const depth = task === 1 ? 1 : inputDepth;
  const params = (trace?: SearchParams<MancalaState>['trace']): SearchParams<MancalaState> => ({
    game,
    heuristic: basic,
    depth,
    unit: conventions.depthUnit,
    terminal: conventions.terminal,
    trace,
  });

  const logged = task === 1 ? undefined : collectTrace();
  let state = game.play(start, search(params(logged?.sink), start).move);
  // The agent's free-turn chain. In unit 'turn' a free-turn child keeps the root's depth and is
  // again a max node, so a search from it with that depth is exactly its subtree in the first
  // search; that subtree's first best move is what the first search would have played there.
  // (Alpha-beta too: the chosen child was searched with alpha below its value and beta = +inf —
  // it is the first best root move, so no earlier sibling reached its value — and so was each
  // first best child below it; a window that contains the value gives the exact value and the
  // same first best move as the full window.)
  while (!game.isOver(state) && game.toMove(state) === agent) {
    state = game.play(state, search(params(), state).move);
  }
  const nextState = writeCsci561NextState(game, state);
  if (!logged) return { nextState };
  return { nextState, traverseLog: renderTraverseLog(logged.events, { alphaBeta: task === 3, ...logOptions }) };
}
