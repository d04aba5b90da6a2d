/**
 * The Search explorer's perfect-play values (server/solved-values.ts): in the selected node's
 * card, what the position is worth under perfect play, and each searched child's solved value
 * beside the search's own value, both from the root player's side. On a board too big for the
 * solver (or where it proved nothing in time) one line says why instead.
 */
import type { SearchNodeDetail, Seat } from '../../shared/api.ts';
import { moveLabel } from '../board.ts';
import { h, signed } from '../dom.ts';

const shown = (v: number | null | undefined): string => (v === null || v === undefined ? 'not proven' : signed(v));
/** The search's value as the tree shows it (at most two decimals), with its bound. */
const searchValue = (v: number, bound: string): string => `${bound === 'upper' ? '≤ ' : bound === 'lower' ? '≥ ' : ''}${signed(Number.isInteger(v) ? v : Math.round(v * 100) / 100)}`;

/** The card's section of solved values for node `d`, the root player being `root`. */
export function solvedSection(d: SearchNodeDetail, root: Seat): HTMLElement {
  const s = d.solved;
  const parts: HTMLElement[] = [h('h3', {}, 'Perfect play')];
  if (s.value !== undefined) {
    parts.push(
      h('p', {}, 'Solved, this position is worth ', h('strong', { id: 'ex-solved-value' }, shown(s.value)), ` for ${root}: the final store margin when both sides play perfectly.`),
    );
  }
  const children = s.children ?? [];
  if (children.length > 0) {
    parts.push(
      h(
        'table',
        { class: 'ex-solved', id: 'ex-solved' },
        h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'move'), h('th', { scope: 'col', class: 'num' }, 'search'), h('th', { scope: 'col', class: 'num' }, 'solved'))),
        h(
          'tbody',
          {},
          d.children.map((c, k) =>
            h('tr', { 'data-node': c.id }, h('td', {}, moveLabel(c.move)), h('td', { class: 'num' }, searchValue(c.value, c.bound)), h('td', { class: 'num solved' }, shown(children[k]))),
          ),
        ),
      ),
    );
  }
  if (s.note !== undefined) parts.push(h('p', { class: 'muted', id: 'ex-solved-note' }, s.note));
  return h('section', { class: 'ex-solved-card', 'aria-label': 'perfect play' }, parts);
}
