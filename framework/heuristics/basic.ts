/**
 * The basic heuristic: the player's store minus the opponent's, as they stand (seed 001's
 * heuristic_basic; seed 003's simple SBE). For Tic-Tac-Toe: the game's score (±1, 0 if unfinished).
 * Given course code, not a solution: the default heuristic of searches and the one heuristic the
 * sandbox offers besides a submission's own (sandbox-heuristics.ts).
 */
import type { Game, Player } from '../contracts/game.ts';
import type { Heuristic } from '../contracts/heuristic.ts';
import type { MancalaGame, MancalaState } from '../games/mancala/engine.ts';

const basic: Heuristic = {
  name: 'basic',
  evaluate(state: unknown, player: Player, game: Game<any>): number {
    if (game.kind === 'mancala') {
      const g = game as MancalaGame;
      const s = state as MancalaState;
      return g.store(s, player) - g.store(s, player === 0 ? 1 : 0);
    }
    return game.isOver(state) ? game.score(state, player) : 0;
  },
};

export default basic;
