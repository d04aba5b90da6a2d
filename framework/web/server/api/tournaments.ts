/**
 * The Tournaments page's API (tournament-view.ts reads the results file, under the server's root only):
 *
 *   GET /api/standings?path=P          → TournamentStandings: progress, standings, crosstable
 *   GET /api/standings/events?path=P   → server-sent events (text/event-stream):
 *        event: standings   data: TournamentStandings   at once, then whenever the file changes
 *        event: done        data: {}                    when every scheduled game is recorded (the stream ends)
 *        event: failure     data: {"error": "…"}        the file became unreadable (the stream ends)
 *        a comment line every 15 s, so proxies and browsers keep an idle stream open
 *
 * The stream is refused like any request (4xx, one line) before it starts: the file is read and
 * checked first, so a malformed file or query never opens a stream (the fuzz test relies on it,
 * since a stream that never ends would hold its request). Server-sent events rather than a
 * websocket: the page only listens, EventSource reconnects by itself, and Fastify serves a stream
 * as it is — a PassThrough sent as the reply keeps the app's hooks (its security headers, no-store)
 * and its close handling (the client goes, Fastify destroys the stream, its timers stop), which
 * `reply.hijack()` and writing to reply.raw would bypass.
 *
 * The file is polled (a stat every POLL_MS) rather than watched: fs.watch misses appends on some
 * file systems (network and container mounts), and a stat is cheap; the view is built again only
 * when the file's size or time changed.
 */
import { PassThrough } from 'node:stream';
import * as z from 'zod';
import type { TournamentStandings } from '../../shared/api.ts';
import type { ApiModule } from '../context.ts';
import { checked, errorReply, HttpError } from '../http-error.ts';
import { fileStamp, resultsFile, tournamentStandings, type ResultsFile } from '../tournament-view.ts';

/** How often an open stream looks at its file, ms. */
export const POLL_MS = 400;
/** An idle stream's comment line, ms. */
export const HEARTBEAT_MS = 15_000;
/** Streams open at once (each polls its file): a page holds one; more are refused (429). */
export const MAX_STREAMS = 32;
/** How long a browser waits before reconnecting a stream that broke, ms (the `retry:` field). */
const RETRY_MS = 3000;

const path = z.string({ error: 'expected a path under the server\'s folder' }).max(4096, { error: 'expected a path of at most 4096 characters' });
const standingsQuery = z.strictObject({ path }, { error: 'expected ?path=DIR/results.jsonl' });

/** One server-sent event: JSON.stringify writes no line break, so `data` is one line. */
const sse = (event: string, data: unknown) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;

export const tournamentsApi: ApiModule = (app, ctx) => {
  const streams = new Set<PassThrough>();

  app.get('/api/standings', async (req): Promise<TournamentStandings> => tournamentStandings(resultsFile(ctx.root, checked(standingsQuery, req.query, 'query').path)));

  // No HEAD route: it would open a stream with no body to send.
  app.get('/api/standings/events', { exposeHeadRoute: false }, async (req, reply) => {
    const file = resultsFile(ctx.root, checked(standingsQuery, req.query, 'query').path);
    if (streams.size >= MAX_STREAMS) throw new HttpError(429, `${MAX_STREAMS} live views are open already: close one (another tab of this page) and reload`);
    // Read before streaming: a file that cannot be read is refused as any request is.
    const stamp = fileStamp(file);
    const first = tournamentStandings(file);
    const stream = liveStandings(file, stamp, first);
    streams.add(stream);
    stream.on('close', () => streams.delete(stream));
    reply.type('text/event-stream; charset=utf-8').header('x-accel-buffering', 'no');
    return reply.send(stream);
  });

  // Close the streams first, so closing the server never waits for a page to leave.
  app.addHook('preClose', async () => {
    for (const s of streams) s.end();
  });
};

/** The stream of a file's views: `first` now, then a view whenever its stamp changes, until every game is played. */
function liveStandings(file: ResultsFile, firstStamp: string, first: TournamentStandings): PassThrough {
  const out = new PassThrough();
  let stamp = firstStamp;
  const open = () => !out.destroyed && !out.writableEnded;
  const stop = () => {
    clearInterval(poll);
    clearInterval(heartbeat);
  };
  const finish = (event: string, data: unknown) => {
    stop();
    out.end(sse(event, data));
  };
  const send = (view: TournamentStandings) => {
    out.write(sse('standings', view));
    if (view.played >= view.total) finish('done', {});
  };
  const poll = setInterval(() => {
    if (!open()) return;
    // A client that stopped reading: skip this view (the next poll sends the newest one).
    if (out.writableNeedDrain) return;
    const now = fileStamp(file);
    if (now === stamp) return;
    stamp = now;
    let view: TournamentStandings;
    try {
      view = tournamentStandings(file);
    } catch (e) {
      finish('failure', { error: errorReply(e).error });
      return;
    }
    send(view);
  }, POLL_MS);
  const heartbeat = setInterval(() => open() && out.write(': still here\n\n'), HEARTBEAT_MS);
  out.on('close', stop);
  // A write racing the client's leaving fails; the stream is over then, nothing to report.
  out.on('error', stop);
  out.write(`retry: ${RETRY_MS}\n\n`);
  send(first);
  return out;
}
