/**
 * The Play page's API: a game between two seats (a human at the page, or any agent the CLI
 * accepts, run here: game-session.ts), played one step at a time.
 *
 *   POST   /api/games            {rules, pits?, seeds?, bottom, top, timePerMoveMs?, seed?} → 201 GameView
 *   GET    /api/games/:id        → GameView
 *   POST   /api/games/:id/move   {move}: a human's move (the pit's sowing index) → GameView
 *   POST   /api/games/:id/advance: the agent to move decides → GameView
 *   POST   /api/games/:id/undo   takes back the last human move (and the agents' after it) → GameView
 *   POST   /api/games/:id/hint   → Hint: the reference alpha-beta's move and value
 *   DELETE /api/games/:id        closes the game and its agents → 204
 */
import * as z from 'zod';
import { LIMITS } from '../../../games/mancala/rules.ts';
import type { GameView, Hint } from '../../shared/api.ts';
import type { ApiModule } from '../context.ts';
import { checked, HttpError } from '../http-error.ts';
import { MAX_WEB_MOVE_MS } from '../searches.ts';

const whole = (what: string, min: number, max: number) =>
  z.number({ error: `expected ${what}` }).int({ error: `expected ${what}` }).min(min, { error: `expected ${what} ≥ ${min}` }).max(max, { error: `expected ${what} ≤ ${max}` });
const seatSpec = z.string({ error: 'expected "human" or an agent (alphabeta:depth=6, a submission\'s path)' }).max(1000, { error: 'expected at most 1000 characters' });

const newGameSchema = z.strictObject(
  {
    rules: z.string({ error: 'expected a rules profile' }).max(100, { error: 'expected a rules profile' }),
    pits: whole('a number of pits', LIMITS.minPits, LIMITS.maxPits).optional(),
    seeds: whole('a number of stones a pit', LIMITS.minSeeds, LIMITS.maxSeeds).optional(),
    bottom: seatSpec,
    top: seatSpec,
    timePerMoveMs: whole('milliseconds a move', 1, MAX_WEB_MOVE_MS).optional(),
    seed: whole('a seed', 0, 2 ** 31 - 1).optional(),
  },
  { error: 'expected {"rules", "bottom", "top", …}' },
);
const moveSchema = z.strictObject({ move: whole('a pit\'s index', 0, LIMITS.maxPits - 1) }, { error: 'expected {"move": N}' });
const emptySchema = z.union([z.undefined(), z.null(), z.strictObject({})], { error: 'expected no body, or {}' });
const idSchema = z.strictObject({ id: z.string().regex(/^[0-9a-f-]{36}$/, { error: 'expected a game id' }) });

export const gamesApi: ApiModule = (app, ctx) => {
  const session = (params: unknown) => {
    const parsed = idSchema.safeParse(params);
    if (!parsed.success) throw new HttpError(404, 'no such game: expected a game id from POST /api/games');
    return ctx.games.get(parsed.data.id);
  };

  app.post('/api/games', async (req, reply): Promise<GameView> => {
    const body = checked(newGameSchema, req.body, 'body');
    const s = await ctx.games.create(body);
    reply.code(201);
    return s.view();
  });
  app.get('/api/games/:id', async (req): Promise<GameView> => session(req.params).view());
  app.post('/api/games/:id/move', async (req): Promise<GameView> => {
    const s = session(req.params);
    return s.humanMove(checked(moveSchema, req.body, 'body').move);
  });
  app.post('/api/games/:id/advance', async (req): Promise<GameView> => {
    const s = session(req.params);
    checked(emptySchema, req.body, 'body');
    return s.advance();
  });
  app.post('/api/games/:id/undo', async (req): Promise<GameView> => {
    const s = session(req.params);
    checked(emptySchema, req.body, 'body');
    return s.undo();
  });
  app.post('/api/games/:id/hint', async (req): Promise<Hint> => {
    const s = session(req.params);
    checked(emptySchema, req.body, 'body');
    return s.hint();
  });
  app.delete('/api/games/:id', async (req, reply) => {
    const parsed = idSchema.safeParse(req.params);
    if (parsed.success) await ctx.games.close(parsed.data.id);
    reply.code(204);
    return null;
  });
};
