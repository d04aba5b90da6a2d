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
 */
import type { BoardView, Catalog, ExplorerAlgo, SearchExploration, SearchNodeDetail, SearchNodeView, SearchOptionsView, SearchRequestBody, SearchTreeView, Seat } from '../../shared/api.ts';
import { api, ApiFailure, query } from '../api.ts';
import { moveLabel, renderBoard } from '../board.ts';
import { h, replace, scrollWithin, signed } from '../dom.ts';
import { routeHash, type Page, type PageContext } from '../router.ts';
import { solvedSection } from './explorer-solved.ts';

const DEFAULTS = { profile: 'csci561', algo: 'alphabeta', depth: '3', heuristic: 'basic' } as const;
const ALGO_LABELS: Record<ExplorerAlgo, string> = { minimax: 'minimax', alphabeta: 'alpha-beta', ids: 'iterative deepening' };
const FORMATS = ['auto', 'json', 'csc384', 'csci561'] as const;

/** The explorer's address for a position (the Play page's link): the board as JSON, alpha-beta at depth 4. */
export function explorerHref(profile: string, b: BoardView): string {
  const board = JSON.stringify({ top: b.top.map((q) => q.stones), bottom: b.bottom.map((q) => q.stones), stores: b.stores, toMove: b.toMove });
  return routeHash('explorer', { profile, board, algo: 'alphabeta', depth: 4 });
}

/** A value as the tree shows it: signed, at most two decimals (the advanced heuristic has quarters). */
function value(v: number): string {
  return signed(Number.isInteger(v) ? v : Math.round(v * 100) / 100);
}

/** A value with its bound: fail-soft alpha-beta's cut nodes know only a side of their value. */
function boundedValue(n: SearchNodeView): string {
  return `${n.bound === 'upper' ? '≤ ' : n.bound === 'lower' ? '≥ ' : ''}${value(n.value)}`;
}

const alphaText = (a: number | null | undefined) => (a === null || a === undefined ? '−∞' : value(a));
const betaText = (b: number | null | undefined) => (b === null || b === undefined ? '+∞' : value(b));
const other = (s: Seat): Seat => (s === 'bottom' ? 'top' : 'bottom');
const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString('en')} ${n === 1 ? one : many}`;

function kindText(n: SearchNodeView): string {
  switch (n.kind) {
    case 'node':
      return `${plural(n.children, 'child', 'children')} searched${n.pruned > 0 ? `, ${n.pruned} pruned` : ''}`;
    case 'depth':
      return 'a leaf: the depth limit';
    case 'game-over':
      return 'a leaf: the game is over';
    case 'cached':
      return 'answered from the cache';
  }
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

  // ---- the form ----
  const profile = h('select', { id: 'ex-profile', name: 'profile' });
  const profileSummary = h('p', { class: 'hint-text', id: 'ex-profile-summary' });
  const source = h('select', { id: 'ex-source', name: 'source' }, h('option', { value: 'start' }, 'the start position'), h('option', { value: 'board' }, 'a board (pasted)'));
  const pits = h('input', { id: 'ex-pits', type: 'number', min: 1, max: 20, inputmode: 'numeric' });
  const seeds = h('input', { id: 'ex-seeds', type: 'number', min: 0, max: 1000, inputmode: 'numeric' });
  const startFields = h('div', { class: 'row2', id: 'ex-start-fields' }, h('div', {}, h('label', { for: 'ex-pits' }, 'Pits a side'), pits), h('div', {}, h('label', { for: 'ex-seeds' }, 'Stones a pit'), seeds));
  const board = h('textarea', { id: 'ex-board', rows: 7, spellcheck: 'false', autocomplete: 'off', placeholder: '3\n1\n2\n4 4 4 4 4 4\n4 4 4 4 4 4\n0\n0' });
  const format = h('select', { id: 'ex-format', 'aria-label': 'board format' }, FORMATS.map((f) => h('option', { value: f }, f === 'auto' ? 'format: guess it' : `format: ${f}`)));
  const boardFields = h(
    'div',
    { id: 'ex-board-fields' },
    h('label', { for: 'ex-board' }, 'Board'),
    board,
    h('p', { class: 'hint-text' }, 'Any board ', h('code', {}, 'mancala search --board'), ' reads: a csci561 input.txt (its traverse log shows), a csc384 board, or JSON.'),
    format,
  );
  const player = h('select', { id: 'ex-player' }, h('option', { value: '' }, "the board's, else bottom"), h('option', { value: 'bottom' }, 'bottom'), h('option', { value: 'top' }, 'top'));
  const algo = h('select', { id: 'ex-algo' }, (['minimax', 'alphabeta', 'ids'] as const).map((a) => h('option', { value: a }, ALGO_LABELS[a])));
  const depth = h('input', { id: 'ex-depth', type: 'number', min: 1, max: 20, inputmode: 'numeric' });
  const heuristic = h('select', { id: 'ex-heuristic' }, h('option', { value: 'basic' }, 'basic'));
  const limits = h('p', { class: 'hint-text', id: 'ex-limits' });
  const runButton = h('button', { type: 'submit', class: 'primary', id: 'ex-run' }, 'Search');
  const form = h(
    'form',
    { class: 'card setup', id: 'ex-form' },
    h('h2', {}, 'Position and search'),
    h('label', { for: 'ex-profile' }, 'Rules'),
    profile,
    profileSummary,
    h('label', { for: 'ex-source' }, 'Position'),
    source,
    startFields,
    boardFields,
    h('label', { for: 'ex-player' }, 'Player to move'),
    player,
    h('label', { for: 'ex-algo' }, 'Algorithm'),
    algo,
    h('div', { class: 'row2' }, h('div', {}, h('label', { for: 'ex-depth' }, 'Depth'), depth), h('div', {}, h('label', { for: 'ex-heuristic' }, 'Heuristic'), heuristic)),
    limits,
    runButton,
  );

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
  const legend = h(
    'details',
    // Open beside the tree; on a phone, where it would push the selected node further down, closed.
    { class: 'card ex-legend', id: 'ex-legend', open: window.matchMedia('(min-width: 861px)').matches },
    h('summary', {}, 'How to read the tree'),
    h(
      'ul',
      {},
      h('li', {}, 'Values are the ', h('strong', {}, 'root player’s'), ': the player to move at the root maximises (', h('span', { class: 'tn-side max' }, '▲ max'), ' nodes), the opponent minimises (', h('span', { class: 'tn-side min' }, '▼ min'), '). A free turn keeps the mover, so a max node can have max children.'),
      h('li', {}, h('code', {}, 'mancala search'), ' values a position for the player to move there: a max node’s value as it is, a min node’s negated (every heuristic here, like the score, is the mover’s minus the opponent’s). Select a node for the command that checks it.'),
      h('li', {}, 'α β: the window the node received. Alpha-beta is fail-soft: a value at or below α is an upper bound (', h('strong', {}, '≤'), '), at or above β a lower bound (', h('strong', {}, '≥'), '); only the other values are exact.'),
      h('li', {}, h('span', { class: 'tn-pv-chip' }, 'PV'), ' the principal variation: at each node the first child with its value, down to a leaf. ', h('span', { class: 'pruned-sample' }, '✂ B5'), ' moves a prune left unsearched.'),
      h('li', {}, 'Depth counts moves from the root (ply). In unit “turn” (csci561) a free turn uses no depth, so a path can be longer than the depth limit.'),
    ),
  );
  const main = h('section', { class: 'ex-main' }, message, summary, treeCard, legend);

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

  function syncFields(): void {
    const fromBoard = source.value === 'board';
    startFields.hidden = fromBoard;
    boardFields.hidden = !fromBoard;
    const q = catalog?.profiles.find((x) => x.name === profile.value);
    profileSummary.textContent = q?.summary ?? '';
    pits.placeholder = q ? String(q.pits) : '';
    seeds.placeholder = q ? String(q.seeds) : '';
  }

  function request(): SearchRequestBody {
    const body: SearchRequestBody = { profile: profile.value, algo: algo.value as ExplorerAlgo, depth: Number(depth.value), heuristic: heuristic.value };
    if (source.value === 'board') {
      body.board = board.value;
      if (format.value !== 'auto') body.boardFormat = format.value as SearchRequestBody['boardFormat'];
    } else {
      if (pits.value !== '') body.pits = Number(pits.value);
      if (seeds.value !== '') body.seeds = Number(seeds.value);
    }
    if (player.value !== '') body.player = player.value as Seat;
    return body;
  }

  function saveParams(): void {
    const fromBoard = source.value === 'board';
    ctx.setParams({
      profile: profile.value,
      board: fromBoard ? board.value : undefined,
      format: fromBoard && format.value !== 'auto' ? format.value : undefined,
      pits: fromBoard ? undefined : pits.value,
      seeds: fromBoard ? undefined : seeds.value,
      player: player.value,
      algo: algo.value,
      depth: depth.value,
      heuristic: heuristic.value === 'basic' ? undefined : heuristic.value,
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
    const n = d.node;
    const root = rootSeat();
    const heur = exploration?.heuristic ?? 'basic';
    const facts: [string, string][] = [
      ['Path', d.path.length === 0 ? 'the root' : d.path.map(moveLabel).join(' → ')],
      ['To move', `${n.toMove} (${n.max ? 'max: the root player' : 'min: the opponent'})`],
      ['Value', `${boundedValue(n)} for ${root}${n.bound === 'exact' ? ' (exact)' : n.bound === 'upper' ? ' (an upper bound: the node failed low)' : ' (a lower bound: the node failed high)'}`],
    ];
    if (n.alpha !== undefined) {
      facts.push(['Window', `received α ${alphaText(n.alpha)}, β ${betaText(n.beta)}${n.alphaOut !== undefined ? `; after its children α ${alphaText(n.alphaOut)}, β ${betaText(n.betaOut)}` : ''}`]);
    }
    facts.push(['Depth left', String(n.depthLeft)], ['Node', `${kindText(n)}${d.prunedMoves.length > 0 ? ` (${d.prunedMoves.map(moveLabel).join(', ')})` : ''}`]);
    const check =
      d.check !== undefined
        ? h(
            'p',
            { class: 'ex-check', id: 'ex-check' },
            'Check it: save the position below as ',
            h('code', {}, 'node.json'),
            ' and run ',
            h('code', { id: 'ex-check-command' }, d.check.command),
            d.check.relation === '=' ? ': it finds the value ' : `: it finds a value ${d.check.relation} `,
            h('strong', { id: 'ex-check-value' }, value(d.check.value)),
            ` for ${n.toMove}, the player to move here${n.max ? '' : ` (this node’s ${boundedValue(n)} for ${root}, negated)`}.`,
          )
        : h(
            'p',
            { class: 'ex-check' },
            n.kind === 'game-over'
              ? `The game is over here: its value is ${exploration?.terminal === 'score' ? 'the final score (store difference after the sweep)' : `the ${heur} heuristic on the board as it stands`} for ${root}.`
              : n.kind === 'depth'
                ? `The depth limit: its value is the ${heur} heuristic of this position for ${root}.`
                : 'The cache answered for this node.',
          );
    const explore =
      n.kind === 'node'
        ? h(
            'button',
            {
              type: 'button',
              id: 'ex-explore-here',
              onclick: () => {
                source.value = 'board';
                board.value = d.boardJson;
                format.value = 'json';
                player.value = '';
                pits.value = seeds.value = '';
                depth.value = String(Math.max(1, n.depthLeft));
                syncFields();
                void run(undefined);
              },
            },
            'Explore from here',
          )
        : null;
    replace(
      nodeCard,
      h('h2', {}, n.move === 'root' ? 'The root' : `Node ${moveLabel(n.move)}`),
      h('dl', { class: 'ex-facts' }, facts.map(([k, v]) => [h('dt', {}, k), h('dd', {}, v)])),
      check,
      solvedSection(d, root),
      renderBoard(d.board, { names: { bottom: root === 'bottom' ? 'the root player' : 'the opponent', top: root === 'top' ? 'the root player' : 'the opponent' } }),
      h('details', { class: 'ex-json' }, h('summary', {}, 'The position as JSON'), h('pre', { id: 'ex-node-json' }, d.boardJson)),
      explore,
    );
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
    const t = tree()!;
    const position = source.value === 'board' ? (x.csci561 !== undefined ? `a csci561 input (task ${x.csci561.task}, depth ${x.csci561.depth})` : 'the board given') : 'the start position';
    const iterations =
      x.algo === 'ids'
        ? h(
            'div',
            { class: 'ex-iterations', role: 'group', 'aria-label': 'iteration' },
            h('span', { class: 'hint-text' }, 'Iteration:'),
            x.trees.map((it, k) =>
              h(
                'button',
                { type: 'button', 'aria-pressed': String(k === treeIndex), 'data-iteration': it.depth, title: `${plural(it.nodes, 'node')}`, onclick: () => showTree(k, undefined) },
                `${it.depth}: ${moveLabel(it.moveName)} ${it.value === null ? '' : value(it.value)}`,
              ),
            ),
          )
        : null;
    const total = t.perDepth.reduce((s, c) => ({ nodes: s.nodes + c.nodes, leaves: s.leaves + c.leaves, pruned: s.pruned + c.pruned }), { nodes: 0, leaves: 0, pruned: 0 });
    replace(
      summary,
      h('h2', {}, 'Search'),
      h(
        'p',
        { class: 'ex-headline', id: 'ex-headline' },
        `${x.algo === 'ids' ? `Iterative deepening, iteration ${t.depth} of ${x.trees.length}: alpha-beta` : ALGO_LABELS[x.algo]} to depth ${t.depth} from ${position}, ${x.board.toMove} to move: `,
        h('strong', {}, 'move ', h('span', { id: 'ex-move' }, moveLabel(t.moveName))),
        ', value ',
        h('strong', { id: 'ex-value' }, t.value === null ? '—' : value(t.value)),
        '.',
      ),
      h('p', { class: 'hint-text' }, `${plural(t.nodes, 'node')}, ${plural(t.evaluations, 'evaluation')}, ${t.ms.toFixed(1)} ms; depth unit ${x.unit}, a finished game valued by ${x.terminal}, heuristic ${x.heuristic}.`),
      iterations,
      h(
        'p',
        { class: 'ex-pv', id: 'ex-pv' },
        'Principal variation: ',
        t.pv.slice(1).map((n, k) => [k > 0 ? ' ' : '', h('button', { type: 'button', class: 'pv-step', 'data-node': n.id, onclick: () => void reveal(n.id) }, moveLabel(n.move))]),
      ),
      h(
        'div',
        { class: 'table-scroll' },
        h(
          'table',
          { class: 'ex-counts', id: 'ex-counts' },
          h('caption', { class: 'hint-text' }, 'Nodes a depth (moves from the root)'),
          h('thead', {}, h('tr', {}, h('th', {}, 'depth'), h('th', { class: 'num' }, 'nodes'), h('th', { class: 'num' }, 'leaves'), h('th', { class: 'num' }, 'pruned'))),
          h(
            'tbody',
            {},
            t.perDepth.map((c) => h('tr', {}, h('td', {}, String(c.ply)), h('td', { class: 'num' }, c.nodes.toLocaleString('en')), h('td', { class: 'num' }, c.leaves.toLocaleString('en')), h('td', { class: 'num' }, c.pruned.toLocaleString('en')))),
          ),
          h('tfoot', {}, h('tr', {}, h('th', {}, 'all'), h('th', { class: 'num' }, total.nodes.toLocaleString('en')), h('th', { class: 'num' }, total.leaves.toLocaleString('en')), h('th', { class: 'num' }, total.pruned.toLocaleString('en')))),
        ),
      ),
      h(
        'p',
        { class: 'hint-text ex-command' },
        'The same search on the command line',
        source.value === 'board' ? [' (the board saved as ', h('code', {}, 'position.json'), ')'] : '',
        ': ',
        h('code', { id: 'ex-command' }, t.command),
      ),
      source.value === 'board' ? h('details', { class: 'ex-json' }, h('summary', {}, 'position.json'), h('pre', {}, x.boardJson)) : null,
    );
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
      const x = await api<SearchExploration>('POST', '/api/search', request());
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

  let catalog: Catalog | undefined;

  async function start(): Promise<void> {
    let options: SearchOptionsView;
    try {
      [catalog, options] = await Promise.all([api<Catalog>('GET', '/api/catalog'), api<SearchOptionsView>('GET', '/api/search')]);
    } catch (e) {
      showError(`Could not load the profiles: ${failure(e)}`);
      return;
    }
    if (!mounted) return;
    replace(profile, catalog.profiles.map((q) => h('option', { value: q.name }, q.seed !== undefined ? `${q.name} (seed ${q.seed})` : q.name)));
    replace(heuristic, options.heuristics.map((n) => h('option', { value: n }, n)));
    depth.max = String(options.maxDepth);
    limits.textContent = `At most ${options.maxNodes.toLocaleString('en')} nodes a search (iterative deepening: all its iterations together).`;
    const pick = (el: HTMLSelectElement, v: string | null, fallback: string) => {
      el.value = v ?? fallback;
      if (el.value === '' && el.options.length > 0) el.value = fallback;
    };
    pick(profile, p.get('profile'), DEFAULTS.profile);
    pick(algo, p.get('algo'), DEFAULTS.algo);
    pick(heuristic, p.get('heuristic'), DEFAULTS.heuristic);
    pick(format, p.get('format'), 'auto');
    pick(player, p.get('player'), '');
    depth.value = p.get('depth') ?? DEFAULTS.depth;
    const boardText = p.get('board');
    source.value = boardText !== null ? 'board' : 'start';
    board.value = boardText ?? '';
    pits.value = p.get('pits') ?? '';
    seeds.value = p.get('seeds') ?? '';
    syncFields();
    const num = (k: string) => (p.get(k) !== null && /^\d+$/.test(p.get(k)!) ? Number(p.get(k)) : undefined);
    const it = num('it');
    const node = num('node');
    await run({ ...(it !== undefined ? { it } : {}), ...(node !== undefined ? { node } : {}) });
  }

  form.addEventListener('submit', (e) => {
    e.preventDefault();
    void run(undefined);
  });
  profile.addEventListener('change', syncFields);
  source.addEventListener('change', syncFields);
  logMore.addEventListener('click', () => void moreLog());
  syncFields();
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
};
