/**
 * The Search explorer's API (search-explorations.ts runs the searches and keeps them):
 *
 *   GET  /api/search                                    → SearchOptionsView: algorithms, heuristics, limits
 *   POST /api/search {profile, board?, algo, depth, …}  → SearchExploration: the root, counts a ply, the PV
 *   GET  /api/search/:id/nodes/:node[?iteration=K]      → SearchNodeDetail: a node, its children, its position
 *   GET  /api/search/:id/path/:node[?iteration=K]       → SearchNodeDetail[]: the root down to the node
 *   GET  /api/search/:id/log?from=N[&iteration=K]       → csci561's traverse log lines from N on
 *
 * A depth whose tree is too large, an unknown profile or heuristic, a malformed board (the board
 * reader's own line) are 4xx, one line naming the field.
 */
import * as z from 'zod';
import { PROFILE_NAMES } from '../../../games/mancala/profiles.ts';
import { LIMITS } from '../../../games/mancala/rules.ts';
import { heuristicNames } from '../../../plugins/agents.ts';
import { EXPLORER_ALGOS, type SearchExploration, type SearchNodeDetail, type SearchOptionsView } from '../../shared/api.ts';
import type { ApiModule } from '../context.ts';
import { checked } from '../http-error.ts';
import { MAX_EXPLORER_DEPTH, MAX_TREE_NODES, SearchExplorations } from '../search-explorations.ts';

const whole = (min: number, max: number, what: string) =>
  z.number({ error: `expected ${what}` }).int({ error: `expected ${what}` }).min(min, { error: `expected ${what}` }).max(max, { error: `expected ${what}` });

const searchBody = z.strictObject(
  {
    profile: z.enum(PROFILE_NAMES as [string, ...string[]], { error: `expected one of ${PROFILE_NAMES.join(', ')}` }),
    pits: whole(LIMITS.minPits, LIMITS.maxPits, `${LIMITS.minPits} to ${LIMITS.maxPits} pits a side`).optional(),
    seeds: whole(LIMITS.minSeeds, LIMITS.maxSeeds, `${LIMITS.minSeeds} to ${LIMITS.maxSeeds} stones a pit`).optional(),
    board: z.string({ error: 'expected the board file\'s text' }).max(10_000, { error: 'expected a board of at most 10,000 characters' }).optional(),
    boardFormat: z.enum(['json', 'csc384', 'csci561'], { error: 'expected json, csc384 or csci561' }).optional(),
    player: z.enum(['bottom', 'top'], { error: 'expected bottom or top' }).optional(),
    algo: z.enum(EXPLORER_ALGOS, { error: `expected one of ${EXPLORER_ALGOS.join(', ')}` }),
    depth: whole(1, MAX_EXPLORER_DEPTH, `a depth from 1 to ${MAX_EXPLORER_DEPTH}`),
    heuristic: z.string({ error: 'expected a heuristic\'s name' }).max(100, { error: 'expected a heuristic\'s name' }).optional(),
  },
  { error: 'expected {"profile", "algo", "depth", and "board" or "pits"/"seeds"}' },
);

const nodeParams = z.strictObject(
  {
    id: z.string().regex(/^[0-9a-f-]{1,64}$/, { error: 'expected a search id' }),
    node: z.string().regex(/^\d{1,9}$/, { error: 'expected a node number' }),
  },
  { error: 'expected /api/search/ID/nodes/NODE' },
);
const iteration = z.string().regex(/^[1-9]\d{0,2}$/, { error: 'expected an iteration (a depth ≥ 1)' }).optional();
const nodeQuery = z.strictObject({ iteration }, { error: 'expected ?iteration=K' });
const logParams = z.strictObject({ id: nodeParams.shape.id }, { error: 'expected /api/search/ID/log' });
const logQuery = z.strictObject(
  { from: z.string().regex(/^\d{1,9}$/, { error: 'expected a line number ≥ 0' }).optional(), iteration },
  { error: 'expected ?from=N[&iteration=K]' },
);

const num = (s: string | undefined): number | undefined => (s === undefined ? undefined : Number(s));

export const searchApi: ApiModule = (app) => {
  const explorations = new SearchExplorations();
  app.get('/api/search', async (): Promise<SearchOptionsView> => ({
    algos: [...EXPLORER_ALGOS],
    heuristics: heuristicNames(),
    maxDepth: MAX_EXPLORER_DEPTH,
    maxNodes: MAX_TREE_NODES,
  }));
  app.post('/api/search', async (req, reply): Promise<SearchExploration> => {
    const body = checked(searchBody, req.body, 'body');
    const exploration = await explorations.create(body);
    reply.code(201);
    return exploration;
  });
  app.get('/api/search/:id/nodes/:node', async (req): Promise<SearchNodeDetail> => {
    const p = checked(nodeParams, req.params, 'path');
    return explorations.node(p.id, Number(p.node), num(checked(nodeQuery, req.query, 'query').iteration));
  });
  app.get('/api/search/:id/path/:node', async (req): Promise<SearchNodeDetail[]> => {
    const p = checked(nodeParams, req.params, 'path');
    return explorations.path(p.id, Number(p.node), num(checked(nodeQuery, req.query, 'query').iteration));
  });
  app.get('/api/search/:id/log', async (req) => {
    const p = checked(logParams, req.params, 'path');
    const q = checked(logQuery, req.query, 'query');
    return explorations.log(p.id, num(q.from) ?? 0, num(q.iteration));
  });
};
