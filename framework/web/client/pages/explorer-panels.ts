/**
 * The Search explorer's panels, drawn from what the server sent: the legend beside the tree, the
 * selected node (its facts, the `mancala search` command that checks its value, its position) and
 * the search's summary (its move and value, the iterations, the principal variation, the counts a
 * depth, the same search on the command line). What a click does is the page's (explorer.ts).
 */
import type { SearchExploration, SearchNodeDetail, SearchTreeView, Seat } from '../../shared/api.ts';
import { moveLabel, renderBoard } from '../board.ts';
import { h, type Children } from '../dom.ts';
import { solvedSection } from './explorer-solved.ts';
import { ALGO_LABELS, alphaText, betaText, boundedValue, kindText, plural, value } from './explorer-text.ts';

/** How to read the tree: open beside it; on a phone, where it would push the selected node further down, closed. */
export function legend(): HTMLDetailsElement {
  return h(
    'details',
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
}

/** The selected node: its facts, how to check its value, its position; `onExplore` searches from it. */
export function nodePanel(d: SearchNodeDetail, x: SearchExploration | undefined, root: Seat, onExplore: () => void): Children[] {
  const n = d.node;
  const heur = x?.heuristic ?? 'basic';
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
            ? `The game is over here: its value is ${x?.terminal === 'score' ? 'the final score (store difference after the sweep)' : `the ${heur} heuristic on the board as it stands`} for ${root}.`
            : n.kind === 'depth'
              ? `The depth limit: its value is the ${heur} heuristic of this position for ${root}.`
              : 'The cache answered for this node.',
        );
  const explore =
    n.kind === 'node'
      ? h('button', { type: 'button', id: 'ex-explore-here', onclick: onExplore }, 'Explore from here')
      : null;
  return [
    h('h2', {}, n.move === 'root' ? 'The root' : `Node ${moveLabel(n.move)}`),
    h('dl', { class: 'ex-facts' }, facts.map(([k, v]) => [h('dt', {}, k), h('dd', {}, v)])),
    check,
    solvedSection(d, root),
    renderBoard(d.board, { names: { bottom: root === 'bottom' ? 'the root player' : 'the opponent', top: root === 'top' ? 'the root player' : 'the opponent' } }),
    h('details', { class: 'ex-json' }, h('summary', {}, 'The position as JSON'), h('pre', { id: 'ex-node-json' }, d.boardJson)),
    explore,
  ];
}

/** The summary of tree `t` (iteration `treeIndex` of `x`); a click on an iteration or a step of the PV goes to `on`. */
export function summaryPanel(x: SearchExploration, t: SearchTreeView, treeIndex: number, fromBoard: boolean, on: { iteration(k: number): void; reveal(id: number): void }): Children[] {
  const position = fromBoard ? (x.csci561 !== undefined ? `a csci561 input (task ${x.csci561.task}, depth ${x.csci561.depth})` : 'the board given') : 'the start position';
  const iterations =
    x.algo === 'ids'
      ? h(
          'div',
          { class: 'ex-iterations', role: 'group', 'aria-label': 'iteration' },
          h('span', { class: 'hint-text' }, 'Iteration:'),
          x.trees.map((it, k) =>
            h(
              'button',
              { type: 'button', 'aria-pressed': String(k === treeIndex), 'data-iteration': it.depth, title: `${plural(it.nodes, 'node')}`, onclick: () => on.iteration(k) },
              `${it.depth}: ${moveLabel(it.moveName)} ${it.value === null ? '' : value(it.value)}`,
            ),
          ),
        )
      : null;
  const total = t.perDepth.reduce((s, c) => ({ nodes: s.nodes + c.nodes, leaves: s.leaves + c.leaves, pruned: s.pruned + c.pruned }), { nodes: 0, leaves: 0, pruned: 0 });
  return [
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
      t.pv.slice(1).map((n, k) => [k > 0 ? ' ' : '', h('button', { type: 'button', class: 'pv-step', 'data-node': n.id, onclick: () => on.reveal(n.id) }, moveLabel(n.move))]),
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
      fromBoard ? [' (the board saved as ', h('code', {}, 'position.json'), ')'] : '',
      ': ',
      h('code', { id: 'ex-command' }, t.command),
    ),
    fromBoard ? h('details', { class: 'ex-json' }, h('summary', {}, 'position.json'), h('pre', {}, x.boardJson)) : null,
  ];
}
