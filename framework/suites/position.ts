/**
 * A case's position, from what its file says to a state of the suite's game: the start position,
 * a board written inline, a board file (json, csc384, csci561) or board text, or a Tic-Tac-Toe
 * board, then optionally some moves played from it. The resolved case keeps the result as a
 * BoardSpec (Mancala) or a board string (Tic-Tac-Toe); `caseState` turns that back into a state.
 */
import { dirname, resolve } from 'node:path';
import type { Game, Player } from '../contracts/game.ts';
import { UserError } from '../errors.ts';
import { boardToState, guessBoardFormat, parseBoard, stateToBoard, type BoardFormat, type BoardSpec } from '../games/mancala/board-io/index.ts';
import type { MancalaGame, MancalaState } from '../games/mancala/engine.ts';
import type { TicTacToeGame } from '../games/tictactoe/game.ts';
import type { FieldPath } from './source.ts';
import { describeValue, readText } from './source.ts';
import { POSITION_SOURCES, type PositionFile } from './schema.ts';
import type { GameSpec, SuiteCase } from './types.ts';

const SIDE: Record<'bottom' | 'top', Player> = { bottom: 0, top: 1 };
const SIDE_NAME = ['bottom', 'top'] as const;

export interface PositionInput {
  position: PositionFile | undefined;
  player: 'bottom' | 'top' | undefined;
  /** the case file, absolute (board files are relative to it) */
  caseFile: string;
  /** how messages name a file next to the case file */
  displayFile: (absolute: string) => string;
  /** a one-line error at a field of the case (path relative to the case) */
  fail: (field: FieldPath, message: string) => UserError;
}

export interface ResolvedPosition {
  state: unknown;
  board: BoardSpec;
  tictactoe?: string;
}

export function resolvePosition(spec: GameSpec, game: Game<any>, input: PositionInput): ResolvedPosition {
  const pos = input.position ?? {};
  const given = POSITION_SOURCES.filter((k) => pos[k] !== undefined);
  if (given.length > 1) {
    throw input.fail(['position'], `expected one of ${POSITION_SOURCES.join(', ')}, got both ${given[0]} and ${given[1]}`);
  }
  if (pos.format !== undefined && pos.file === undefined && pos.text === undefined) {
    throw input.fail(['position', 'format'], "applies to a board 'file' or 'text' only");
  }
  if (pos.text !== undefined && pos.format === undefined) {
    throw input.fail(['position', 'format'], `expected the format of the board text (${['json', 'csc384', 'csci561'].join(', ')}), but it is missing`);
  }
  let state: any = spec.kind === 'tictactoe' ? ticTacToeStart(game as TicTacToeGame, pos, input) : mancalaStart(game as MancalaGame, pos, input);
  (pos.moves ?? []).forEach((move, i) => {
    state = playMove(game, state, move, input, ['position', 'moves', i]);
  });
  if (spec.kind === 'tictactoe') {
    const g = game as TicTacToeGame;
    const toMove = g.toMove(state);
    return { state, board: { top: [], bottom: [], topStore: 0, bottomStore: 0, toMove }, tictactoe: g.toBoardString(state) };
  }
  return { state, board: stateToBoard(game as MancalaGame, state as MancalaState) };
}

function mancalaStart(game: MancalaGame, pos: PositionFile, input: PositionInput): MancalaState {
  if (pos.tictactoe !== undefined) throw input.fail(['position', 'tictactoe'], 'applies to Tic-Tac-Toe suites; this suite plays Mancala');
  const player = input.player === undefined ? undefined : SIDE[input.player];
  if (pos.board !== undefined) {
    const b = pos.board;
    if (b.to_move !== undefined && input.player !== undefined && b.to_move !== input.player) {
      throw input.fail(['player'], `says ${input.player}, but position.board.to_move says ${b.to_move}: give one of them`);
    }
    if (b.top.length !== game.n) throw input.fail(['position', 'board', 'top'], `expected ${game.n} pits (the suite's game is ${game.name}), got ${b.top.length}`);
    if (b.bottom.length !== game.n) throw input.fail(['position', 'board', 'bottom'], `expected ${game.n} pits (the suite's game is ${game.name}), got ${b.bottom.length}`);
    const board: BoardSpec = { top: b.top, bottom: b.bottom, topStore: b.top_store, bottomStore: b.bottom_store };
    if (b.to_move !== undefined) board.toMove = SIDE[b.to_move];
    return wrapped(() => boardToState(game, board, player, 'board'), input, ['position', 'board'], /^board: /);
  }
  if (pos.file !== undefined) {
    const absolute = resolve(dirname(input.caseFile), pos.file);
    const name = input.displayFile(absolute);
    return wrapped(
      () => {
        const text = readText(absolute, name, 'the board file');
        const format = (pos.format as BoardFormat | undefined) ?? guessBoardFormat(absolute, text);
        return boardToState(game, parseBoard(text, format, name), player, name);
      },
      input,
      ['position', 'file'],
    );
  }
  if (pos.text !== undefined) {
    const text = pos.text;
    return wrapped(
      () => boardToState(game, parseBoard(text, pos.format as BoardFormat, 'text'), player, 'text'),
      input,
      ['position', 'text'],
      /^text(?::(\d+))?: /,
    );
  }
  const start = game.initial();
  return player === 1 ? game.fromRows(game.row(start, 0), game.row(start, 1), 0, 0, 1) : start;
}

/**
 * Runs a board reader and puts its one-line complaint under the case's field. A reader names its
 * input: `strip` removes that name when it is not a file (inline board, board text), keeping the
 * line within the text ("line 2 of the text").
 */
function wrapped<T>(read: () => T, input: PositionInput, field: FieldPath, strip?: RegExp): T {
  try {
    return read();
  } catch (e) {
    if (!(e instanceof UserError)) throw e;
    let message = e.message;
    if (strip) message = message.replace(strip, (_, line?: string) => (line === undefined ? '' : `line ${line} of the text: `));
    throw input.fail(field, message);
  }
}

function ticTacToeStart(game: TicTacToeGame, pos: PositionFile, input: PositionInput) {
  for (const field of ['board', 'file', 'text'] as const) {
    if (pos[field] !== undefined) throw input.fail(['position', field], 'applies to Mancala suites; this suite plays Tic-Tac-Toe (use tictactoe: "XO_/___/___")');
  }
  if (input.player !== undefined) throw input.fail(['player'], 'a Tic-Tac-Toe position says who moves (X moves first): leave player out');
  if (pos.tictactoe === undefined) return game.initial();
  try {
    return game.fromString(pos.tictactoe);
  } catch (e) {
    if (e instanceof RangeError) throw input.fail(['position', 'tictactoe'], e.message);
    throw e;
  }
}

function playMove(game: Game<any>, state: unknown, move: string | number, input: PositionInput, field: FieldPath): unknown {
  if (game.isOver(state)) throw input.fail(field, 'the game is already over before this move');
  const index = typeof move === 'number' ? move : game.parseMove(state, move);
  if (index === undefined || !game.isLegal(state, index)) {
    const legal = game.legalMoves(state).map((m) => `${game.moveName(state, m)} (${m})`);
    const mover = game.kind === 'mancala' ? SIDE_NAME[game.toMove(state)] : game.toMove(state) === 0 ? 'X' : 'O';
    throw input.fail(field, `expected a legal move for ${mover} here: one of ${legal.join(', ')}; got ${describeValue(move)}`);
  }
  return game.play(state, index);
}

/** The state of a resolved case in the suite's game (the runner and bless start from it). */
export function caseState(spec: GameSpec, game: Game<any>, c: SuiteCase): unknown {
  if (spec.kind === 'tictactoe') return (game as TicTacToeGame).fromString(c.tictactoe ?? '___/___/___');
  return boardToState(game as MancalaGame, c.board, c.board.toMove, `${c.file} (case ${c.id})`);
}
