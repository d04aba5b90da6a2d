/**
 * A case's position, from what its file says to a state of the suite's game: the start position,
 * a board written inline (in the case files' form or the JSON board file's), a board file (json,
 * csc384, csci561) or board text, or a Tic-Tac-Toe board, then optionally some moves played from it. The resolved case keeps the result as a
 * BoardSpec (Mancala) or a board string (Tic-Tac-Toe); `caseState` turns that back into a state.
 *
 * A Mancala board sets its case's size: one suite may mix 4, 5, 6 and 7 pits, as the course's own
 * files do. The manifest's game gives the rules, and the size of the start position.
 */
import { dirname, resolve } from 'node:path';
import type { Game, Player } from '../contracts/game.ts';
import { UserError } from '../errors.ts';
import { boardToState, guessBoardFormat, parseBoard, stateToBoard, type BoardFormat, type BoardSpec } from '../games/mancala/board-io/index.ts';
import type { MancalaGame, MancalaState } from '../games/mancala/engine.ts';
import { LIMITS } from '../games/mancala/rules.ts';
import type { TicTacToeGame } from '../games/tictactoe/game.ts';
import { caseGame, gameForBoard, type GameCache } from './game.ts';
import type { FieldPath } from './source.ts';
import { describeValue, readText } from './source.ts';
import { POSITION_SOURCES, type PositionFile } from './schema.ts';
import type { GameSpec, Manifest, SuiteCase } from './types.ts';

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
  /** the case's game: the suite's, at the size of the case's board */
  game: Game<any>;
}

export function resolvePosition(spec: GameSpec, games: GameCache, input: PositionInput): ResolvedPosition {
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
  const start = spec.kind === 'tictactoe' ? { game: games.get(spec), state: ticTacToeStart(games.get(spec) as TicTacToeGame, pos, input) } : mancalaStart(spec, games, pos, input);
  const game = start.game;
  let state: any = start.state;
  (pos.moves ?? []).forEach((move, i) => {
    state = playMove(game, state, move, input, ['position', 'moves', i]);
  });
  if (spec.kind === 'tictactoe') {
    const g = game as TicTacToeGame;
    const toMove = g.toMove(state);
    return { state, board: { top: [], bottom: [], topStore: 0, bottomStore: 0, toMove }, tictactoe: g.toBoardString(state), game };
  }
  return { state, board: stateToBoard(game as MancalaGame, state as MancalaState), game };
}

/** The game of a board's size, or a one-line error at `field` when no Mancala board has that many pits. */
function sizedGame(spec: GameSpec, games: GameCache, board: BoardSpec, input: PositionInput, field: FieldPath, name?: string): MancalaGame {
  const prefix = name === undefined ? '' : `${name}: `;
  const n = board.top.length;
  if (n !== board.bottom.length) throw input.fail(field, `${prefix}expected as many pits on top as on the bottom, got ${n} (top) and ${board.bottom.length} (bottom)`);
  if (n < LIMITS.minPits || n > LIMITS.maxPits) throw input.fail(field, `${prefix}expected ${LIMITS.minPits} to ${LIMITS.maxPits} pits a side, got ${n}`);
  return games.get(gameForBoard(spec, board)) as MancalaGame;
}

function mancalaStart(spec: GameSpec, games: GameCache, pos: PositionFile, input: PositionInput): { game: MancalaGame; state: MancalaState } {
  if (pos.tictactoe !== undefined) throw input.fail(['position', 'tictactoe'], 'applies to Tic-Tac-Toe suites; this suite plays Mancala');
  const player = input.player === undefined ? undefined : SIDE[input.player];
  if (pos.board !== undefined) {
    const board = inlineBoard(pos.board, input);
    const game = sizedGame(spec, games, board, input, ['position', 'board']);
    return { game, state: wrapped(() => boardToState(game, board, player, 'board'), input, ['position', 'board'], /^board: /) };
  }
  if (pos.file !== undefined) {
    const absolute = resolve(dirname(input.caseFile), pos.file);
    const name = input.displayFile(absolute);
    const board = wrapped(
      () => {
        const text = readText(absolute, name, 'the board file');
        return parseBoard(text, (pos.format as BoardFormat | undefined) ?? guessBoardFormat(absolute, text), name);
      },
      input,
      ['position', 'file'],
    );
    const game = sizedGame(spec, games, board, input, ['position', 'file'], name);
    return { game, state: wrapped(() => boardToState(game, board, player, name), input, ['position', 'file']) };
  }
  if (pos.text !== undefined) {
    const text = pos.text;
    const strip = /^text(?::(\d+))?: /;
    const board = wrapped(() => parseBoard(text, pos.format as BoardFormat, 'text'), input, ['position', 'text'], strip);
    const game = sizedGame(spec, games, board, input, ['position', 'text']);
    return { game, state: wrapped(() => boardToState(game, board, player, 'text'), input, ['position', 'text'], strip) };
  }
  const game = games.get(spec) as MancalaGame;
  const start = game.initial();
  return { game, state: player === 1 ? game.fromRows(game.row(start, 0), game.row(start, 1), 0, 0, 1) : start };
}

type InlineBoard = NonNullable<PositionFile['board']>;
const SNAKE_FIELDS = ['top_store', 'bottom_store', 'to_move'] as const;
const JSON_FIELDS = ['stores', 'toMove'] as const;

/**
 * An inline board, written in the case files' form (`top_store`, `bottom_store`, `to_move`) or in
 * the JSON board file's (`stores: {top, bottom}`, `toMove`), never a mix of the two.
 */
function inlineBoard(b: InlineBoard, input: PositionInput): BoardSpec {
  const at = (field: string): FieldPath => ['position', 'board', field];
  const snake = SNAKE_FIELDS.filter((k) => b[k] !== undefined);
  const json = JSON_FIELDS.filter((k) => b[k] !== undefined);
  if (snake.length > 0 && json.length > 0) {
    throw input.fail(
      at(json[0]!),
      `mixes two board forms (this board also has ${snake[0]}): write top_store, bottom_store and to_move, or stores: {top, bottom} and toMove as a JSON board file does`,
    );
  }
  let board: BoardSpec;
  let toMove: 'bottom' | 'top' | undefined;
  if (json.length > 0) {
    if (b.stores === undefined) throw input.fail(at('stores'), 'expected the stores: {top, bottom} (with toMove, as in a JSON board file), but it is missing');
    board = { top: b.top, bottom: b.bottom, topStore: b.stores.top, bottomStore: b.stores.bottom };
    toMove = b.toMove;
  } else {
    for (const [field, whose] of [['top_store', 'top'], ['bottom_store', 'bottom']] as const) {
      if (b[field] === undefined) {
        throw input.fail(at(field), `expected the ${whose} player's store (or, as in a JSON board file, stores: {top, bottom}), but it is missing`);
      }
    }
    board = { top: b.top, bottom: b.bottom, topStore: b.top_store!, bottomStore: b.bottom_store! };
    toMove = b.to_move;
  }
  if (toMove !== undefined && input.player !== undefined && toMove !== input.player) {
    throw input.fail(['player'], `says ${input.player}, but position.board.${json.length > 0 ? 'toMove' : 'to_move'} says ${toMove}: give one of them`);
  }
  if (b.bottom.length !== b.top.length) {
    throw input.fail(at('bottom'), `expected as many pits as top (${b.top.length}), got ${b.bottom.length}`);
  }
  if (toMove !== undefined) board.toMove = SIDE[toMove];
  return board;
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
    const legal = game.legalMoves(state).map((m) => `${game.moveName(state, m)} (index ${m})`);
    const mover = game.kind === 'mancala' ? SIDE_NAME[game.toMove(state)] : game.toMove(state) === 0 ? 'X' : 'O';
    throw input.fail(field, `expected a legal move for ${mover} here: one of ${legal.join(', ')}; got ${describeValue(move)}`);
  }
  return game.play(state, index);
}

/** A resolved case's game (the suite's, at its board's size) and its state there (bless starts from it). */
export function caseState(manifest: Pick<Manifest, 'game'>, games: GameCache, c: SuiteCase): { game: Game<any>; state: unknown } {
  const game = games.get(caseGame(manifest, c));
  if (manifest.game.kind === 'tictactoe') return { game, state: (game as TicTacToeGame).fromString(c.tictactoe ?? '___/___/___') };
  return { game, state: boardToState(game as MancalaGame, c.board, c.board.toMove, `${c.file} (case ${c.id})`) };
}
