/**
 * Seed 003's "simple" opponent: one move ahead, the move that leaves the best store difference
 * (the seed's simple SBE: the mover's mancala minus the opponent's; a move that ends the game is
 * worth its final score after the sweep). Ties go to the first move in sowing order, the seed's
 * "smallest index". It reads no options and ignores ctx.heuristic: the grading gauntlet needs the
 * same opponent whatever the match hands it. Deterministic, so a seed replays a game.
 *
 * Written as the one-ply loop it is, not through the reference minimax: the CS540 kit fields it
 * as an opponent, and a kit holds no reference search (a property test holds it to minimax at depth 1).
 */
import type { Agent } from '../framework/contracts/agent.ts';
import { countingHeuristic } from '../framework/contracts/heuristic.ts';
import basic from './heuristics/basic.ts';

const simple: Agent = {
  name: 'simple',
  description: 'one move ahead: the best store difference after the move (ties: the first move)',
  chooseMove(ctx) {
    const { game, state } = ctx;
    const heuristic = countingHeuristic(basic, game);
    const me = game.toMove(state);
    const child = game.newState();
    let move = -1;
    let value = -Infinity;
    for (let k = 0; k < game.maxMoves; k++) {
      const m = game.moveAt(state, k);
      if (m < 0) continue;
      game.playInto(state, m, child);
      const v = game.isOver(child) ? game.score(child, me) : heuristic.evaluate(child, me, game);
      if (v > value) {
        value = v;
        move = m;
      }
    }
    return { move, value };
  },
};

export default simple;
