/**
 * The arena's HTTP API (`mancala arena start`), in the web app's style (framework/web/server/):
 * Fastify, every refusal a 4xx with `{"error": "one line"}`, the Host allow-list of access.ts (a
 * page of another site reaching it by DNS rebinding is refused), a state-changing request from
 * another origin refused, and a token on every request: `?token=`, an `Authorization: token …`
 * (or `Bearer …`) header, or the cookie a `?token=` request sets. The token says who asks:
 *
 *  - the instructor sees everything (every submission, game and log, /metrics);
 *  - a student sees the public standings (pseudonyms only), and their own submissions, feedback,
 *    games, replays and crash logs; another student's submission or log is a 404, as one that
 *    does not exist (nothing tells a student what ids others have).
 *
 * Uploads are zips in the request's body (`mancala submit` zips a folder), at most
 * MAX_SUBMISSION_BYTES, at most two read at once (upload-gate.ts), unpacked by the arena with the
 * grader's hostile-safe archive reader.
 */
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { allowedHosts, hostName } from '../web/server/access.ts';
import { errorReply, HttpError, oneLine } from '../web/server/http-error.ts';
import { UploadGate } from '../web/server/upload-gate.ts';
import { Arena, ArenaFrozen, parseFeedback, RateLimited } from './arena.ts';
import { arenaReplayText } from './replay.ts';
import { ArenaEvents } from './events.ts';
import { recentRatings, versusAnchors } from './standings-extras.ts';
import { loadAssets, type Asset } from '../web/server/assets.ts';
import { serveAssets } from '../web/server/asset-routes.ts';
import { uploadedReplay } from '../web/server/replay-files.ts';
import { MAX_SUBMISSION_BYTES } from './limits.ts';
import type { GameRow, StudentRow, SubmissionRow } from './store.ts';
import { COOKIE_NAME, tokenOf } from './request-token.ts';
import { movesOf, submissionView, type MoveTimes } from './game-views.ts';

export { MAX_SUBMISSION_BYTES };

export { COOKIE_NAME };

/** How long a browser keeps the token a ?token= link gave it: a term and more (180 days). */
export const COOKIE_MAX_AGE_S = 180 * 24 * 3600;

/** What a browser without a token is shown (no script: the page's assets need the token too). */
const NEEDS_TOKEN_PAGE =
  '<!doctype html><html lang="en"><meta charset="utf-8"><title>Class arena: token needed</title>' +
  '<h1>This arena needs your token</h1><p>Open the link your instructor sent you (<code>http://…/?token=…</code>) once: this browser then keeps it. ' +
  'A script sends the token as <code>?token=</code> or an <code>Authorization: token …</code> header.</p></html>\n';

export interface ArenaServerOptions {
  arena: Arena;
  /** the host the server binds to (answered besides loopback names and the machine's addresses) */
  host?: string;
  allowHosts?: readonly string[];
  /** the web app's front end (its arena page); loaded from dist/web, or built, when not given */
  assets?: Map<string, Asset>;
}

/** The pages' policy, as the web app's (framework/web/server/app.ts): its own scripts, styles and API only. */
const PAGE_CSP = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

type Who = { role: 'instructor' } | { role: 'student'; student: StudentRow };

declare module 'fastify' {
  interface FastifyRequest {
    who?: Who;
  }
}

export async function createArenaApp(o: ArenaServerOptions): Promise<FastifyInstance> {
  const { arena } = o;
  const hosts = allowedHosts(o.host, o.allowHosts);
  const uploads = new UploadGate(MAX_SUBMISSION_BYTES, 2, 2 * MAX_SUBMISSION_BYTES);
  const assets = o.assets ?? (await loadAssets()).files;
  const events = new ArenaEvents(arena.store);
  const app = Fastify({ logger: false, bodyLimit: 256 * 1024, forceCloseConnections: true, return503OnClosing: true });
  app.removeContentTypeParser('text/plain');
  app.addContentTypeParser(['application/zip', 'application/octet-stream'], { parseAs: 'buffer', bodyLimit: MAX_SUBMISSION_BYTES }, (_req, body, done) => done(null, body));

  app.addHook('onRequest', async (req, reply) => {
    const name = typeof req.headers.host === 'string' ? hostName(req.headers.host) : '';
    if (!hosts.has(name)) return reply.code(403).send({ error: `refused: this server answers requests addressed to it (127.0.0.1, localhost, its own addresses, or a name given with --allow-host), not ${JSON.stringify(String(req.headers.host ?? '').slice(0, 100))}` });
    const origin = req.headers.origin;
    if (req.method !== 'GET' && req.method !== 'HEAD' && typeof origin === 'string' && origin !== 'null') {
      let originHost = '';
      try {
        originHost = new URL(origin).host.toLowerCase();
      } catch {
        // an origin that is no URL is another origin
      }
      if (originHost !== String(req.headers.host ?? '').toLowerCase()) return reply.code(403).send({ error: `refused: a ${req.method} from another origin (${origin.slice(0, 100)})` });
    }
    const { token, queried } = tokenOf(req);
    const who = arena.identify(token);
    if (who === undefined) {
      reply.code(401).header('www-authenticate', 'token');
      const wantsPage = (req.method === 'GET' || req.method === 'HEAD') && !req.url.startsWith('/api/') && String(req.headers.accept ?? '').includes('text/html');
      if (wantsPage) return reply.type('text/html; charset=utf-8').send(NEEDS_TOKEN_PAGE);
      return reply.send({ error: `refused: ${token === undefined ? 'no token' : 'a wrong token'}: send the token you were given as ?token=, or an "Authorization: token …" header` });
    }
    if (queried) {
      // Kept for a term: a student opens their link once and bookmarks the page.
      reply.header('set-cookie', `${COOKIE_NAME}=${token}; Path=/; Max-Age=${COOKIE_MAX_AGE_S}; HttpOnly; SameSite=Strict`);
      // A page opened with ?token= is sent on without it (as access.ts does): the token stays out of the address bar and the history.
      if ((req.method === 'GET' || req.method === 'HEAD') && !req.url.startsWith('/api/') && !req.url.startsWith('/metrics')) {
        const q = req.url.indexOf('?');
        const params = new URLSearchParams(req.url.slice(q + 1));
        params.delete('token');
        const rest = params.toString();
        const path = `/${req.url.slice(0, q).replace(/^[/\\]+/, '')}`;
        return reply.code(302).header('location', `${path}${rest === '' ? '' : `?${rest}`}`).send();
      }
    }
    req.who = who;
    const q = req.query as Record<string, unknown> | undefined;
    if (q !== null && typeof q === 'object' && 'token' in q) delete q['token'];
    return undefined;
  });
  app.addHook('onSend', async (_req, reply, payload) => {
    reply.header('x-content-type-options', 'nosniff').header('referrer-policy', 'no-referrer').header('cache-control', 'no-store');
    if (!reply.hasHeader('content-security-policy')) reply.header('content-security-policy', "default-src 'none'; frame-ancestors 'none'");
    return payload;
  });
  app.setErrorHandler((e, req, reply) => {
    if (e instanceof RateLimited) return reply.code(429).header('retry-after', '600').send({ error: oneLine(e.message) });
    if (e instanceof ArenaFrozen) return reply.code(403).send({ error: oneLine(e.message) });
    const { status, error } = errorReply(e);
    if (status >= 500) process.stderr.write(`mancala arena: ${req.method} ${req.url.slice(0, 200)}: ${e instanceof Error && e.stack ? e.stack : String(e)}\n`);
    return reply.code(status).send({ error });
  });
  app.setNotFoundHandler((req, reply) => reply.code(404).send({ error: oneLine(`no such API: ${req.method} ${req.url.slice(0, 200)}`) }));

  const who = (req: FastifyRequest): Who => req.who!;
  const studentOnly = (req: FastifyRequest): StudentRow => {
    const w = who(req);
    if (w.role !== 'student') throw new HttpError(400, 'this asks for a student\'s token (the instructor has no submission of their own)');
    return w.student;
  };
  const idParam = (v: string): number => {
    if (!/^\d{1,12}$/.test(v)) throw new HttpError(404, 'no such id');
    return Number(v);
  };
  /** A submission the asker may see: their own (a student) or any (the instructor); others are a 404. */
  const visibleSubmission = (req: FastifyRequest, id: number): SubmissionRow => {
    const sub = arena.store.submission(id);
    const w = who(req);
    if (sub === undefined || (w.role === 'student' && sub.student !== w.student.id)) throw new HttpError(404, `no submission ${id} of yours`);
    return sub;
  };
  /** The sides of a game the asker owns: both for the instructor. */
  const ownSides = (req: FastifyRequest, g: GameRow): Set<'A' | 'B'> => {
    const w = who(req);
    if (w.role === 'instructor') return new Set(['A', 'B']);
    const mine = (s: number | null) => s !== null && arena.store.submission(s)?.student === w.student.id;
    const sides = new Set<'A' | 'B'>();
    if (mine(g.a_submission)) sides.add('A');
    if (mine(g.b_submission)) sides.add('B');
    return sides;
  };
  /**
   * Game `idText` and the asker's sides in it; a 404, as for a game that does not exist, unless the
   * asker plays a side of it or (but for its logs: `sidesOnly`) asked for it as a scrim.
   */
  const visibleGame = (req: FastifyRequest, idText: string, sidesOnly = false): { id: number; g: GameRow; sides: Set<'A' | 'B'> } => {
    const id = idParam(idText);
    const g = arena.store.game(id);
    const w = who(req);
    const sides = g === undefined ? new Set<'A' | 'B'>() : ownSides(req, g);
    const requested = !sidesOnly && g !== undefined && w.role === 'student' && g.requested_by === w.student.id;
    if (g === undefined || (sides.size === 0 && !requested)) throw new HttpError(404, `no game ${id} of yours`);
    return { id, g, sides };
  };
  const sideName = (req: FastifyRequest, submission: number | null, anchor: string | null): string => {
    if (anchor !== null) return anchor;
    const sub = arena.store.submission(submission!)!;
    const student = arena.store.student(sub.student)!;
    return who(req).role === 'instructor' ? `${student.id} (${student.pseudonym}), submission ${sub.id}` : student.pseudonym;
  };
  const gameSummary = (req: FastifyRequest, g: GameRow) => ({
    id: g.id,
    kind: g.kind,
    status: g.status,
    A: sideName(req, g.a_submission, g.a_anchor),
    B: sideName(req, g.b_submission, g.b_anchor),
    first: g.first,
    winner: g.winner,
    score: g.score_a === null ? null : [g.score_a, g.score_b],
    finished: g.finished_at,
  });

  // ---- the page: the web app's bundle, whose front end mounts the arena page when /api/health says arena
  serveAssets(app, assets, { 'content-security-policy': PAGE_CSP });
  app.get('/api/health', async () => ({ ok: true, arena: true, readOnly: true }));

  /** Server-Sent Events: `change` when a game finishes or a submission's status moves (events.ts). */
  app.get('/api/arena/events', async (req, reply) => {
    if (!events.add(reply.raw)) throw new HttpError(503, `refused: ${events.open} event streams are open, the most this arena keeps`);
    reply.hijack();
    return reply;
  });
  app.addHook('onClose', async () => events.close());
  app.decorate('arenaEvents', events);

  app.get('/api/arena/me', async (req) => {
    const w = who(req);
    if (w.role === 'instructor') return { role: 'instructor', frozen: arena.isFrozen(), settings: arena.settings };
    return { role: 'student', student: w.student.id, pseudonym: w.student.pseudonym, frozen: arena.isFrozen(), submissions: arena.store.submissionsOf(w.student.id).map(submissionView) };
  });

  app.put<{ Body: { pseudonym?: unknown } }>('/api/arena/me/pseudonym', async (req) => {
    const s = studentOnly(req);
    const p = req.body?.pseudonym;
    if (typeof p !== 'string') throw new HttpError(400, 'body: expected {"pseudonym": "…"}');
    arena.setPseudonym(s.id, p);
    return { pseudonym: arena.store.student(s.id)!.pseudonym };
  });

  app.post('/api/arena/submissions', { onRequest: uploads.admit, bodyLimit: MAX_SUBMISSION_BYTES }, async (req, reply) => {
    const s = studentOnly(req);
    if (!Buffer.isBuffer(req.body)) throw new HttpError(415, 'expected the submission as a zip: Content-Type: application/zip');
    const sub = await arena.submit(s.id, { zip: req.body });
    return reply.code(201).send(submissionView(sub));
  });

  app.get('/api/arena/submissions', async (req) => {
    const w = who(req);
    const rows = w.role === 'instructor' ? (arena.store.db.all('SELECT * FROM submissions ORDER BY id') as unknown as SubmissionRow[]) : arena.store.submissionsOf(w.student.id);
    // The instructor's list says whose each is; a student's are all their own.
    return { submissions: rows.map((r) => (w.role === 'instructor' ? { ...submissionView(r), student: r.student } : submissionView(r))) };
  });

  app.get<{ Params: { id: string } }>('/api/arena/submissions/:id', async (req) => {
    const sub = visibleSubmission(req, idParam(req.params.id));
    return { ...submissionView(sub), feedback: parseFeedback(sub.feedback) };
  });

  app.get<{ Querystring: { submission?: string } }>('/api/arena/games', async (req) => {
    const w = who(req);
    let rows: GameRow[];
    if (req.query.submission !== undefined) rows = arena.store.gamesOfSubmission(visibleSubmission(req, idParam(req.query.submission)).id);
    else if (w.role === 'student') rows = arena.store.gamesOfStudent(w.student.id);
    else rows = arena.store.db.all('SELECT * FROM games ORDER BY id DESC LIMIT 500') as unknown as GameRow[];
    return { games: rows.map((g) => gameSummary(req, g)) };
  });

  /** A game of the asker's: its record (moves, each move's time, the score), and the crash log of the asker's sides only. */
  app.get<{ Params: { id: string } }>('/api/arena/games/:id', async (req) => {
    const { id, g, sides } = visibleGame(req, req.params.id);
    const forfeit = g.forfeit === null ? null : (JSON.parse(g.forfeit) as { side: 'A' | 'B'; reason: string; message: string });
    return {
      ...gameSummary(req, g),
      seed: g.seed,
      opening: g.opening,
      yourSides: [...sides],
      record: g.record === null ? null : JSON.parse(g.record),
      // The other side's message may quote its code or its output: only who forfeited and why, in a word.
      forfeit: forfeit === null ? null : sides.has(forfeit.side) ? forfeit : { side: forfeit.side, reason: forfeit.reason },
    };
  });

  /** A game of the asker's as a replay file (JSON lines, as `mancala match --replays` writes them: the web app's viewer reads it). */
  app.get<{ Params: { id: string } }>('/api/arena/games/:id/replay', async (req, reply) => {
    const { id, g, sides } = visibleGame(req, req.params.id);
    if (g.record === null) throw new HttpError(409, `game ${id} is ${g.status}: its replay is written when it ends`);
    const text = arenaReplayText(arena.settings, g, { A: sideName(req, g.a_submission, g.a_anchor), B: sideName(req, g.b_submission, g.b_anchor) }, sides);
    return reply.type('application/x-ndjson; charset=utf-8').send(text);
  });

  /** The same replay read for the web app's replay viewer (its Replays page, opened from the arena page): the board at every ply. */
  app.get<{ Params: { id: string } }>('/api/arena/games/:id/view', async (req) => {
    const { id, g, sides } = visibleGame(req, req.params.id);
    if (g.record === null) throw new HttpError(409, `game ${id} is ${g.status}: its replay is written when it ends`);
    return uploadedReplay(`arena game ${id}`, arenaReplayText(arena.settings, g, { A: sideName(req, g.a_submission, g.a_anchor), B: sideName(req, g.b_submission, g.b_anchor) }, sides));
  });

  app.get<{ Params: { id: string } }>('/api/arena/games/:id/log', async (req) => {
    const { id, g, sides } = visibleGame(req, req.params.id, true);
    const forfeit = g.forfeit === null ? null : (JSON.parse(g.forfeit) as { side: 'A' | 'B'; reason: string; message: string });
    const record = g.record === null ? undefined : (JSON.parse(g.record) as MoveTimes);
    return {
      game: id,
      logs: [...sides].map((side) => ({
        side,
        crash: forfeit !== null && forfeit.side === side ? `${forfeit.reason}: ${forfeit.message}` : null,
        stderr: record?.stderr?.[side === 'A' ? 0 : 1] ?? '',
        moves: record === undefined ? [] : movesOf(record, side),
      })),
    };
  });

  const standingsView = (instructor: boolean) => {
    const rows = arena.standings();
    const versus = versusAnchors(arena.store, rows.flatMap((s) => (s.submission === null ? [] : [s.submission])));
    return rows.map((s) => ({
      ...(instructor ? { student: s.student } : {}),
      pseudonym: s.pseudonym,
      anchor: s.anchor,
      rating: s.rating,
      sigma: s.sigma,
      games: s.games,
      wins: s.wins,
      draws: s.draws,
      losses: s.losses,
      versusAnchors: s.submission === null ? {} : (versus.get(s.submission) ?? {}),
      history: recentRatings(arena.store, s),
    }));
  };

  app.get('/api/arena/standings', async (req) => {
    const instructor = who(req).role === 'instructor';
    return {
      frozen: arena.isFrozen(),
      anchors: arena.settings.anchors.map((a) => a.spec),
      standings: standingsView(instructor),
    };
  });

  app.post<{ Body: { opponent?: unknown } }>('/api/arena/scrims', async (req, reply) => {
    const s = studentOnly(req);
    const opponent = req.body?.opponent;
    if (typeof opponent !== 'string' || opponent.trim() === '') throw new HttpError(400, 'body: expected {"opponent": "an anchor (random, greedy, …) or a pseudonym"}');
    const games = arena.scrim(s.id, opponent.trim());
    return reply.code(201).send({ games });
  });

  app.get('/metrics', async (req, reply) => {
    if (who(req).role !== 'instructor') throw new HttpError(403, "refused: /metrics is the instructor's");
    const m = arena.metrics();
    const workers = await arena.workerCount();
    const lines = [
      ...metric('games_queued', 'gauge', 'Games waiting for a worker.', [['', m.queued]]),
      ...metric('games_running', 'gauge', 'Games being played.', [['', m.running]]),
      ...metric('games_done_total', 'counter', 'Games played to the end.', [['', m.done]]),
      ...metric('games_per_minute', 'gauge', 'Games finished in the last minute.', [['', m.gamesLastMinute]]),
      ...metric('workers', 'gauge', 'Local jobs playing games, or with --queue the mancala worker processes connected to the queue (NaN: Redis could not be asked).', [['', workers ?? NaN]]),
      ...metric('submissions', 'gauge', 'Submissions by status.', Object.entries(m.submissions).map(([status, n]) => [`{status="${status}"}`, n])),
    ];
    return reply.type('text/plain; version=0.0.4').send(lines.join('\n') + '\n');
  });

  return app;
}

/** One metric in Prometheus's text format: its help and type lines, then a sample a label set ('' none). */
function metric(name: string, type: 'gauge' | 'counter', help: string, samples: readonly (readonly [string, number])[]): string[] {
  const full = `mancala_arena_${name}`;
  return [`# HELP ${full} ${help}`, `# TYPE ${full} ${type}`, ...samples.map(([labels, v]) => `${full}${labels} ${Number.isNaN(v) ? 'NaN' : v}`)];
}
