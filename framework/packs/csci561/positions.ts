/**
 * Seed 000 inputs the project makes itself: a seeded random game of the csci561 rules, played
 * from a start position for a random number of moves and stopped while the player to move still
 * has a move, written as input.txt. Tests compare the command with the reference searches on
 * them; suite authors can draw positions from them.
 */
import { writeCsci561Input } from '../../games/mancala/board-io/index.ts';
import type { MancalaState } from '../../games/mancala/engine.ts';
import { createRandom, randomInt } from '../../random.ts';
import { csci561Game } from './game.ts';
import type { Csci561Task } from './task.ts';

export interface RandomInputOptions {
  /** the task line; default: 1, 2 or 3 at random */
  task?: Csci561Task;
  /** the cut-off depth line; default 1..3 at random */
  depth?: number;
  /** pits a side; default 3..6 at random (the seed allows 3..10) */
  pits?: number;
  /** stones a pit at the start; default 1..5 at random */
  seeds?: number;
  /** at most this many moves from the start; default 4 × pits */
  maxMoves?: number;
}

export interface RandomInput {
  text: string;
  task: Csci561Task;
  depth: number;
  pits: number;
  /** the moves played from the start, by name */
  moves: string[];
}

/** One random input from `seed`: the same seed gives the same text. */
export function randomCsci561Input(seed: number, options: RandomInputOptions = {}): RandomInput {
  const rand = createRandom(seed);
  const task = options.task ?? ((1 + randomInt(rand, 3)) as Csci561Task);
  const depth = options.depth ?? 1 + randomInt(rand, 3);
  const pits = options.pits ?? 3 + randomInt(rand, 4);
  const seeds = options.seeds ?? 1 + randomInt(rand, 5);
  const game = csci561Game(pits);
  let state: MancalaState = game.fromRows(Array(pits).fill(seeds), Array(pits).fill(seeds), 0, 0, randomInt(rand, 2) as 0 | 1);
  const target = randomInt(rand, (options.maxMoves ?? 4 * pits) + 1);
  const moves: string[] = [];
  for (let k = 0; k < target; k++) {
    const legal = game.legalMoves(state);
    const move = legal[randomInt(rand, legal.length)]!;
    const next = game.play(state, move);
    if (game.isOver(next)) break; // the input must leave its player a move
    moves.push(game.moveName(state, move));
    state = next;
  }
  return { text: writeCsci561Input(game, state, task, depth), task, depth, pits, moves };
}
