/**
 * The wire protocol between the grader (parent) and a submission's sandboxed process (child).
 *
 * Framing: one JSON document per line. Requests go to the child's stdin; the child's answers come
 * back on file descriptor 3 (stdout and stderr belong to the student's own prints). JSON has no
 * ±Infinity or NaN, yet trace events start at ±Infinity and a heuristic may return Infinity, so
 * non-finite numbers travel as the strings "Infinity", "-Infinity", "NaN" and the schemas turn them
 * back into numbers.
 *
 * The first line on stdin is the boot message (child/bootstrap.ts): the runtime's code and a fresh
 * random token. The child's bootstrap reads it before any student code exists, and the runtime
 * keeps the token in a closure: every line the runtime writes to fd 3 is `\n<token> <json>\n`.
 * Student code in the child can write to fd 3 too, but cannot know the token, so the parent drops
 * every line without it, silently (the case is judged on the runtime's real answer). The leading
 * newline ends whatever unfinished junk the student left on fd 3, so it cannot swallow an answer.
 *
 * A line that carries the token comes from the runtime: the parent still parses it with the
 * schemas below, and one that does not match is a bug of the runtime (`internal:`), never a crash.
 */
import { randomBytes } from 'node:crypto';
import * as z from 'zod';
import { MAX_BATCH, type Observation } from './exchange.ts';

import { MAX_TEXT_CHARS, MAX_TRACE_EVENTS } from './protocol-limits.ts';

export { MAX_MESSAGE_BYTES, MAX_TEXT_CHARS, MAX_TRACE_EVENTS } from './protocol-limits.ts';

/** Characters of a channel token (hex): 128 random bits. */
export const TOKEN_CHARS = 32;

const stringify = JSON.stringify;
const parseJson = JSON.parse;

// ---- numbers and shared shapes ------------------------------------------------------------------

/** A number, or one of the strings non-finite numbers are encoded as. */
const num = z.union([z.number(), z.enum(['Infinity', '-Infinity', 'NaN']).transform((s) => Number(s))]);
const int = z.number().int();
const count = z.number().int().nonnegative();
const player = z.union([z.literal(0), z.literal(1)]);
const text = z.string().max(MAX_TEXT_CHARS);

const mancalaRules = z.strictObject({
  pits: z.number().int().min(1).max(20),
  seeds: z.number().int().min(0).max(1000),
  freeTurn: z.boolean(),
  capture: z.enum(['last-and-opposite', 'opposite-only', 'none']),
  captureEmptyOpposite: z.boolean(),
  gameEnd: z.enum(['either-row-empty', 'mover-cannot-move']),
  moveOrder: z.enum(['sowing', 'left-to-right']),
  pitNaming: z.enum(['csci561', 'bt', 'cups']),
});

const gameSpec = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('mancala'), profile: z.string(), rules: mancalaRules, name: z.string() }),
  z.object({ kind: z.literal('tictactoe'), name: z.literal('tictactoe') }),
]);

const boardSpec = z.object({
  top: z.array(count),
  bottom: z.array(count),
  topStore: count,
  bottomStore: count,
  toMove: player.optional(),
  profile: z.string().optional(),
  csci561: z.object({ task: z.union([z.literal(1), z.literal(2), z.literal(3), z.literal(4)]), depth: int }).optional(),
});

const caseOptions = z.object({
  depth: int.nullable().optional(),
  unit: z.enum(['move', 'turn']).optional(),
  caching: z.boolean().optional(),
  terminal: z.enum(['score', 'heuristic']).optional(),
  heuristic: z.string().optional(),
  ms: z.number().optional(),
  seed: int.optional(),
});

const reported = z.strictObject({ move: int, value: num.optional() });

// Trace events (framework/contracts/search-trace.ts). Loose on purpose about extra keys: a student's search
// emits them through ctx.trace, and the trace grader compares them with the reference's anyway.
const traceEvent = z.discriminatedUnion('type', [
  z.object({ type: z.literal('enter'), name: z.string(), level: int, maximizing: z.boolean(), value: num, alpha: num.optional(), beta: num.optional() }),
  z.object({
    type: z.literal('leaf'),
    name: z.string(),
    level: int,
    maximizing: z.boolean(),
    value: num,
    reason: z.enum(['depth', 'game-over']),
    alpha: num.optional(),
    beta: num.optional(),
  }),
  z.object({ type: z.literal('cached'), name: z.string(), level: int, value: num }),
  z.object({ type: z.literal('update'), name: z.string(), level: int, maximizing: z.boolean(), value: num, alpha: num.optional(), beta: num.optional() }),
  z.object({ type: z.literal('prune'), name: z.string(), level: int, maximizing: z.boolean(), value: num, alpha: num, beta: num, skipped: count }),
]);

const observation = z.strictObject({
  move: int.optional(),
  value: num.optional(),
  reported: reported.optional(),
  nodes: count.optional(),
  evaluations: count.optional(),
  heuristicValue: num.optional(),
  heuristicValues: z.array(num).max(MAX_BATCH).optional(),
  trace: z.array(traceEvent).max(MAX_TRACE_EVENTS).optional(),
  ms: z.number().nonnegative(),
});

// ---- parent → child -------------------------------------------------------------------------------

const requestId = z.number().int().positive();

// Not strict: a field the grader adds later must not make an older runtime drop the request.
export const parentMessageSchema = z.discriminatedUnion('type', [
  /** import a role's bundled module and check its default export */
  z.object({ type: z.literal('load'), id: requestId, role: z.string(), kind: z.enum(['agent', 'heuristic']), file: z.string() }),
  z.object({
    type: z.literal('move'),
    id: requestId,
    /** a loaded agent role */
    role: z.string(),
    game: gameSpec,
    board: boardSpec,
    tictactoe: z.string().optional(),
    player,
    options: caseOptions,
    heuristic: z.string(),
    timeLimitMs: z.number().positive(),
    bankMs: z.number().nonnegative().optional(),
    seed: int,
    trace: z.boolean(),
  }),
  z.object({
    type: z.literal('evaluate'),
    id: requestId,
    role: z.string(),
    game: gameSpec,
    board: boardSpec,
    tictactoe: z.string().optional(),
    player,
  }),
  /**
   * A heuristic's playoff (grading/grader-search-player.ts): the heuristic role's values of many
   * Mancala positions from `player`'s point of view, in their order. The search that wants them
   * runs in the grader; this process only evaluates.
   */
  z.object({
    type: z.literal('evaluate-many'),
    id: requestId,
    role: z.string(),
    game: gameSpec,
    player,
    boards: z.array(boardSpec).max(MAX_BATCH),
  }),
]);

export type ParentMessage = z.input<typeof parentMessageSchema>;

// ---- child → parent -------------------------------------------------------------------------------

export const childMessageSchema = z.discriminatedUnion('type', [
  /** the runtime started; no student code has run yet */
  z.strictObject({ type: z.literal('ready') }),
  /** the agent called ctx.report(move, value) */
  z.strictObject({ type: z.literal('report'), id: requestId, move: int, value: num.optional() }),
  /** the role's module was imported and has the right shape */
  z.strictObject({ type: z.literal('loaded'), id: requestId }),
  z.strictObject({ type: z.literal('result'), id: requestId, observation }),
  /** the student's code failed in a way the runtime caught (it threw, returned garbage, ran out of Buffer memory) */
  z.strictObject({ type: z.literal('failed'), id: requestId, status: z.enum(['error', 'memory']), message: text }),
]);

export type ChildMessage = z.input<typeof childMessageSchema>;
/** A child message once validated, non-finite numbers decoded. */
export type ParsedChildMessage = z.output<typeof childMessageSchema>;

// Compile-time check that a validated observation is what graders expect.
const observationFits: (o: z.output<typeof observation>) => Observation = (o) => o;
void observationFits;

// ---- the boot message and the child's framing --------------------------------------------------------

/** The first line the parent writes to a child's stdin (read by child/bootstrap.ts, not by the runtime). */
export interface BootMessage {
  type: 'boot';
  /** what the child's lines on fd 3 must start with */
  token: string;
  /** the name the runtime's code is compiled under: stack traces show it instead of a file */
  name: string;
  /** the runtime, bundled as CommonJS (runtime.ts) */
  code: string;
}

/** A fresh token for one child process. */
export function newToken(): string {
  return randomBytes(TOKEN_CHARS / 2).toString('hex');
}

export function encodeBoot(boot: BootMessage): Buffer {
  // The code is the same in every session: quoted and encoded once, not per session.
  if (encodedCode?.code !== boot.code) encodedCode = { code: boot.code, bytes: Buffer.from(`,"code":${stringify(boot.code)}}\n`) };
  const head = stringify({ type: boot.type, token: boot.token, name: boot.name } satisfies Omit<BootMessage, 'code'>);
  return Buffer.concat([Buffer.from(head.slice(0, -1)), encodedCode.bytes]);
}

/** The last runtime code encodeBoot quoted and encoded. */
let encodedCode: { code: string; bytes: Buffer } | undefined;

/**
 * The JSON of a line from fd 3 when it carries `token`; undefined for a line without it (written
 * by the student's code, or the empty line before each of the runtime's).
 */
export function tokenPayload(line: string, token: string): string | undefined {
  return line.length > token.length && line.startsWith(token) && line[token.length] === ' ' ? line.slice(token.length + 1) : undefined;
}

// ---- encoding -------------------------------------------------------------------------------------

function encodeNumbers(_key: string, value: unknown): unknown {
  return typeof value === 'number' && !Number.isFinite(value) ? String(value) : value;
}

/**
 * One line of the protocol, newline included: the parent's requests, and a child message's JSON in
 * tests (the runtime encodes its own with captured built-ins, child/channel.ts).
 */
export function encodeMessage(message: ParentMessage | ChildMessage): string {
  return stringify(message, encodeNumbers) + '\n';
}

export type Decoded<T> = { ok: true; message: T } | { ok: false; problem: string };

/** Parses one line against `schema`; on failure says what was wrong, briefly. */
export function decodeLine<T extends z.ZodType>(line: string, schema: T): Decoded<z.output<T>> {
  let value: unknown;
  try {
    value = parseJson(line);
  } catch {
    return { ok: false, problem: `not JSON: ${excerpt(line)}` };
  }
  const parsed = schema.safeParse(value);
  if (parsed.success) return { ok: true, message: parsed.data };
  const issue = parsed.error.issues[0]!;
  const where = issue.path.length === 0 ? 'the message' : `field "${issue.path.join('.')}"`;
  const type = typeof value === 'object' && value !== null && 'type' in value ? ` (type ${excerpt(String((value as { type: unknown }).type), 30)})` : '';
  return { ok: false, problem: `${where}${type}: ${issue.message}` };
}

function excerpt(s: string, max = 80): string {
  const quoted = stringify(s.length > max ? s.slice(0, max) + '…' : s);
  return quoted;
}

// ---- framing --------------------------------------------------------------------------------------

/**
 * Splits a byte stream into lines without holding more than `maxBytes` of an unfinished line:
 * a peer that sends an endless line cannot grow our memory past that. After an overflow the
 * splitter stays broken (the stream is out of step; the caller kills the peer).
 */
export class LineSplitter {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private broken = false;

  constructor(
    private readonly maxBytes: number,
    private readonly onLine: (line: string) => void,
    private readonly onOverflow: () => void,
  ) {}

  push(chunk: Buffer): void {
    if (this.broken) return;
    let start = 0;
    for (let nl = chunk.indexOf(10, start); nl !== -1; nl = chunk.indexOf(10, start)) {
      const piece = chunk.subarray(start, nl);
      start = nl + 1;
      if (this.pendingBytes + piece.length > this.maxBytes) return this.overflow();
      const line = this.pending.length === 0 ? piece.toString('utf8') : Buffer.concat([...this.pending, piece]).toString('utf8');
      this.pending = [];
      this.pendingBytes = 0;
      this.onLine(line);
      if (this.broken) return;
    }
    if (start < chunk.length) {
      const rest = chunk.subarray(start);
      if (this.pendingBytes + rest.length > this.maxBytes) return this.overflow();
      // A copy: the stream may reuse the chunk's memory.
      this.pending.push(Buffer.from(rest));
      this.pendingBytes += rest.length;
    }
  }

  private overflow(): void {
    this.broken = true;
    this.pending = [];
    this.pendingBytes = 0;
    this.onOverflow();
  }
}
