/**
 * The app's router: one page a module (pages/index.ts lists them), chosen by the URL's hash,
 * `#/replays?path=replays/game-001.jsonl&ply=12`, so every state worth sharing is a link and the
 * server serves one page for all of them. A page mounts into the outlet and returns what unmounts
 * it; a page that keeps its own state in the hash (a replay's ply) writes it with `setParams`,
 * which does not mount the page again.
 */

export interface Route {
  /** the page's id; '' for the default page */
  page: string;
  params: URLSearchParams;
}

/** `#/replays?path=x` → {page: 'replays', params: path=x}. Anything unreadable is the default page. */
export function parseRoute(hash: string): Route {
  const h = hash.replace(/^#/, '').replace(/^\/+/, '');
  const q = h.indexOf('?');
  const path = (q < 0 ? h : h.slice(0, q)).replace(/\/+$/, '');
  let page: string;
  try {
    page = decodeURIComponent(path);
  } catch {
    page = path;
  }
  return { page, params: new URLSearchParams(q < 0 ? '' : h.slice(q + 1)) };
}

/** The hash of a page with its parameters (undefined and '' left out). */
export function routeHash(page: string, params: Record<string, string | number | undefined> = {}): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== '') q.set(k, String(v));
  const s = q.toString();
  return `#/${page}${s === '' ? '' : `?${s}`}`;
}

export interface PageContext {
  params: URLSearchParams;
  /** go to a page (a new history entry) */
  go(page: string, params?: Record<string, string | number | undefined>): void;
  /** this page's parameters in the address bar, in place: no history entry, no new mount */
  setParams(params: Record<string, string | number | undefined>): void;
}

export interface Page {
  id: string;
  /** its name in the navigation */
  title: string;
  /** a line about it (the home page's cards, the title attribute) */
  summary: string;
  /** it runs something on the server (games, searches): left out of a read-only server's navigation */
  runs?: true;
  /** mounts the page; returns what unmounts it (listeners, timers, the server's games) */
  mount(outlet: HTMLElement, ctx: PageContext): (() => void) | void;
}

export class Router {
  private unmount: (() => void) | undefined;
  private current: string | undefined;

  constructor(
    private readonly pages: readonly Page[],
    private readonly outlet: HTMLElement,
    private readonly onRoute: (page: Page | undefined) => void,
    private readonly notFound: (outlet: HTMLElement, id: string) => void,
  ) {}

  start(): void {
    window.addEventListener('hashchange', () => this.render());
    this.render();
  }

  private render(): void {
    const route = parseRoute(window.location.hash);
    const page = route.page === '' ? this.pages[0] : this.pages.find((p) => p.id === route.page);
    this.unmount?.();
    this.unmount = undefined;
    this.outlet.replaceChildren();
    this.current = page?.id;
    this.onRoute(page);
    if (page === undefined) {
      this.notFound(this.outlet, route.page);
      return;
    }
    document.title = `${page.title} · Mancala`;
    const id = page.id;
    const ctx: PageContext = {
      params: route.params,
      go: (to, params) => {
        window.location.hash = routeHash(to, params);
      },
      setParams: (params) => {
        if (this.current === id) history.replaceState(null, '', routeHash(id, params));
      },
    };
    this.unmount = page.mount(this.outlet, ctx) ?? undefined;
  }
}
