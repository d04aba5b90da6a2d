/**
 * The board, drawn as the bottom player sees it: the top player's store on the left, the bottom
 * player's on the right, each pit named as its course names it. The move that led to the
 * position is shown on it: the pit it was played from, every cell a stone was sown into, where the
 * last stone landed, a capture's two pits, the store that gained. Pits a human may play are
 * buttons (mouse, touch, Tab and Enter); the page adds the number keys and arrows.
 */
import type { BoardView, CellRef, MoveView, PitView, Seat } from '../shared/api.ts';
import { h, signed } from './dom.ts';

export interface BoardOptions {
  /** the move that led to this position */
  lastMove?: MoveView | undefined;
  /** clicking a legal pit plays it (omitted: nothing is clickable) */
  onPlay?: ((pit: PitView) => void) | undefined;
  /** the keyboard's pit (sowing index of the player to move) */
  selected?: number | undefined;
  /** the hinted pit (sowing index of the player to move) */
  hint?: number | undefined;
  /** who sits where, as the page names them */
  names: Record<Seat, string>;
  /** the game ended before the board did (a forfeit): nobody is to move */
  ended?: boolean | undefined;
}

const STONE_COLOURS = 5;
/** Stones drawn at most in a pit and in a store; beyond, the count says it. */
const MAX_DRAWN = { pit: 24, store: 40 } as const;

/** Stones laid out on a sunflower spiral: even, deterministic, never overflowing the cup. */
function stones(count: number, kind: 'pit' | 'store', salt: number): HTMLElement {
  const box = h('span', { class: 'stones', 'aria-hidden': 'true' });
  const drawn = Math.min(count, MAX_DRAWN[kind]);
  const spreadX = kind === 'store' ? 26 : 30;
  const spreadY = kind === 'store' ? 34 : 27;
  const centreY = 44; // above the middle: the count sits at the bottom
  for (let k = 0; k < drawn; k++) {
    const r = Math.sqrt((k + 0.5) / Math.max(drawn, 1));
    const a = k * 2.39996 + salt;
    const dot = h('span', { class: `stone c${(k * 3 + salt) % STONE_COLOURS}${drawn > 16 ? ' small' : ''}` });
    dot.style.left = `${50 + spreadX * r * Math.cos(a)}%`;
    dot.style.top = `${centreY + spreadY * r * Math.sin(a)}%`;
    box.appendChild(dot);
  }
  return box;
}

const same = (a: CellRef, seat: Seat, index: number) => a.seat === seat && a.index === index;

/** The classes the last move gives a cell. */
function marks(m: MoveView | undefined, seat: Seat, index: number): string[] {
  if (m === undefined) return [];
  const out: string[] = [];
  if (m.seat === seat && m.move === index) out.push('from');
  if (m.sown.some((c) => same(c, seat, index))) out.push('sown');
  if (same(m.last, seat, index)) out.push('last');
  if (m.capture !== null) {
    if (same(m.capture.from, seat, index)) out.push('captured');
    if (same(m.capture.landed, seat, index)) out.push('capturer');
    if (index === -1 && seat === m.seat) out.push('gain');
  }
  return out;
}

function pit(p: PitView, b: BoardView, o: BoardOptions): HTMLElement {
  const playable = p.legal && o.onPlay !== undefined;
  const classes = ['pit', p.seat, ...marks(o.lastMove, p.seat, p.index)];
  if (playable) classes.push('legal');
  if (playable && o.selected === p.index) classes.push('selected');
  if (o.hint === p.index && p.seat === b.toMove && !b.over) classes.push('hint');
  if (p.stones === 0) classes.push('empty');
  const label = `${p.label}: ${p.stones} stone${p.stones === 1 ? '' : 's'}${playable ? ', play it' : ''}`;
  const el = h(
    'button',
    {
      type: 'button',
      class: classes.join(' '),
      'data-seat': p.seat,
      'data-index': p.index,
      'data-name': p.name,
      'aria-label': label,
      title: label,
      disabled: !playable,
      onclick: playable ? () => o.onPlay!(p) : undefined,
    },
    stones(p.stones, 'pit', p.index + (p.seat === 'top' ? 2 : 0)),
    h('span', { class: 'count' }, p.stones),
  );
  return el;
}

function store(seat: Seat, b: BoardView, o: BoardOptions): HTMLElement {
  const count = b.stores[seat];
  return h(
    'div',
    { class: ['store', seat, ...marks(o.lastMove, seat, -1)].join(' '), 'data-seat': seat, 'data-store': '', 'aria-label': `${seat}'s store: ${count}`, role: 'img' },
    stones(count, 'store', seat === 'top' ? 1 : 3),
    h('span', { class: 'count' }, count),
  );
}

/** "39 in the end (27 + 12 swept from its side)". */
function finalText(b: BoardView, seat: Seat): string {
  const final = b.final![seat];
  const swept = final - b.stores[seat];
  return swept === 0 ? `${final} in the end` : `${final} in the end (${b.stores[seat]} + ${swept} swept from its side)`;
}

export function renderBoard(b: BoardView, o: BoardOptions): HTMLElement {
  const toMove = (seat: Seat) => b.toMove === seat && !b.over && o.ended !== true;
  const seatLine = (seat: Seat) =>
    h(
      'div',
      { class: `seat-line ${seat}${toMove(seat) ? ' to-move' : ''}` },
      h('span', { class: 'seat-name' }, `${seat === 'top' ? 'Top' : 'Bottom'}: ${o.names[seat]}`),
      toMove(seat) ? h('span', { class: 'turn-chip' }, 'to move') : null,
      b.final !== undefined ? h('span', { class: 'final-chip', title: 'the end-of-game sweep: the stones left on a side go to its store' }, finalText(b, seat)) : null,
    );
  const grid = h('div', { class: 'board', role: 'group', 'aria-label': 'the board' });
  grid.style.setProperty('--pits', String(b.pits));
  grid.appendChild(store('top', b, o));
  for (const p of b.top) grid.appendChild(h('span', { class: 'pit-name top' }, p.name));
  for (const p of b.top) grid.appendChild(pit(p, b, o));
  for (const p of b.bottom) grid.appendChild(pit(p, b, o));
  for (const p of b.bottom) grid.appendChild(h('span', { class: 'pit-name bottom' }, p.name));
  grid.appendChild(store('bottom', b, o));
  return h('div', { class: 'board-wrap' }, seatLine('top'), h('div', { class: 'board-scroll' }, grid), seatLine('bottom'));
}

/** A move's name as a sentence says it: "B3", "A4", or, where pits are numbered a side (cpsc4610), "cup 3". */
export function moveLabel(name: string): string {
  return /^\d+$/.test(name) ? `cup ${name}` : name;
}

/** What a move did, in a line: "bottom played B2: free turn" … */
export function describeMove(m: MoveView, names: Record<Seat, string>): string {
  const parts = [`${names[m.seat]} played ${moveLabel(m.name)}`];
  const about: string[] = [];
  if (m.kind === 'opening') about.push('opening move');
  if (m.kind === 'forfeit') about.push('played for a forfeiting side');
  if (m.value !== undefined) about.push(`value ${signed(m.value)}`);
  if (m.ms !== undefined && m.kind === undefined && m.ms > 0) about.push(`${m.ms < 10 ? m.ms.toFixed(1) : Math.round(m.ms)} ms`);
  if (about.length > 0) parts.push(` (${about.join(', ')})`);
  const events: string[] = [];
  if (m.capture !== null) events.push(m.capture.text);
  if (m.freeTurn) events.push(`free turn: the last stone landed in the store, ${m.seat} moves again`);
  if (m.gameOver) events.push('the game is over');
  return events.length === 0 ? parts.join('') : `${parts.join('')} — ${events.join('; ')}`;
}
