/**
 * The web app's front end (bundled by framework/web/build.ts): the navigation, and the router
 * that mounts one page at a time (pages/index.ts).
 */
import { api, server } from './api.ts';
import { h } from './dom.ts';
import { arenaPage } from './pages/arena.ts';
import { PAGES as ALL_PAGES } from './pages/index.ts';
import { replaysPage } from './pages/replays.ts';
import { Router, routeHash } from './router.ts';

async function start(): Promise<void> {
  let arena = false;
  try {
    const health = await api<{ readOnly?: boolean; arena?: boolean }>('GET', '/api/health');
    server.readOnly = health.readOnly === true;
    arena = health.arena === true;
    server.arena = arena;
  } catch {
    // The pages say it themselves when the server does not answer.
  }
  // A read-only server (mancala serve --read-only) runs no game and no search: those pages are left out.
  // The arena's server (mancala arena start) serves this bundle for its one page.
  const PAGES = arena ? [arenaPage, replaysPage] : server.readOnly ? ALL_PAGES.filter((p) => p.runs !== true) : ALL_PAGES;
  const links = PAGES.map((p) => h('a', { href: routeHash(p.id), 'data-page': p.id, title: p.summary }, p.title));
  const outlet = h('main', { id: 'outlet' });
  document.body.replaceChildren(
    h('header', { class: 'top-bar' }, h('a', { class: 'brand', href: '#/' }, h('span', { class: 'logo', 'aria-hidden': 'true' }), 'Mancala'), h('nav', { class: 'pages', 'aria-label': 'pages' }, links)),
    outlet,
  );
  const router = new Router(
    PAGES,
    outlet,
    (page) => {
      for (const a of links) a.classList.toggle('active', a.dataset['page'] === page?.id);
    },
    (el, id) =>
      el.appendChild(
        h('div', { class: 'card not-found' }, h('h2', {}, 'No such page'), h('p', {}, `There is no page “${id}”. Pages: `, PAGES.map((p, k) => [k > 0 ? ', ' : '', h('a', { href: routeHash(p.id) }, p.title)]), '.')),
      ),
  );
  router.start();
}

void start();
