/**
 * Example submission for seed 003 (cs540), written the way the assignment asks: the six functions
 * of `xxxPlayer` — move (iterative deepening), maxAction / minAction (the wrappers that return a
 * step) and their alpha-beta workers, and sbe (the seed's simple SBE: my mancala minus the
 * opponent's). It is the pack's reference student: it should beat the random and the simple
 * agent (full marks); the bonus (the advanced agent) takes a better SBE.
 *
 * Java's framework interrupts the player's thread when time is up and plays the data member
 * `move`; here the agent watches ctx.timeLeft() itself and stops an unfinished depth, and every
 * completed depth's step is also published with ctx.report: if the agent ever overran its time,
 * the framework would play that move (the anytime rule) rather than forfeit the game.
 */
import type { Agent, AgentContext } from '../../../framework/contracts/agent.ts';
import type { Player } from '../../../framework/contracts/game.ts';
import type { MancalaGame, MancalaState } from '../../../framework/games/mancala/engine.ts';
import { OutOfTime, SAFETY_MS } from './clock.ts';

type Ctx = AgentContext<MancalaState>;

class ReferencePlayer {
  /** the seed's protected data member: the best step found so far */
  private move = -1;
  private readonly game: MancalaGame;
  private readonly me: Player;
  private readonly opponent: Player;
  private visits = 0;

  constructor(private readonly ctx: Ctx) {
    this.game = ctx.game as unknown as MancalaGame;
    this.me = ctx.player;
    this.opponent = ctx.player === 0 ? 1 : 0;
  }

  /** 1. IDS: maxDepth 1, 2, 3, … each a complete alpha-beta search, until time runs out. */
  chooseMove(state: MancalaState): number {
    this.move = this.game.legalMoves(state)[0] ?? -1;
    for (let maxDepth = 1; maxDepth <= 200; maxDepth++) {
      try {
        this.move = this.maxAction(state, maxDepth);
      } catch (e) {
        if (e instanceof OutOfTime) break; // keep the last completed depth's step
        throw e;
      }
      this.ctx.report(this.move);
      if (this.ctx.timeLeft() < SAFETY_MS) break;
    }
    return this.move;
  }

  /** 2. The max player's wrapper: the step whose child has the largest value (ties: smallest index). */
  maxAction(state: MancalaState, maxDepth: number): number {
    let best = -1;
    let alpha = -Infinity;
    for (const step of this.game.legalMoves(state)) {
      const value = this.valueOf(this.game.play(state, step), 1, maxDepth, alpha, Infinity);
      if (value > alpha) {
        alpha = value;
        best = step;
      }
    }
    return best;
  }

  /** 3. The min player's wrapper (the mirror of maxAction): the step of the smallest value. */
  minAction(state: MancalaState, maxDepth: number): number {
    let best = -1;
    let beta = Infinity;
    for (const step of this.game.legalMoves(state)) {
      const value = this.valueOf(this.game.play(state, step), 1, maxDepth, -Infinity, beta);
      if (value < beta) {
        beta = value;
        best = step;
      }
    }
    return best;
  }

  /** A child's value: a free turn means the same player moves again, so max stays max. */
  private valueOf(state: MancalaState, currentDepth: number, maxDepth: number, alpha: number, beta: number): number {
    return this.game.toMove(state) === this.me ? this.maxValue(state, currentDepth, maxDepth, alpha, beta) : this.minValue(state, currentDepth, maxDepth, alpha, beta);
  }

  /** 4. Alpha-beta at a max node; a finished game or the depth limit is valued by the SBE. */
  maxValue(state: MancalaState, currentDepth: number, maxDepth: number, alpha: number, beta: number): number {
    this.checkClock();
    if (this.game.isOver(state) || currentDepth === maxDepth) return this.sbe(state);
    let v = -Infinity;
    for (const step of this.game.legalMoves(state)) {
      v = Math.max(v, this.valueOf(this.game.play(state, step), currentDepth + 1, maxDepth, alpha, beta));
      if (v >= beta) return v;
      alpha = Math.max(alpha, v);
    }
    return v;
  }

  /** 5. Alpha-beta at a min node. */
  minValue(state: MancalaState, currentDepth: number, maxDepth: number, alpha: number, beta: number): number {
    this.checkClock();
    if (this.game.isOver(state) || currentDepth === maxDepth) return this.sbe(state);
    let v = Infinity;
    for (const step of this.game.legalMoves(state)) {
      v = Math.min(v, this.valueOf(this.game.play(state, step), currentDepth + 1, maxDepth, alpha, beta));
      if (v <= alpha) return v;
      beta = Math.min(beta, v);
    }
    return v;
  }

  /** 6. The simple SBE: my mancala minus the opponent's (after the final sweep once the game is over). */
  sbe(state: MancalaState): number {
    return this.game.finalStore(state, this.me) - this.game.finalStore(state, this.opponent);
  }

  /** Looking at the clock costs a little: every 1024 positions is often enough. */
  private checkClock(): void {
    if ((++this.visits & 1023) === 0 && this.ctx.timeLeft() < SAFETY_MS) throw new OutOfTime();
  }
}

const agent: Agent<MancalaState> = {
  name: 'cs540-reference',
  description: 'iterative-deepening alpha-beta with the simple SBE',
  chooseMove(ctx) {
    // The framework asks only the player to move, so it is always the max player here;
    // minAction is what the seed's framework would call for the other seat.
    return new ReferencePlayer(ctx).chooseMove(ctx.state);
  },
};

export default agent;
