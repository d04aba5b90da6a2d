/**
 * What the sandboxed child does for each request: import a role's module and check its shape
 * (`load`), run an agent on a position (`move`), or run a heuristic on one (`evaluate`) or on many
 * (`evaluate-many`: a heuristic's playoff, whose reference search runs in the grader).
 *
 * The game and the state are built here from the request, and the agent runs through the same
 * `runAgent` as in the grader's own process, so nodes and evaluations are counted the same way.
 * This file is bundled into the child runtime, so it imports nothing outside framework/: no
 * reference search runs next to student code.
 */
import { pathToFileURL } from 'node:url';
import type * as z from 'zod';
import type { Agent, AgentContext, AgentOptions } from '../../contracts/agent.ts';
import type { Game, Player } from '../../contracts/game.ts';
import type { Heuristic } from '../../contracts/heuristic.ts';
import type { TraceEvent } from '../../contracts/search-trace.ts';
import { MancalaGame } from '../../games/mancala/engine.ts';
import { boardToState } from '../../games/mancala/board-io/board.ts';
import basic from '../../heuristics/basic.ts';
import cpsc4610Provided from '../../heuristics/cpsc4610-provided.ts';
import { TicTacToeGame } from '../../games/tictactoe/game.ts';
import { createRandom } from '../../random.ts';
import { runAgent } from '../../search/run-agent.ts';
import { SANDBOX_HEURISTICS } from '../../heuristics/sandbox-heuristics.ts';
import type { Observation } from '../exchange.ts';
import { MAX_TRACE_EVENTS } from '../protocol-limits.ts';
import type { ChildMessage, parentMessageSchema } from '../protocol.ts';

type Request = z.output<typeof parentMessageSchema>;
type LoadRequest = Extract<Request, { type: 'load' }>;
type MoveRequest = Extract<Request, { type: 'move' }>;
type EvaluateRequest = Extract<Request, { type: 'evaluate' }>;
type EvaluateManyRequest = Extract<Request, { type: 'evaluate-many' }>;

/** A failure of the student's code, already worded for the report. */
export class SubmissionFailure extends Error {
  constructor(
    message: string,
    readonly status: 'error' | 'memory' = 'error',
  ) {
    super(message);
  }
}

/** Loaded role modules by role name: the module's own default export, checked. */
const roles = new Map<string, { kind: 'agent' | 'heuristic'; module: Agent | Heuristic }>();

/** `importModule`: the bootstrap's import() (the runtime is compiled from memory and has none of its own). */
export async function load(req: LoadRequest, importModule: (url: string) => Promise<Record<string, unknown>>): Promise<void> {
  const existing = roles.get(req.role);
  if (existing !== undefined && existing.kind === req.kind) return;
  let namespace: Record<string, unknown>;
  try {
    namespace = await importModule(pathToFileURL(req.file).href);
  } catch (e) {
    throw failure(e, `role ${req.role}: importing the module failed: `);
  }
  const shape = req.kind === 'agent' ? '{ name, chooseMove }' : '{ name, evaluate }';
  if (!('default' in namespace) || namespace.default === undefined) {
    throw new SubmissionFailure(`role ${req.role}: no default export: expected \`export default ${shape}\``);
  }
  const problem = shapeProblem(namespace.default, req.kind);
  if (problem !== undefined) throw new SubmissionFailure(`role ${req.role}: default export${problem}`);
  // The module's own object: methods keep their `this`.
  roles.set(req.role, { kind: req.kind, module: namespace.default as Agent | Heuristic });
}

/**
 * What is wrong with a role module's default export, worded as contracts/agent.ts and
 * contracts/heuristic.ts word it (` field "name": expected a string`), or undefined. Written out
 * rather than parsed with those zod schemas: zod compiles its parsers with String.prototype
 * methods the module, just imported, may have replaced.
 */
function shapeProblem(value: unknown, kind: 'agent' | 'heuristic'): string | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return `: expected an object ${kind === 'agent' ? '{ name, chooseMove }' : '{ name, evaluate }'}`;
  }
  const fields = value as Record<string, unknown>;
  if (typeof fields.name !== 'string') return ' field "name": expected a string';
  if (fields.name.length === 0) return ' field "name": expected a non-empty string';
  if (kind === 'agent') {
    if (fields.description !== undefined && typeof fields.description !== 'string') return ' field "description": expected a string';
    if (typeof fields.chooseMove !== 'function') return ' field "chooseMove": expected a function (ctx) => { move, value }';
    return undefined;
  }
  if (fields.games !== undefined) {
    if (!Array.isArray(fields.games)) return ' field "games": expected a list of game names';
    for (let k = 0; k < fields.games.length; k++) if (typeof fields.games[k] !== 'string') return ` field "games.${k}": expected a string`;
  }
  if (typeof fields.evaluate !== 'function') return ' field "evaluate": expected a function (state, player, game) => number';
  return undefined;
}

function loaded<K extends 'agent' | 'heuristic'>(role: string, kind: K): K extends 'agent' ? Agent : Heuristic {
  const entry = roles.get(role);
  // The parent loads every role a request needs first; reaching this is a grader bug, not the student's.
  if (entry === undefined || entry.kind !== kind) throw new Error(`internal: role ${role} (${kind}) was not loaded before use`);
  return entry.module as K extends 'agent' ? Agent : Heuristic;
}

/** The game and the position a request describes. */
function position(req: MoveRequest | EvaluateRequest): { game: Game<any>; state: unknown } {
  if (req.game.kind === 'tictactoe') {
    const game = new TicTacToeGame();
    return { game, state: game.fromString(req.tictactoe ?? '___/___/___', req.player as Player) };
  }
  const game = new MancalaGame(req.game.rules, req.game.name);
  return { game, state: boardToState(game, req.board, req.player as Player, 'the case board') };
}

function heuristicFor(name: string): Heuristic {
  if (name === 'basic') return basic;
  if (name === 'cpsc4610-provided') return cpsc4610Provided;
  if (name.startsWith('role:')) return loaded(name.slice('role:'.length), 'heuristic');
  // The suite loader lets only SANDBOX_HEURISTICS (heuristics/sandbox-heuristics.ts) and role:NAME through.
  throw new Error(`internal: unknown heuristic "${name}" (the sandbox knows ${SANDBOX_HEURISTICS.join(', ')} and role:NAME)`);
}

/** The options an agent sees: the case's search options, without the grader's own (heuristic, seed). */
function agentOptions(o: MoveRequest['options']): AgentOptions {
  const out: AgentOptions = {};
  if (o.depth !== undefined) out.depth = o.depth;
  if (o.unit !== undefined) out.unit = o.unit;
  if (o.caching !== undefined) out.caching = o.caching;
  if (o.terminal !== undefined) out.terminal = o.terminal;
  if (o.ms !== undefined) out.ms = o.ms;
  return out;
}

export async function move(req: MoveRequest, send: (m: ChildMessage) => void): Promise<Observation> {
  const agent = loaded(req.role, 'agent');
  const { game, state } = position(req);
  const heuristic = heuristicFor(req.heuristic);
  let trace: TraceEvent[] | undefined;
  let traceOverflow = false;
  const sink = req.trace
    ? (event: TraceEvent) => {
        if (trace!.length < MAX_TRACE_EVENTS) trace!.push(event);
        else traceOverflow = true;
      }
    : undefined;
  if (req.trace) trace = [];
  // The agent's own object stays the receiver (`this`); only ctx.report is wrapped so each
  // report also reaches the parent at once (the move it keeps if the agent runs out of time).
  const reporting: Agent = {
    name: agent.name,
    chooseMove: (ctx: AgentContext) =>
      agent.chooseMove({
        ...ctx,
        report(move: number, value?: number) {
          if (!Number.isInteger(move)) throw new TypeError(`ctx.report(move, value): move must be a whole number, got ${describe(move)}`);
          if (value !== undefined && typeof value !== 'number') throw new TypeError(`ctx.report(move, value): value must be a number, got ${describe(value)}`);
          ctx.report(move, value);
          send(value === undefined ? { type: 'report', id: req.id, move } : { type: 'report', id: req.id, move, value });
        },
      }),
  };
  let outcome;
  try {
    outcome = await runAgent(reporting, {
      game,
      state,
      heuristic,
      options: agentOptions(req.options),
      timeLimitMs: req.timeLimitMs,
      random: createRandom(req.seed),
      trace: sink,
    });
  } catch (e) {
    throw failure(e, `role ${req.role}: chooseMove failed: `);
  }
  if (traceOverflow) {
    throw new SubmissionFailure(`role ${req.role}: the search emitted more than ${MAX_TRACE_EVENTS} trace events; trace checks need a smaller search`);
  }
  const observation: Observation = { move: outcome.choice.move, nodes: outcome.nodes, evaluations: outcome.evaluations, ms: outcome.ms };
  if (outcome.choice.value !== undefined) observation.value = outcome.choice.value;
  if (outcome.reported !== undefined) observation.reported = outcome.reported;
  if (trace !== undefined) observation.trace = trace;
  return observation;
}

export function evaluate(req: EvaluateRequest): Observation {
  const heuristic = loaded(req.role, 'heuristic');
  const { game, state } = position(req);
  const start = performance.now();
  let value: unknown;
  try {
    value = heuristic.evaluate(state, req.player as Player, game);
  } catch (e) {
    throw failure(e, `role ${req.role}: evaluate failed: `);
  }
  const ms = performance.now() - start;
  if (typeof value !== 'number' || Number.isNaN(value)) {
    throw new SubmissionFailure(`role ${req.role}: evaluate must return a number, got ${describe(value)}`);
  }
  return { heuristicValue: value, ms };
}

/**
 * The heuristic role's values of many Mancala positions, from `player`'s point of view, in their
 * order. Its failures and a value that is not a number end the request, as `evaluate` words them.
 */
export function evaluateMany(req: EvaluateManyRequest): Observation {
  const heuristic = loaded(req.role, 'heuristic');
  if (req.game.kind !== 'mancala') throw new Error('internal: evaluate-many asks Mancala positions');
  const game = new MancalaGame(req.game.rules, req.game.name);
  const player = req.player as Player;
  const start = performance.now();
  const values: number[] = [];
  for (let k = 0; k < req.boards.length; k++) {
    const board = req.boards[k]!;
    const state = boardToState(game, board, board.toMove ?? player, 'the playoff board');
    let value: unknown;
    try {
      value = heuristic.evaluate(state, player, game);
    } catch (e) {
      throw failure(e, `role ${req.role}: evaluate failed: `);
    }
    if (typeof value !== 'number' || Number.isNaN(value)) {
      throw new SubmissionFailure(`role ${req.role}: evaluate must return a number, got ${describe(value)}`);
    }
    values[k] = value;
  }
  return { heuristicValues: values, ms: performance.now() - start };
}

// ---- describing what the student's code threw ---------------------------------------------------

/** Running out of memory outside the JS heap (a Buffer or ArrayBuffer the address-space cap refused). */
function isOutOfMemory(e: unknown): boolean {
  return e instanceof RangeError && /allocation failed|out of memory/i.test(safeMessage(e));
}

export function failure(e: unknown, prefix: string): SubmissionFailure {
  if (e instanceof SubmissionFailure) return e;
  return new SubmissionFailure(prefix + describeThrown(e), isOutOfMemory(e) ? 'memory' : 'error');
}

/** "Name: message (at file:line)", the place being the first stack frame in the submission's code. */
export function describeThrown(e: unknown): string {
  if (!(e instanceof Error)) return `threw ${describe(e)}`;
  try {
    const err = e as Error & { code?: unknown; permission?: unknown; resource?: unknown };
    let head = `${err.name}: ${safeMessage(err)}`;
    if (err.code === 'ERR_ACCESS_DENIED') {
      // Node's permission model: say what was refused, in words a student understands.
      const permission = String(err.permission ?? 'permission');
      head = `access denied by the sandbox (${permission}${err.resource ? ` ${String(err.resource)}` : ''}): ${ACCESS_RULES[permission] ?? 'not allowed in the sandbox'}`;
    } else if (typeof err.code === 'string') {
      head += ` (${err.code})`;
    }
    const place = typeof err.stack === 'string' ? submissionPlace(err.stack) : undefined;
    return place === undefined ? head : `${head} (at ${place})`;
  } catch {
    return 'threw an Error whose message could not be read';
  }
}

/**
 * The first place in the submission's code a stack names: `/…/submission/file.js:3:11`. Only the
 * stack's frames are searched (lines `    at …`), never the "Name: message" lines above them: a
 * message that names a submission path (ENOENT, or any text with "/submission/" in it) would
 * otherwise be taken for the place and repeat the message in the "(at …)".
 */
function submissionPlace(stack: string): string | undefined {
  for (const line of stack.split('\n')) {
    const frame = /^\s+at (?:.*? \()?((?:file:\/\/)?\/[^()]*\/submission\/[^()]*?:\d+:\d+)\)?$/.exec(line);
    if (frame !== null) return frame[1];
  }
  return undefined;
}

/** What each refused permission (Node's names) means for a submission. */
const ACCESS_RULES: Record<string, string> = {
  FileSystemRead: 'a submission may read only its own files',
  FileSystemWrite: 'a submission may not write files',
  ChildProcess: 'a submission may not start processes',
  WorkerThreads: 'a submission may not start worker threads',
  Inspector: 'a submission may not use the inspector',
};

function safeMessage(e: Error): string {
  try {
    return String(e.message);
  } catch {
    return '(unreadable message)';
  }
}

function describe(v: unknown): string {
  try {
    if (typeof v === 'function') return 'a function';
    if (typeof v === 'bigint') return `${v}n`;
    if (v instanceof Promise) return 'a Promise';
    const s = JSON.stringify(v);
    if (s === undefined) return String(v);
    return s.length > 80 ? s.slice(0, 77) + '...' : s;
  } catch {
    return typeof v;
  }
}
