/**
 * The shapes of a suite's files, as zod schemas: the manifest (`suite.yaml` / `suite.json`), the
 * case files and `expected.json`. Field names in the files are snake_case throughout
 * (`next_state`, `memory_mb`, `top_store`, `win_rate`), but for an inline board, which may also
 * be written as a JSON board file writes it (`stores`, `toMove`); expected.json, which only
 * `suite bless` writes, uses the camelCase of the Expected type.
 *
 * These schemas check each value on its own; load.ts then resolves names against each other (a
 * case's category and role exist, a heuristic named `role:NAME` is a heuristic role, …). Unknown
 * fields are errors everywhere, so a misspelt field never silently does nothing.
 */
import * as z from 'zod';
import { BOARD_FORMATS } from '../games/mancala/board-io/board.ts';
import { MAX_TOTAL_STONES } from '../games/mancala/engine.ts';
import { PROFILE_NAMES } from '../games/mancala/profiles.ts';
import { LIMITS } from '../games/mancala/rules.ts';
import { MAX_QUALITY_STONES } from './quality-check.ts';
import type { CountCheck, NodeCounts } from './types.ts';

// ---- building blocks ---------------------------------------------------------------------------

/** "did you mean" for a misspelt field: the known field closest in edit distance, if close. */
function suggestion(key: string, known: readonly string[]): string {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const k of known) {
    const d = editDistance(key.toLowerCase(), k.toLowerCase());
    if (d < bestDistance) [best, bestDistance] = [k, d];
  }
  // camelCase written where snake_case is expected is the likeliest slip: say so directly.
  const snake = key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
  if (snake !== key && known.includes(snake)) return ` (did you mean "${snake}"? fields are snake_case)`;
  return best !== undefined && bestDistance <= Math.max(1, Math.floor(key.length / 3)) ? ` (did you mean "${best}"?)` : '';
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length]!;
}

/** A strict object: an unknown field names the fields that are known; a non-object says `what` was expected. */
function strict<T extends z.core.$ZodLooseShape>(shape: T, what: string) {
  const keys = Object.keys(shape);
  return z.strictObject(shape, {
    error: (issue) => {
      if (issue.code === 'unrecognized_keys') {
        const key = String(issue.keys[0]);
        return `unknown field: expected one of ${keys.join(', ')}${suggestion(key, keys)}`;
      }
      if (issue.code === 'invalid_type') return `expected ${what}`;
      return undefined;
    },
  });
}

const text = (what: string) => z.string({ error: `expected ${what}` }).min(1, { error: `expected ${what} (not empty)` });

function whole(min: number, max: number, what: string) {
  const error = `expected ${what}: a whole number ${max === Number.MAX_SAFE_INTEGER ? `≥ ${min}` : `from ${min} to ${max}`}`;
  return z.number({ error }).int({ error }).min(min, { error }).max(max, { error });
}

function positive(what: string) {
  const error = `expected ${what}: a number > 0`;
  return z.number({ error }).positive({ error });
}

function atLeast(min: number, what: string) {
  const error = `expected ${what}: a number ≥ ${min}`;
  return z.number({ error }).min(min, { error });
}

const ANY = Number.MAX_SAFE_INTEGER;
const stringList = (what: string) =>
  z.union([text(what), z.array(text(what), { error: `expected ${what}, or a list of them` }).min(1, { error: `expected at least one ${what}` })], {
    error: `expected ${what}, or a list of them`,
  });

// ---- manifest ----------------------------------------------------------------------------------

/** `node_counts` (manifest, case): whether a wrong node count fails a case or is only reported. */
export const NODE_COUNTS = ['graded', 'informational'] as const satisfies readonly NodeCounts[];
const nodeCounts = z.enum(NODE_COUNTS, {
  error: 'expected graded (a wrong node count fails the case) or informational (the count is reported, not graded)',
});

export const VISIBILITIES = ['visible', 'hidden', 'after_due_date'] as const;
const visibility = z.enum(VISIBILITIES, { error: `expected one of ${VISIBILITIES.join(', ')}` });

export const GAME_NAMES = [...PROFILE_NAMES, 'tictactoe'] as const;

const gameSchema = z.union(
  [
    z.enum(GAME_NAMES as unknown as [string, ...string[]], { error: `expected a rules profile (${PROFILE_NAMES.join(', ')}) or tictactoe` }),
    strict(
      {
        profile: z.enum(PROFILE_NAMES as [string, ...string[]], { error: `expected a rules profile: ${PROFILE_NAMES.join(', ')}` }),
        pits: whole(LIMITS.minPits, LIMITS.maxPits, 'pits a side').optional(),
        seeds: whole(LIMITS.minSeeds, LIMITS.maxSeeds, 'stones a pit at the start').optional(),
      },
      'a game: {profile, pits, seeds}',
    ),
  ],
  { error: `expected a rules profile (${PROFILE_NAMES.join(', ')}), tictactoe, or {profile, pits, seeds}` },
);

export const ROLE_KINDS = ['agent', 'heuristic'] as const;

const roleSchema = strict(
  {
    kind: z.enum(ROLE_KINDS, { error: 'expected agent or heuristic' }),
    files: stringList('a file pattern'),
    reference: text('the reference: an agent spec (alphabeta, minimax:caching) or a heuristic name (basic)'),
    description: z.string({ error: 'expected a string' }).optional(),
  },
  'a role: {kind, files, reference}',
);

const limitsSchema = strict(
  {
    ms: positive('the time limit of a case in ms').optional(),
    memory_mb: whole(16, ANY, 'the memory limit in MB').optional(),
  },
  'limits: {ms, memory_mb}',
);

const categorySchema = strict(
  {
    name: text('a category name'),
    weight: atLeast(0, 'the weight (points in the total)'),
    description: z.string({ error: 'expected a string' }).optional(),
    /** what students see of this category's cases, unless a case says otherwise; absent: the suite's */
    visibility: visibility.optional(),
  },
  'a category: {name, weight, description, visibility}',
);

export const manifestSchema = strict(
  {
    name: text('the suite name'),
    description: z.string({ error: 'expected a string' }).optional(),
    game: gameSchema,
    roles: z
      .record(z.string(), roleSchema, { error: 'expected roles: a map from role name to {kind, files, reference}' })
      .refine((r) => Object.keys(r).length > 0, { error: 'expected at least one role' }),
    categories: z.array(categorySchema, { error: 'expected a list of categories {name, weight}' }).min(1, { error: 'expected at least one category' }),
    limits: limitsSchema.optional(),
    visibility,
    cases: stringList('a case file pattern').optional(),
    node_counts: nodeCounts.optional(),
  },
  'a suite manifest: {name, game, roles, categories, visibility, …}',
);

export type ManifestFile = z.infer<typeof manifestSchema>;

export const DEFAULT_LIMITS = { ms: 1000, memoryMb: 512 } as const;
/** The reference alpha-beta's depth in a heuristic role's playoff when the case gives none. */
export const DEFAULT_HEURISTIC_PLAYOFF_DEPTH = 4;
export const DEFAULT_CASE_PATTERNS = ['cases/**/*.{json,yaml,yml}'];

// ---- cases -------------------------------------------------------------------------------------

const pitCount = whole(0, MAX_TOTAL_STONES, 'a stone count');
const row = (what: string) =>
  z
    .array(pitCount, { error: `expected ${what}: a list of ${LIMITS.minPits} to ${LIMITS.maxPits} stone counts` })
    .min(LIMITS.minPits, { error: `expected ${what}: a list of ${LIMITS.minPits} to ${LIMITS.maxPits} stone counts` })
    .max(LIMITS.maxPits, { error: `expected ${what}: a list of ${LIMITS.minPits} to ${LIMITS.maxPits} stone counts` });

export const SIDES = ['bottom', 'top'] as const;
const side = z.enum(SIDES, { error: 'expected bottom or top' });

/**
 * An inline board, in either of two forms: the case files' own (`top_store`, `bottom_store`,
 * `to_move`) or the JSON board file's (`stores: {top, bottom}`, `toMove`; board-io/json.ts), so
 * a board copied from a board file or a `reproduce` line works as it is. Which form a board uses,
 * and that it does not mix them, is checked where it is resolved (position.ts `inlineBoard`).
 */
const boardSchema = strict(
  {
    top: row("the top row, left to right as the bottom player sees it"),
    bottom: row('the bottom row, left to right'),
    top_store: whole(0, MAX_TOTAL_STONES, "the top player's store").optional(),
    bottom_store: whole(0, MAX_TOTAL_STONES, "the bottom player's store").optional(),
    to_move: side.optional(),
    stores: strict(
      {
        top: whole(0, MAX_TOTAL_STONES, "the top player's store"),
        bottom: whole(0, MAX_TOTAL_STONES, "the bottom player's store"),
      },
      'the stores: {top, bottom}',
    ).optional(),
    toMove: side.optional(),
  },
  'a board: {top, bottom, top_store, bottom_store, to_move}, or as in a JSON board file {top, bottom, stores: {top, bottom}, toMove}',
);

export const POSITION_SOURCES = ['start', 'board', 'file', 'text', 'tictactoe'] as const;

const positionSchema = strict(
  {
    start: z.literal(true, { error: 'expected true (the start position)' }).optional(),
    board: boardSchema.optional(),
    file: text('a board file, relative to the case file').optional(),
    format: z.enum(BOARD_FORMATS as unknown as [string, ...string[]], { error: `expected a board format: ${BOARD_FORMATS.join(', ')}` }).optional(),
    text: text("a board in the text of a board file (with 'format')").optional(),
    tictactoe: text("a Tic-Tac-Toe board like 'XO_/___/___'").optional(),
    moves: z
      .array(z.union([text('a move name'), whole(0, ANY, 'a move index')], { error: 'expected a move: its name ("B2") or its index (2)' }), {
        error: 'expected a list of moves',
      })
      .optional(),
  },
  `a position: one of {start: true}, {board: …}, {file: …}, {text: …, format: …}, {tictactoe: …}, with optional moves`,
);

export type PositionFile = z.infer<typeof positionSchema>;

const optionsSchema = strict(
  {
    depth: z
      .union([whole(-1, ANY, 'a depth'), z.null()], { error: 'expected a depth: a whole number ≥ 0, or -1 or null for no limit' })
      .optional(),
    unit: z.enum(['move', 'turn'], { error: 'expected move or turn' }).optional(),
    caching: z.boolean({ error: 'expected true or false' }).optional(),
    terminal: z.enum(['score', 'heuristic'], { error: 'expected score or heuristic' }).optional(),
    heuristic: text('a heuristic: a reference heuristic name, or role:NAME').optional(),
    ms: positive('the time budget in ms').optional(),
    seed: whole(0, 2 ** 31 - 1, 'a seed').optional(),
  },
  'options: {depth, unit, caching, terminal, heuristic, ms, seed}',
);

const COUNT_CHECK = 'expected exact, at-most or {ratio: N}';
const countCheckSchema = z.union(
  [
    z.boolean(),
    z.enum(['exact', 'at-most']),
    strict({ ratio: atLeast(1, 'the ratio') }, '{ratio: N}'),
  ],
  { error: COUNT_CHECK },
);

export const TRACE_FORMATS = ['events', 'traverse-log'] as const;
const traceFormat = z.enum(TRACE_FORMATS, { error: `expected ${TRACE_FORMATS.join(' or ')}` });

const playoffSchema = strict(
  {
    opponent: text('the opponent: an agent spec (random, alphabeta:depth=4)'),
    games: whole(1, 1000, 'the number of games'),
    win_rate: z
      .number({ error: 'expected the win rate: a number from 0 to 1' })
      .min(0, { error: 'expected the win rate: a number from 0 to 1' })
      .max(1, { error: 'expected the win rate: a number from 0 to 1' }),
    seed: whole(0, 2 ** 31 - 1, 'a seed').optional(),
    ms_per_move: positive('the time limit of a move in ms').optional(),
  },
  'a playoff: {opponent, games, win_rate, seed, ms_per_move}',
);

export const CHECK_NAMES = ['move', 'value', 'quality', 'nodes', 'evaluations', 'trace', 'next_state', 'heuristic_value', 'time', 'playoff'] as const;

/**
 * `quality`: the stones the agent's move gives up against a best move, by the perfect-play
 * solver, on boards of at most `max_stones` stones in the pits (quality-check.ts holds the bounds).
 */
const qualitySchema = strict(
  {
    max_stones: whole(1, MAX_QUALITY_STONES, 'the most stones in the pits of a board the solver is asked to solve').optional(),
    tolerance: whole(0, ANY, 'the stones a move may give up and still earn full marks').optional(),
    no_credit_at: whole(1, ANY, 'the stones given up at which partial credit reaches 0').optional(),
  },
  '{max_stones, tolerance, no_credit_at}',
);

const checksSchema = strict(
  {
    move: z.boolean({ error: 'expected true or false' }).optional(),
    value: z
      .union([z.boolean(), strict({ tolerance: atLeast(0, 'the tolerance') }, '{tolerance: N}')], { error: 'expected true, false or {tolerance: N}' })
      .optional(),
    quality: z.union([z.boolean(), qualitySchema], { error: 'expected true, false or {max_stones, tolerance, no_credit_at}' }).optional(),
    nodes: countCheckSchema.optional(),
    evaluations: countCheckSchema.optional(),
    trace: z
      .union([z.boolean(), traceFormat, strict({ format: traceFormat }, '{format: events | traverse-log}')], {
        error: 'expected true, events, traverse-log or {format: …}',
      })
      .optional(),
    next_state: z.boolean({ error: 'expected true or false' }).optional(),
    heuristic_value: z
      .union(
        [
          z.boolean(),
          strict(
            { reference: text('a reference heuristic name').optional(), tolerance: atLeast(0, 'the tolerance').optional() },
            '{reference, tolerance}',
          ),
        ],
        { error: 'expected true, false or {reference, tolerance}' },
      )
      .optional(),
    time: z.union([positive('a time in ms'), strict({ ms: positive('a time in ms') }, '{ms: N}')], { error: 'expected a time in ms, or {ms: N}' }).optional(),
    playoff: playoffSchema.optional(),
  },
  `checks: a map with some of ${CHECK_NAMES.join(', ')}`,
);

export type ChecksFile = z.infer<typeof checksSchema>;

/** Every field a case may have; which are required is checked after a file's `defaults` are merged in. */
const caseFields = {
  id: z
    .string({ error: 'expected a case id' })
    .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, { error: 'expected a case id: letters, digits, ".", "_" and "-", starting with a letter or digit' }),
  description: z.string({ error: 'expected a string' }).optional(),
  category: text('a category name').optional(),
  role: text('a role name').optional(),
  position: positionSchema.optional(),
  player: side.optional(),
  options: optionsSchema.optional(),
  checks: checksSchema.optional(),
  node_counts: nodeCounts.optional(),
  points: atLeast(0, 'the points').optional(),
  limits: limitsSchema.optional(),
  visibility: visibility.optional(),
};

export const caseSchema = strict({ ...caseFields, id: caseFields.id.optional() }, 'a case: {id, category, position, checks, …}');
export type CaseFile = z.infer<typeof caseSchema>;

// `defaults` may hold every case field but the id.
const { id: _id, ...defaultFields } = caseFields;

/** A file of several cases: `cases:` and optional `defaults:` every case starts from. */
export const caseListFileSchema = strict(
  {
    defaults: strict(defaultFields, 'defaults: the fields every case of this file starts from (all but id)').optional(),
    cases: z.array(z.unknown(), { error: 'expected a list of cases' }).min(1, { error: 'expected at least one case' }),
  },
  'a case file: {defaults, cases}',
);

// ---- shorthand to the Checks shapes --------------------------------------------------------------

export function countCheck(raw: NonNullable<ChecksFile['nodes']>): CountCheck | undefined {
  if (raw === false) return undefined;
  if (raw === true || raw === 'exact') return { mode: 'exact' };
  if (raw === 'at-most') return { mode: 'at-most' };
  return { mode: 'ratio', ratio: raw.ratio };
}

// ---- expected.json -----------------------------------------------------------------------------

const boardSpecSchema = z.strictObject({
  top: z.array(z.number().int()),
  bottom: z.array(z.number().int()),
  topStore: z.number().int(),
  bottomStore: z.number().int(),
  toMove: z.union([z.literal(0), z.literal(1)]).optional(),
});

export const expectedEntrySchema = strict(
  {
    hash: text('the hash of the blessed case'),
    move: z.number({ error: 'expected a move index' }).int().optional(),
    moveName: z.string({ error: 'expected a move name' }).optional(),
    value: z.number({ error: 'expected a number' }).optional(),
    nodes: whole(0, ANY, 'a node count').optional(),
    evaluations: whole(0, ANY, 'an evaluation count').optional(),
    trace: z.array(z.unknown(), { error: 'expected a list' }).optional(),
    nextState: boardSpecSchema.optional(),
    heuristicValue: z.number({ error: 'expected a number' }).optional(),
    moveValues: z.record(z.string(), z.number({ error: 'expected a number' }).int(), { error: 'expected move index → perfect-play value' }).optional(),
  },
  'an expected entry: {hash, move, value, …}',
);

export const expectedFileSchema = z.record(z.string(), expectedEntrySchema, {
  error: 'expected an object from case id to expected values (written by mancala suite bless)',
});
