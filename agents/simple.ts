/**
 * Seed 003's "simple" opponent: one move ahead, the move that leaves the best store difference
 * (the seed's simple SBE: the mover's mancala minus the opponent's; a move that ends the game is
 * worth its final score after the sweep). Ties go to the first move in sowing order, the seed's
 * "smallest index". It reads no options and ignores ctx.heuristic: the grading gauntlet needs the
 * same opponent whatever the match hands it. Deterministic, so a seed replays a game.
 */
import type { Agent } from '../framework/contracts/agent.ts';
import { countingHeuristic } from '../framework/contracts/heuristic.ts';
import basic from './heuristics/basic.ts';
import { minimax } from './reference/minimax.ts';

const simple: Agent = {
  name: 'simple',
  description: 'one move ahead: the best store difference after the move (ties: the first move)',
  chooseMove(ctx) {
    const heuristic = countingHeuristic(basic, ctx.game);
    const result = minimax({ game: ctx.game, heuristic, depth: 1, unit: 'move', terminal: 'score', caching: false, trace: ctx.trace }, ctx.state);
    return { move: result.move, value: result.value };
  },
};

export default simple;
