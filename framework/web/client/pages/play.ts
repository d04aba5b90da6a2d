/**
 * Play: a human against any agent the CLI accepts, two humans, or two agents watched live, under
 * any course profile. The server runs the game and the agents (framework/web/server/
 * game-session.ts); this page draws what it answers and asks for each agent move in turn, at the
 * pace chosen, so a free turn's moves are seen one by one.
 *
 * Keys: the pit's number as the course names it (1–6 for cups, 0–5 for B0–B5, 2–7 for B2–B7),
 * or ←/→ to choose and Enter to play; U takes a move back, H asks for a hint.
 *
 * The setup form is play-form.ts, the keys play-keys.ts; this module holds the game and its board.
 */
import type { Catalog, GameView, Hint, MoveView, PitView, Seat } from '../../shared/api.ts';
import { api, ApiFailure } from '../api.ts';
import { describeMove, moveLabel, renderBoard } from '../board.ts';
import { h, replace, scrollWithin, signed } from '../dom.ts';
import type { Page, PageContext } from '../router.ts';
import { explorerHref } from './explorer.ts';
import { playForm } from './play-form.ts';
import { pitKeys, pitNumber } from './play-keys.ts';

const sleep = (ms: number) => new Promise<void>((done) => setTimeout(done, ms));

function mount(outlet: HTMLElement, ctx: PageContext): () => void {
  let game: GameView | undefined;
  let busy: string | undefined;
  /** the last New game was refused (its message shows) */
  let refused = false;
  let hint: Hint | undefined;
  let selected: number | undefined;
  let paused = false;
  let mounted = true;
  /** bumps with each new game: a loop of an older game stops */
  let generation = 0;

  const setup = playForm(ctx.params);
  const { form, startButton } = setup;

  // ---- the board area ----
  const message = h('div', { class: 'message error', role: 'alert', hidden: true });
  const status = h('div', { class: 'status', id: 'status', 'aria-live': 'polite' }, 'Starting a game…');
  const boardBox = h('div', { class: 'board-box', id: 'board' });
  const event = h('p', { class: 'event', id: 'last-move', 'aria-live': 'polite' });
  const undoButton = h('button', { type: 'button', id: 'undo', title: 'take back your last move (U)' }, 'Undo');
  const hintButton = h('button', { type: 'button', id: 'hint', title: "the reference alpha-beta's move (H)" }, 'Hint');
  const pauseButton = h('button', { type: 'button', id: 'pause' }, 'Pause');
  const stepButton = h('button', { type: 'button', id: 'step' }, 'Step');
  const hintLine = h('p', { class: 'hint-line', id: 'hint-line', hidden: true });
  const exploreLink = h('a', { id: 'explore-position', href: '#/explorer', title: 'the search tree from this position (Search explorer)' }, 'Explore this position');
  const controls = h('div', { class: 'controls' }, undoButton, hintButton, pauseButton, stepButton, exploreLink);
  const log = h('ol', { class: 'move-log', id: 'move-log' });
  const keysHelp = h('p', { class: 'hint-text keys' });

  const main = h('section', { class: 'play-main' }, message, status, boardBox, event, controls, hintLine, keysHelp);
  const side = h('aside', { class: 'play-side' }, form, h('div', { class: 'card log-card' }, h('h2', {}, 'Moves'), log));
  const pageEl = h('div', { class: 'page play' }, main, side);
  outlet.appendChild(pageEl);

  const names = (): Record<Seat, string> => {
    if (game === undefined) return { bottom: 'bottom', top: 'top' };
    const humans = game.seats.filter((s) => s.human).length;
    const name = (k: 0 | 1) => {
      const s = game!.seats[k];
      return s.human ? (humans === 1 ? 'you' : 'human') : s.label;
    };
    return { bottom: name(0), top: name(1) };
  };
  const bothAgents = () => game !== undefined && game.seats.every((s) => !s.human);
  const lastMove = (): MoveView | undefined => game?.moves[game.moves.length - 1];
  const humanTurn = () => game !== undefined && busy === undefined && game.waitingFor === 'human';
  const moverPits = (): PitView[] => (game === undefined ? [] : game.board[game.board.toMove]);

  function showError(text: string | undefined): void {
    message.hidden = text === undefined;
    message.textContent = text ?? '';
  }

  function statusText(): string {
    if (game === undefined) return busy ?? (refused ? 'No game: fix the setup and press New game.' : 'No game yet: choose the players and press New game.');
    const n = names();
    if (game.waitingFor === 'nobody') return `Game over: ${resultText()}`;
    const mover = game.board.toMove;
    const free = lastMove()?.freeTurn === true && lastMove()?.seat === mover ? 'Free turn! ' : '';
    if (busy !== undefined) return `${free}${busy}`;
    if (game.waitingFor === 'agent') return paused && bothAgents() ? `${free}Paused: ${n[mover]} (${mover}) is to move. Resume, or Step one move.` : `${free}${n[mover]} (${mover}) is to move…`;
    const who = n[mover] === 'you' ? 'Your move' : `${mover === 'bottom' ? 'Bottom' : 'Top'} to move`;
    return `${free}${who}: click a pit of the ${mover} row, or type its number`;
  }

  function resultText(): string {
    if (game === undefined || game.waitingFor !== 'nobody') return '';
    const n = names();
    const wins = (seat: Seat) => (n[seat] === 'you' ? 'you win' : `${n[seat]} (${seat}) wins`);
    if (game.forfeit !== undefined) {
      const f = game.forfeit;
      return `${n[f.seat]} (${f.seat}) forfeits (${f.reason}): ${wins(f.seat === 'bottom' ? 'top' : 'bottom')}.`;
    }
    const final = game.board.final ?? game.board.stores;
    const score = `bottom ${final.bottom}, top ${final.top}`;
    return final.bottom === final.top ? `a draw, ${score}.` : `${wins(final.bottom > final.top ? 'bottom' : 'top')}, ${score}.`;
  }

  function renderLog(): void {
    const n = names();
    replace(
      log,
      (game?.moves ?? []).map((m) =>
        h(
          'li',
          { class: `${m.seat}${m === lastMove() ? ' current' : ''}` },
          h('span', { class: 'who' }, `${m.seat === 'bottom' ? '▼' : '▲'} ${n[m.seat]}`),
          ' ',
          h('strong', {}, moveLabel(m.name)),
          m.value !== undefined ? h('span', { class: 'badge value', title: "the agent's value of its move" }, signed(m.value)) : null,
          m.note !== undefined ? h('span', { class: 'note' }, m.note) : null,
          m.freeTurn ? h('span', { class: 'badge free' }, 'free turn') : null,
          m.capture !== null ? h('span', { class: 'badge capture', title: m.capture.text }, `captured ${m.capture.stones}`) : null,
        ),
      ),
    );
    scrollWithin(log, log.lastElementChild);
  }

  function render(): void {
    if (!mounted) return;
    status.textContent = statusText();
    status.className = `status${game?.waitingFor === 'nobody' ? ' over' : humanTurn() ? ' your-turn' : ''}`;
    if (game !== undefined) {
      const legal = moverPits().filter((q) => q.legal);
      if (selected !== undefined && !legal.some((q) => q.index === selected)) selected = undefined;
      replace(
        boardBox,
        renderBoard(game.board, {
          lastMove: lastMove(),
          onPlay: humanTurn() ? (pit) => void play(pit.index) : undefined,
          selected,
          hint: hint?.move,
          names: names(),
          ended: game.forfeit !== undefined,
        }),
      );
      const m = lastMove();
      // A forfeit's message may hold the submission's stderr (a stack trace): shown whole, as it was written.
      event.classList.toggle('forfeit', game.forfeit !== undefined);
      event.textContent =
        game.forfeit !== undefined
          ? `${names()[game.forfeit.seat]} (${game.forfeit.seat}) forfeits, ${game.forfeit.reason}: ${game.forfeit.message}`
          : m === undefined
            ? 'No move yet.'
            : `Last move: ${describeMove(m, names())}`;
      const keys = [...new Set(legal.map((q) => pitNumber(q.name)))].join(' ');
      keysHelp.textContent = humanTurn() ? `Keys: ${keys} play that pit; ←/→ choose and Enter plays; U undoes, H hints.` : '';
    }
    boardBox.hidden = event.hidden = controls.hidden = game === undefined;
    undoButton.disabled = game === undefined || !game.canUndo || busy !== undefined;
    hintButton.disabled = !humanTurn();
    pauseButton.hidden = stepButton.hidden = !bothAgents() || game?.waitingFor === 'nobody';
    pauseButton.textContent = paused ? 'Resume' : 'Pause';
    stepButton.disabled = !(paused && game?.waitingFor === 'agent' && busy === undefined);
    startButton.disabled = busy === 'Starting the game…';
    if (hint !== undefined && game !== undefined && humanTurn()) {
      hintLine.hidden = false;
      const v = hint.value === null ? 'chose it' : `values it ${signed(hint.value)} for the ${game.board.toMove} player (the store difference it foresees)`;
      hintLine.textContent = `Hint: play ${hint.name} — ${hint.agent} ${v}; ${hint.nodes.toLocaleString('en')} positions in ${hint.ms} ms.`;
    } else hintLine.hidden = true;
    exploreLink.hidden = game === undefined || game.waitingFor === 'nobody';
    if (game !== undefined) exploreLink.href = explorerHref(game.rules, game.board);
    renderLog();
  }

  /** Asks the server for agent moves while an agent is to move (and the watch is not paused). */
  async function runAgents(gen: number, once = false): Promise<void> {
    while (mounted && gen === generation && game !== undefined && game.waitingFor === 'agent' && (once || !(paused && bothAgents()))) {
      const wait = setup.paceMs(bothAgents());
      if (wait > 0 && game.moves.length > 0) {
        render();
        await sleep(wait);
        if (!mounted || gen !== generation) return;
        if (!once && paused && bothAgents()) break;
      }
      const mover = game.board.toMove;
      busy = `${names()[mover]} (${mover}) is thinking…`;
      render();
      try {
        const next = await api<GameView>('POST', `/api/games/${game.id}/advance`, {});
        if (gen !== generation) return;
        game = next;
        hint = undefined;
      } catch (e) {
        if (gen !== generation) return;
        showError(e instanceof ApiFailure ? e.message : String(e));
        busy = undefined;
        render();
        return;
      } finally {
        if (gen === generation) busy = undefined;
      }
      render();
      if (once) break;
    }
    render();
  }

  async function play(move: number): Promise<void> {
    if (game === undefined || !humanTurn()) return;
    const gen = generation;
    busy = 'Playing…';
    showError(undefined);
    render();
    try {
      game = await api<GameView>('POST', `/api/games/${game.id}/move`, { move });
      hint = undefined;
      selected = undefined;
    } catch (e) {
      showError(e instanceof ApiFailure ? e.message : String(e));
    } finally {
      busy = undefined;
    }
    render();
    await runAgents(gen);
  }

  async function undo(): Promise<void> {
    if (game === undefined || !game.canUndo || busy !== undefined) return;
    showError(undefined);
    try {
      game = await api<GameView>('POST', `/api/games/${game.id}/undo`, {});
      hint = undefined;
    } catch (e) {
      showError(e instanceof ApiFailure ? e.message : String(e));
    }
    render();
  }

  async function askHint(): Promise<void> {
    if (game === undefined || !humanTurn()) return;
    busy = 'Asking the reference search for a hint…';
    render();
    try {
      hint = await api<Hint>('POST', `/api/games/${game.id}/hint`, {});
    } catch (e) {
      showError(e instanceof ApiFailure ? e.message : String(e));
    } finally {
      busy = undefined;
    }
    render();
  }

  function closeGame(): void {
    if (game === undefined) return;
    void fetch(`/api/games/${game.id}`, { method: 'DELETE', keepalive: true }).catch(() => {});
  }

  async function newGame(): Promise<void> {
    const gen = ++generation;
    closeGame();
    game = undefined;
    hint = undefined;
    selected = undefined;
    paused = false;
    showError(undefined);
    refused = false;
    const req = setup.request();
    ctx.setParams(setup.params(req));
    busy = 'Starting the game…';
    render();
    try {
      const view = await api<GameView>('POST', '/api/games', req);
      if (gen !== generation || !mounted) {
        void fetch(`/api/games/${view.id}`, { method: 'DELETE', keepalive: true }).catch(() => {});
        return;
      }
      game = view;
    } catch (e) {
      if (gen !== generation) return;
      showError(e instanceof ApiFailure ? e.message : String(e));
      busy = undefined;
      refused = true;
      boardBox.replaceChildren();
      event.textContent = '';
      render();
      return;
    }
    busy = undefined;
    render();
    performance.mark('mancala:board');
    await runAgents(gen);
  }

  const keys = pitKeys({
    hasGame: () => game !== undefined,
    humanTurn,
    moverPits,
    selected: () => selected,
    select: (index) => {
      selected = index;
      render();
    },
    play: (index) => void play(index),
    undo: () => void undo(),
    hint: () => void askHint(),
  });
  const onKey = keys.onKey;

  // ---- wiring ----
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    void newGame();
  });
  undoButton.addEventListener('click', () => void undo());
  hintButton.addEventListener('click', () => void askHint());
  pauseButton.addEventListener('click', () => {
    paused = !paused;
    render();
    if (!paused) void runAgents(generation);
  });
  stepButton.addEventListener('click', () => void runAgents(generation, true));
  document.addEventListener('keydown', onKey);
  window.addEventListener('pagehide', closeGame);

  void (async () => {
    let catalog: Catalog;
    try {
      catalog = await api<Catalog>('GET', '/api/catalog');
    } catch (e) {
      showError(e instanceof ApiFailure ? e.message : String(e));
      return;
    }
    if (!mounted) return;
    setup.load(catalog);
    await newGame();
  })();

  return () => {
    mounted = false;
    generation++;
    keys.dispose();
    document.removeEventListener('keydown', onKey);
    window.removeEventListener('pagehide', closeGame);
    closeGame();
  };
}

export const playPage: Page = {
  id: 'play',
  title: 'Play',
  summary: 'You against any agent, two humans, or two agents watched live, under any course’s rules.',
  mount,
  runs: true,
};
