/**
 * The JSON board form, our own:
 *
 *   {
 *     "top": [4,4,4,4,4,4],
 *     "bottom": [4,4,4,4,4,4],
 *     "stores": {"top": 0, "bottom": 0},
 *     "toMove": "bottom",
 *     "profile": "csc384"
 *   }
 *
 * - `top`, `bottom`: each row's pits LEFT TO RIGHT AS THE BOTTOM PLAYER SEES THE BOARD, so
 *   top[i] is opposite bottom[i]; 1..20 pits a row, both rows the same length, 0..1000 stones a pit.
 *   The bottom player sows left to right (into its store on the right), the top player right to
 *   left (into its store on the left).
 * - `stores`: whole numbers ≥ 0.
 * - `toMove` (optional): "bottom" or "top".
 * - `profile` (optional): the rules profile the board is meant for (profiles.ts).
 * - or, instead of `stores` and `toMove`, `top_store`, `bottom_store` and `to_move` (optional):
 *   the form a suite's case file writes an inline board in, so one board works in both places.
 *   A board mixing the two forms is an error.
 * Unknown fields are errors, so a misspelt one is not silently ignored. Errors name the file and
 * the field path: `board.json: field "stores.top": expected a whole number ≥ 0, got -1`.
 */
import * as z from 'zod';
import { UserError } from '../../../errors.ts';
import type { MancalaGame, MancalaState } from '../engine.ts';
import { PROFILE_NAMES } from '../profiles.ts';
import { LIMITS } from '../rules.ts';
import { MAX_TOTAL_STONES } from '../engine.ts';
import { checkTotal, stateToBoard, type BoardSpec } from './board.ts';
import { describeValue, formatPath, valueAt } from '../../../field-path.ts';
import { jsonSyntaxLine, jsonSyntaxReason } from '../../../json-syntax.ts';

const WHOLE = 'expected a whole number ≥ 0';
const ROW = `expected a list of ${LIMITS.minPits} to ${LIMITS.maxPits} pit counts`;

const pitCount = z
  .number({ error: WHOLE })
  .refine(Number.isInteger, { error: WHOLE })
  .min(0, { error: WHOLE })
  .max(MAX_TOTAL_STONES, { error: `expected at most ${MAX_TOTAL_STONES} stones a pit` });
const storeCount = z.number({ error: WHOLE }).refine(Number.isInteger, { error: WHOLE }).min(0, { error: WHOLE });
const row = z
  .array(pitCount, { error: ROW })
  .min(LIMITS.minPits, { error: ROW })
  .max(LIMITS.maxPits, { error: ROW });

const STORE_KEYS = ['top', 'bottom'] as const;
const ROOT_KEYS = ['top', 'bottom', 'stores', 'toMove', 'profile', 'top_store', 'bottom_store', 'to_move'] as const;
const STORES = 'expected an object {"top": …, "bottom": …}';
const SIDE = z.enum(['bottom', 'top'], { error: 'expected "bottom" or "top"' });

const boardSchema = z.strictObject(
  {
    top: row,
    bottom: row,
    stores: z.strictObject({ top: storeCount, bottom: storeCount }, { error: STORES }).optional(),
    toMove: SIDE.optional(),
    profile: z.enum(PROFILE_NAMES as [string, ...string[]], { error: `expected one of ${PROFILE_NAMES.join(', ')}` }).optional(),
    // The form a suite's case file writes an inline board in, accepted here too (never mixed with the above).
    top_store: storeCount.optional(),
    bottom_store: storeCount.optional(),
    to_move: SIDE.optional(),
  },
  { error: 'expected a JSON object with "top", "bottom" and "stores"' },
);

const JSON_FORM = ['stores', 'toMove'] as const;
const CASE_FORM = ['top_store', 'bottom_store', 'to_move'] as const;

/** The stores and the player to move, from either form; a mix, or a form half given, is an error. */
function storesAndMover(fileName: string, b: z.infer<typeof boardSchema>): { topStore: number; bottomStore: number; toMove: 'bottom' | 'top' | undefined } {
  const json = JSON_FORM.filter((k) => b[k] !== undefined);
  const snake = CASE_FORM.filter((k) => b[k] !== undefined);
  if (json.length > 0 && snake.length > 0) {
    throw new UserError(
      `${fileName}: field "${snake[0]}": mixes two board forms (this board also has "${json[0]}"): write "stores": {"top", "bottom"} and "toMove", or "top_store", "bottom_store" and "to_move"`,
    );
  }
  if (snake.length === 0) {
    if (b.stores === undefined) throw new UserError(`${fileName}: field "stores": ${STORES}, but it is missing`);
    return { topStore: b.stores.top, bottomStore: b.stores.bottom, toMove: b.toMove };
  }
  for (const k of ['top_store', 'bottom_store'] as const) {
    if (b[k] === undefined) throw new UserError(`${fileName}: field "${k}": ${WHOLE}, but it is missing`);
  }
  return { topStore: b.top_store!, bottomStore: b.bottom_store!, toMove: b.to_move };
}

/** The first problem zod found, as one line naming the file and the field. */
function issueMessage(fileName: string, data: unknown, issue: z.core.$ZodIssue): string {
  if (issue.code === 'unrecognized_keys') {
    const allowed = issue.path.length === 0 ? ROOT_KEYS : STORE_KEYS;
    return `${fileName}: field "${formatPath([...issue.path, issue.keys[0]!])}": unknown field; expected ${allowed.join(', ')}`;
  }
  const value = valueAt(data, issue.path);
  const where = issue.path.length === 0 ? `${fileName}:` : `${fileName}: field "${formatPath(issue.path)}":`;
  return value === undefined ? `${where} ${issue.message}, but it is missing` : `${where} ${issue.message}, got ${describeValue(value)}`;
}

/** JSON.parse's complaint on one line, at the line it points to when it gives a position. */
function syntaxError(fileName: string, text: string, e: SyntaxError): UserError {
  const line = jsonSyntaxLine(text, e);
  return new UserError(`${fileName}${line === undefined ? '' : `:${line}`}: expected valid JSON (${jsonSyntaxReason(e)})`);
}

export function parseJsonBoard(text: string, fileName: string): BoardSpec {
  const source = text.replace(/^\uFEFF/, '');
  let data: unknown;
  try {
    data = JSON.parse(source);
  } catch (e) {
    if (e instanceof SyntaxError) throw syntaxError(fileName, source, e);
    throw e;
  }
  const parsed = boardSchema.safeParse(data);
  if (!parsed.success) throw new UserError(issueMessage(fileName, data, parsed.error.issues[0]!));
  const { top, bottom, profile } = parsed.data;
  const { topStore, bottomStore, toMove } = storesAndMover(fileName, parsed.data);
  if (bottom.length !== top.length) {
    throw new UserError(`${fileName}: field "bottom": expected ${top.length} pits (as many as "top"), got ${bottom.length}`);
  }
  const board: BoardSpec = { top, bottom, topStore, bottomStore };
  if (toMove !== undefined) board.toMove = toMove === 'bottom' ? 0 : 1;
  if (profile !== undefined) board.profile = profile;
  checkTotal(board, fileName);
  return board;
}

/** The JSON form of a board: one field a line, each row on one line. */
export function writeJsonBoard(board: BoardSpec): string {
  const fields = [
    `"top": ${JSON.stringify(board.top)}`,
    `"bottom": ${JSON.stringify(board.bottom)}`,
    `"stores": {"top": ${board.topStore}, "bottom": ${board.bottomStore}}`,
  ];
  if (board.toMove !== undefined) fields.push(`"toMove": ${JSON.stringify(board.toMove === 0 ? 'bottom' : 'top')}`);
  if (board.profile !== undefined) fields.push(`"profile": ${JSON.stringify(board.profile)}`);
  return `{\n  ${fields.join(',\n  ')}\n}\n`;
}

/** The JSON form of `state`, as it stands, with the player to move. */
export function writeJson(game: MancalaGame, state: MancalaState): string {
  return writeJsonBoard(stateToBoard(game, state));
}
