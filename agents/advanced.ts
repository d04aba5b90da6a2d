/**
 * Seed 003's "advanced" opponent: alpha-beta to a fixed depth (options.depth, default
 * ADVANCED_DEPTH moves) with the advanced heuristic (store difference, stones on each side,
 * free-turn pits, capture threats), whatever ctx.heuristic is. It deepens 1, 2, … up to that
 * depth and reports each completed depth, so a time limit too short for the full depth still
 * leaves it a searched move; given the time, it is deterministic (the same position, the same
 * move), so a gauntlet's games against it replay from their seed on any machine.
 */
import type { Agent } from '../framework/contracts/agent.ts';
import { countingHeuristic } from '../framework/contracts/heuristic.ts';
import { hasDepthLimit } from './agent-options.ts';
import advancedHeuristic from './heuristics/advanced.ts';
import { iterativeDeepening } from './reference/iterative-deepening.ts';

/** Moves searched ahead by default (calibrated in the cs540 pack: framework/packs/cs540/README.md). */
export const ADVANCED_DEPTH = 12;

const advanced: Agent = {
  name: 'advanced',
  description: `alpha-beta to depth ${ADVANCED_DEPTH} (option depth) with the advanced heuristic`,
  chooseMove(ctx) {
    const depth = hasDepthLimit(ctx.options.depth) ? Math.max(1, ctx.options.depth) : ADVANCED_DEPTH;
    const result = iterativeDeepening(
      {
        game: ctx.game,
        heuristic: countingHeuristic(advancedHeuristic, ctx.game),
        unit: 'move',
        terminal: 'score',
        maxDepth: depth,
        deadline: ctx.deadline,
        onIteration: (it) => ctx.report(it.move, it.value),
      },
      ctx.state,
    );
    return { move: result.move, value: result.value, depth: result.depth };
  },
};

export default advanced;
