/**
 * How the reference agents read `ctx.options` (AgentOptions): the defaults when an option is
 * absent, and the time budget of the anytime agents. The CLI and suites always pass depth, unit
 * and terminal from the profile; the defaults here serve a caller that leaves them out.
 */
import type { AgentContext, AgentOptions } from '../framework/contracts/agent.ts';
import { FREE_TURNS, type FreeTurns } from '../framework/contracts/search-conventions.ts';
import type { SearchParams } from './reference/search-stack.ts';

/**
 * The reference search's parameters for this decision: unit 'move' and terminal 'score' unless
 * the options say otherwise; depth null/undefined/-1 means no limit (AgentOptions.depth);
 * caching only when `caching` is true; free turns honoured unless `freeTurns` is 'ignore'. The
 * trace and the deadline are the context's.
 */
export function searchParams<S>(ctx: AgentContext<S>): SearchParams<S> {
  const o = ctx.options;
  return {
    game: ctx.game,
    heuristic: ctx.heuristic,
    depth: o.depth ?? null,
    unit: o.unit ?? 'move',
    terminal: o.terminal ?? 'score',
    caching: o.caching === true,
    freeTurns: freeTurnsOption(o),
    trace: ctx.trace,
    deadline: ctx.deadline,
  };
}

/**
 * `options.freeTurns` (AgentOptions has no typed field for it: it travels as an extra option):
 * 'honour' when absent. Anything but the two names is a caller's bug, not a silent default.
 */
export function freeTurnsOption(o: AgentOptions): FreeTurns {
  const given = o.freeTurns;
  if (given === undefined) return 'honour';
  if (typeof given === 'string' && (FREE_TURNS as readonly string[]).includes(given)) return given as FreeTurns;
  throw new RangeError(`options.freeTurns: expected ${FREE_TURNS.join(' or ')}, got ${JSON.stringify(given)}`);
}

/** The budget of an anytime agent when neither `ms`, a deadline nor a depth limit bounds it. */
export const DEFAULT_BUDGET_MS = 1000;

/** True when `depth` is a depth limit (null, undefined and negative numbers mean none). */
export function hasDepthLimit(depth: number | null | undefined): depth is number {
  return typeof depth === 'number' && depth >= 0;
}

/**
 * When an anytime agent must stop (performance.now() scale): `options.ms` after `start` when
 * given, never past ctx.deadline. Without `ms` the context's deadline alone applies; when that is
 * Infinity too and no depth limit is set, DEFAULT_BUDGET_MS keeps the search from running to the
 * end of a full-size game.
 */
export function budgetDeadline(ctx: AgentContext, start: number, defaultMs = DEFAULT_BUDGET_MS): number {
  const ms = ctx.options.ms;
  if (typeof ms === 'number' && ms >= 0) return Math.min(ctx.deadline, start + ms);
  if (ctx.deadline !== Infinity || hasDepthLimit(ctx.options.depth)) return ctx.deadline;
  return start + defaultMs;
}
