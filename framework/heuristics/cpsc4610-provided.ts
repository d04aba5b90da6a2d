/**
 * Seed 002's (CPSC 4610) provided scoring function, the `score` of its Player class: 100 when
 * `player` has won, 0 when it has lost, 50 otherwise — a position still in play, or a tie. The
 * seed's "REALLY simple" basic player searches with it, its provided minimax values every position
 * where it stops with it (a finished game too: there is no separate final score), and Problem 1
 * asks students to improve it. Won and lost are decided after the end-of-game sweep (the course's
 * board sweeps the rows into the stores when the game is over), so a finished position is judged
 * by `game.score`, the final store difference. On Tic-Tac-Toe the same: 100 / 50 / 0, the values
 * of the seed's pruning example.
 *
 * Given course code, not a solution: the heuristic the cpsc4610 suites hand a student's minimax
 * and alpha-beta (`heuristic: cpsc4610-provided`), so the sandbox offers it beside `basic`
 * (sandbox-heuristics.ts).
 */
import type { Game, Player } from '../contracts/game.ts';
import type { Heuristic } from '../contracts/heuristic.ts';

export const WIN = 100;
export const LOSS = 0;
/** a position still in play, or a tie */
export const NEITHER = 50;

const cpsc4610Provided: Heuristic = {
  name: 'cpsc4610-provided',
  evaluate(state: unknown, player: Player, game: Game<any>): number {
    if (!game.isOver(state)) return NEITHER;
    const d = game.score(state, player);
    return d > 0 ? WIN : d < 0 ? LOSS : NEITHER;
  },
};

export default cpsc4610Provided;
