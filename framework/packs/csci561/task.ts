/**
 * One run of seed 000's program: input.txt's text in, the files the homework writes out.
 * Tasks 1–3 (Greedy, MiniMax, Alpha-Beta) are the reference solution's (solveCsci561), whose
 * conventions the 30 official graded cases settle; task 4 (the competition) plays a turn under
 * a time budget (competition.ts). Task 1 writes no traverse log, as the seed says.
 */
import { located } from '../../errors.ts';
import { boardToState, parseCsci561Input, writeCsci561NextState } from '../../games/mancala/board-io/index.ts';
import { solveCsci561 } from '../../plugins/csci561-solver.ts';
import type { TraverseLogOptions } from '../../search/traverse-log.ts';
import { DEFAULT_COMPETITION_MS, playCompetitionTurn } from './competition.ts';
import { csci561Game } from './game.ts';
import { NEXT_STATE_FILE, TRAVERSE_LOG_FILE, type OutputFiles } from './files.ts';

export type Csci561Task = 1 | 2 | 3 | 4;

export const TASK_NAMES: Record<Csci561Task, string> = { 1: 'Greedy', 2: 'MiniMax', 3: 'Alpha-Beta', 4: 'Competition' };

export interface Csci561RunOptions {
  /** the first-visit line of a game-over node, which the official files mark OPTIONAL (default 'print'; 'mark': as they do) */
  optionalLines?: TraverseLogOptions['optionalLines'];
  /** task 4: the time budget of the whole turn in ms (default DEFAULT_COMPETITION_MS) */
  ms?: number;
}

export interface Csci561Run {
  task: Csci561Task;
  /** the input's player line: 1 (bottom row) or 2 (top row) */
  player: 1 | 2;
  /** the input's cut-off depth line (Greedy and the competition do not use it) */
  depth: number;
  pits: number;
  /** file name → text, in the order they are written */
  files: OutputFiles;
  /** task 4: the moves played (the chosen one, then the free-turn chain) */
  moves?: string[];
}

/** Runs the task `inputText` asks for; `fileName` names the input in error messages. */
export async function runCsci561(inputText: string, fileName: string, options: Csci561RunOptions = {}): Promise<Csci561Run> {
  const board = parseCsci561Input(inputText, fileName);
  const { task, depth } = board.csci561!;
  const base = { task, player: board.toMove === 0 ? 1 : 2, depth, pits: board.top.length } as const;
  if (task !== 4) {
    const out = solveCsci561(inputText, fileName, { optionalLines: options.optionalLines ?? 'print' });
    const files: OutputFiles = { [NEXT_STATE_FILE]: out.nextState };
    if (out.traverseLog !== undefined) files[TRAVERSE_LOG_FILE] = out.traverseLog.join('\n') + '\n';
    return { ...base, files };
  }
  const game = csci561Game(board.top.length);
  const start = boardToState(game, board, undefined, fileName);
  if (game.legalMoves(start).length === 0) {
    throw located(fileName, undefined, `player ${base.player} has no legal move (the game is over on this board)`);
  }
  const turn = await playCompetitionTurn(game, start, options.ms ?? DEFAULT_COMPETITION_MS);
  return { ...base, files: { [NEXT_STATE_FILE]: writeCsci561NextState(game, turn.state) }, moves: turn.moveNames };
}
