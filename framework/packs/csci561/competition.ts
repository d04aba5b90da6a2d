/**
 * Task 4 of seed 000, the competition: no single right answer, just a good move played under a
 * time budget. The seed leaves the competition's rules, its time limit included, to a later
 * announcement, so the budget is the caller's (`mancala csci561 --ms`); it covers the whole turn,
 * the agent's free-turn chain included, since next_state.txt shows the board after the chain.
 *
 * Each decision of the chain is the strong agent's (iterative-deepening alpha-beta with a
 * transposition table and move ordering) given half of what is left, so a long chain still fits;
 * its depth-1 search always finishes, so a move is always played.
 */
import type { Player } from '../../contracts/game.ts';
import type { MancalaGame, MancalaState } from '../../games/mancala/engine.ts';
import basic from '../../heuristics/basic.ts';
import { requireAgent } from '../../plugins/agents.ts';
import { createRandom } from '../../random.ts';
import { runAgent } from '../../search/run-agent.ts';

export const DEFAULT_COMPETITION_MS = 1000;
/** A decision is never given less than this, however little of the budget is left. */
const MIN_DECISION_MS = 5;

export interface CompetitionTurn {
  /** the agent's moves in order: the chosen move, then its free-turn chain */
  moves: number[];
  /** their names (B3, A5, …) */
  moveNames: string[];
  /** the board after the whole turn */
  state: MancalaState;
  /** the first decision's value, from the agent's side, as the strong search gives it */
  value: number | undefined;
  ms: number;
}

export async function playCompetitionTurn(game: MancalaGame, start: MancalaState, budgetMs: number): Promise<CompetitionTurn> {
  const begin = performance.now();
  const agent: Player = game.toMove(start);
  const moves: number[] = [];
  const moveNames: string[] = [];
  let value: number | undefined;
  let state = start;
  while (!game.isOver(state) && game.toMove(state) === agent) {
    const left = budgetMs - (performance.now() - begin);
    const ms = Math.max(MIN_DECISION_MS, left / 2);
    const outcome = await runAgent(requireAgent('strong'), {
      game,
      state,
      heuristic: basic,
      options: { ms },
      timeLimitMs: ms,
      random: createRandom(1),
    });
    const move = outcome.choice.move;
    if (!game.isLegal(state, move)) throw new Error(`internal: the competition agent chose ${move}, not a legal move`);
    if (moves.length === 0) value = outcome.choice.value;
    moves.push(move);
    moveNames.push(game.moveName(state, move));
    state = game.play(state, move);
  }
  return { moves, moveNames, state, value, ms: performance.now() - begin };
}
