/**
 * The token an arena request carries: `?token=` (the link a student is given; the server then
 * sets a cookie), an `Authorization: token …` or `Bearer …` header (scripts, `mancala submit`),
 * or that cookie.
 */
import type { FastifyRequest } from 'fastify';
import { cookieValue } from '../web/server/access.ts';

/** The cookie a `?token=` request sets. */
export const COOKIE_NAME = 'mancala-arena';

/** The token a request carries, and whether it came in the query (then a cookie is set). */
export function tokenOf(req: FastifyRequest): { token: string | undefined; queried: boolean } {
  const q = req.url.indexOf('?');
  const queried = new URLSearchParams(q < 0 ? '' : req.url.slice(q + 1)).get('token') ?? undefined;
  if (queried !== undefined) return { token: queried, queried: true };
  const auth = req.headers.authorization;
  if (typeof auth === 'string' && /^(token|bearer)\s+/i.test(auth)) return { token: auth.replace(/^(token|bearer)\s+/i, '').trim(), queried: false };
  return { token: cookieValue(req.headers.cookie, COOKIE_NAME), queried: false };
}
