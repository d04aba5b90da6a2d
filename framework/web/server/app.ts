/**
 * The web app's server (`mancala serve`): Fastify serving the front end (framework/web/client/,
 * bundled: assets.ts) and the API its pages call, one module a page (API_MODULES below; a page's
 * module adds its routes under /api/).
 *
 * A malformed request never crashes it: every refusal is a 4xx with `{"error": "one line"}`
 * (http-error.ts), whatever Fastify or a route found wrong — a bad path, query or JSON body, an
 * unknown game, a file outside the root. Every request needs the server's token and must be
 * addressed to it by a name it knows (access.ts: a page of another site cannot reach it through
 * DNS rebinding); a state-changing request sent from another origin is refused, and so is every
 * one under --read-only; the page itself may load nothing from anywhere else (its
 * Content-Security-Policy).
 */
import { realpathSync } from 'node:fs';
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import type { SandboxMode } from '../../sandbox/jail/mechanisms.ts';
import { DEFAULT_LIMITS } from '../../suites/schema.ts';
import { catalogApi } from './api/catalog.ts';
import { gamesApi } from './api/games.ts';
import { replaysApi } from './api/replays.ts';
import { reportsApi } from './api/reports.ts';
import { searchApi } from './api/search.ts';
import { tournamentsApi } from './api/tournaments.ts';
import { loadAssets, type Asset } from './assets.ts';
import { serveAssets } from './asset-routes.ts';
import type { ApiModule, WebContext } from './context.ts';
import { GameSessions } from './game-sessions.ts';
import type { SessionContext } from './game-session.ts';
import { errorReply, oneLine } from './http-error.ts';
import { allowedHosts, checkAccess } from './access.ts';
import { READ_ONLY_REFUSAL } from './context.ts';

/** Each page's API. A new page adds its module here (and its page to client/pages/index.ts). */
export const API_MODULES: readonly ApiModule[] = [catalogApi, gamesApi, replaysApi, tournamentsApi, reportsApi, searchApi];

export interface WebAppOptions {
  /** the folder replays, results and agent paths are read under */
  root: string;
  sandbox: SandboxMode;
  memoryMb?: number;
  /** the host the server binds to: requests naming it are answered, besides loopback names and the machine's addresses */
  host?: string;
  /** the token every request must carry (access.ts); null: none (`--no-token`, loopback only) */
  token: string | null;
  /** more Host names to answer (`--allow-host`) */
  allowHosts?: readonly string[];
  /** a display mode: standings, replays and reports are served; nothing runs, nothing is uploaded (read-only.ts) */
  readOnly?: boolean;
  /** the front end's files (default: loadAssets()) */
  assets?: Map<string, Asset>;
  /** stands in for openPlayer (tests) */
  open?: SessionContext['open'];
}

/** What the page may load: its own files only. */
const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  // The Reports page shows the server's report documents (server/report-pages.ts) in a frame.
  "frame-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

export async function createWebApp(o: WebAppOptions): Promise<FastifyInstance> {
  const root = realpathSync(o.root);
  const assets = o.assets ?? (await loadAssets()).files;
  const sessionContext: SessionContext = { root, sandbox: o.sandbox, memoryMb: o.memoryMb ?? DEFAULT_LIMITS.memoryMb, ...(o.open !== undefined ? { open: o.open } : {}) };
  const ctx: WebContext = { root, sandbox: o.sandbox, memoryMb: sessionContext.memoryMb, games: new GameSessions(sessionContext), readOnly: o.readOnly === true };
  const access = { token: o.token, hosts: allowedHosts(o.host, o.allowHosts) };

  const app = Fastify({
    logger: false,
    bodyLimit: 1024 * 1024,
    routerOptions: { maxParamLength: 200 },
    forceCloseConnections: true,
    return503OnClosing: true,
    // What the router refuses before any route (a path that is not valid percent-encoding): a 400, one line.
    frameworkErrors: (e, _req, reply) => {
      const { status, error } = errorReply(e);
      void (reply as FastifyReply).code(status >= 500 ? 400 : status).send({ error });
    },
  });
  // JSON bodies only: a form or text/plain post from another site is refused (415) before any route.
  app.removeContentTypeParser('text/plain');

  app.addHook('onRequest', async (req, reply) => {
    const refused = await checkAccess(access, req, reply);
    if (refused !== undefined) return refused;
    const host = req.headers.host;
    const origin = req.headers.origin;
    if (req.method !== 'GET' && req.method !== 'HEAD' && typeof origin === 'string' && origin !== 'null') {
      let originHost: string;
      try {
        originHost = new URL(origin).host.toLowerCase();
      } catch {
        originHost = '';
      }
      if (originHost !== String(host ?? '').toLowerCase()) {
        reply.code(403).send({ error: `refused: a ${req.method} from another origin (${origin.slice(0, 100)})` });
        return reply;
      }
    }
    if (ctx.readOnly && req.method !== 'GET' && req.method !== 'HEAD') {
      reply.code(403).send({ error: READ_ONLY_REFUSAL });
      return reply;
    }
    return undefined;
  });
  app.addHook('onSend', async (req, reply, payload) => {
    reply.header('x-content-type-options', 'nosniff');
    reply.header('referrer-policy', 'no-referrer');
    // A document with a policy of its own keeps it (the Reports page's: server/report-pages.ts).
    if (!reply.hasHeader('content-security-policy')) reply.header('content-security-policy', CSP);
    reply.header('cross-origin-opener-policy', 'same-origin');
    reply.header('cross-origin-resource-policy', 'same-origin');
    if (req.url.startsWith('/api/')) reply.header('cache-control', 'no-store');
    return payload;
  });

  app.setErrorHandler((e, req, reply) => {
    const { status, error } = errorReply(e);
    if (status >= 500) process.stderr.write(`mancala serve: ${req.method} ${req.url.slice(0, 200)}: ${e instanceof Error && e.stack ? e.stack : String(e)}\n`);
    reply.code(status).send({ error });
  });
  app.setNotFoundHandler((req, reply) => {
    const what = req.url.startsWith('/api/') ? 'no such API' : 'no such page';
    reply.code(404).send({ error: oneLine(`${what}: ${req.method} ${req.url.slice(0, 200)}`) });
  });

  serveAssets(app, assets, { 'cache-control': 'no-cache' });

  for (const api of API_MODULES) api(app, ctx);
  app.addHook('onClose', async () => {
    await ctx.games.closeAll();
  });
  return app;
}
