/**
 * Replays: one game a file, JSON lines (`game-007.jsonl`), written by `mancala match --replays DIR`.
 *
 *   {"type":"game", "version":1, "game":7, "rules":"kalah", "pits":6, "seeds":4, "A":"…", "B":"…", "first":"B", …}
 *   {"type":"move", "game":7, "ply":0, "side":"B", "before":{…board…}, "move":2, "moveName":"B2", "ms":0, "by":"opening"}
 *   …one line a move…
 *   {"type":"end", "game":7, "winner":"A", "score":[26,22], "plies":41, "openingPlies":2, "forfeit":null, "time":[812.4,3.1]}
 *
 * `before` is the board before the move in the JSON board form (docs/engine.md, board files), so any
 * line's board can be saved as a board file and searched. Reading a replay checks each line's
 * shape with zod and then the game itself: every board must follow from the one before by the
 * recorded move under the header's rules, and the end line must match the last board. A mistake
 * is one line naming the file, the line and the field.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import * as z from 'zod';
import { located, UserError } from '../errors.ts';
import { boardToState, type BoardSpec } from '../games/mancala/board-io/board.ts';
import { MancalaGame, type MancalaState } from '../games/mancala/engine.ts';
import { findProfile, PROFILE_NAMES } from '../games/mancala/profiles.ts';
import { LIMITS } from '../games/mancala/rules.ts';
import { sideToMove, type ForfeitPolicy, type ForfeitReason, type GameRecord, type ReplayLine, type Side } from './types.ts';
import { formatPath, valueAt } from '../field-path.ts';

export const REPLAY_VERSION = 1;

/** The first line: which game, under which rules, between whom. */
export interface ReplayHeader {
  type: 'game';
  version: typeof REPLAY_VERSION;
  /** 1-based game number in its match */
  game: number;
  rules: string;
  pits: number;
  seeds: number;
  A: string;
  B: string;
  first: Side;
  /** the match's seed */
  seed: number;
  timePerMoveMs: number;
  forfeitPolicy: ForfeitPolicy;
  /** the start position of an openings file (1-based) the game started from */
  startPosition?: number;
}

/** The last line: how the game ended. */
export interface ReplayEnd {
  type: 'end';
  game: number;
  winner: Side | 'draw';
  /** final stores of A and B (after the sweep; as they stood when a forfeit ended the game) */
  score: [number, number];
  plies: number;
  openingPlies: number;
  forfeit: null | { side: Side; reason: ForfeitReason; message: string };
  /** ms each side thought */
  time: [number, number];
  randomMoves?: [number, number];
  /** with a time bank: ms of it A and B used */
  bankUsed?: [number, number];
  truncated?: boolean;
}

export interface Replay {
  header: ReplayHeader;
  moves: ReplayLine[];
  end: ReplayEnd;
}

/** `game-007.jsonl`: numbers padded to the width of the match's game count (at least 3 digits), so files sort. */
export function replayFileName(game: number, games: number): string {
  return `game-${String(game).padStart(Math.max(3, String(games).length), '0')}.jsonl`;
}

/** The end line of a played game. */
export function replayEnd(r: GameRecord): ReplayEnd {
  return {
    type: 'end',
    game: r.index,
    winner: r.winner,
    score: r.score,
    plies: r.moves.length,
    openingPlies: r.openingPlies,
    forfeit: r.forfeit,
    time: [tenth(r.time[0]), tenth(r.time[1])],
    ...(r.randomMoves !== undefined ? { randomMoves: r.randomMoves } : {}),
    ...(r.bankUsed !== undefined ? { bankUsed: r.bankUsed } : {}),
    ...(r.truncated === true ? { truncated: true } : {}),
  };
}

const tenth = (ms: number): number => Math.round(ms * 10) / 10;

/** The board in the JSON board form, keys in a fixed order. */
function boardJson(b: BoardSpec): Record<string, unknown> {
  return {
    top: b.top,
    bottom: b.bottom,
    stores: { top: b.topStore, bottom: b.bottomStore },
    toMove: b.toMove === 1 ? 'top' : 'bottom',
  };
}

function moveJson(l: ReplayLine): Record<string, unknown> {
  return {
    type: 'move',
    game: l.game,
    ply: l.ply,
    side: l.side,
    before: boardJson(l.before),
    move: l.move,
    moveName: l.moveName,
    ms: tenth(l.ms),
    ...(l.by !== undefined ? { by: l.by } : {}),
    ...(l.value !== undefined ? { value: l.value } : {}),
    ...(l.note !== undefined ? { note: l.note } : {}),
    ...(l.bankLeftMs !== undefined ? { bankLeftMs: l.bankLeftMs } : {}),
  };
}

/** The replay as JSON lines text. */
export function replayText(r: Replay): string {
  return [JSON.stringify(r.header), ...r.moves.map((l) => JSON.stringify(moveJson(l))), JSON.stringify(r.end)].join('\n') + '\n';
}

export function writeReplay(file: string, r: Replay): void {
  writeFileSync(file, replayText(r));
}

// ---- reading -------------------------------------------------------------------------------------

const whole = (what: string) => z.number({ error: `expected ${what}` }).int({ error: `expected ${what}` });
const count = whole('a whole number ≥ 0').min(0, { error: 'expected a whole number ≥ 0' });
const side = z.enum(['A', 'B'], { error: 'expected "A" or "B"' });
const ms = z.number({ error: 'expected a number of ms ≥ 0' }).min(0, { error: 'expected a number of ms ≥ 0' });
const pair = (item: z.ZodType<number>) => z.tuple([item, item], { error: 'expected a list of two numbers [A, B]' });
const row = z.array(count, { error: 'expected a list of pit counts' }).min(LIMITS.minPits, { error: `expected ${LIMITS.minPits} to ${LIMITS.maxPits} pit counts` }).max(LIMITS.maxPits, { error: `expected ${LIMITS.minPits} to ${LIMITS.maxPits} pit counts` });

const headerSchema = z.strictObject({
  type: z.literal('game'),
  version: z.literal(REPLAY_VERSION, { error: `expected ${REPLAY_VERSION} (the replay format this version reads)` }),
  game: whole('a game number ≥ 1').min(1, { error: 'expected a game number ≥ 1' }),
  rules: z.enum(PROFILE_NAMES as [string, ...string[]], { error: `expected a rules profile: ${PROFILE_NAMES.join(', ')}` }),
  pits: whole('a number of pits').min(LIMITS.minPits, { error: `expected ${LIMITS.minPits}..${LIMITS.maxPits} pits` }).max(LIMITS.maxPits, { error: `expected ${LIMITS.minPits}..${LIMITS.maxPits} pits` }),
  seeds: count,
  A: z.string({ error: 'expected the agent of side A' }),
  B: z.string({ error: 'expected the agent of side B' }),
  first: side,
  seed: whole('a whole number'),
  timePerMoveMs: ms,
  forfeitPolicy: z.enum(['loss', 'random-move'], { error: 'expected "loss" or "random-move"' }),
  startPosition: whole('a position number ≥ 1').min(1, { error: 'expected a position number ≥ 1' }).optional(),
});

const moveSchema = z.strictObject({
  type: z.literal('move'),
  game: count,
  ply: count,
  side,
  before: z.strictObject(
    {
      top: row,
      bottom: row,
      stores: z.strictObject({ top: count, bottom: count }, { error: 'expected {"top": …, "bottom": …}' }),
      toMove: z.enum(['bottom', 'top'], { error: 'expected "bottom" or "top"' }),
    },
    { error: 'expected a board {"top": […], "bottom": […], "stores": {…}, "toMove": …}' },
  ),
  move: count,
  moveName: z.string({ error: 'expected the move\'s name, e.g. "B3"' }),
  ms,
  by: z.enum(['opening', 'forfeit'], { error: 'expected "opening" or "forfeit"' }).optional(),
  value: z.number({ error: 'expected a number' }).optional(),
  note: z.string({ error: 'expected a line of text' }).optional(),
  bankLeftMs: ms.optional(),
});

const endSchema = z.strictObject({
  type: z.literal('end'),
  game: count,
  winner: z.enum(['A', 'B', 'draw'], { error: 'expected "A", "B" or "draw"' }),
  score: pair(count),
  plies: count,
  openingPlies: count,
  forfeit: z
    .strictObject({
      side,
      reason: z.enum(['crash', 'timeout', 'illegal-move', 'memory', 'output-limit'], { error: 'expected crash, timeout, illegal-move, memory or output-limit' }),
      message: z.string({ error: 'expected a message' }),
    }, { error: 'expected null or {"side", "reason", "message"}' })
    .nullable(),
  time: pair(ms),
  randomMoves: pair(count).optional(),
  bankUsed: pair(ms).optional(),
  truncated: z.boolean({ error: 'expected true or false' }).optional(),
});



function shown(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}

/** A line's data checked against `schema`, or one line naming the file, the line and the field. */
function checked<T>(schema: z.ZodType<T>, data: unknown, file: string, line: number): T {
  const parsed = schema.safeParse(data);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  if (issue.code === 'unrecognized_keys') {
    throw located(file, line, `field "${formatPath([...issue.path, issue.keys[0]!])}": unknown field`);
  }
  const value = valueAt(data, issue.path);
  const field = issue.path.length === 0 ? '' : `field "${formatPath(issue.path)}": `;
  throw located(file, line, `${field}${issue.message}${value === undefined ? ', but it is missing' : `, got ${shown(value)}`}`);
}

type Line = { line: number; data: unknown };

function jsonLines(text: string, file: string): Line[] {
  const out: Line[] = [];
  text.replace(/^\uFEFF/, '').split(/\r\n|\r|\n/).forEach((raw, k) => {
    if (raw.trim() === '') return;
    try {
      out.push({ line: k + 1, data: JSON.parse(raw) });
    } catch {
      throw located(file, k + 1, `expected one JSON object a line (a replay is JSON lines), got ${shown(raw.trim())}`);
    }
  });
  return out;
}

function typeOf(l: Line, file: string): string {
  const t = l.data !== null && typeof l.data === 'object' ? (l.data as { type?: unknown }).type : undefined;
  if (t !== 'game' && t !== 'move' && t !== 'end') throw located(file, l.line, `field "type": expected "game", "move" or "end", got ${t === undefined ? 'nothing' : shown(t)}`);
  return t;
}

function toBoard(b: z.infer<typeof moveSchema>['before']): BoardSpec {
  return { top: b.top, bottom: b.bottom, topStore: b.stores.top, bottomStore: b.stores.bottom, toMove: b.toMove === 'top' ? 1 : 0 };
}

/** Reads and checks a replay file (see the module's comment). */
export function readReplay(file: string): Replay {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new UserError(`${file}: cannot read the replay: ${code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a folder, not a file' : (e as Error).message}`);
  }
  return parseReplay(text, file);
}

/** `readReplay` on text already read; `file` names it in errors. */
export function parseReplay(text: string, file: string): Replay {
  const lines = jsonLines(text, file);
  if (lines.length === 0) throw new UserError(`${file}: expected a replay (a "game" line, a line a move, an "end" line), but the file is empty`);
  const [first, ...rest] = lines;
  if (typeOf(first!, file) !== 'game') throw located(file, first!.line, 'expected the "game" line first');
  const header = checked(headerSchema, first!.data, file, first!.line) as ReplayHeader;
  const last = rest.pop();
  if (last === undefined || typeOf(last, file) !== 'end') {
    const at = last ?? first!;
    throw located(file, at.line, `expected the "end" line last, but the replay stops after line ${at.line} (an unfinished or cut file?)`);
  }
  const moves: ReplayLine[] = rest.map((l) => {
    if (typeOf(l, file) !== 'move') throw located(file, l.line, `expected a "move" line between the "game" and "end" lines`);
    const m = checked(moveSchema, l.data, file, l.line);
    const { type: _type, before, ...fields } = m;
    return { ...fields, before: toBoard(before) } as ReplayLine;
  });
  const end = checked(endSchema, last.data, file, last.line) as ReplayEnd;
  verifyGame(header, moves, end, file, lines);
  return { header, moves, end };
}

/** The game the replay records must be a game: each board follows from the one before. */
function verifyGame(header: ReplayHeader, moves: readonly ReplayLine[], end: ReplayEnd, file: string, lines: readonly Line[]): void {
  const profile = findProfile(header.rules)!;
  const game = new MancalaGame({ ...profile.rules, pits: header.pits, seeds: header.seeds }, `${profile.name}(${header.pits},${header.seeds})`);
  const at = (k: number) => lines[k + 1]!.line; // line of move k
  const endLine = lines[lines.length - 1]!.line;
  let s: MancalaState | undefined;
  moves.forEach((m, k) => {
    const where = (msg: string) => located(file, at(k), msg);
    if (m.game !== header.game) throw where(`field "game": expected ${header.game} (the "game" line's), got ${m.game}`);
    if (m.ply !== k) throw where(`field "ply": expected ${k} (moves are numbered from 0 in order), got ${m.ply}`);
    let before: MancalaState;
    try {
      before = boardToState(game, m.before, undefined, 'board');
    } catch (e) {
      throw where(`field "before": ${(e as Error).message.replace(/^board: /, '')}`);
    }
    if (s !== undefined && game.key(before) !== game.key(s)) {
      throw where(`field "before": expected the board after the previous move, ${game.describe(s)}; got ${game.describe(before)}`);
    }
    s = before;
    const mover = sideToMove(game.toMove(s), header.first);
    if (m.side !== mover) throw where(`field "side": expected ${mover} (the side to move, ${header.first} moving first), got ${m.side}`);
    if (!game.isLegal(s, m.move)) throw where(`field "move": ${m.move} is not a legal move in ${game.describe(s)}`);
    const name = game.moveName(s, m.move);
    if (m.moveName !== name) throw where(`field "moveName": expected ${JSON.stringify(name)} (move ${m.move}), got ${JSON.stringify(m.moveName)}`);
    s = game.play(s, m.move);
  });
  const where = (msg: string) => located(file, endLine, msg);
  if (end.game !== header.game) throw where(`field "game": expected ${header.game} (the "game" line's), got ${end.game}`);
  if (end.plies !== moves.length) throw where(`field "plies": expected ${moves.length} (the move lines), got ${end.plies}`);
  if (end.openingPlies > moves.length) throw where(`field "openingPlies": expected at most ${moves.length}, got ${end.openingPlies}`);
  if (s === undefined) return; // no move: nothing to check the score against
  const a: 0 | 1 = header.first === 'A' ? 0 : 1;
  const stood = end.forfeit !== null && header.forfeitPolicy === 'loss';
  if (!stood && end.truncated !== true && !game.isOver(s)) throw where(`the game is not over after the last move (${game.describe(s)}), and no forfeit ended it`);
  const score: [number, number] = [game.finalStore(s, a), game.finalStore(s, a === 0 ? 1 : 0)];
  if (end.score[0] !== score[0] || end.score[1] !== score[1]) throw where(`field "score": expected [${score.join(',')}] (the last board's stores), got [${end.score.join(',')}]`);
  const winner = stood ? (end.forfeit!.side === 'A' ? 'B' : 'A') : score[0] > score[1] ? 'A' : score[1] > score[0] ? 'B' : 'draw';
  if (end.winner !== winner) throw where(`field "winner": expected ${JSON.stringify(winner)}, got ${JSON.stringify(end.winner)}`);
}
