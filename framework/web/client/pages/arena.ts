/**
 * The arena's page (`mancala arena start` serves the web app's bundle; main.ts mounts this page
 * alone when /api/health says arena). Everyone sees the public standings (pseudonyms, rating,
 * games, win rates against each anchor, a sparkline of the rating), reloaded when the server's
 * event stream (/api/arena/events) says a game finished or a submission moved. A student also
 * sees their submissions with their checks' feedback, their games with each move's time, their
 * logs, and sets a pseudonym, challenges a scrim and uploads a zip; the instructor sees every
 * student's. Everything a student wrote (pseudonyms, stderr, feedback) is set as text (dom.ts).
 *
 * `#/?game=ID` opens a game's record: moves, times, stderr, crash, with a link to the web app's
 * Replays page for it (`#/replays?arena-game=ID`, the board at every ply) and its replay file.
 */
import { api } from '../api.ts';
import { h, replace } from '../dom.ts';
import { droppedFiles, pickedFiles, zipFiles } from '../folder-zip.ts';
import type { Page, PageContext } from '../router.ts';
import { call, pct, sparkline, when, type GameLog, type GameSummary, type Me, type Standings, type SubmissionView } from './arena-view.ts';

function mount(outlet: HTMLElement, ctx: PageContext): () => void {
  let me: Me | undefined;
  let closed = false;
  const error = h('div', { class: 'message error', role: 'alert', id: 'arena-error', hidden: true });
  const showError = (e: unknown) => {
    error.textContent = e instanceof Error ? e.message : String(e);
    error.hidden = false;
  };
  const who = h('p', { class: 'hint-text', id: 'arena-who' });
  const live = h('span', { class: 'live-badge', id: 'arena-live' }, 'connecting…');
  const standingsBox = h('div', { class: 'table-scroll', id: 'arena-standings' });
  const mine = h('div', { class: 'arena-mine', id: 'arena-mine' });
  const gameBox = h('div', { class: 'card', id: 'arena-game', hidden: true });
  outlet.appendChild(
    h(
      'div',
      { class: 'page arena' },
      h('div', { class: 'arena-head' }, h('h1', { class: 'arena-title' }, 'Class arena'), live, who),
      error,
      gameBox,
      h('div', { class: 'card' }, h('h2', {}, 'Standings'), h('p', { class: 'hint-text' }, 'Rated games only (placement and ladder). Anchors hold the scale: their ratings are fixed. Win rate counts a draw as half.'), standingsBox),
      mine,
    ),
  );

  async function loadStandings(): Promise<void> {
    const s = await api<Standings>('GET', '/api/arena/standings');
    const instructor = me?.role === 'instructor';
    const head = h('tr', {}, h('th', {}, '#'), h('th', {}, 'Player'), instructor ? h('th', {}, 'Student') : null, h('th', {}, 'Rating'), h('th', {}, 'Games'), h('th', {}, 'W–D–L'), s.anchors.map((a) => h('th', { title: `win rate against the anchor ${a}` }, `vs ${a}`)), h('th', {}, 'History'));
    const rows = s.standings.map((r, k) =>
      h(
        'tr',
        { class: r.anchor ? 'anchor-row' : me?.role === 'student' && r.pseudonym === me.pseudonym ? 'own-row' : '', 'data-pseudonym': r.pseudonym },
        h('td', {}, k + 1),
        h('td', { class: 'arena-name' }, r.pseudonym, r.anchor ? h('span', { class: 'badge anchor-badge' }, 'anchor') : null),
        instructor ? h('td', {}, r.student ?? '') : null,
        h('td', { class: 'num' }, r.rating.toFixed(2)),
        h('td', { class: 'num arena-games' }, r.games),
        h('td', { class: 'num' }, `${r.wins}–${r.draws}–${r.losses}`),
        s.anchors.map((a) => h('td', { class: 'num' }, r.anchor ? '' : pct(r.versusAnchors[a]))),
        h('td', {}, r.anchor ? h('span', { class: 'hint-text' }, 'fixed') : sparkline(r.history)),
      ),
    );
    replace(standingsBox, h('table', { class: 'standings arena-table', id: 'standings-table' }, h('thead', {}, head), h('tbody', {}, rows)));
  }

  function submissionsTable(subs: (SubmissionView & { student?: string })[], withStudent: boolean): HTMLElement {
    if (subs.length === 0) return h('p', { class: 'hint-text' }, 'No submission yet.');
    const rows = subs.map((s) =>
      h(
        'tr',
        { 'data-submission': s.id, 'data-status': s.status },
        h('td', {}, s.id),
        withStudent ? h('td', {}, s.student ?? '') : null,
        h('td', {}, h('span', { class: `sub-status sub-${s.status}` }, s.status)),
        h('td', { class: 'verdict' }, s.verdict ?? ''),
        h('td', {}, when(s.created)),
        h('td', {}, h('button', { type: 'button', class: 'feedback-button', onclick: () => void showFeedback(s.id) }, 'Feedback')),
      ),
    );
    const head = h('tr', {}, h('th', {}, 'Id'), withStudent ? h('th', {}, 'Student') : null, h('th', {}, 'Status'), h('th', {}, 'Verdict'), h('th', {}, 'Uploaded'), h('th', {}, ''));
    return h('div', { class: 'table-scroll' }, h('table', { class: 'games-table arena-list', id: withStudent ? 'all-submissions' : 'my-submissions' }, h('thead', {}, head), h('tbody', {}, rows)));
  }

  const feedbackBox = h('div', { class: 'feedback', id: 'arena-feedback' });
  async function showFeedback(id: number): Promise<void> {
    try {
      const f = await api<{ id: number; status: string; feedback: Record<string, unknown> }>('GET', `/api/arena/submissions/${id}`);
      const checks = f.feedback['checks'] as { summary?: string; text?: string } | undefined;
      const sanity = f.feedback['sanity'] as { wins?: number; games?: number; forfeits?: string[] } | undefined;
      const upload = f.feedback['upload'] as string[] | undefined;
      replace(
        feedbackBox,
        h('h3', {}, `Submission ${id}: ${f.status}`),
        typeof f.feedback['verdict'] === 'string' ? h('p', { class: 'verdict-line' }, f.feedback['verdict']) : null,
        upload !== undefined && upload.length > 0 ? h('p', {}, 'Upload: ', upload.join('; ')) : null,
        checks === undefined ? h('p', { class: 'hint-text' }, 'The public checks are running…') : [h('p', {}, 'Public checks: ', checks.summary ?? ''), checks.text ? h('pre', { class: 'log-text' }, checks.text) : null],
        sanity === undefined ? null : [h('p', {}, `Sanity stage: won ${sanity.wins} of ${sanity.games} games against random`), (sanity.forfeits ?? []).length > 0 ? h('ul', { class: 'forfeits' }, (sanity.forfeits ?? []).map((x) => h('li', {}, x))) : null],
      );
    } catch (e) {
      showError(e);
    }
  }

  function gamesTable(games: GameSummary[]): HTMLElement {
    if (games.length === 0) return h('p', { class: 'hint-text' }, 'No game yet.');
    return h(
      'div',
      { class: 'tournament-games table-scroll' },
      h(
        'table',
        { class: 'games-table arena-list', id: 'arena-games' },
        h('thead', {}, h('tr', {}, h('th', {}, 'Game'), h('th', {}, 'Kind'), h('th', {}, 'A'), h('th', {}, 'B'), h('th', {}, 'Result'), h('th', {}, ''))),
        h(
          'tbody',
          {},
          games.map((g) =>
            h(
              'tr',
              { 'data-game': g.id },
              h('td', {}, g.id),
              h('td', {}, g.kind),
              h('td', {}, g.A),
              h('td', {}, g.B),
              h('td', {}, g.status !== 'done' ? g.status : `${g.winner === 'draw' ? 'draw' : `${g.winner} won`} ${g.score === null ? '' : `${g.score[0]}–${g.score[1]}`}`),
              h('td', {}, g.status === 'done' ? h('a', { href: `#/?game=${g.id}`, class: 'game-link' }, 'open') : ''),
            ),
          ),
        ),
      ),
    );
  }

  const pseudonymInput = h('input', { type: 'text', id: 'pseudonym', maxlength: 40, 'aria-label': 'pseudonym' });
  const opponent = h('input', { type: 'text', id: 'scrim-opponent', placeholder: 'greedy, or a pseudonym', 'aria-label': 'opponent', list: 'scrim-opponents' });
  const opponents = h('datalist', { id: 'scrim-opponents' });
  const zip = h('input', { type: 'file', id: 'upload-zip', accept: '.zip,application/zip' });
  const folder = h('input', { type: 'file', id: 'upload-folder', webkitdirectory: true, multiple: true });
  const uploadNote = h('p', { class: 'hint-text', id: 'upload-note' }, 'Your agent’s folder (zipped here, as ', h('code', {}, 'mancala submit'), ' zips it) or a zip of it; or drop either here.');
  const drop = h('div', { class: 'drop-zone', id: 'upload-drop' }, h('label', { class: 'upload-choice' }, 'Folder: ', folder), h('label', { class: 'upload-choice' }, 'Zip: ', zip), uploadNote);

  async function upload(file: File | { name: string; bytes: () => Promise<Uint8Array> }): Promise<void> {
    try {
      uploadNote.textContent = `uploading ${file.name}…`;
      const bytes = file instanceof File ? new Uint8Array(await file.arrayBuffer()) : await file.bytes();
      const s = await call<SubmissionView>('POST', '/api/arena/submissions', bytes, 'application/zip');
      uploaded = s.id;
      uploadNote.textContent = `submission ${s.id}: ${s.status}`;
      await loadMine();
      void showFeedback(s.id);
    } catch (e) {
      uploadNote.textContent = '';
      showError(e);
    }
  }
  zip.addEventListener('change', () => {
    const f = zip.files?.[0];
    if (f !== undefined) void upload(f);
  });
  drop.addEventListener('dragover', (e) => {
    e.preventDefault();
    drop.classList.add('over');
  });
  drop.addEventListener('dragleave', () => drop.classList.remove('over'));
  folder.addEventListener('change', () => {
    const list = folder.files;
    if (list === null || list.length === 0) return;
    const files = pickedFiles(list);
    void upload({ name: `${files[0]!.path.split('/')[0]}/ (${files.length} files)`, bytes: () => zipFiles(files) });
  });
  drop.addEventListener('drop', (e) => {
    e.preventDefault();
    drop.classList.remove('over');
    const entry = e.dataTransfer?.items[0]?.webkitGetAsEntry() ?? null;
    if (entry !== null && entry.isDirectory) {
      void upload({ name: `${entry.name}/`, bytes: async () => zipFiles(await droppedFiles(entry)) });
      return;
    }
    const f = e.dataTransfer?.files[0];
    if (f !== undefined) void upload(f);
  });

  /** The submission the upload note names: the note follows its status as the page reloads. */
  let uploaded: number | undefined;
  let built = false;
  const subsBox = h('div', { id: 'arena-submissions' });
  const gamesBox = h('div', { id: 'arena-games-box' });
  const scrimNote = h('p', { class: 'hint-text', id: 'scrim-note' });

  function buildMine(): void {
    if (built || me === undefined) return;
    built = true;
    if (me.role === 'student') {
      pseudonymInput.value = me.pseudonym;
      replace(
        mine,
        h(
          'div',
          { class: 'arena-forms' },
          h(
            'div',
            { class: 'card' },
            h('h2', {}, 'Your pseudonym'),
            h('p', { class: 'hint-text' }, 'The name the standings show; your student id is never shown to classmates.'),
            h(
              'form',
              {
                id: 'pseudonym-form',
                class: 'controls',
                onsubmit: (e: Event) => {
                  e.preventDefault();
                  void call<{ pseudonym: string }>('PUT', '/api/arena/me/pseudonym', { pseudonym: pseudonymInput.value })
                    .then(async (r) => {
                      if (me?.role === 'student') me.pseudonym = r.pseudonym;
                      error.hidden = true;
                      await refresh();
                    })
                    .catch(showError);
                },
              },
              pseudonymInput,
              h('button', { type: 'submit' }, 'Save'),
            ),
          ),
          h('div', { class: 'card' }, h('h2', {}, 'Submit'), drop),
          h(
            'div',
            { class: 'card' },
            h('h2', {}, 'Scrim'),
            h('p', { class: 'hint-text' }, 'Two unranked games (both seats) of your current ladder submission against an anchor or a classmate: they count for nothing.'),
            h(
              'form',
              {
                id: 'scrim-form',
                class: 'controls',
                onsubmit: (e: Event) => {
                  e.preventDefault();
                  void call<{ games: number[] }>('POST', '/api/arena/scrims', { opponent: opponent.value })
                    .then(async (r) => {
                      scrimNote.textContent = `scrim games ${r.games.join(', ')} queued`;
                      error.hidden = true;
                      await loadMine();
                    })
                    .catch(showError);
                },
              },
              opponent,
              opponents,
              h('button', { type: 'submit' }, 'Challenge'),
            ),
            scrimNote,
          ),
        ),
        h('div', { class: 'card' }, h('h2', {}, 'Your submissions'), subsBox, feedbackBox),
        h('div', { class: 'card' }, h('h2', {}, 'Your games'), h('p', { class: 'hint-text' }, 'Open a game for its moves, the time each of your moves took, your stderr and any crash.'), gamesBox),
      );
    } else {
      replace(mine, h('div', { class: 'card' }, h('h2', {}, 'All submissions'), subsBox, feedbackBox), h('div', { class: 'card' }, h('h2', {}, 'Latest games'), gamesBox));
    }
  }

  async function loadMine(): Promise<void> {
    me = await api<Me>('GET', '/api/arena/me');
    replace(who, me.role === 'instructor' ? 'You are the instructor: you see every submission, game and log.' : ['You are ', h('strong', {}, me.pseudonym), ` (${me.student}) in the standings`], me.frozen ? ' · the arena is frozen: no new submissions.' : '');
    buildMine();
    const subs = await api<{ submissions: (SubmissionView & { student?: string })[] }>('GET', '/api/arena/submissions');
    replace(subsBox, submissionsTable(subs.submissions, me.role === 'instructor'));
    const last = subs.submissions.find((x) => x.id === uploaded);
    if (last !== undefined) uploadNote.textContent = `submission ${last.id}: ${last.status}${last.verdict === undefined ? '' : `: ${last.verdict}`}`;
    const games = await api<{ games: GameSummary[] }>('GET', '/api/arena/games');
    replace(gamesBox, gamesTable(games.games));
  }

  async function openGame(id: string | null): Promise<void> {
    if (id === null || !/^\d+$/.test(id)) {
      gameBox.hidden = true;
      return;
    }
    try {
      const g = await api<GameSummary & { yourSides: string[]; forfeit: { side: string; reason: string; message?: string } | null; record: { moves: number[]; openingPlies: number } | null }>('GET', `/api/arena/games/${id}`);
      let log: GameLog | undefined;
      if (g.yourSides.length > 0) log = await api<GameLog>('GET', `/api/arena/games/${id}/log`);
      replace(
        gameBox,
        h('div', { class: 'report-head' }, h('h2', {}, `Game ${g.id} · ${g.kind}`), h('a', { href: '#/', class: 'close-game' }, 'close')),
        h('p', { class: 'result' }, `${g.A} (A) against ${g.B} (B): `, g.winner === 'draw' ? 'a draw' : `${g.winner === 'A' ? g.A : g.B} won`, g.score === null ? '' : `, ${g.score[0]}–${g.score[1]}`),
        g.forfeit === null ? null : h('p', { class: 'message error forfeit-line' }, `Side ${g.forfeit.side} forfeited: ${g.forfeit.reason}${g.forfeit.message === undefined ? '' : `: ${g.forfeit.message}`}`),
        g.record === null ? null : h('p', { class: 'hint-text' }, `Moves (pits, from 0; the first ${g.record.openingPlies} are the seeded opening): `, h('code', { id: 'game-moves' }, g.record.moves.join(' '))),
        h('p', {}, h('a', { href: `#/replays?arena-game=${g.id}`, id: 'replay-link' }, 'Step through it on the board'), ' · ', h('a', { href: `/api/arena/games/${g.id}/replay`, download: `arena-game-${g.id}.jsonl`, id: 'replay-download' }, 'download the replay')),
        (log?.logs ?? []).map((l) =>
          h(
            'div',
            { class: 'side-log', 'data-side': l.side },
            h('h3', {}, `Your side ${l.side}`),
            l.crash === null ? null : h('p', { class: 'crash-line' }, 'Crash: ', l.crash),
            h('p', { class: 'hint-text' }, `Time per move (ms): ${l.moves.length === 0 ? 'none' : l.moves.map((m) => m.ms).join(' ')}; the slowest ${l.moves.length === 0 ? 0 : Math.max(...l.moves.map((m) => m.ms))} ms`),
            h('pre', { class: 'log-text stderr-text' }, l.stderr === '' ? '(nothing on stderr)' : l.stderr),
          ),
        ),
      );
      gameBox.hidden = false;
    } catch (e) {
      showError(e);
    }
  }

  async function refresh(): Promise<void> {
    try {
      await loadMine();
      await loadStandings();
      const names = (await api<Standings>('GET', '/api/arena/standings')).standings.map((s) => s.pseudonym).filter((p) => me?.role !== 'student' || p !== me.pseudonym);
      replace(opponents, names.map((n) => h('option', { value: n })));
    } catch (e) {
      if (!closed) showError(e);
    }
  }

  // Live: one stream; a burst of changes is one reload.
  let pending: ReturnType<typeof setTimeout> | undefined;
  const source = new EventSource('/api/arena/events');
  source.addEventListener('open', () => {
    live.textContent = 'live';
    live.classList.add('on');
  });
  source.addEventListener('error', () => {
    live.textContent = 'reconnecting…';
    live.classList.remove('on');
  });
  source.addEventListener('change', () => {
    if (pending !== undefined) return;
    pending = setTimeout(() => {
      pending = undefined;
      void refresh();
    }, 300);
  });
  void refresh().then(() => openGame(ctx.params.get('game')));
  return () => {
    closed = true;
    source.close();
    clearTimeout(pending);
  };
}

export const arenaPage: Page = { id: '', title: 'Arena', summary: 'the class arena: standings, your submissions, games and logs', mount };
