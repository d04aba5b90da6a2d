/**
 * Tournaments: a tournament's results (`mancala tournament --out DIR`: DIR/results.jsonl) as they
 * stand — how many of the scheduled games are played, the standings with their ratings, the
 * ratings and their intervals as a plot, and the crosstable as a heat map whose cells open their
 * pairing's games, each a link to its replay on the Replays page.
 *
 * A tournament still running is followed live: the server sends the view again each time a game
 * is recorded (server-sent events, GET /api/standings/events; framework/web/server/api/
 * tournaments.ts), until every scheduled game is in. The numbers are the CLI's own, computed on
 * the server from the file by the tournament's modules; the page only draws them.
 */
import type { CrosstableCell, TournamentStandings } from '../../shared/api.ts';
import { api, ApiFailure, query } from '../api.ts';
import { h, replace } from '../dom.ts';
import { fileSize, folderPicker, startFolder } from '../folder-picker.ts';
import { routeHash, type Page, type PageContext } from '../router.ts';
import { ratingsPlot, ratingText, shareColour, shareGradient } from '../tournament-charts.ts';

type Live = 'connecting' | 'live' | 'reconnecting' | 'finished' | 'off';
const LIVE_TEXT: Record<Live, string> = {
  connecting: 'connecting…',
  live: 'live',
  reconnecting: 'reconnecting…',
  finished: 'finished',
  off: 'not live',
};
const LIVE_TITLE: Record<Live, string> = {
  connecting: 'opening the live stream of this file',
  live: 'the page follows the file: each game recorded shows here as it is written',
  reconnecting: 'the stream broke: the browser reconnects by itself',
  finished: 'every scheduled game is recorded',
  off: 'the page is not following the file: reload to look again',
};

/** An agent's name that may break after its separators (`alphabeta:` `depth=4`), not inside a word, on a narrow screen. */
const agentName = (name: string): (string | HTMLElement)[] => name.split(/(?<=[:=,/])/).flatMap((part, k) => (k === 0 ? [part] : [h('wbr'), part]));

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
/** Points as a tournament counts them: 1.5, not 1.50. */
const pts = (x: number) => (Number.isInteger(x) ? String(x) : x.toFixed(1));

function mount(outlet: HTMLElement, ctx: PageContext): () => void {
  const p = ctx.params;
  let path = p.get('path') ?? undefined;
  /** the pairing whose games show: row agent, column agent */
  let pair: [string, string] | undefined = p.get('row') !== null && p.get('col') !== null ? [p.get('row')!, p.get('col')!] : undefined;
  let view: TournamentStandings | undefined;
  let stream: EventSource | undefined;
  let mounted = true;
  /** bumps with each file opened: an answer about an earlier one is dropped */
  let generation = 0;

  // ---- the file browser ----
  const picker = folderPicker({
    id: 't-files',
    dir: startFolder(p.get('dir'), path),
    files: (listing) => listing.files.filter((f) => f.kind === 'tournament').map((f) => ({ name: f.name, kind: 'tournament', size: fileSize(f.bytes) })),
    none: 'No tournaments or folders here.',
    current: () => path,
    open: (file) => void openFile(file),
    listed: () => saveParams(),
    showError: (text) => showError(text),
    mounted: () => mounted,
  });
  const side = h(
    'aside',
    { class: 'tournaments-side' },
    h(
      'div',
      { class: 'card' },
      h('h2', {}, 'Open a tournament'),
      h('p', { class: 'hint-text' }, 'The ', h('code', {}, 'results.jsonl'), ' that ', h('code', {}, 'mancala tournament --out DIR'), ' writes: a running one is followed live.'),
      picker.crumbs,
      picker.files,
    ),
  );

  // ---- the view ----
  const message = h('div', { class: 'message error', role: 'alert', id: 't-error', hidden: true });
  const empty = h('div', { class: 'card empty-view', id: 't-empty' }, h('h2', {}, 'No tournament open'), h('p', {}, 'Choose a tournament’s results.jsonl from the list.'));
  const title = h('h2', { class: 't-title', id: 't-title' });
  const meta = h('p', { class: 'hint-text t-meta', id: 't-meta' });
  const bar = h('progress', { id: 't-progress', max: 1, value: 0 });
  const played = h('span', { class: 't-played', id: 't-played' });
  const badge = h('span', { class: 'live-badge', id: 't-live' });
  const updated = h('span', { class: 'hint-text', id: 't-updated' });
  const notes = h('p', { class: 'hint-text', id: 't-notes', hidden: true });
  const standingsBody = h('tbody', {});
  const standingsTable = h(
    'table',
    { class: 'standings', id: 't-standings' },
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        h('th', { scope: 'col', class: 'num' }, '#'),
        h('th', { scope: 'col' }, 'agent'),
        h('th', { scope: 'col', class: 'num' }, 'rating'),
        h('th', { scope: 'col', class: 'num interval', title: 'rating ± 2σ: about 95% of the model’s belief about the agent’s skill' }, 'interval'),
        h('th', { scope: 'col', class: 'num', title: 'wins' }, 'W'),
        h('th', { scope: 'col', class: 'num', title: 'draws' }, 'D'),
        h('th', { scope: 'col', class: 'num', title: 'losses' }, 'L'),
        // A phone shows the short names (styles.css): the whole table then fits its width.
        h('th', { scope: 'col', class: 'num', title: 'wins + draws / 2' }, h('span', { class: 'long' }, 'points'), h('span', { class: 'short' }, 'pts')),
        h('th', { scope: 'col', class: 'num', title: 'forfeits: games lost by a crash, a timeout, an illegal move or the memory cap' }, h('span', { class: 'long' }, 'forfeits'), h('span', { class: 'short' }, 'F')),
      ),
    ),
    standingsBody,
  );
  const plotBox = h('div', { class: 'plot-box', id: 't-plot' });
  const heat = h('div', { class: 'heat-scroll' });
  const legendBar = h('span', { class: 'legend-bar', 'aria-hidden': 'true' });
  legendBar.style.backgroundImage = shareGradient();
  const legend = h(
    'div',
    { class: 'heat-legend', id: 't-legend' },
    h('span', {}, 'row lost all'),
    legendBar,
    h('span', {}, 'row won all'),
    h('p', { class: 'hint-text' }, 'Each cell: the row agent’s points against the column agent, of the games played (a win 1, a draw ½); its colour, that share. Choose a cell for its games.'),
  );
  const pairing = h('div', { class: 'pairing', id: 't-pairing', 'aria-live': 'polite', hidden: true });
  const viewBox = h(
    'div',
    { class: 't-view', hidden: true },
    h('div', { class: 'card t-head' }, title, meta, h('div', { class: 't-progress' }, bar, played, badge), updated, notes),
    h('div', { class: 'card' }, h('h2', {}, 'Standings'), h('div', { class: 'table-scroll' }, standingsTable)),
    h('div', { class: 'card' }, h('h2', {}, 'Ratings'), plotBox),
    h('div', { class: 'card' }, h('h2', {}, 'Crosstable'), h('p', { class: 'hint-text heat-intro' }, 'Row agent against column agent: points of the games played.'), heat, legend, pairing),
  );
  const main = h('section', { class: 'tournaments-main' }, message, empty, viewBox);
  outlet.appendChild(h('div', { class: 'page tournaments' }, main, side));

  const showError = (text: string | undefined) => {
    message.hidden = text === undefined;
    message.textContent = text ?? '';
  };
  const saveParams = () => ctx.setParams({ dir: picker.dir === '' ? undefined : picker.dir, path, row: pair?.[0], col: pair?.[1] });

  function setLive(state: Live): void {
    badge.className = `live-badge ${state}`;
    badge.textContent = LIVE_TEXT[state];
    badge.title = LIVE_TITLE[state];
  }

  // ---- drawing a view ----
  function render(v: TournamentStandings): void {
    view = v;
    empty.hidden = true;
    viewBox.hidden = false;
    // The tournament by its folder (`--out DIR`), the file in the line below.
    title.textContent = v.file.includes('/') ? v.file.slice(0, v.file.lastIndexOf('/')).split('/').pop()! : v.file;
    meta.textContent = [
      v.file,
      `${v.format} of ${plural(v.standings.length, 'agent')}`,
      `${plural(v.gamesPerPair, 'game')} a pair`,
      `${v.rules}(${v.pits},${v.seeds})`,
      `${v.timePerMoveMs} ms a move`,
      ...(v.shard !== null ? [`shard ${v.shard}`] : []),
    ].join(' · ');
    bar.max = Math.max(1, v.total);
    bar.value = v.played;
    played.textContent = `${v.played} of ${plural(v.total, 'game')} played`;
    updated.textContent = `last recorded ${new Date(v.updated).toLocaleString()}`;
    notes.hidden = v.notes.length === 0;
    notes.textContent = v.notes.join(' ');
    replace(
      standingsBody,
      v.standings.map((s) =>
        h(
          'tr',
          {},
          h('td', { class: 'num' }, String(s.rank)),
          h('th', { scope: 'row', class: 'agent' }, agentName(s.agent)),
          // On a phone the interval goes under the rating (styles.css), its column hidden.
          h('td', { class: 'num rating' }, ratingText(s.rating), h('span', { class: 'ci-inline', 'aria-hidden': 'true' }, `${ratingText(s.ci[0])} – ${ratingText(s.ci[1])}`)),
          h('td', { class: 'num interval' }, `${ratingText(s.ci[0])} – ${ratingText(s.ci[1])}`),
          h('td', { class: 'num' }, String(s.wins)),
          h('td', { class: 'num' }, String(s.draws)),
          h('td', { class: 'num' }, String(s.losses)),
          h('td', { class: 'num' }, pts(s.points)),
          h('td', { class: 'num' }, String(s.forfeits)),
        ),
      ),
    );
    drawPlot();
    drawHeatMap(v);
    drawPairing();
  }

  let plotWidth = 0;
  function drawPlot(): void {
    if (view === undefined) return;
    plotWidth = plotBox.clientWidth;
    if (plotWidth === 0) return;
    replace(plotBox, ratingsPlot(view.standings, plotWidth));
  }
  // The plot is drawn at its box's width in pixels (its text keeps its size): again when the box changes width.
  const resized = new ResizeObserver(() => {
    if (plotBox.clientWidth !== plotWidth) drawPlot();
  });
  resized.observe(plotBox);

  function drawHeatMap(v: TournamentStandings): void {
    const agents = v.standings.map((s) => s.agent);
    const cell = (r: number, c: number, x: CrosstableCell | null) => {
      if (r === c) return h('td', { class: 'self', 'aria-label': 'itself' }, '—');
      if (x === null) return h('td', { class: 'none', title: 'they do not meet' }, '');
      const n = x.games.length;
      const label = `${agents[r]} against ${agents[c]}: ${pts(x.points)} of ${n} ${n === 1 ? 'point' : 'points'} (${x.wins} won, ${x.draws} drawn, ${x.losses} lost)${n < x.scheduled ? `, ${n} of ${x.scheduled} games played` : ''}`;
      const selected = pair !== undefined && pair[0] === agents[r] && pair[1] === agents[c];
      const button = h(
        'button',
        { type: 'button', class: `cell${selected ? ' selected' : ''}`, 'data-row': r + 1, 'data-col': c + 1, title: label, 'aria-label': label, disabled: n === 0, 'aria-pressed': selected ? 'true' : 'false' },
        n === 0 ? `0/${x.scheduled}` : `${pts(x.points)}/${n}`,
      );
      button.addEventListener('click', () => {
        pair = [agents[r]!, agents[c]!];
        saveParams();
        drawHeatMap(v);
        drawPairing();
        pairing.scrollIntoView({ block: 'nearest' });
      });
      const td = h('td', { class: `heat${n < x.scheduled ? ' partial' : ''}` }, button);
      if (n > 0) td.style.backgroundColor = shareColour(x.points / n);
      return td;
    };
    // A live update redraws the table: the cell that had the focus keeps it.
    const focused = document.activeElement instanceof HTMLElement && heat.contains(document.activeElement) ? document.activeElement.dataset : undefined;
    replace(
      heat,
      h(
        'table',
        { class: 'heatmap', id: 't-crosstable', 'aria-label': 'Crosstable: the row agent’s points against the column agent, of the games played' },
        h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, ''), agents.map((a, c) => h('th', { scope: 'col', title: a, class: 'num' }, String(c + 1))))),
        h(
          'tbody',
          {},
          agents.map((a, r) => h('tr', {}, h('th', { scope: 'row', class: 'agent', title: a }, `${r + 1}. `, agentName(a)), v.crosstable[r]!.map((x, c) => cell(r, c, x)))),
        ),
      ),
    );
    if (focused?.['row'] !== undefined) heat.querySelector<HTMLElement>(`button[data-row="${focused['row']}"][data-col="${focused['col']}"]`)?.focus();
  }

  /** The chosen pairing's games, each a link to its replay. */
  function drawPairing(): void {
    const v = view;
    const r = v === undefined || pair === undefined ? -1 : v.standings.findIndex((s) => s.agent === pair![0]);
    const c = v === undefined || pair === undefined ? -1 : v.standings.findIndex((s) => s.agent === pair![1]);
    const x = v !== undefined && r >= 0 && c >= 0 ? v.crosstable[r]![c] : null;
    if (v === undefined || pair === undefined || x === null || x === undefined) {
      pairing.hidden = true;
      replace(pairing);
      return;
    }
    const [row, col] = pair;
    pairing.hidden = false;
    replace(
      pairing,
      h('h3', {}, `${row} against ${col}`),
      h('p', { class: 'hint-text' }, `${pts(x.points)} of ${plural(x.games.length, 'point')}: ${x.wins} won, ${x.draws} drawn, ${x.losses} lost${x.games.length < x.scheduled ? ` (${x.games.length} of ${x.scheduled} games played)` : ''}.`),
      h(
        'ul',
        { class: 'pair-games' },
        x.games.map((g) =>
          h(
            'li',
            {},
            h('a', { href: routeHash('replays', { path: v.file, game: g.index }), 'data-game': g.index }, `Game ${g.index}`),
            ' ',
            h('span', { class: `result ${g.result}` }, g.result === 'win' ? `${row} won` : g.result === 'loss' ? `${col} won` : 'a draw'),
            ` ${g.score[0]}–${g.score[1]}, ${g.rowFirst ? row : col} moving first`,
            g.forfeit !== null ? h('span', { class: 'badge capture' }, `${g.forfeit === 'row' ? row : col} forfeited`) : null,
          ),
        ),
      ),
    );
  }

  // ---- following the file ----
  function closeStream(): void {
    stream?.close();
    stream = undefined;
  }

  function follow(file: string, mine: number): void {
    closeStream();
    const es = new EventSource(`/api/standings/events${query({ path: file })}`);
    stream = es;
    setLive('connecting');
    es.addEventListener('open', () => setLive('live'));
    es.addEventListener('standings', (e) => {
      if (mine === generation) render(JSON.parse((e as MessageEvent<string>).data) as TournamentStandings);
    });
    es.addEventListener('done', () => {
      closeStream();
      setLive('finished');
    });
    es.addEventListener('failure', (e) => {
      closeStream();
      setLive('off');
      showError(`Stopped following ${file}: ${(JSON.parse((e as MessageEvent<string>).data) as { error: string }).error}`);
    });
    // The browser reconnects by itself (the server's `retry:`); CLOSED: it gave up (the server refused).
    es.addEventListener('error', () => setLive(es.readyState === EventSource.CLOSED ? 'off' : 'reconnecting'));
  }

  async function openFile(file: string): Promise<void> {
    const mine = ++generation;
    if (path !== file) pair = undefined;
    path = file;
    closeStream();
    saveParams();
    picker.markCurrent(path);
    let first: TournamentStandings;
    try {
      first = await api<TournamentStandings>('GET', `/api/standings${query({ path: file })}`);
    } catch (e) {
      if (mine !== generation || !mounted) return;
      view = undefined;
      viewBox.hidden = true;
      empty.hidden = false;
      showError(`Could not open ${file}: ${e instanceof ApiFailure ? e.message : String(e)}`);
      return;
    }
    if (mine !== generation || !mounted) return;
    showError(undefined);
    render(first);
    if (first.played < first.total) follow(file, mine);
    else setLive('finished');
  }

  void picker.list(picker.dir);
  if (path !== undefined) void openFile(path);

  return () => {
    mounted = false;
    generation++;
    closeStream();
    resized.disconnect();
  };
}

export const tournamentsPage: Page = {
  id: 'tournaments',
  title: 'Tournaments',
  summary: 'Standings, ratings and the crosstable of a tournament, followed live while it runs.',
  mount,
};
