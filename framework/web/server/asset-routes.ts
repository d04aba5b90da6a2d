/**
 * The routes of the front end's files (assets.ts), for `mancala serve` and for the arena: `/` and
 * `/index.html` the page, `/assets/NAME` the files it loads (index.html only as itself), and
 * `/favicon.ico` (browsers ask for it whatever the page says). Each with its etag (a 304 when the
 * browser has it) and the server's own headers.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Asset } from './assets.ts';

export function serveAssets(app: FastifyInstance, assets: ReadonlyMap<string, Asset>, headers: Readonly<Record<string, string>>): void {
  const send = (name: string) => async (req: FastifyRequest, reply: FastifyReply) => {
    const a = assets.get(name);
    if (a === undefined) return reply.code(404).send({ error: `no such file: ${name.slice(0, 200)}` });
    reply.header('etag', a.etag).headers(headers).type(a.type);
    if (req.headers['if-none-match'] === a.etag) return reply.code(304).send();
    return reply.send(a.body);
  };
  app.get('/', send('index.html'));
  app.get('/index.html', send('index.html'));
  app.get<{ Params: { name: string } }>('/assets/:name', async (req, reply) => {
    const name = req.params.name;
    if (name === 'index.html' || !assets.has(name)) return reply.code(404).send({ error: `no such file: /assets/${name.slice(0, 200)}` });
    return send(name)(req, reply);
  });
  app.get('/favicon.ico', async (_req, reply) => reply.redirect('/assets/icon.svg', 301));
}
