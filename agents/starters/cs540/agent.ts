/**
 * Starter for seed 003 (cs540): your Mancala player. Rename nothing: the grader looks for
 * `agent.ts` in your folder. Fill in the six functions the assignment lists (the TODOs); until you
 * do, it plays the first legal bin, which is legal but weak.
 *
 *   npx mancala match agents/starters/cs540 random --rules cs540 --games 10   # a quick game
 *   npx mancala gauntlet agents/starters/cs540 --time-per-move 500            # how it would be graded
 *
 * What you get (framework/contracts/agent.ts): `ctx.game` (the rules: legalMoves, play, toMove,
 * isOver; play returns a new state, free turns show in toMove), `ctx.state`, `ctx.player` (you),
 * `ctx.timeLeft()` (ms before your deadline) and `ctx.report(move)`.
 *
 * Time. Java's framework interrupts your thread when time is up and plays the data member `move`.
 * Here nothing interrupts your code: look at ctx.timeLeft() during the search and stop in time.
 * Call ctx.report(move) after every completed depth: if you run out of time anyway, the framework
 * stops your agent and plays the last move you reported in THIS turn (the anytime rule); with no
 * report you forfeit the game.
 *
 * Bins are numbered 0..5 from your left, as the assignment's figures number them; a move is the
 * bin's number.
 */
import type { Agent, AgentContext } from '../../../framework/contracts/agent.ts';
import type { Player } from '../../../framework/contracts/game.ts';
import type { MancalaGame, MancalaState } from '../../../framework/games/mancala/engine.ts';

class StudentPlayer {
  /** the best move found so far (the Java skeleton's protected data member `move`) */
  private move = -1;
  private readonly game: MancalaGame;
  private readonly me: Player;

  constructor(private readonly ctx: AgentContext<MancalaState>) {
    // The framework hands you the Mancala rules; this type gives you store() and finalStore().
    this.game = ctx.game as unknown as MancalaGame;
    this.me = ctx.player;
  }

  /**
   * 1. move: iterative deepening. maxDepth = 1, 2, 3, … : search with maxAction(state, maxDepth),
   * keep the step in this.move and ctx.report it, until time runs out.
   */
  chooseMove(state: MancalaState): number {
    this.move = this.game.legalMoves(state)[0] ?? -1;
    // TODO: the iterative-deepening loop.
    this.ctx.report(this.move);
    return this.move;
  }

  /** 2. The max player's wrapper: the step leading to the largest value (ties: the smallest bin). */
  maxAction(state: MancalaState, maxDepth: number): number {
    // TODO: call maxValue / minValue on each child.
    return this.game.legalMoves(state)[0] ?? -1;
  }

  /** 3. The min player's wrapper: the step leading to the smallest value. */
  minAction(state: MancalaState, maxDepth: number): number {
    // TODO
    return this.game.legalMoves(state)[0] ?? -1;
  }

  /**
   * 4. Alpha-beta at a max node. At currentDepth === maxDepth, or when the game is over, return
   * sbe(state). A free turn (game.toMove(child) is still the same player) keeps max as max.
   */
  maxValue(state: MancalaState, currentDepth: number, maxDepth: number, alpha: number, beta: number): number {
    // TODO
    return this.sbe(state);
  }

  /** 5. Alpha-beta at a min node. */
  minValue(state: MancalaState, currentDepth: number, maxDepth: number, alpha: number, beta: number): number {
    // TODO
    return this.sbe(state);
  }

  /**
   * 6. The static board evaluation, from your point of view. The simple SBE: your mancala minus
   * the opponent's (finalStore adds the stones swept at the end of the game). A better SBE earns
   * the bonus (beating the advanced agent).
   */
  sbe(state: MancalaState): number {
    const opponent: Player = this.me === 0 ? 1 : 0;
    return this.game.finalStore(state, this.me) - this.game.finalStore(state, opponent);
  }
}

const agent: Agent<MancalaState> = {
  name: 'cs540-student', // TODO: your wisc username
  chooseMove(ctx) {
    return new StudentPlayer(ctx).chooseMove(ctx.state);
  },
};

export default agent;
