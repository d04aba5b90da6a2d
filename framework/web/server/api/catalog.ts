/**
 * GET /api/catalog: what the Play page offers: every rules profile with its board and pit naming,
 * the reference agents and the options each reads, a few agent specs to suggest.
 * GET /api/health: the server answers, and says whether it is read-only (the page then hides what runs).
 */
import { PROFILES } from '../../../games/mancala/profiles.ts';
import { agentTable } from '../../../plugins/agents.ts';
import type { Catalog } from '../../shared/api.ts';
import type { ApiModule } from '../context.ts';

export const EXAMPLE_AGENTS = ['alphabeta:depth=6', 'alphabeta:depth=2', 'random', 'greedy', 'minimax:depth=4', 'ids:ms=500', 'strong:ms=500', 'perfect:ms=2000', 'simple', 'advanced'];

export const catalogApi: ApiModule = (app, ctx) => {
  app.get('/api/health', async () => ({ ok: true, readOnly: ctx.readOnly }));
  app.get('/api/catalog', async (): Promise<Catalog> => {
    const agents = Object.entries(agentTable()).map(([name, e]) => ({ name, options: [...e.options], withheld: e.withheld === true }));
    const offered = new Set(agents.filter((a) => !a.withheld).map((a) => a.name));
    return {
      profiles: Object.values(PROFILES).map((p) => ({
        name: p.name,
        ...(p.seed !== undefined ? { seed: p.seed } : {}),
        summary: p.summary,
        pits: p.rules.pits,
        seeds: p.rules.seeds,
        pitNaming: p.rules.pitNaming,
      })),
      agents,
      examples: EXAMPLE_AGENTS.filter((spec) => offered.has(spec.split(':')[0]!)),
      root: ctx.root,
      readOnly: ctx.readOnly,
    };
  });
};
