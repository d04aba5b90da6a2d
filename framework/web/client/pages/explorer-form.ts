/**
 * The Search explorer's form: the rules, the position (a profile's start, or a board pasted in any
 * format `mancala search --board` reads), the player to move and the search. What it asks the
 * server (`request`), what it keeps in the address (`params`), and how it is filled from the
 * address when the page opens (`load`).
 */
import type { Catalog, ExplorerAlgo, SearchOptionsView, SearchRequestBody, Seat } from '../../shared/api.ts';
import { h, replace } from '../dom.ts';
import { ALGO_LABELS } from './explorer-text.ts';

const DEFAULTS = { profile: 'csci561', algo: 'alphabeta', depth: '3', heuristic: 'basic' } as const;
const FORMATS = ['auto', 'json', 'csc384', 'csci561'] as const;

export type ExplorerForm = ReturnType<typeof explorerForm>;

export function explorerForm() {
  let catalog: Catalog | undefined;
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

  /** The form's part of the page's address. */
  function params(): Record<string, string | undefined> {
    const fromBoard = source.value === 'board';
    return {
      profile: profile.value,
      board: fromBoard ? board.value : undefined,
      format: fromBoard && format.value !== 'auto' ? format.value : undefined,
      pits: fromBoard ? undefined : pits.value,
      seeds: fromBoard ? undefined : seeds.value,
      player: player.value,
      algo: algo.value,
      depth: depth.value,
      heuristic: heuristic.value === 'basic' ? undefined : heuristic.value,
    };
  }

  /** The profiles and the search's limits from the server, then the fields as the address `p` gives them. */
  function load(loaded: Catalog, options: SearchOptionsView, p: URLSearchParams): void {
    catalog = loaded;
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
  }

  /** A node's position as the next search's board (its "Explore from here"), searched to the depth it had left. */
  function exploreFrom(boardJson: string, depthLeft: number): void {
    source.value = 'board';
    board.value = boardJson;
    format.value = 'json';
    player.value = '';
    pits.value = seeds.value = '';
    depth.value = String(Math.max(1, depthLeft));
    syncFields();
  }

  profile.addEventListener('change', syncFields);
  source.addEventListener('change', syncFields);
  syncFields();
  return { form, runButton, isBoard: () => source.value === 'board', request, params, load, exploreFrom };
}
