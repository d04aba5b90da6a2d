/**
 * An agent chooses a move. An agent module default-exports a plain object `{ name, chooseMove }`;
 * `chooseMove(ctx)` returns (or resolves to) `{ move, value? }` or just the move.
 */
import { z } from 'zod';
import type { Game, Player } from './game.ts';
import type { Heuristic } from './heuristic.ts';
import type { DepthUnit, TerminalEvaluation } from './search-conventions.ts';
import type { TraceSink } from './search-trace.ts';

/** Options a suite, the CLI or a match passes to an agent. Agents ignore what they do not use. */
export interface AgentOptions {
  /** depth limit; null or undefined: no limit (search to the end of the game) */
  depth?: number | null;
  unit?: DepthUnit;
  caching?: boolean;
  terminal?: TerminalEvaluation;
  /** a time budget for this move in ms (anytime agents) */
  ms?: number;
  [extra: string]: unknown;
}

export interface AgentContext<S = any> {
  /** the game, instrumented: it counts positions played and heuristic calls */
  game: Game<S>;
  state: S;
  /** the player to move, the agent's side */
  player: Player;
  options: AgentOptions;
  /** the heuristic to use; calls through it are counted */
  heuristic: Heuristic<S>;
  /** wall-clock deadline (performance.now() scale) for this move; Infinity when none */
  deadline: number;
  /** ms left before the deadline */
  timeLeft(): number;
  /** publish the best move so far (anytime agents); the framework plays the last one reported if time runs out */
  report(move: number, value?: number): void;
  /** a seeded random number in [0, 1) */
  random(): number;
  /** search events, when someone is listening (undefined otherwise: emit nothing) */
  trace?: TraceSink;
}

export interface MoveChoice {
  move: number;
  value?: number;
  /** deepest completed depth, for iterative deepening */
  depth?: number;
}

export interface Agent<S = any> {
  name: string;
  description?: string;
  chooseMove(ctx: AgentContext<S>): MoveChoice | number | Promise<MoveChoice | number>;
}

export const agentSchema = z.object({
  name: z.string({ error: 'expected a string' }).min(1, 'expected a non-empty string'),
  description: z.string().optional(),
  chooseMove: z.custom<Agent['chooseMove']>((v) => typeof v === 'function', 'expected a function (ctx) => { move, value }'),
});

// Built once: made per call (every move of every game), zod built and compiled a fresh parser
// each time, more than half of a match's time between reference agents.
const moveChoiceSchema = z.object({ move: z.number().int(), value: z.number().optional(), depth: z.number().int().optional() });

/** Normalises what chooseMove returned; throws a TypeError that names what was wrong. */
export function toMoveChoice(returned: unknown): MoveChoice {
  if (typeof returned === 'number') return { move: returned };
  const parsed = moveChoiceSchema.safeParse(returned);
  if (!parsed.success) {
    throw new TypeError(`chooseMove must return a move number or { move, value }; got ${describe(returned)}`);
  }
  return parsed.data;
}

function describe(v: unknown): string {
  try {
    const s = JSON.stringify(v);
    return s === undefined ? String(v) : s.length > 80 ? s.slice(0, 77) + '...' : s;
  } catch {
    return typeof v;
  }
}
