/**
 * An agent chooses a move. An agent module default-exports a plain object `{ name, chooseMove }`;
 * `chooseMove(ctx)` returns (or resolves to) `{ move, value? }` or just the move.
 */
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
  /**
   * What the agent wants the reader to know about this move, one line (a reference agent's:
   * `perfect` saying it proved no value in its budget). Shown by `mancala play`, the web app
   * and replays; never graded.
   */
  note?: string;
}

export interface Agent<S = any> {
  name: string;
  description?: string;
  chooseMove(ctx: AgentContext<S>): MoveChoice | number | Promise<MoveChoice | number>;
}

/**
 * Normalises what chooseMove returned; throws a TypeError that names what was wrong. Checked by
 * hand, not with zod: it runs on every move, and in the sandbox's runtime, which zod would make
 * ten times larger (module-shapes.ts says why the schemas live apart).
 */
export function toMoveChoice(returned: unknown): MoveChoice {
  if (typeof returned === 'number') return { move: returned };
  if (typeof returned === 'object' && returned !== null && !Array.isArray(returned)) {
    const { move, value, depth, note } = returned as Record<string, unknown>;
    const valueOk = value === undefined || isFiniteNumber(value);
    const depthOk = depth === undefined || Number.isSafeInteger(depth);
    if (Number.isSafeInteger(move) && valueOk && depthOk) {
      const choice: MoveChoice = { move: move as number };
      if ('value' in returned) choice.value = value as number | undefined;
      if ('depth' in returned) choice.depth = depth as number | undefined;
      if (typeof note === 'string' && note !== '') choice.note = note;
      return choice;
    }
  }
  throw new TypeError(`chooseMove must return a move number or { move, value }; got ${describe(returned)}`);
}

function isFiniteNumber(v: unknown): v is number {
  return typeof v === 'number' && Number.isFinite(v);
}

function describe(v: unknown): string {
  try {
    const s = JSON.stringify(v);
    return s === undefined ? String(v) : s.length > 80 ? s.slice(0, 77) + '...' : s;
  } catch {
    return typeof v;
  }
}
