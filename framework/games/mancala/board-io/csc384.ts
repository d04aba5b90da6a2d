/**
 * Seed 001's board file (the `--initialBoard` of its mancala_cmdline.py), 4 lines:
 *   1  the top player's pockets, comma-separated, left to right as the bottom player sees them
 *   2  the bottom player's pockets, comma-separated, left to right
 *   3  the top player's store
 *   4  the bottom player's store
 * e.g. "4,5,4,4,6,4\n4,4,3,4,4,4\n2\n0\n" (the seed's example). Both rows are indexed 0..N-1 from
 * the left, so pockets[TOP][i] is opposite pockets[BOTTOM][i]. The file does not say who moves:
 * the reader leaves `toMove` undefined and the caller supplies it. Spaces around the numbers are
 * accepted, as the course's reader (int(x.strip())) accepts them.
 */
import type { MancalaGame, MancalaState } from '../engine.ts';
import { checkTotal, parseRow, parseStore, stateToBoard, TextLines, type BoardSpec } from './board.ts';

export function parseCsc384(text: string, fileName: string): BoardSpec {
  const lines = new TextLines(text, fileName);
  const common = { separator: /,/, separatedBy: 'separated by commas', unit: 'pockets' };
  const top = parseRow(lines, 1, { ...common, what: 'the top pockets', pitName: (pos) => `T${pos}` });
  const bottom = parseRow(lines, 2, {
    ...common,
    what: 'the bottom pockets',
    pitName: (pos) => `B${pos}`,
    sameAs: { length: top.length, source: 'line 1' },
  });
  const topStore = parseStore(lines, 3, 'the top store');
  const bottomStore = parseStore(lines, 4, 'the bottom store');
  lines.expectEnd(4);
  const board: BoardSpec = { top, bottom, topStore, bottomStore };
  checkTotal(board, fileName);
  return board;
}

export function writeCsc384Board(board: BoardSpec): string {
  return [board.top.join(','), board.bottom.join(','), String(board.topStore), String(board.bottomStore)].join('\n') + '\n';
}

/** The board file for `state`, as it stands (who moves is not part of this format). */
export function writeCsc384(game: MancalaGame, state: MancalaState): string {
  return writeCsc384Board(stateToBoard(game, state));
}
