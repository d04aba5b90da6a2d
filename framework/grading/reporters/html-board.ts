/**
 * A board drawn in HTML: a Mancala position (two rows of pits between the stores, each pit under
 * or over its name in the course's naming) or a Tic-Tac-Toe one. Used by the HTML report
 * (html.ts) for each failed case's position, and meant for the web app's pages too: `boardHtml`
 * takes plain numbers and names (no engine, no DOM), returns a string of markup styled by
 * BOARD_CSS, and escapes every name it is given.
 *
 * The board is a small table, so it needs no script, reads in a screen reader row by row, and
 * scrolls sideways on its own on a narrow screen when a board is wider than it (20 pits).
 */
import { mancalaGame } from '../../games/mancala/profile-game.ts';
import { findProfile } from '../../games/mancala/profiles.ts';
import type { MancalaGame } from '../../games/mancala/engine.ts';
import { escapeLine } from './html-text.ts';

/** A pit to mark: the move the reference chose, the one the submission played (both: the same pit). */
export interface BoardMark {
  /** 0 bottom, 1 top */
  side: 0 | 1;
  /** left to right as the bottom player sees the board, from 0 */
  position: number;
  kind: 'expected' | 'got';
}

export interface BoardView {
  /** the top player's pits, left to right as the bottom player sees the board */
  top: readonly number[];
  /** the bottom player's pits, left to right */
  bottom: readonly number[];
  topStore: number;
  bottomStore: number;
  /** 0 bottom, 1 top; undefined: not said */
  toMove?: 0 | 1;
  /** each pit's name in the course's naming, left to right ("T5" … "T0", "A2" …, cups "6" … "1") */
  topNames?: readonly string[];
  bottomNames?: readonly string[];
  /** each pit's name where either side's may be meant ("top cup 4"), for its tooltip; default: the name */
  topLabels?: readonly string[];
  bottomLabels?: readonly string[];
  marks?: readonly BoardMark[];
  /** a line above the board, e.g. "kalah(6,4), bottom to move" */
  caption?: string;
}

const MARK_TEXT: Record<BoardMark['kind'], string> = { expected: 'expected', got: 'played' };

/** A pit: its count (its name heads its column); a marked pit says what marks it, with its full label. */
function pitCell(count: number, label: string | undefined, marks: readonly BoardMark['kind'][]): string {
  if (marks.length === 0) return `<td>${count}</td>`;
  const title = [label, `${count} stone${count === 1 ? '' : 's'}`, ...marks.map((m) => MARK_TEXT[m])].filter((x) => x !== undefined).join(', ');
  return `<td class="${marks.map((m) => `mb-${m}`).join(' ')}" title="${escapeLine(title)}">${count}</td>`;
}

function namesRow(names: readonly string[] | undefined, n: number): string {
  if (names === undefined) return '';
  const cells = Array.from({ length: n }, (_, i) => `<th scope="col">${escapeLine(names[i] ?? '')}</th>`).join('');
  return `<tr class="mb-names"><td></td>${cells}<td></td></tr>`;
}

/** The board as a table (BOARD_CSS): the top player's store on the left, the bottom player's on the right. */
export function boardHtml(view: BoardView): string {
  const n = view.top.length;
  const marksAt = (side: 0 | 1, position: number) => (view.marks ?? []).filter((m) => m.side === side && m.position === position).map((m) => m.kind);
  const rowCells = (side: 0 | 1) => {
    const counts = side === 1 ? view.top : view.bottom;
    const labels = side === 1 ? (view.topLabels ?? view.topNames) : (view.bottomLabels ?? view.bottomNames);
    return Array.from({ length: n }, (_, i) => pitCell(counts[i] ?? 0, labels?.[i], marksAt(side, i))).join('');
  };
  const moving = (side: 0 | 1) => (view.toMove === side ? ' mb-moving' : '');
  const store = (side: 0 | 1, count: number) =>
    `<td class="mb-store${moving(side)}" rowspan="2" title="${side === 1 ? 'top' : 'bottom'} store, ${count} stone${count === 1 ? '' : 's'}">${count}</td>`;
  const caption = view.caption === undefined ? '' : `<caption>${escapeLine(view.caption)}</caption>`;
  const legend = legendHtml(view);
  return (
    `<figure class="mb"><div class="mb-scroll"><table class="mb-board">${caption}` +
    namesRow(view.topNames, n) +
    `<tr class="mb-top${moving(1)}">${store(1, view.topStore)}${rowCells(1)}${store(0, view.bottomStore)}</tr>` +
    `<tr class="mb-bottom${moving(0)}">${rowCells(0)}</tr>` +
    namesRow(view.bottomNames, n) +
    `</table></div>${legend}</figure>`
  );
}

function legendHtml(view: BoardView): string {
  const parts: string[] = [];
  if (view.toMove !== undefined) parts.push(`<span class="mb-key mb-key-moving">${view.toMove === 1 ? 'top' : 'bottom'} to move</span>`);
  const name = (m: BoardMark) => {
    const names = m.side === 1 ? (view.topLabels ?? view.topNames) : (view.bottomLabels ?? view.bottomNames);
    return names?.[m.position] ?? `pit ${m.position + 1} from the left`;
  };
  for (const kind of ['expected', 'got'] as const) {
    const mark = view.marks?.find((m) => m.kind === kind);
    if (mark !== undefined) parts.push(`<span class="mb-key mb-key-${kind}">${MARK_TEXT[kind]}: ${escapeLine(name(mark))}</span>`);
  }
  return parts.length === 0 ? '' : `<figcaption>${parts.join(' ')}</figcaption>`;
}

const games = new Map<string, MancalaGame | null>();

/** The game of a profile at a size, made once (its pit names); null for a profile this tool does not know. */
function gameOf(profile: string, pits: number): MancalaGame | null {
  const key = `${profile}/${pits}`;
  let game = games.get(key);
  if (game === undefined) {
    const p = findProfile(profile);
    game = p === undefined ? null : mancalaGame(p, pits, p.rules.seeds);
    games.set(key, game);
  }
  return game;
}

export interface MancalaPosition {
  top: readonly number[];
  bottom: readonly number[];
  topStore: number;
  bottomStore: number;
  toMove: 0 | 1;
}

/**
 * A position of a rule profile as a BoardView with the profile's pit names (game.pitName; the
 * tooltips game.pitLabel: cpsc4610's cups are "bottom cup 3"), the moves given marked on the
 * mover's row. `moves` are the mover's sowing indices, as messages and agents give them.
 */
export function mancalaBoardView(profile: string, position: MancalaPosition, options: { caption?: string; moves?: { expected?: number; got?: number } } = {}): BoardView {
  const n = position.top.length;
  const game = gameOf(profile, n);
  // Left-to-right place of a pit: the bottom row sows left to right, the top row right to left.
  const place = (side: 0 | 1, i: number) => (side === 0 ? i : n - 1 - i);
  const names = (side: 0 | 1, name: (side: 0 | 1, i: number) => string) => Array.from({ length: n }, (_, pos) => name(side, place(side, pos)));
  const marks: BoardMark[] = [];
  for (const kind of ['expected', 'got'] as const) {
    const i = options.moves?.[kind];
    if (i !== undefined && Number.isInteger(i) && i >= 0 && i < n) marks.push({ side: position.toMove, position: place(position.toMove, i), kind });
  }
  return {
    top: position.top,
    bottom: position.bottom,
    topStore: position.topStore,
    bottomStore: position.bottomStore,
    toMove: position.toMove,
    ...(game !== null
      ? {
          topNames: names(1, (s, i) => game.pitName(s, i)),
          bottomNames: names(0, (s, i) => game.pitName(s, i)),
          topLabels: names(1, (s, i) => game.pitLabel(s, i)),
          bottomLabels: names(0, (s, i) => game.pitLabel(s, i)),
        }
      : {}),
    ...(marks.length > 0 ? { marks } : {}),
    ...(options.caption !== undefined ? { caption: options.caption } : {}),
  };
}

/**
 * A Tic-Tac-Toe board: `cells` the nine marks row by row (X, O, anything else empty), each cell
 * numbered 0–8 as the course numbers them; `marks` cells to mark.
 */
export function ticTacToeHtml(cells: string, options: { caption?: string; moves?: { expected?: number; got?: number } } = {}): string {
  const rows: string[] = [];
  for (let r = 0; r < 3; r++) {
    const tds: string[] = [];
    for (let c = 0; c < 3; c++) {
      const k = 3 * r + c;
      const mark = cells[k] === 'X' || cells[k] === 'O' ? cells[k]! : '';
      const kinds = (['expected', 'got'] as const).filter((kind) => options.moves?.[kind] === k);
      const cls = ['ttt-cell', ...kinds.map((m) => `mb-${m}`)].join(' ');
      const title = [`cell ${k}`, mark === '' ? 'empty' : mark, ...kinds.map((m) => MARK_TEXT[m])].join(', ');
      tds.push(`<td class="${cls}" title="${title}">${mark}<small>${k}</small></td>`);
    }
    rows.push(`<tr>${tds.join('')}</tr>`);
  }
  const caption = options.caption === undefined ? '' : `<caption>${escapeLine(options.caption)}</caption>`;
  const keys = (['expected', 'got'] as const)
    .filter((kind) => options.moves?.[kind] !== undefined)
    .map((kind) => `<span class="mb-key mb-key-${kind}">${MARK_TEXT[kind]}: cell ${options.moves![kind]}</span>`);
  return `<figure class="mb"><table class="ttt-board">${caption}${rows.join('')}</table>${keys.length > 0 ? `<figcaption>${keys.join(' ')}</figcaption>` : ''}</figure>`;
}

/** The boards' styles (colours from the page's custom properties, with defaults). */
export const BOARD_CSS = `
.mb{margin:.5rem 0;max-width:100%}
.mb-scroll{overflow-x:auto;max-width:100%}
.mb-board,.ttt-board{border-collapse:separate;border-spacing:4px;background:var(--board,#c89b5e);border-radius:14px;padding:4px;color:#1d1206}
.mb-board caption,.ttt-board caption{caption-side:top;text-align:left;color:var(--fg,#222);font-size:.85rem;padding-bottom:.25rem}
.mb-board td,.ttt-cell{background:var(--pit,#f3e2c4);text-align:center;font:600 1rem/1 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;padding:0}
.mb-board td{width:2.1rem;height:2.1rem;min-width:1.8rem;border-radius:50%}
.mb-board td.mb-store{width:2.3rem;border-radius:1.1rem}
.mb-board .mb-names td{background:none;height:auto;width:auto}
.mb-moving td,.mb-board td.mb-store.mb-moving{box-shadow:inset 0 0 0 2px #6b4a1e}
.mb-moving td.mb-store{box-shadow:none}
.mb-names th{font:500 .72rem/1 system-ui,sans-serif;color:#3b2a12;padding:0 0 1px}
.mb-expected{outline:3px solid var(--ok,#1a7f37);outline-offset:1px}
.mb-got{background:var(--bad-bg,#ffd7d5)}
.mb-board td.mb-got,.ttt-cell.mb-got{background:var(--bad-bg,#ffd7d5)}
.mb-board td.mb-got.mb-expected,.ttt-cell.mb-got.mb-expected{background:var(--pit,#f3e2c4)}
.ttt-cell{width:2.4rem;height:2.4rem;border-radius:6px;position:relative;font-size:1.2rem}
.ttt-cell small{position:absolute;right:3px;bottom:2px;font-size:.6rem;font-weight:400;opacity:.6}
.mb figcaption{font-size:.8rem;margin-top:.3rem;display:flex;flex-wrap:wrap;gap:.3rem .8rem}
.mb-key::before{content:"";display:inline-block;width:.8em;height:.8em;border-radius:50%;margin-right:.3em;vertical-align:-.1em;background:var(--pit,#f3e2c4)}
.mb-key-moving::before{box-shadow:inset 0 0 0 2px #6b4a1e}
.mb-key-expected::before{outline:2px solid var(--ok,#1a7f37)}
.mb-key-got::before{background:var(--bad-bg,#ffd7d5);outline:1px solid #999}
`;
