/**
 * What an agent or heuristic module's default export must look like, checked when it is loaded
 * (modules/load.ts). Apart from the contracts themselves because zod is large: the sandbox's runtime
 * imports the contracts, and with these schemas it carried 730 KB of zod, compiled by every
 * sandboxed process as it starts.
 */
import * as z from 'zod';
import type { Agent } from './agent.ts';
import type { Heuristic } from './heuristic.ts';

export const agentSchema = z.object({
  name: z.string({ error: 'expected a string' }).min(1, 'expected a non-empty string'),
  description: z.string().optional(),
  chooseMove: z.custom<Agent['chooseMove']>((v) => typeof v === 'function', 'expected a function (ctx) => { move, value }'),
});

export const heuristicSchema = z.object({
  name: z.string({ error: 'expected a string' }).min(1, 'expected a non-empty string'),
  games: z.array(z.string()).optional(),
  evaluate: z.custom<Heuristic['evaluate']>((v) => typeof v === 'function', 'expected a function (state, player, game) => number'),
});
