/**
 * Board files in, board files out: seed 000's input/next_state files (`csci561`), seed 001's
 * board file (`csc384`) and our JSON form (`json`). Every reader returns a `BoardSpec` (rows left
 * to right as the bottom player sees them) and reports a mistake as a one-line UserError naming
 * the file and the line or field; `boardToState` puts the board into a game.
 */
import { readFileSync } from 'node:fs';
import { extname } from 'node:path';
import { UserError } from '../../../errors.ts';
import type { MancalaGame, MancalaState } from '../engine.ts';
import { type BoardFormat, type BoardSpec } from './board.ts';
import { parseCsc384, writeCsc384 } from './csc384.ts';
import { parseCsci561, writeCsci561NextState } from './csci561.ts';
import { parseJsonBoard, writeJson } from './json.ts';

export { BOARD_FORMATS, boardToState, stateToBoard, type BoardFormat, type BoardSpec } from './board.ts';
export { parseCsc384, writeCsc384, writeCsc384Board } from './csc384.ts';
export {
  parseCsci561,
  parseCsci561Input,
  parseCsci561NextState,
  writeCsci561Input,
  writeCsci561InputBoard,
  writeCsci561NextState,
  writeCsci561NextStateBoard,
} from './csci561.ts';
export { parseJsonBoard, writeJson, writeJsonBoard } from './json.ts';

/** Reads `text` in `format`; `fileName` is what error messages call the file. */
export function parseBoard(text: string, format: BoardFormat, fileName: string): BoardSpec {
  switch (format) {
    case 'json':
      return parseJsonBoard(text, fileName);
    case 'csc384':
      return parseCsc384(text, fileName);
    case 'csci561':
      return parseCsci561(text, fileName);
  }
}

/** .json is JSON; otherwise commas mean seed 001's board file, and their absence seed 000's files. */
export function guessBoardFormat(path: string, text: string): BoardFormat {
  if (extname(path).toLowerCase() === '.json') return 'json';
  return text.includes(',') ? 'csc384' : 'csci561';
}

const READ_FAILURES: Record<string, string> = {
  ENOENT: 'no such file',
  EISDIR: 'it is a folder, not a file',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
};

/** Reads a board file; the format is guessed (`guessBoardFormat`) when not given. */
export function readBoardFile(path: string, format?: BoardFormat): BoardSpec {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code ?? '';
    throw new UserError(`${path}: cannot read the board file: ${READ_FAILURES[code] ?? (e as Error).message}`);
  }
  return parseBoard(text, format ?? guessBoardFormat(path, text), path);
}

/**
 * `state` written in `format`. csci561 writes the next_state form (after the sweep when the game
 * is over); use `writeCsci561Input` for the 7-line input form.
 */
export function formatBoard(game: MancalaGame, state: MancalaState, format: BoardFormat): string {
  switch (format) {
    case 'json':
      return writeJson(game, state);
    case 'csc384':
      return writeCsc384(game, state);
    case 'csci561':
      return writeCsci561NextState(game, state);
  }
}
