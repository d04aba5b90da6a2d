/**
 * A few DOM helpers, all the page needs instead of a UI library: `h` builds an element with its
 * attributes, listeners and children; text is always set as text (never parsed as HTML), so
 * nothing a file or an agent's name holds can inject markup.
 */

type Child = Node | string | number | null | undefined | false;
/** A child, or lists of them (nested as deep as a page builds them). */
export type Children = Child | readonly Children[];
type Attrs = Record<string, string | number | boolean | null | undefined | ((e: Event) => void)>;

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Attrs = {}, ...children: Children[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (typeof value === 'function') el.addEventListener(key.replace(/^on/, '').toLowerCase(), value);
    else if (key === 'class') el.className = String(value);
    else if (value === true) el.setAttribute(key, '');
    else el.setAttribute(key, String(value));
  }
  append(el, children);
  return el;
}

export function append(el: Node, children: Children[]): void {
  for (const c of (children as unknown[]).flat(Infinity) as Child[]) {
    if (c === null || c === undefined || c === false) continue;
    el.appendChild(typeof c === 'string' || typeof c === 'number' ? document.createTextNode(String(c)) : c);
  }
}

/** Replaces the element's children. */
export function replace(el: Element, ...children: Children[]): void {
  el.replaceChildren();
  append(el, children);
}

/** True when a key press belongs to a form field, not to the page's shortcuts. */
export function typingInField(e: KeyboardEvent): boolean {
  const t = e.target as HTMLElement | null;
  if (t === null) return false;
  const tag = t.tagName;
  return tag === 'INPUT' || tag === 'SELECT' || tag === 'TEXTAREA' || t.isContentEditable;
}

/** A signed number as values are shown: +3, −2, 0. */
export function signed(v: number): string {
  return v > 0 ? `+${v}` : v < 0 ? `−${-v}` : '0';
}

/** Scrolls `list` (a scrolling box) so that `item` shows, leaving the window where it is. */
export function scrollWithin(list: HTMLElement, item: Element | null): void {
  if (!(item instanceof HTMLElement)) return;
  const top = item.offsetParent === list ? item.offsetTop : item.offsetTop - list.offsetTop;
  if (top < list.scrollTop) list.scrollTop = top;
  else if (top + item.offsetHeight > list.scrollTop + list.clientHeight) list.scrollTop = top + item.offsetHeight - list.clientHeight;
}
