/**
 * Seed 000's files (the file-in/file-out homework).
 *
 * input.txt, 7 lines:
 *   1  task: 1 Greedy, 2 MiniMax, 3 Alpha-Beta, 4 Competition
 *   2  player to move: 1 (bottom row, pits B2..B(N+1)) or 2 (top row, pits A2..A(N+1))
 *   3  cut-off depth
 *   4  top row, A2..A(N+1) left to right (A2 is next to player 2's store A1, on the left)
 *   5  bottom row, B2..B(N+1) left to right (B(N+2), player 1's store, is on the right)
 *   6  player 2's store
 *   7  player 1's store
 * next_state.txt is lines 4..7 alone. Numbers are separated by single spaces; we accept any
 * run of white space. A file of at most 4 lines is read as a next_state file, a longer one as an
 * input file, so a truncated input file is reported at its first missing line.
 */
import type { Player } from '../../../contracts/game.ts';
import { UserError } from '../../../errors.ts';
import type { MancalaGame, MancalaState } from '../engine.ts';
import { checkTotal, parseRow, parseStore, quote, stateToBoard, TextLines, wholeNumber, type BoardSpec } from './board.ts';

const NEXT_STATE_LINES = 4;

/** Seed 000's player numbers: 1 plays the bottom row (the engine's player 0), 2 the top row. */
const playerOf = (n: number): Player => (n === 1 ? 0 : 1);
const numberOf = (p: Player): 1 | 2 => (p === 0 ? 1 : 2);

/** Reads either form: a next_state file (4 lines) or an input file (7 lines). */
export function parseCsci561(text: string, fileName: string): BoardSpec {
  const lines = new TextLines(text, fileName);
  if (lines.count === 0) throw new UserError(`${fileName}: expected a csci561 input file (7 lines) or next_state file (4 lines), but the file is empty`);
  return lines.count <= NEXT_STATE_LINES ? readBoardLines(lines, 1) : parseCsci561Lines(lines);
}

/** Reads the 7-line input form only. */
export function parseCsci561Input(text: string, fileName: string): BoardSpec {
  return parseCsci561Lines(new TextLines(text, fileName));
}

/** Reads the 4-line next_state form only. */
export function parseCsci561NextState(text: string, fileName: string): BoardSpec {
  return readBoardLines(new TextLines(text, fileName), 1);
}

function parseCsci561Lines(lines: TextLines): BoardSpec {
  const taskText = lines.line(1, 'the task (1 Greedy, 2 MiniMax, 3 Alpha-Beta, 4 Competition)');
  const task = wholeNumber(taskText);
  if (task === undefined || task < 1 || task > 4) {
    throw lines.error(1, `expected the task: 1 (Greedy), 2 (MiniMax), 3 (Alpha-Beta) or 4 (Competition), got ${quote(taskText)}`);
  }
  const playerText = lines.line(2, 'the player (1 or 2)');
  const player = wholeNumber(playerText);
  if (player !== 1 && player !== 2) {
    throw lines.error(2, `expected the player: 1 (bottom row) or 2 (top row), got ${quote(playerText)}`);
  }
  const depthText = lines.line(3, 'the cut-off depth');
  const depth = wholeNumber(depthText);
  if (depth === undefined) throw lines.error(3, `expected the cut-off depth as a whole number ≥ 0, got ${quote(depthText)}`);
  const board = readBoardLines(lines, 4);
  return { ...board, toMove: playerOf(player), csci561: { task: task as 1 | 2 | 3 | 4, depth } };
}

/** The four board lines starting at line `first` (4 in an input file, 1 in a next_state file). */
function readBoardLines(lines: TextLines, first: number): BoardSpec {
  const common = { separator: /\s+/, separatedBy: 'separated by spaces', unit: 'pits' };
  const top = parseRow(lines, first, { ...common, what: "the top row (player 2's pits)", pitName: (pos) => `A${pos + 2}` });
  const bottom = parseRow(lines, first + 1, {
    ...common,
    what: "the bottom row (player 1's pits)",
    pitName: (pos) => `B${pos + 2}`,
    sameAs: { length: top.length, source: `the top row on line ${first}` },
  });
  const topStore = parseStore(lines, first + 2, "player 2's store");
  const bottomStore = parseStore(lines, first + 3, "player 1's store");
  lines.expectEnd(first + 3);
  const board: BoardSpec = { top, bottom, topStore, bottomStore };
  checkTotal(board, lines.fileName);
  return board;
}

function boardLines(board: BoardSpec): string[] {
  return [board.top.join(' '), board.bottom.join(' '), String(board.topStore), String(board.bottomStore)];
}

/** The next_state form of a board, newline-terminated like the official files. */
export function writeCsci561NextStateBoard(board: BoardSpec): string {
  return boardLines(board).join('\n') + '\n';
}

/** next_state.txt for `state`; a finished game is written after the sweep, as the homework does. */
export function writeCsci561NextState(game: MancalaGame, state: MancalaState): string {
  return writeCsci561NextStateBoard(stateToBoard(game, game.swept(state)));
}

/** The 7-line input form of a board; `toMove` must be known (the player line says it). */
export function writeCsci561InputBoard(board: BoardSpec & { toMove: Player }, task: 1 | 2 | 3 | 4, depth: number): string {
  return [String(task), String(numberOf(board.toMove)), String(depth), ...boardLines(board)].join('\n') + '\n';
}

/** input.txt for `state`: the player to move is the state's. */
export function writeCsci561Input(game: MancalaGame, state: MancalaState, task: 1 | 2 | 3 | 4, depth: number): string {
  if (!Number.isInteger(depth) || depth < 0) throw new RangeError(`the cut-off depth must be a whole number ≥ 0, got ${depth}`);
  return writeCsci561InputBoard({ ...stateToBoard(game, state), toMove: game.toMove(state) }, task, depth);
}
