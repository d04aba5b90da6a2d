/**
 * The Play page's games in progress, by id. Bounded: at most MAX_GAMES at once (a new game closes
 * the one left alone longest) and a game nobody touched for IDLE_MS is closed, its agents'
 * processes with it, so a forgotten tab never keeps a sandboxed submission alive.
 */
import { randomUUID } from 'node:crypto';
import type { NewGameRequest } from '../shared/api.ts';
import { GameSession, type SessionContext } from './game-session.ts';
import { HttpError } from './http-error.ts';

export const MAX_GAMES = 16;
export const IDLE_MS = 30 * 60 * 1000;

export class GameSessions {
  private readonly games = new Map<string, GameSession>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(private readonly ctx: SessionContext) {
    this.sweeper = setInterval(() => void this.closeIdle(), 60_000);
    this.sweeper.unref();
  }

  async create(req: NewGameRequest): Promise<GameSession> {
    const session = await GameSession.create(randomUUID(), req, this.ctx);
    if (this.games.size >= MAX_GAMES) {
      const oldest = [...this.games.values()].sort((a, b) => a.lastUsed - b.lastUsed)[0]!;
      await this.close(oldest.id);
    }
    this.games.set(session.id, session);
    return session;
  }

  get(id: string): GameSession {
    const session = this.games.get(id);
    if (session === undefined) throw new HttpError(404, `no game ${JSON.stringify(id.slice(0, 60))}: it ended, was closed after ${IDLE_MS / 60_000} minutes alone, or the server restarted; start a new one`);
    return session;
  }

  async close(id: string): Promise<boolean> {
    const session = this.games.get(id);
    if (session === undefined) return false;
    this.games.delete(id);
    await session.close();
    return true;
  }

  private async closeIdle(): Promise<void> {
    const now = Date.now();
    for (const s of [...this.games.values()]) if (now - s.lastUsed > IDLE_MS) await this.close(s.id);
  }

  async closeAll(): Promise<void> {
    clearInterval(this.sweeper);
    await Promise.all([...this.games.keys()].map((id) => this.close(id)));
  }
}
