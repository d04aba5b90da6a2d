/**
 * Who the web app answers (app.ts runs this first, on every request, static files included):
 *
 *  - the Host header must name this server: a loopback name, one of the machine's own addresses,
 *    the address it was bound to, or a name given with `--allow-host`. Bound to 0.0.0.0 too: a page
 *    of another site reaching it by DNS rebinding sends its own name as the Host (Vite's and
 *    webpack-dev-server's check; Jupyter's allow-list). A foreign Host is a 403, token or not.
 *  - the token, as Jupyter asks for it, loopback included (a lab's loopback is every user's): in
 *    `?token=` on any request, in an `Authorization: token …` header, or in the cookie that opening
 *    the printed URL sets (HttpOnly, SameSite=Strict); a page opened with `?token=` is sent on
 *    without it, so it stays out of the address bar and the history. Anything else is a 401.
 *    Compared in constant time. `token: null` (`--no-token`, loopback only) turns this part off.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { networkInterfaces } from 'node:os';
import type { FastifyReply, FastifyRequest } from 'fastify';

const LOOPBACK = ['127.0.0.1', 'localhost', '[::1]'];
const WILDCARD = new Set(['0.0.0.0', '[::]']);

/** A new token: 24 random bytes in hex, as Jupyter's. */
export function newToken(): string {
  return randomBytes(24).toString('hex');
}

/** What a token given with --token or MANCALA_SERVE_TOKEN must look like: printable, no spaces, long enough not to be guessed. */
export const TOKEN_PATTERN = /^[\x21-\x7e]{16,512}$/;

/** The host name of a Host or Origin header's authority, lower case, without the port; an IPv6 address in brackets. */
export function hostName(authority: string): string {
  const a = authority.trim().toLowerCase();
  if (a.startsWith('[')) return a.slice(0, a.indexOf(']') + 1);
  const colon = a.lastIndexOf(':');
  if (colon < 0) return a;
  // Two colons or more and no brackets: an IPv6 address as it is (as --host takes one).
  return a.indexOf(':') === colon ? a.slice(0, colon) : `[${a}]`;
}

/** The names this server answers to: loopback, the machine's own addresses, the bound host, and `allowed`. */
export function allowedHosts(boundHost: string | undefined, allowed: readonly string[] = []): Set<string> {
  const names = new Set(LOOPBACK);
  for (const list of Object.values(networkInterfaces())) {
    for (const a of list ?? []) names.add(a.family === 'IPv6' ? `[${a.address.toLowerCase().replace(/%.*$/, '')}]` : a.address);
  }
  if (boundHost !== undefined) {
    const bound = hostName(boundHost);
    if (!WILDCARD.has(bound)) names.add(bound);
  }
  for (const name of allowed) names.add(hostName(name));
  return names;
}

export interface AccessOptions {
  /** the token every request must carry; null: none asked (loopback only, checked by the command) */
  token: string | null;
  /** the Host names answered (allowedHosts) */
  hosts: ReadonlySet<string>;
}

/** The cookie's name: one per token, so two servers on one host (cookies ignore ports) keep theirs apart. */
export function cookieName(token: string): string {
  return `mancala-serve-${createHash('sha256').update(`cookie:${token}`).digest('hex').slice(0, 12)}`;
}

function digest(s: string): Buffer {
  return createHash('sha256').update(s).digest();
}

/** `given` is the token, compared in constant time (both hashed first: equal lengths, nothing learnt from where they differ). */
export function sameToken(given: string | undefined, token: string): boolean {
  return given !== undefined && timingSafeEqual(digest(given), digest(token));
}

/** The value of cookie `name` in a Cookie header. */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  if (header === undefined) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/** The page a browser without the token is shown (no script, no style of the app: the assets are refused too). */
const NEEDS_TOKEN_PAGE =
  '<!doctype html><html lang="en"><meta charset="utf-8"><title>mancala serve: token needed</title>' +
  '<h1>This server needs its token</h1><p>Open the address <code>mancala serve</code> printed when it started ' +
  '(<code>http://…/?token=…</code>). A script sends the token as <code>?token=</code> or an <code>Authorization: token …</code> header.</p></html>\n';

/**
 * The onRequest check: a reply sent (403 for a foreign Host, 401 without the token, 302 taking the
 * token out of a page's address) or undefined to go on.
 */
export async function checkAccess(o: AccessOptions, req: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> {
  const host = req.headers.host;
  const name = typeof host === 'string' ? hostName(host) : '';
  if (!o.hosts.has(name)) {
    reply
      .code(403)
      .send({ error: `refused: this server answers requests addressed to it (127.0.0.1, localhost, its own addresses, or a name given with --allow-host), not ${JSON.stringify(String(host ?? '').slice(0, 100))}` });
    return reply;
  }
  if (o.token === null) return undefined;
  const token = o.token;
  // Read by hand: new URL() refuses some paths the router takes ("//"), and a redirect must stay on this server.
  const q = req.url.indexOf('?');
  // One leading slash: "//host" or "/\\host" in a Location would send the browser to another site.
  const pathname = `/${(q < 0 ? req.url : req.url.slice(0, q)).replace(/^[/\\]+/, '')}`;
  const params = new URLSearchParams(q < 0 ? '' : req.url.slice(q + 1));
  const queried = params.get('token') ?? undefined;
  const auth = req.headers.authorization;
  const bearer = typeof auth === 'string' && /^token\s+/i.test(auth) ? auth.replace(/^token\s+/i, '').trim() : undefined;
  const cookie = cookieValue(req.headers.cookie, cookieName(token));
  if (sameToken(queried, token)) {
    // The cookie the page's own requests carry from now on (same-origin fetch and EventSource send it).
    reply.header('set-cookie', `${cookieName(token)}=${token}; Path=/; HttpOnly; SameSite=Strict`);
    if ((req.method === 'GET' || req.method === 'HEAD') && !req.url.startsWith('/api/')) {
      params.delete('token');
      const rest = params.toString();
      reply.code(302).header('location', `${pathname}${rest === '' ? '' : `?${rest}`}`).header('cache-control', 'no-store').send();
      return reply;
    }
    stripToken(req);
    return undefined;
  }
  if (sameToken(bearer, token) || sameToken(cookie, token)) {
    if (queried !== undefined) stripToken(req);
    return undefined;
  }
  const why = queried !== undefined || bearer !== undefined || cookie !== undefined ? 'a wrong token' : 'no token';
  reply.code(401).header('www-authenticate', 'token');
  const wantsPage = (req.method === 'GET' || req.method === 'HEAD') && !req.url.startsWith('/api/') && String(req.headers.accept ?? '').includes('text/html');
  if (wantsPage) reply.type('text/html; charset=utf-8').send(NEEDS_TOKEN_PAGE);
  else reply.send({ error: `refused: ${why}: open the URL mancala serve printed (…/?token=…), or send ?token= or an "Authorization: token …" header` });
  return reply;
}

/** The request's query without `token`, so that a route's strict query schema never sees it. */
function stripToken(req: FastifyRequest): void {
  const q = req.query as Record<string, unknown> | undefined;
  if (q !== null && typeof q === 'object' && 'token' in q) delete q['token'];
}
