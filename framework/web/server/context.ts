/**
 * What every API module of the web app is handed (app.ts registers them): the folder files and
 * agent paths are read under, how submissions are sandboxed, and the Play page's games.
 *
 * A page's server side is one module: `(app, ctx) => void` adding its routes under /api/. A route
 * throws HttpError (or UserError) for a request it refuses; app.ts answers it 4xx, one line.
 */
import type { FastifyInstance } from 'fastify';
import type { SandboxMode } from '../../sandbox/jail/mechanisms.ts';
import type { GameSessions } from './game-sessions.ts';

export interface WebContext {
  /** the folder replays, results and agent paths are read under (real path) */
  root: string;
  sandbox: SandboxMode;
  /** memory cap of a sandboxed submission, MB */
  memoryMb: number;
  games: GameSessions;
  /** `--read-only`: a display (a class watching a projector): every request but GET and HEAD is refused (app.ts) */
  readOnly: boolean;
}

/** Why a request that would run or upload something is refused under --read-only. */
export const READ_ONLY_REFUSAL =
  'refused: this server is read-only (mancala serve --read-only): it shows standings, replays and reports, and starts no game, no search and no upload';

export type ApiModule = (app: FastifyInstance, ctx: WebContext) => void;
