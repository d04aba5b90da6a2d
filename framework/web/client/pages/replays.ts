/**
 * Replays: open a replay the CLI wrote (`mancala match --replays DIR`, `mancala gauntlet
 * --replays DIR`) or a game of a tournament's results (`mancala tournament --out DIR`:
 * DIR/results.jsonl), from the server's folder or from this computer, and step through it: forward
 * and back, to any ply, each move's sowing, free turn and capture drawn on the board. The server
 * reads and checks the file (framework/matches/replay.ts); a malformed one is its message, which
 * names the file, the line and the field.
 *
 * Keys: ←/→ a move, Home/End the start and the end, P plays and pauses.
 */
import type { ReplayView, Seat, TournamentGames } from '../../shared/api.ts';
import { api, ApiFailure, query, server } from '../api.ts';
import { describeMove, moveLabel, renderBoard } from '../board.ts';
import { h, replace, scrollWithin, signed, typingInField } from '../dom.ts';
import { fileSize, folderPicker, startFolder } from '../folder-picker.ts';
import type { Page, PageContext } from '../router.ts';

const PLAY_MS = 700;

function mount(outlet: HTMLElement, ctx: PageContext): () => void {
  const p = ctx.params;
  let path = p.get('path') ?? undefined;
  // On the arena's server (server.arena): a game of the arena, by id, read from its API; no folder to browse.
  const arenaGame = server.arena ? (p.get('arena-game') ?? undefined) : undefined;
  let gameIndex = p.get('game') ?? undefined;
  let replay: ReplayView | undefined;
  let tournament: TournamentGames | undefined;
  let ply = 0;
  let playing: ReturnType<typeof setInterval> | undefined;
  let mounted = true;

  // ---- the file browser ----
  const picker = folderPicker({
    id: 'files',
    dir: startFolder(p.get('dir'), path),
    files: (listing) => listing.files.map((f) => ({ name: f.name, kind: f.kind, size: f.kind === 'tournament' ? 'tournament' : fileSize(f.bytes) })),
    none: 'No replays or folders here.',
    current: () => path,
    open: (file, f) => {
      if (f.kind === 'tournament') void openTournament(file);
      else {
        games.hidden = true;
        void openPath(file, undefined);
      }
    },
    listed: () => saveParams(),
    showError: (text) => showError(text),
    mounted: () => mounted,
  });
  const games = h('div', { class: 'tournament-games', id: 'tournament-games', hidden: true });
  const upload = h('input', { type: 'file', id: 'upload', accept: '.jsonl,.json,.txt,application/json' });
  const browser = h(
    'aside',
    { class: 'replays-side' },
    server.arena
      ? h('div', { class: 'card' }, h('h2', {}, 'Arena game'), h('p', { class: 'hint-text' }, 'A game of yours from the arena: open another from ', h('a', { href: '#/' }, 'the Arena page'), '’s games.'))
      : h(
      'div',
      { class: 'card' },
      h('h2', {}, 'Open a replay'),
      h('p', { class: 'hint-text' }, 'Replays written by ', h('code', {}, 'mancala match --replays'), ' or ', h('code', {}, 'gauntlet --replays'), ', and tournament results (', h('code', {}, 'results.jsonl'), ').'),
      picker.crumbs,
      picker.files,
      games,
      // A read-only server takes no upload.
      server.readOnly ? [] : [h('label', { for: 'upload', class: 'upload' }, 'Or open a file from this computer:'), upload],
    ),
  );

  // ---- the viewer ----
  const message = h('div', { class: 'message error', role: 'alert', id: 'replay-error', hidden: true });
  const title = h('h2', { class: 'replay-title' });
  const meta = h('p', { class: 'hint-text replay-meta' });
  const result = h('p', { class: 'result', id: 'result' });
  const boardBox = h('div', { class: 'board-box', id: 'board' });
  const event = h('p', { class: 'event', id: 'ply-move', 'aria-live': 'polite' });
  const first = h('button', { type: 'button', id: 'first', title: 'the start (Home)', 'aria-label': 'to the start' }, '⇤');
  const back = h('button', { type: 'button', id: 'back', title: 'one move back (←)', 'aria-label': 'one move back' }, '◀');
  const playButton = h('button', { type: 'button', id: 'play', title: 'play the moves (P)', 'aria-label': 'play' }, '▶ Play');
  const forward = h('button', { type: 'button', id: 'forward', title: 'one move forward (→)', 'aria-label': 'one move forward' }, '▶');
  const last = h('button', { type: 'button', id: 'last', title: 'the end (End)', 'aria-label': 'to the end' }, '⇥');
  const slider = h('input', { type: 'range', id: 'ply-slider', min: 0, max: 0, value: 0, 'aria-label': 'ply' });
  const plyInput = h('input', { type: 'number', id: 'ply-input', min: 0, max: 0, value: 0, 'aria-label': 'jump to ply', inputmode: 'numeric' });
  const plyTotal = h('span', { class: 'ply-total', id: 'ply-total' });
  const moveList = h('ol', { class: 'move-log replay-moves', id: 'replay-moves', start: 1 });
  const viewer = h(
    'div',
    { class: 'replay-view', hidden: true },
    title,
    meta,
    result,
    boardBox,
    event,
    h('div', { class: 'controls stepper' }, first, back, playButton, forward, last),
    h('div', { class: 'controls scrub' }, slider, h('label', { class: 'jump' }, 'ply ', plyInput, plyTotal)),
  );
  const empty = h('div', { class: 'card empty-view', id: 'replay-empty' }, h('h2', {}, 'No replay open'), h('p', {}, 'Choose a replay from the list, or open a file from this computer.'));
  const main = h('section', { class: 'replays-main' }, message, empty, viewer, h('div', { class: 'card log-card', hidden: true, id: 'replay-moves-card' }, h('h2', {}, 'Moves'), moveList));
  outlet.appendChild(h('div', { class: 'page replays' }, main, browser));

  const showError = (text: string | undefined) => {
    message.hidden = text === undefined;
    message.textContent = text ?? '';
  };
  const names = (): Record<Seat, string> => {
    if (replay === undefined) return { bottom: 'bottom', top: 'top' };
    const other = replay.first === 'A' ? 'B' : 'A';
    return { bottom: `${replay.first} (${replay[replay.first]})`, top: `${other} (${replay[other]})` };
  };
  const total = () => replay?.moves.length ?? 0;

  function saveParams(): void {
    if (server.arena) ctx.setParams({ 'arena-game': arenaGame, ply: replay !== undefined && ply > 0 ? ply : undefined });
    else ctx.setParams({ dir: picker.dir === '' ? undefined : picker.dir, path, game: gameIndex, ply: replay !== undefined && ply > 0 ? ply : undefined });
  }

  function renderFrame(): void {
    if (replay === undefined) return;
    const n = names();
    const move = ply > 0 ? replay.moves[ply - 1] : undefined;
    replace(boardBox, renderBoard(replay.frames[ply]!, { lastMove: move, names: n }));
    event.textContent =
      move === undefined
        ? `The start: ${replay.moves.length} moves follow.`
        : `Move ${ply} of ${total()}: ${describeMove(move, n)}.${ply === total() ? ` ${replay.result}.` : ''}`;
    slider.value = String(ply);
    plyInput.value = String(ply);
    plyTotal.textContent = ` of ${total()}`;
    first.disabled = back.disabled = ply === 0;
    forward.disabled = last.disabled = ply === total();
    playButton.textContent = playing !== undefined ? '‖ Pause' : '▶ Play';
    for (const li of Array.from(moveList.children)) li.classList.toggle('current', Number((li as HTMLElement).dataset['ply']) === ply);
    scrollWithin(moveList, moveList.querySelector('.current'));
    saveParams();
  }

  function go(to: number): void {
    if (replay === undefined) return;
    ply = Math.max(0, Math.min(total(), Math.round(to)));
    if (ply === total()) stop();
    renderFrame();
  }

  function stop(): void {
    if (playing !== undefined) clearInterval(playing);
    playing = undefined;
  }

  function togglePlay(): void {
    if (replay === undefined) return;
    if (playing !== undefined) {
      stop();
      renderFrame();
      return;
    }
    if (ply === total()) ply = 0;
    playing = setInterval(() => go(ply + 1), PLAY_MS);
    renderFrame();
  }

  function show(view: ReplayView, startPly: number): void {
    replay = view;
    stop();
    showError(undefined);
    empty.hidden = true;
    viewer.hidden = false;
    (document.getElementById('replay-moves-card') as HTMLElement).hidden = false;
    const n = names();
    title.textContent = `${view.game > 0 ? `Game ${view.game}: ` : ''}${view.A} (A) vs ${view.B} (B)`;
    meta.textContent = `${view.file} · ${view.rules}(${view.pits},${view.seeds}) · ${view.first} in the bottom seat, moving first · seed ${view.seed}${view.openingPlies > 0 ? ` · ${view.openingPlies} opening moves` : ''}`;
    result.textContent = `Result: ${view.result}`;
    slider.max = String(view.moves.length);
    plyInput.max = String(view.moves.length);
    replace(
      moveList,
      view.moves.map((m) =>
        h(
          'li',
          { class: m.seat, 'data-ply': m.ply + 1, onclick: () => go(m.ply + 1), title: describeMove(m, n) },
          h('span', { class: 'who' }, `${m.seat === 'bottom' ? '▼' : '▲'} ${m.by.split(' ')[0]}`),
          ' ',
          h('strong', {}, moveLabel(m.name)),
          m.kind === 'opening' ? h('span', { class: 'badge opening' }, 'opening') : null,
          m.value !== undefined ? h('span', { class: 'badge value' }, signed(m.value)) : null,
          m.freeTurn ? h('span', { class: 'badge free' }, 'free turn') : null,
          m.capture !== null ? h('span', { class: 'badge capture', title: m.capture.text }, `captured ${m.capture.stones}`) : null,
        ),
      ),
    );
    go(startPly);
  }

  function hideViewer(): void {
    replay = undefined;
    stop();
    viewer.hidden = true;
    empty.hidden = false;
    (document.getElementById('replay-moves-card') as HTMLElement).hidden = true;
  }

  async function openPath(file: string, game: string | undefined, startPly = 0): Promise<void> {
    path = file;
    gameIndex = game;
    try {
      show(await api<ReplayView>('GET', `/api/replay${query({ path: file, game })}`), startPly);
    } catch (e) {
      hideViewer();
      showError(`Could not open ${file}${game !== undefined ? ` (game ${game})` : ''}: ${e instanceof ApiFailure ? e.message : String(e)}`);
      saveParams();
    }
  }

  async function openTournament(file: string): Promise<void> {
    games.hidden = false;
    replace(games, h('p', { class: 'hint-text' }, `Reading ${file}…`));
    try {
      tournament = await api<TournamentGames>('GET', `/api/tournament${query({ path: file })}`);
    } catch (e) {
      replace(games);
      games.hidden = true;
      showError(`Could not open ${file}: ${e instanceof ApiFailure ? e.message : String(e)}`);
      return;
    }
    const t = tournament;
    replace(
      games,
      h('h3', {}, `${t.file}: ${t.games.length} game${t.games.length === 1 ? '' : 's'} (${t.rules}(${t.pits},${t.seeds}))`),
      h(
        'table',
        { class: 'games-table' },
        h('thead', {}, h('tr', {}, h('th', {}, '#'), h('th', {}, 'A'), h('th', {}, 'B'), h('th', {}, 'won'), h('th', {}, 'score'))),
        h(
          'tbody',
          {},
          t.games.map((g) =>
            h(
              'tr',
              { class: String(g.index) === gameIndex && path === t.file ? 'current' : '' },
              h('td', {}, h('a', { href: '#', 'data-game': g.index, onclick: (e: Event) => (e.preventDefault(), void openPath(t.file, String(g.index))) }, String(g.index))),
              h('td', {}, g.A),
              h('td', {}, g.B),
              h('td', {}, g.forfeit !== null ? `${g.winner} (forfeit)` : g.winner),
              h('td', {}, `${g.score[0]}–${g.score[1]}`),
            ),
          ),
        ),
      ),
    );
  }

  async function openUpload(file: File): Promise<void> {
    let text: string;
    try {
      text = await file.text();
    } catch {
      showError(`Could not read ${file.name}`);
      return;
    }
    path = undefined;
    gameIndex = undefined;
    try {
      show(await api<ReplayView>('POST', '/api/replay', { name: file.name, text }), 0);
    } catch (e) {
      hideViewer();
      showError(`Could not open ${file.name}: ${e instanceof ApiFailure ? e.message : String(e)}`);
    }
  }

  function onKey(e: KeyboardEvent): void {
    if (typingInField(e) || e.altKey || e.ctrlKey || e.metaKey || replay === undefined) return;
    const moves: Record<string, () => void> = {
      ArrowLeft: () => go(ply - 1),
      ArrowRight: () => go(ply + 1),
      Home: () => go(0),
      End: () => go(total()),
      p: togglePlay,
      P: togglePlay,
    };
    const action = moves[e.key];
    if (action === undefined) return;
    e.preventDefault();
    if (e.key !== 'p' && e.key !== 'P') stop();
    action();
  }

  first.addEventListener('click', () => (stop(), go(0)));
  back.addEventListener('click', () => (stop(), go(ply - 1)));
  forward.addEventListener('click', () => (stop(), go(ply + 1)));
  last.addEventListener('click', () => (stop(), go(total())));
  playButton.addEventListener('click', togglePlay);
  slider.addEventListener('input', () => (stop(), go(Number(slider.value))));
  plyInput.addEventListener('change', () => (stop(), go(Number(plyInput.value))));
  // Enter jumps and leaves the field, so the arrow keys step again.
  plyInput.addEventListener('keydown', (e) => {
    if (e.key === 'Enter') plyInput.blur();
  });
  upload.addEventListener('change', () => {
    const f = upload.files?.[0];
    if (f !== undefined) void openUpload(f);
  });
  const onDrop = (e: DragEvent) => {
    const f = e.dataTransfer?.files[0];
    if (f === undefined) return;
    e.preventDefault();
    void openUpload(f);
  };
  const onDragOver = (e: DragEvent) => e.preventDefault();
  document.addEventListener('keydown', onKey);
  outlet.addEventListener('drop', onDrop);
  outlet.addEventListener('dragover', onDragOver);

  if (server.arena) {
    if (arenaGame !== undefined && /^\d{1,12}$/.test(arenaGame)) {
      const startPly = Number(p.get('ply') ?? '0');
      void api<ReplayView>('GET', `/api/arena/games/${arenaGame}/view`)
        .then((view) => show(view, Number.isFinite(startPly) ? startPly : 0))
        .catch((e: unknown) => {
          hideViewer();
          showError(`Could not open arena game ${arenaGame}: ${e instanceof ApiFailure ? e.message : String(e)}`);
        });
    }
  } else void picker.list(picker.dir);
  if (path !== undefined && !server.arena) {
    const startPly = Number(p.get('ply') ?? '0');
    void openPath(path, gameIndex, Number.isFinite(startPly) ? startPly : 0);
    if (path.endsWith('results.jsonl')) void openTournament(path);
  }

  return () => {
    mounted = false;
    stop();
    document.removeEventListener('keydown', onKey);
    outlet.removeEventListener('drop', onDrop);
    outlet.removeEventListener('dragover', onDragOver);
  };
}

export const replaysPage: Page = {
  id: 'replays',
  title: 'Replays',
  summary: 'Step through a game a match, a gauntlet or a tournament recorded.',
  mount,
};
