/**
 * Protocol 1 of agents over stdio (agents/clients/PROTOCOL.md): the lines the grader writes to the
 * program's stdin (`hello`, `move`, `evaluate`) and the reading of the lines it writes back
 * (`ready`, its answer, `report`). JSON lines; unknown fields are ignored both ways, so later
 * versions can add.
 *
 * Mancala moves are numbered as the engine numbers them: the index of a pit in its owner's sowing
 * order (bottom: left to right; top: right to left as the bottom player sees the board), so that
 * `mine[m]` is the pit move `m` empties. The board also travels in the project's JSON board form.
 * Tic-Tac-Toe moves are cells, 0..8 row by row from the top left; the board travels as the
 * suites write it ('XX_/_O_/___') and as `cells`, one mark a cell.
 */
import * as z from 'zod';
import type { Game, Player } from '../../contracts/game.ts';
import { boardToState, stateToBoard } from '../../games/mancala/board-io/board.ts';
import { MancalaGame, type MancalaState } from '../../games/mancala/engine.ts';
import type { TicTacToeGame, TicTacToeState } from '../../games/tictactoe/game.ts';
import type { GameSpec } from '../../suites/types.ts';
import { MAX_BATCH, type ChildRequest, type Observation } from '../exchange.ts';

export const STDIO_PROTOCOL = 1;
/** Characters of a program's line quoted in a message. */
const QUOTE_CHARS = 80;
/** Positions a `visited` answer may list (a Tic-Tac-Toe search from the empty board visits 18,296 besides the root). */
export const MAX_VISITED = 1_000_000;

type MoveRequest = Extract<ChildRequest, { type: 'move' }>;
type EvaluateRequest = Extract<ChildRequest, { type: 'evaluate' }>;
/** The engine a request's position is read with. */
export type StdioEngine = MancalaGame | TicTacToeGame;

const sideName = (p: Player) => (p === 0 ? 'bottom' : 'top');
const markName = (p: Player) => (p === 0 ? 'X' : 'O');

/** The game as the hello names it: Mancala's profile and rule flags, or Tic-Tac-Toe. */
function gameField(game: GameSpec) {
  return game.kind === 'mancala' ? { kind: 'mancala', profile: game.profile, name: game.name, rules: game.rules } : { kind: 'tictactoe', name: game.name };
}

/** The first line the program reads: who it is and what it plays. */
export function helloLine(game: GameSpec, role: string, limits: { startupMs: number; memoryMb: number }): string {
  return `${JSON.stringify({ type: 'hello', protocol: STDIO_PROTOCOL, game: gameField(game), role, limits })}\n`;
}

/** A Mancala position as every request carries it: the board, and `me`'s view of it (mine, theirs, the stores). */
function mancalaFields(game: MancalaGame, req: MoveRequest | EvaluateRequest) {
  // A move is asked of the side to move; a heuristic may be asked for either side's view.
  const state = boardToState(game, req.board, req.type === 'move' ? req.player : (req.board.toMove ?? req.player));
  const board = stateToBoard(game, state);
  const me = req.player;
  const them: Player = me === 0 ? 1 : 0;
  const fields = {
    side: sideName(me),
    board: { top: board.top, bottom: board.bottom, stores: { top: board.topStore, bottom: board.bottomStore }, toMove: sideName(game.toMove(state)) },
    mine: game.row(state, me),
    theirs: game.row(state, them),
    myStore: game.store(state, me),
    theirStore: game.store(state, them),
  };
  return { state, fields };
}

/**
 * A Tic-Tac-Toe position: `side` is the mover's mark (X moves first, so the marks' counts say who
 * moves) for a move request, the point of view for an evaluate request; `board` the rows as the
 * suites write them, `cells` the nine marks ('X', 'O', '_').
 */
function ticTacToeFields(game: TicTacToeGame, req: MoveRequest | EvaluateRequest) {
  const state: TicTacToeState = game.fromString(req.tictactoe ?? '___/___/___');
  const board = game.toBoardString(state);
  const me = req.type === 'move' ? game.toMove(state) : req.player;
  return { state, fields: { side: markName(me), board, cells: [...board.replaceAll('/', '')], toMove: markName(game.toMove(state)) } };
}

function positionFields(game: StdioEngine, req: MoveRequest | EvaluateRequest): { state: unknown; fields: object } {
  return game instanceof MancalaGame ? mancalaFields(game, req) : ticTacToeFields(game, req);
}

/**
 * A move request as protocol 1 sends it, and the legal moves the answer must be one of. `role` is
 * the suite's role asked (`agent` in matches) and `heuristic` the heuristic the task names: a
 * course bridge answering for several of the course's files (CSC384's minimax and alpha-beta
 * agents) picks by them; other programs ignore them. `want` names `visited` when the case checks
 * the search's trace (PROTOCOL.md: the positions visited, in order).
 */
export function moveLine(req: MoveRequest, game: StdioEngine, id: number): { line: string; legal: number[] } {
  const { state, fields } = positionFields(game, req);
  const g = game as Game<unknown>;
  const legal = g.legalMoves(state);
  const message = {
    type: 'move',
    id,
    role: req.role,
    heuristic: req.heuristic,
    ...fields,
    legal,
    legalNames: legal.map((m) => g.moveName(state, m)),
    depth: req.options.depth ?? null,
    timeMs: req.timeLimitMs,
    // a match's time bank left (PROTOCOL.md): sent only when there is one, so other programs see no change
    ...(req.bankMs !== undefined ? { bankMs: Math.floor(req.bankMs) } : {}),
    want: req.trace ? ['move', 'value', 'nodes', 'visited'] : ['move', 'value', 'nodes'],
    options: req.options,
    seed: req.seed,
  };
  return { line: `${JSON.stringify(message)}\n`, legal };
}

/**
 * An evaluate request (a heuristic role's case): the value of the position for `side`. Sent only
 * to programs that fill heuristic roles (StdioAgentSpec.evaluates); the answer is `{"id", "value"}`.
 */
export function evaluateLine(req: EvaluateRequest, game: StdioEngine, id: number): string {
  const { fields } = positionFields(game, req);
  return `${JSON.stringify({ type: 'evaluate', id, role: req.role, ...fields })}\n`;
}

/**
 * An evaluate-many request (a heuristic's playoff, whose alpha-beta runs in the grader): the
 * values of many Mancala positions from `side`'s point of view, each position in the JSON board
 * form a move request's `board` has; the answer is `{"id", "values": [...]}`, one number a
 * position, in their order. Written straight from the engine's states: a playoff move sends
 * hundreds of positions, and the checks boardToState makes are for boards read from files.
 */
export function evaluateManyLine(role: string, side: Player, game: MancalaGame, states: readonly MancalaState[], id: number): string {
  const n = game.n;
  const positions = states.map((s) => {
    const top = new Array<number>(n);
    for (let i = 0; i < n; i++) top[i] = game.pit(s, 1, n - 1 - i);
    return { top, bottom: game.row(s, 0), stores: { top: game.store(s, 1), bottom: game.store(s, 0) }, toMove: sideName(game.toMove(s)) };
  });
  return `${JSON.stringify({ type: 'evaluate-many', id, role, side: sideName(side), positions })}\n`;
}

/** A value: a number, or ±Infinity (a won or lost position) as Python's json and Java print it, bare or quoted. */
const value = z.union([z.number(), z.enum(['Infinity', '-Infinity']).transform(Number)], { error: 'expected a number' });
const answerSchema = z.object({
  type: z.string().optional(),
  id: z.number().optional(),
  // required of a move's answer (the session checks); an evaluate request's answer has a value only
  move: z.number().int().optional(),
  value: value.optional(),
  nodes: z.number().int().nonnegative().optional(),
  evaluations: z.number().int().nonnegative().optional(),
  pv: z.array(z.number().int()).optional(),
  log: z.array(z.string()).optional(),
  // the path (moves from the root) of every position the search visited, root excluded, in order
  visited: z.array(z.array(z.number().int().nonnegative())).max(MAX_VISITED).optional(),
  // an evaluate-many request's answer: one value a position
  values: z.array(value).max(MAX_BATCH).optional(),
});
const readySchema = z.object({ type: z.literal('ready'), name: z.string().optional() });

/** One line of the program's stdout, read. */
export type ProgramLine =
  | { kind: 'ready'; name?: string }
  | { kind: 'report'; id?: number; move: number; value?: number }
  | { kind: 'answer'; id?: number; observation: Omit<Observation, 'ms'>; pv?: number[]; log?: string[]; values?: number[] }
  | { kind: 'bad'; problem: string };

/** A program's line, quoted briefly in a message. */
export function quote(line: string): string {
  const t = line.trim();
  return JSON.stringify(t.length > QUOTE_CHARS ? `${t.slice(0, QUOTE_CHARS)}…` : t);
}

/** Bare ±Infinity and NaN, as Python's json.dumps and Java write them, quoted so that JSON.parse reads them. */
function quoteNonFinite(line: string): string {
  return line.replace(/([:,[]\s*)(-?Infinity|NaN)(?=\s*[,\]}])/g, '$1"$2"');
}

function parseJson(line: string): { ok: true; data: unknown } | { ok: false } {
  for (const text of [line, quoteNonFinite(line)]) {
    try {
      return { ok: true, data: JSON.parse(text) };
    } catch {
      // tried again with non-finite numbers quoted, then given up
    }
  }
  return { ok: false };
}

export function readProgramLine(line: string): ProgramLine {
  const parsed = parseJson(line);
  if (!parsed.ok) {
    return { kind: 'bad', problem: `it printed ${quote(line)} on stdout, which is not a JSON message (stdout carries the protocol only: print logs to stderr)` };
  }
  const data = parsed.data;
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return { kind: 'bad', problem: `it printed ${quote(line)} on stdout: expected a JSON object` };
  const type = (data as { type?: unknown }).type;
  if (type === 'ready') {
    const r = readySchema.safeParse(data);
    return r.success ? { kind: 'ready', ...(r.data.name !== undefined ? { name: r.data.name } : {}) } : { kind: 'bad', problem: `its ready line ${quote(line)}: field "name": expected a string` };
  }
  const a = answerSchema.safeParse(data);
  if (!a.success) {
    const issue = a.error.issues[0]!;
    const field = issue.path.join('.') || 'move';
    return { kind: 'bad', problem: `its answer ${quote(line)}: field "${field}": ${issue.message.toLowerCase().includes('required') ? 'missing' : issue.message}` };
  }
  const m = a.data;
  if (type === 'report') {
    if (m.move === undefined) return { kind: 'bad', problem: `its report ${quote(line)}: field "move": missing` };
    return { kind: 'report', ...(m.id !== undefined ? { id: m.id } : {}), move: m.move, ...(m.value !== undefined ? { value: m.value } : {}) };
  }
  const observation: Omit<Observation, 'ms'> = {};
  if (m.move !== undefined) observation.move = m.move;
  if (m.value !== undefined) observation.value = m.value;
  if (m.nodes !== undefined) observation.nodes = m.nodes;
  if (m.evaluations !== undefined) observation.evaluations = m.evaluations;
  if (m.visited !== undefined) observation.visited = m.visited;
  return { kind: 'answer', ...(m.id !== undefined ? { id: m.id } : {}), observation, ...(m.pv ? { pv: m.pv } : {}), ...(m.log ? { log: m.log } : {}), ...(m.values ? { values: m.values } : {}) };
}

/**
 * How a course's bridge says that the student's function returned something that is no move
 * (agents/clients/cpsc4610/cpsc4610_bridge.py: chooseMove returning None): a line on stderr,
 * NOT_A_MOVE_MARK, what came back as the language writes it, a tab, then why it is no move.
 */
export const NOT_A_MOVE_MARK = 'failed: NotAMove: ';

/** What the bridge's NOT_A_MOVE_MARK line says came back, and why it is no move; undefined without one. */
export function notMoveOf(stderr: string): { returned: string; why: string } | undefined {
  const line = stderr.split('\n').find((l) => l.startsWith(NOT_A_MOVE_MARK));
  if (line === undefined) return undefined;
  const [returned, why] = line.slice(NOT_A_MOVE_MARK.length).split('\t', 2);
  const text = (returned ?? '').trim().slice(0, 80);
  return { returned: text === '' ? '(nothing)' : text, why: (why ?? `it returned ${text}`).trim().slice(0, 300) };
}
