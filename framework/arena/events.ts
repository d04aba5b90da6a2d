/**
 * The arena's change feed (GET /api/arena/events, Server-Sent Events): the page keeps one stream
 * open and reloads what it shows when the arena changes: a game finished (and so was rated) or a
 * submission's status moved. The feed reads the store, not the arena's internals: one timer, running
 * only while a stream is open, compares a small digest of the store every POLL_MS, so the games'
 * and the checks' code paths stay as they are. Bounded: at most MAX_STREAMS streams, a heartbeat
 * comment every HEARTBEAT_MS (proxies drop a silent stream), each stream closed when its client goes.
 */
import type { ServerResponse } from 'node:http';
import type { ArenaStore } from './store.ts';

export const POLL_MS = 500;
export const HEARTBEAT_MS = 15_000;
export const MAX_STREAMS = 200;

/** What changes when a game finishes or a submission's status moves. */
function digest(store: ArenaStore): string {
  const g = store.db.get("SELECT count(*) AS n, max(finished_at) AS at FROM games WHERE status = 'done'") as { n: number; at: string | null };
  const s = store.db.get("SELECT group_concat(id || ':' || status, ',') AS k FROM (SELECT id, status FROM submissions ORDER BY id)") as { k: string | null };
  return `${g.n}|${g.at ?? ''}|${s.k ?? ''}`;
}

export class ArenaEvents {
  private readonly streams = new Set<ServerResponse>();
  private timer: ReturnType<typeof setInterval> | undefined;
  private beat: ReturnType<typeof setInterval> | undefined;
  private last = '';

  constructor(private readonly store: ArenaStore) {}

  get open(): number {
    return this.streams.size;
  }

  /** Takes a response as an event stream; false when MAX_STREAMS are open already. */
  add(res: ServerResponse): boolean {
    if (this.streams.size >= MAX_STREAMS) return false;
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
      connection: 'keep-alive',
    });
    // retry: the browser's EventSource reconnects after a restart of the server.
    res.write('retry: 2000\n\n');
    this.streams.add(res);
    res.on('close', () => this.remove(res));
    if (this.timer === undefined) {
      this.last = digest(this.store);
      this.timer = setInterval(() => this.poll(), POLL_MS);
      this.beat = setInterval(() => this.send(': heartbeat\n\n'), HEARTBEAT_MS);
    }
    return true;
  }

  private remove(res: ServerResponse): void {
    this.streams.delete(res);
    if (this.streams.size === 0) this.stopTimers();
  }

  private stopTimers(): void {
    clearInterval(this.timer);
    clearInterval(this.beat);
    this.timer = undefined;
    this.beat = undefined;
  }

  private poll(): void {
    let now: string;
    try {
      now = digest(this.store);
    } catch {
      return; // the store is closing
    }
    if (now === this.last) return;
    this.last = now;
    this.send(`event: change\ndata: ${JSON.stringify({ at: new Date().toISOString() })}\n\n`);
  }

  private send(text: string): void {
    for (const res of this.streams) if (!res.destroyed) res.write(text);
  }

  /** Ends every stream (the server is closing). */
  close(): void {
    this.stopTimers();
    for (const res of this.streams) res.end();
    this.streams.clear();
  }
}
