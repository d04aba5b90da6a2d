/**
 * The two files that say how an exported autograder grades:
 *
 *  - `autograder.json`, at the zip's root (Gradescope's /autograder/source): written by
 *    `mancala export gradescope`, read by `mancala gradescope-run` inside the container. The
 *    course, the suites (folders beside it) or the gauntlet's settings, the sandbox policy, the
 *    leaderboard, the time budget.
 *  - a cs540 gauntlet settings file, what `--suite` names for cs540 (graded by the gauntlet, not by
 *    a suite): YAML or JSON, every field optional (the gauntlet's defaults otherwise):
 *
 *        stones: [3, 4, 5]        # stones a bin at the start, each a setting
 *        time_per_move: [1000]    # ms a move, each a setting with every stone count
 *        games: 2                 # games against each opponent at each setting
 *        seed: 1
 *        match_rules: project     # or course (as the course's own Match plays)
 *        bonus: 10                # points above 100 for beating the advanced agent
 *        memory_mb: 512
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import * as z from 'zod';
import { UserError } from '../../errors.ts';
import { describeValue, formatPath, valueAt } from '../../field-path.ts';
import { LIMITS } from '../../games/mancala/rules.ts';
import { GAUNTLET_DEFAULTS } from '../../packs/cs540/gauntlet.ts';
import { MATCH_RULES } from '../../packs/cs540/match-rules.ts';

export const CONFIG_FILE = 'autograder.json';
/** The folder of the zip (and of /autograder/source) that holds the suites, their expected answers among them. */
export const SUITES_FOLDER = 'suites';
/** The file a cs540 suite folder may hold instead of a suite. */
export const GAUNTLET_FILE = 'gauntlet.yaml';
export const SANDBOX_POLICIES = ['auto', 'full', 'weak'] as const;
export type SandboxPolicy = (typeof SANDBOX_POLICIES)[number];

const whole = (min: number, max: number) => z.number().int().min(min).max(max);
const distinct = (min: number, max: number) =>
  z
    .array(whole(min, max))
    .min(1)
    .refine((l) => new Set(l).size === l.length, { message: 'a value is given twice' });

const gauntletFileSchema = z.strictObject({
  stones: distinct(LIMITS.minSeeds, LIMITS.maxSeeds).optional(),
  time_per_move: distinct(1, 3_600_000).optional(),
  games: whole(1, 10_000).optional(),
  seed: whole(0, 2 ** 31 - 1).optional(),
  match_rules: z.enum(MATCH_RULES).optional(),
  bonus: z.number().min(0).max(1000).optional(),
  memory_mb: whole(16, 65_536).optional(),
});

/** The gauntlet as autograder.json records it (every field filled in). */
export const gauntletSettingsSchema = z.strictObject({
  stones: z.array(z.number().int()),
  timesPerMoveMs: z.array(z.number().int()),
  gamesPerSetting: z.number().int(),
  seed: z.number().int(),
  matchRules: z.enum(MATCH_RULES),
  bonus: z.number(),
  memoryMb: z.number().int(),
});
export type GauntletSettings = z.infer<typeof gauntletSettingsSchema>;

export function defaultGauntletSettings(): GauntletSettings {
  const d = GAUNTLET_DEFAULTS;
  return { stones: [...d.stones], timesPerMoveMs: [...d.timesPerMoveMs], gamesPerSetting: d.gamesPerSetting, seed: d.seed, matchRules: d.matchRules, bonus: d.bonus, memoryMb: d.memoryMb };
}

/** One line for a zod failure: the file, the field, what was wrong and what was found. */
function zodLine(file: string, data: unknown, error: z.ZodError): UserError {
  const issue = error.issues[0]!;
  const where = formatPath(issue.path);
  const found = valueAt(data, issue.path);
  const got = issue.code === 'unrecognized_keys' ? '' : found === undefined ? '' : `, got ${describeValue(found)}`;
  return new UserError(`${file}: ${where === '' ? '(the file)' : where}: ${issue.message}${got}`);
}

/** The gauntlet settings `--suite` names for cs540: a settings file, or a folder holding gauntlet.yaml. */
export function readGauntletSettings(path: string): GauntletSettings {
  let file = path;
  if (existsSync(path) && statSync(path).isDirectory()) {
    file = join(path, GAUNTLET_FILE);
    if (!existsSync(file)) {
      throw new UserError(
        `--suite ${path}: cs540 is graded by the gauntlet, not by a suite: --suite takes the gauntlet's settings, a YAML or JSON file ` +
          `(stones, time_per_move, games, seed, match_rules, bonus, memory_mb), or a folder holding ${GAUNTLET_FILE}; leave --suite out for the defaults`,
      );
    }
  } else if (!existsSync(path)) {
    throw new UserError(`--suite ${path}: no such file or folder`);
  }
  let data: unknown;
  try {
    data = parseYaml(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new UserError(`${file}: not YAML or JSON: ${(e as Error).message.split('\n')[0]}`);
  }
  if (data === null || data === undefined) data = {};
  const parsed = gauntletFileSchema.safeParse(data);
  if (!parsed.success) throw zodLine(file, data, parsed.error);
  const s = parsed.data;
  const d = defaultGauntletSettings();
  return {
    stones: s.stones ?? d.stones,
    timesPerMoveMs: s.time_per_move ?? d.timesPerMoveMs,
    gamesPerSetting: s.games ?? d.gamesPerSetting,
    seed: s.seed ?? d.seed,
    matchRules: s.match_rules ?? d.matchRules,
    bonus: s.bonus ?? d.bonus,
    memoryMb: s.memory_mb ?? d.memoryMb,
  };
}

const ladderSchema = z.strictObject({
  opponents: z.array(z.strictObject({ name: z.string(), spec: z.string() })),
  rules: z.string(),
  gamesPerOpponent: z.number().int().min(1),
  timePerMoveMs: z.number().int().min(1),
  seed: z.number().int(),
});

export const configSchema = z.strictObject({
  version: z.literal(1),
  /** the grader that wrote it: mancala-autograder <version> */
  grader: z.string(),
  course: z.string(),
  grading: z.enum(['suite', 'gauntlet']),
  /** suite folders, relative to the config's folder */
  suites: z.array(z.string()),
  gauntlet: gauntletSettingsSchema.optional(),
  sandbox: z.enum(SANDBOX_POLICIES),
  leaderboard: z.union([z.null(), z.strictObject({ kind: z.literal('gauntlet') }), z.strictObject({ kind: z.literal('ladder'), ladder: ladderSchema })]),
  /** every case's limits, over the suites' (`--time-limit`, `--memory`); each report notes them */
  limits: z.strictObject({ ms: z.number().int().min(1).optional(), memoryMb: z.number().int().min(16).optional() }).optional(),
  /** seconds run_autograder gives the grading (0: no limit); over it the results say what was not graded */
  timeBudgetS: z.number().int().min(0),
  /** the total of every test's max_score */
  maxScore: z.number(),
  /** the platform the grader's native parts (esbuild) were exported for: `linux-x64` */
  platform: z.string(),
});
export type AutograderConfig = z.infer<typeof configSchema>;

export function readConfig(file: string): AutograderConfig {
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new UserError(`${file}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file (is this an exported autograder?)' : `not JSON: ${(e as Error).message}`}`);
  }
  const parsed = configSchema.safeParse(data);
  if (!parsed.success) throw zodLine(file, data, parsed.error);
  return parsed.data;
}
