/**
 * Search explorer: the tree a reference search walks from a position, node by node. The server
 * runs the search as `mancala search` does and rebuilds its tree from the trace
 * (framework/web/server/search-explorations.ts); the page shows the root and opens a node when it
 * is asked to, fetching that node's children only, so a tree of tens of thousands of nodes is
 * never sent or drawn whole.
 *
 * Each node shows its move, its value (from the root player's side), the α–β window it received,
 * why a leaf is a leaf; moves a prune left unsearched are listed greyed under their node; the
 * principal variation is highlighted. Selecting a node shows its position and the `mancala search`
 * command that checks its value. For the csci561 profile the traverse log sits beside the tree,
 * each line a link to the node it is about.
 *
 * State in the address: #/explorer?profile=csci561&algo=alphabeta&depth=3[&board=…][&it=2][&node=17].
 *
 * The form is explorer-form.ts, the panels (legend, selected node, summary) explorer-panels.ts, the
 * wording of values and nodes explorer-text.ts; this module holds the page's state: the tree as far
 * as it was opened, the selection, the traverse log.
 */
import type { BoardView, Catalog, SearchExploration, SearchNodeDetail, SearchNodeView, SearchOptionsView, SearchTreeView, Seat } from '../../shared/api.ts';
import { api, ApiFailure, query } from '../api.ts';
import { moveLabel } from '../board.ts';
import { h, replace, scrollWithin } from '../dom.ts';
import { routeHash, type Page, type PageContext } from '../router.ts';
import { explorerForm } from './explorer-form.ts';
import { legend, nodePanel, summaryPanel } from './explorer-panels.ts';
import { alphaText, betaText, boundedValue, kindText, plural } from './explorer-text.ts';

/** The explorer's address for a position (the Play page's link): the board as JSON, alpha-beta at depth 4. */
export function explorerHref(profile: string, b: BoardView): string {
  const board = JSON.stringify({ top: b.top.map((q) => q.stones), bottom: b.bottom.map((q) => q.stones), stores: b.stores, toMove: b.toMove });
  return routeHash('explorer', { profile, board, algo: 'alphabeta', depth: 4 });
}


function mount(outlet: HTMLElement, ctx: PageContext): () => void {
  const p = ctx.params;
  let mounted = true;
  /** bumps with each search: an older search's answer is dropped */
  let runs = 0;
  /** bumps with each tree shown: answers about an older tree's nodes are dropped */
  let shown = 0;
  let exploration: SearchExploration | undefined;
  let treeIndex = 0;
  let selected: number | undefined;
  const details = new Map<number, SearchNodeDetail>();
  const rows = new Map<number, { li: HTMLLIElement; toggle: HTMLButtonElement | undefined; label: HTMLButtonElement; kids: HTMLUListElement | undefined }>();
  let logLoaded = 0;

  const f = explorerForm();
  const { form, runButton } = f;

  // ---- the summary and the tree ----
  const message = h('div', { class: 'message error', role: 'alert', id: 'ex-error', hidden: true });
  const summary = h('div', { class: 'card ex-summary', id: 'ex-summary', hidden: true, 'aria-live': 'polite' });
  const treeList = h('ul', { class: 'search-tree', id: 'ex-tree' });
  const treeCard = h(
    'div',
    { class: 'card ex-tree-card', hidden: true },
    h('h2', {}, 'Tree'),
    h('p', { class: 'hint-text' }, 'Open a node with its ▸ button or by selecting it; only the nodes you open are fetched.'),
    treeList,
  );
  const main = h('section', { class: 'ex-main' }, message, summary, treeCard, legend());

  // ---- the selected node and the traverse log ----
  const nodeCard = h('div', { class: 'card ex-node', id: 'ex-node', hidden: true });
  const logList = h('ol', { class: 'ex-log', id: 'ex-log' });
  const logMore = h('button', { type: 'button', id: 'ex-log-more', hidden: true }, 'More lines');
  const logNote = h('p', { class: 'hint-text', id: 'ex-log-note' });
  const logCard = h('div', { class: 'card ex-log-card', id: 'ex-log-card', hidden: true }, h('h2', {}, 'Traverse log'), logNote, logList, logMore);
  const side = h('aside', { class: 'ex-side' }, nodeCard, logCard);

  outlet.appendChild(h('div', { class: 'page explorer' }, h('div', { class: 'ex-form-col' }, form), main, side));

  const showError = (text: string | undefined) => {
    message.hidden = text === undefined;
    message.textContent = text ?? '';
  };
  const failure = (e: unknown) => (e instanceof ApiFailure ? e.message : String(e));
  const tree = (): SearchTreeView | undefined => exploration?.trees[treeIndex];
  const iterationQuery = () => (exploration?.algo === 'ids' ? { iteration: tree()!.depth } : {});
  const rootSeat = (): Seat => exploration?.board.toMove ?? 'bottom';

  function saveParams(): void {
    ctx.setParams({
      ...f.params(),
      it: exploration?.algo === 'ids' ? tree()?.depth : undefined,
      node: selected !== undefined && selected > 0 ? selected : undefined,
    });
  }

  // ---- the tree ----

  function nodeRow(n: SearchNodeView): HTMLLIElement {
    const expandable = n.kind === 'node';
    const name = n.move === 'root' ? 'root' : moveLabel(n.move);
    const kids = expandable ? h('ul', { class: 'tn-kids', id: `tn-kids-${n.id}`, hidden: true }) : undefined;
    const toggle = expandable
      ? h('button', { type: 'button', class: 'tn-toggle', 'aria-expanded': 'false', 'aria-controls': `tn-kids-${n.id}`, 'aria-label': `open ${name}: ${kindText(n)}`, 'data-node': n.id, onclick: () => void toggleNode(n.id) }, '▸')
      : undefined;
    const label = h(
      'button',
      { type: 'button', class: 'tn-label', 'data-node': n.id, onclick: () => void select(n.id, true) },
      h('span', { class: 'tn-move' }, name),
      h('span', { class: `tn-value ${n.bound}`, title: n.bound === 'exact' ? 'exact value' : n.bound === 'upper' ? 'an upper bound (the node failed low)' : 'a lower bound (the node failed high)' }, boundedValue(n)),
    );
    const meta = h(
      'span',
      { class: 'tn-meta' },
      h('span', { class: `tn-side ${n.max ? 'max' : 'min'}`, title: `${n.toMove} moves here` }, n.max ? '▲' : '▼'),
      n.alpha !== undefined ? h('span', { class: 'tn-window' }, `α ${alphaText(n.alpha)} β ${betaText(n.beta)}`) : null,
      n.kind === 'depth' ? h('span', { class: 'badge leaf' }, 'depth') : null,
      n.kind === 'game-over' ? h('span', { class: 'badge over' }, 'game over') : null,
      n.kind === 'cached' ? h('span', { class: 'badge leaf' }, 'cached') : null,
      n.pruned > 0 ? h('span', { class: 'badge pruned', title: `a prune left ${n.pruned} move${n.pruned === 1 ? '' : 's'} unsearched` }, `✂ ${n.pruned}`) : null,
      n.pv ? h('span', { class: 'tn-pv-chip' }, 'PV') : null,
    );
    const li = h(
      'li',
      { class: `tnode ${n.max ? 'max' : 'min'}${n.pv ? ' pv' : ''}`, 'data-node': n.id },
      h('div', { class: 'tn-row' }, toggle ?? h('span', { class: 'tn-toggle-space', 'aria-hidden': 'true' }), h('div', { class: 'tn-body' }, label, meta)),
      kids,
    );
    rows.set(n.id, { li, toggle, label, kids });
    return li;
  }

  async function detail(id: number): Promise<SearchNodeDetail | undefined> {
    const x = exploration;
    if (x === undefined) return undefined;
    const cached = details.get(id);
    if (cached !== undefined) return cached;
    const g = shown;
    const d = await api<SearchNodeDetail>('GET', `/api/search/${x.id}/nodes/${id}${query(iterationQuery())}`);
    if (g !== shown) return undefined;
    details.set(id, d);
    return d;
  }

  function fillChildren(d: SearchNodeDetail): void {
    const row = rows.get(d.node.id);
    if (row?.kids === undefined || row.kids.childElementCount > 0) return;
    replace(
      row.kids,
      d.children.map(nodeRow),
      d.prunedMoves.map((m) => h('li', { class: 'pruned-move', title: 'pruned: the search never looked at this move' }, h('span', { class: 'tn-toggle-space', 'aria-hidden': 'true' }), `✂ ${moveLabel(m)}`, h('span', { class: 'pruned-why' }, ' pruned'))),
    );
  }

  function setOpen(id: number, open: boolean): void {
    const row = rows.get(id);
    if (row?.kids === undefined || row.toggle === undefined) return;
    row.kids.hidden = !open;
    row.toggle.setAttribute('aria-expanded', String(open));
    row.toggle.textContent = open ? '▾' : '▸';
  }

  async function expand(id: number): Promise<void> {
    const d = await detail(id);
    if (d === undefined) return;
    fillChildren(d);
    setOpen(id, true);
  }

  async function toggleNode(id: number): Promise<void> {
    const row = rows.get(id);
    if (row?.kids === undefined) return;
    try {
      if (row.kids.hidden) await expand(id);
      else setOpen(id, false);
    } catch (e) {
      showError(failure(e));
    }
  }

  /** Selects a node: its details beside the tree; `open` also opens it. */
  async function select(id: number, open: boolean): Promise<void> {
    try {
      const d = await detail(id);
      if (d === undefined || !mounted) return;
      if (open && d.node.kind === 'node') {
        fillChildren(d);
        setOpen(id, true);
      }
      selected = id;
      for (const [k, r] of rows) r.li.classList.toggle('selected', k === id);
      for (const [k, r] of rows) r.label.setAttribute('aria-current', String(k === id));
      showNode(d);
      markLog();
      saveParams();
    } catch (e) {
      showError(failure(e));
    }
  }

  /** Opens the tree down to a node and focuses it (a log line, the PV, the address's node). */
  async function reveal(id: number): Promise<void> {
    const x = exploration;
    if (x === undefined) return;
    const g = shown;
    try {
      const path = await api<SearchNodeDetail[]>('GET', `/api/search/${x.id}/path/${id}${query(iterationQuery())}`);
      if (g !== shown || !mounted) return;
      for (const d of path) if (!details.has(d.node.id)) details.set(d.node.id, d);
      for (const d of path.slice(0, -1)) {
        fillChildren(d);
        setOpen(d.node.id, true);
      }
      await select(id, false);
      const row = rows.get(id);
      if (row !== undefined) {
        row.label.focus({ preventScroll: true });
        row.li.scrollIntoView({ block: 'nearest' });
      }
    } catch (e) {
      showError(failure(e));
    }
  }

  // ---- the selected node ----

  function showNode(d: SearchNodeDetail): void {
    const explore = () => {
      f.exploreFrom(d.boardJson, d.node.depthLeft);
      void run(undefined);
    };
    replace(nodeCard, nodePanel(d, exploration, rootSeat(), explore));
    nodeCard.hidden = false;
  }

  // ---- the traverse log ----

  function logLines(lines: { text: string; node: number }[]): HTMLLIElement[] {
    return lines.map((l) =>
      l.node < 0
        ? h('li', { class: 'log-head' }, l.text)
        : h('li', { 'data-node': l.node }, h('button', { type: 'button', class: 'log-line', 'data-node': l.node, onclick: () => void reveal(l.node) }, l.text)),
    );
  }

  function markLog(): void {
    let first: Element | null = null;
    for (const li of Array.from(logList.children)) {
      const mine = selected !== undefined && (li as HTMLElement).dataset['node'] === String(selected);
      li.classList.toggle('of-selected', mine);
      if (mine && first === null) first = li;
    }
    scrollWithin(logList, first);
  }

  function showLog(t: SearchTreeView): void {
    logCard.hidden = t.log === undefined && t.logNote === undefined;
    logNote.textContent = t.logNote ?? (t.log !== undefined ? `traverse_log.txt as the csci561 reference writes it: ${plural((t.logTotal ?? 1) - 1, 'line')} (select a line for its node).` : '');
    replace(logList, logLines(t.log ?? []));
    logLoaded = t.log?.length ?? 0;
    logMore.hidden = logLoaded >= (t.logTotal ?? 0);
  }

  async function moreLog(): Promise<void> {
    const x = exploration;
    const t = tree();
    if (x === undefined || t === undefined) return;
    try {
      const chunk = await api<{ from: number; total: number; lines: { text: string; node: number }[] }>('GET', `/api/search/${x.id}/log${query({ from: logLoaded, ...iterationQuery() })}`);
      if (x !== exploration) return;
      for (const li of logLines(chunk.lines)) logList.appendChild(li);
      logLoaded += chunk.lines.length;
      logMore.hidden = logLoaded >= chunk.total;
      markLog();
    } catch (e) {
      showError(failure(e));
    }
  }

  // ---- the summary ----

  function showSummary(x: SearchExploration): void {
    replace(summary, summaryPanel(x, tree()!, treeIndex, f.isBoard(), { iteration: (k) => showTree(k, undefined), reveal: (id) => void reveal(id) }));
    summary.hidden = false;
  }

  /** Shows tree `k` of the exploration (an iteration of iterative deepening), with `focus` selected. */
  function showTree(k: number, focus: number | undefined): void {
    const x = exploration;
    if (x === undefined) return;
    treeIndex = k;
    shown++;
    details.clear();
    rows.clear();
    selected = undefined;
    const t = tree()!;
    showSummary(x);
    replace(treeList, nodeRow(t.root));
    treeCard.hidden = false;
    showLog(t);
    nodeCard.hidden = true;
    if (focus !== undefined && focus > 0) void reveal(focus);
    else void select(0, true);
    saveParams();
  }

  async function run(initial: { it?: number; node?: number } | undefined): Promise<void> {
    const g = ++runs;
    showError(undefined);
    runButton.disabled = true;
    runButton.textContent = 'Searching…';
    try {
      const x = await api<SearchExploration>('POST', '/api/search', f.request());
      if (g !== runs || !mounted) return;
      exploration = x;
      const k = initial?.it !== undefined ? x.trees.findIndex((t) => t.depth === initial.it) : -1;
      showTree(k >= 0 ? k : x.trees.length - 1, initial?.node);
    } catch (e) {
      if (g !== runs || !mounted) return;
      showError(failure(e));
      saveParams();
    } finally {
      if (g === runs) {
        runButton.disabled = false;
        runButton.textContent = 'Search';
      }
    }
  }

  async function start(): Promise<void> {
    let catalog: Catalog;
    let options: SearchOptionsView;
    try {
      [catalog, options] = await Promise.all([api<Catalog>('GET', '/api/catalog'), api<SearchOptionsView>('GET', '/api/search')]);
    } catch (e) {
      showError(`Could not load the profiles: ${failure(e)}`);
      return;
    }
    if (!mounted) return;
    f.load(catalog, options, p);
    const num = (k: string) => (p.get(k) !== null && /^\d+$/.test(p.get(k)!) ? Number(p.get(k)) : undefined);
    const it = num('it');
    const node = num('node');
    await run({ ...(it !== undefined ? { it } : {}), ...(node !== undefined ? { node } : {}) });
  }

  form.addEventListener('submit', (e) => {
    e.preventDefault();
    void run(undefined);
  });
  logMore.addEventListener('click', () => void moreLog());
  void start();

  return () => {
    mounted = false;
  };
}

export const explorerPage: Page = {
  id: 'explorer',
  title: 'Search explorer',
  summary: 'Walk the tree minimax, alpha-beta or iterative deepening searches from a position, node by node.',
  mount,
  runs: true,
};
