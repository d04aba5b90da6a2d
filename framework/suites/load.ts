/**
 * From a suite folder to a validated Suite: the manifest (`suite.yaml`, `suite.yml` or
 * `suite.json`), the case files its `cases` patterns match (globby), and `expected.json`.
 *
 * Every mistake is ONE UserError line naming the file, the line and the field path, e.g.
 * `testcases/x/cases/opening.yaml:12: cases[2].checks.nodes: expected exact, at-most or {ratio: N}, got "exactly"`.
 *
 * A case is resolved completely here: its position becomes a BoardSpec (who moves included), its
 * options get the profile's conventions and the role reference's own options filled in, and its
 * checks their defaults, so the runner, the graders and `suite bless` all read the same values.
 * `caseHash` is taken over that resolved content; a case whose hash differs from its entry in
 * expected.json has been edited since it was blessed.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { globby } from 'globby';
import { SANDBOX_HEURISTICS } from '../grading/types.ts';
import type { Game } from '../contracts/game.ts';
import { UserError } from '../errors.ts';
import type { SearchConventions } from '../search/conventions.ts';
import { findHeuristic, HEURISTIC_NAMES, parseAgentSpec, type AgentSpec } from '../../agents/index.ts';
import { canonicalJson } from './canonical-json.ts';
import { conventionsOf, createGame, gameSpec } from './game.ts';
import { resolvePosition } from './position.ts';
import {
  caseListFileSchema,
  caseSchema,
  countCheck,
  DEFAULT_CASE_PATTERNS,
  DEFAULT_HEURISTIC_PLAYOFF_DEPTH,
  DEFAULT_LIMITS,
  expectedFileSchema,
  manifestSchema,
  type CaseFile,
  type ChecksFile,
} from './schema.ts';
import { describeValue, fieldError, issueError, readSource, valueAt, type FieldPath, type SourceFile } from './source.ts';
import type { CaseOptions, Checks, Expected, Limits, Manifest, RoleSpec, Suite, SuiteCase } from './types.ts';

export const MANIFEST_FILES = ['suite.yaml', 'suite.yml', 'suite.json'] as const;
export const EXPECTED_FILE = 'expected.json';

/** Reference agents whose searches emit trace events (a trace check compares with them). */
const TRACING_AGENTS = ['greedy', 'minimax', 'alphabeta'];
/** Reference agents that return no value with their move. */
const VALUELESS_AGENTS = ['random'];

/** How messages name the suite's files: the folder as the user gave it, then the path inside it. */
interface Naming {
  dir: string;
  absDir: string;
  display(absolute: string): string;
}

export async function loadSuite(dir: string): Promise<Suite> {
  const absDir = resolve(dir);
  const naming: Naming = { dir, absDir, display: (absolute) => join(dir, relative(absDir, absolute)) };
  const { manifest, context } = loadManifest(naming);
  const cases = await loadCases(naming, manifest, context);
  const expected = readExpected(dir);
  return { manifest, cases, expected };
}

// ---- manifest ----------------------------------------------------------------------------------

/** What resolving cases needs beyond the manifest. */
interface SuiteContext {
  game: Game<any>;
  conventions: SearchConventions;
  /** the parsed reference of each agent role */
  agentReferences: Record<string, AgentSpec>;
}

function findManifest(naming: Naming): string {
  if (!existsSync(naming.absDir)) throw new UserError(`${naming.dir}: no such suite folder`);
  const found = MANIFEST_FILES.filter((f) => existsSync(join(naming.absDir, f)));
  if (found.length === 0) throw new UserError(`${naming.dir}: not a suite folder: expected a manifest, ${MANIFEST_FILES.join(' or ')}`);
  if (found.length > 1) throw new UserError(`${naming.dir}: expected one manifest, found ${found.join(' and ')}`);
  return join(naming.absDir, found[0]!);
}

function loadManifest(naming: Naming): { manifest: Manifest; context: SuiteContext } {
  const file = findManifest(naming);
  const source = readSource(file, naming.display(file), 'the suite manifest');
  if (source.data === null || source.data === undefined) throw new UserError(`${source.name}: expected a suite manifest, but the file is empty`);
  const parsed = manifestSchema.safeParse(source.data);
  if (!parsed.success) throw issueError(source, [], parsed.error.issues);
  const m = parsed.data;

  const roles: Record<string, RoleSpec> = {};
  const agentReferences: Record<string, AgentSpec> = {};
  for (const [name, role] of Object.entries(m.roles)) {
    if (!/^[A-Za-z][A-Za-z0-9_-]*$/.test(name)) {
      throw fieldError(source, ['roles', name], 'expected a role name: letters, digits, "_" and "-", starting with a letter', source.lineOfKey(['roles'], name));
    }
    if (role.kind === 'agent') {
      agentReferences[name] = within(source, ['roles', name, 'reference'], () => parseAgentSpec(role.reference));
    } else if (findHeuristic(role.reference) === undefined) {
      throw fieldError(source, ['roles', name, 'reference'], `expected a reference heuristic (${HEURISTIC_NAMES.join(', ')}), got ${describeValue(role.reference)}`);
    }
    roles[name] = { kind: role.kind, files: typeof role.files === 'string' ? [role.files] : role.files, reference: role.reference };
  }

  const seen = new Map<string, number>();
  m.categories.forEach((c, i) => {
    const earlier = seen.get(c.name);
    if (earlier !== undefined) throw fieldError(source, ['categories', i, 'name'], `duplicate category "${c.name}" (also categories[${earlier}])`);
    seen.set(c.name, i);
  });

  const game = gameSpec(m.game);
  const limits: Limits = { ms: m.limits?.ms ?? DEFAULT_LIMITS.ms, memoryMb: m.limits?.memory_mb ?? DEFAULT_LIMITS.memoryMb };
  const manifest: Manifest = {
    name: m.name,
    file,
    dir: naming.absDir,
    game,
    roles,
    categories: m.categories.map((c) => ({ name: c.name, weight: c.weight, ...(c.description === undefined ? {} : { description: c.description }) })),
    limits,
    visibility: m.visibility,
    cases: m.cases === undefined ? [...DEFAULT_CASE_PATTERNS] : typeof m.cases === 'string' ? [m.cases] : m.cases,
  };
  if (m.description !== undefined) manifest.description = m.description;
  return { manifest, context: { game: createGame(game), conventions: conventionsOf(game), agentReferences } };
}

/** Runs `fn`; a UserError it throws (a bad agent spec) is put under the field. */
function within<T>(source: SourceFile, path: FieldPath, fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    if (e instanceof UserError) throw fieldError(source, path, e.message);
    throw e;
  }
}

// ---- case files --------------------------------------------------------------------------------

async function loadCases(naming: Naming, manifest: Manifest, context: SuiteContext): Promise<SuiteCase[]> {
  const files = (
    await globby(manifest.cases, {
      cwd: naming.absDir,
      onlyFiles: true,
      ignore: [...MANIFEST_FILES, EXPECTED_FILE, '**/node_modules/**'],
    })
  ).sort();
  if (files.length === 0) {
    throw new UserError(`${naming.display(manifest.file)}: cases: no case files match ${manifest.cases.join(', ')} in ${naming.dir}`);
  }
  const cases: SuiteCase[] = [];
  const ids = new Map<string, string>();
  for (const rel of files) {
    const absolute = join(naming.absDir, rel);
    const source = readSource(absolute, naming.display(absolute), 'the case file');
    for (const item of caseItems(source)) {
      const c = resolveCase(item, rel.split(sep).join('/'), absolute, naming, manifest, context);
      const other = ids.get(c.id);
      if (other !== undefined) throw item.fail(['id'], `duplicate case id "${c.id}": also the id of a case in ${other}`);
      ids.set(c.id, source.name);
      cases.push(c);
    }
  }
  return cases;
}

/** One case as its file gives it: the validated fields, and where each was written. */
interface CaseItem {
  source: SourceFile;
  raw: CaseFile;
  defaults?: CaseFile;
  /** where the case sits in the file: [] (a single case), [i] (a list), ['cases', i] */
  prefix: FieldPath;
  /** a one-line error at a field of the case (from the case, else from the file's defaults) */
  fail(field: FieldPath, message: string): UserError;
}

function caseItems(source: SourceFile): CaseItem[] {
  const data = source.data;
  const item = (raw: unknown, prefix: FieldPath, defaults?: CaseFile): CaseItem => {
    const parsed = caseSchema.safeParse(raw);
    if (!parsed.success) throw issueError(source, prefix, parsed.error.issues);
    const fail = (field: FieldPath, message: string) => {
      const fromDefaults = valueAt(raw, field) === undefined && defaults !== undefined && valueAt(defaults, field) !== undefined;
      return fieldError(source, fromDefaults ? ['defaults', ...field] : [...prefix, ...field], message);
    };
    return { source, raw: parsed.data, ...(defaults ? { defaults } : {}), prefix, fail };
  };
  if (data === null || data === undefined) {
    throw new UserError(`${source.name}: expected a case, a list of cases, or {defaults, cases}, but the file is empty`);
  }
  if (Array.isArray(data)) {
    if (data.length === 0) throw new UserError(`${source.name}: expected at least one case, got an empty list`);
    return data.map((raw, i) => item(raw, [i]));
  }
  if (typeof data === 'object' && ('cases' in data || 'defaults' in data)) {
    const parsed = caseListFileSchema.safeParse(data);
    if (!parsed.success) throw issueError(source, [], parsed.error.issues);
    const defaults = parsed.data.defaults as CaseFile | undefined;
    return parsed.data.cases.map((raw, i) => item(raw, ['cases', i], defaults));
  }
  return [item(data, [])];
}

/** The case's fields over the file's defaults; options, checks and limits are merged field by field. */
function withDefaults(raw: CaseFile, defaults: CaseFile | undefined): CaseFile {
  if (defaults === undefined) return raw;
  const merged: Record<string, unknown> = { ...defined(defaults), ...defined(raw) };
  for (const key of ['options', 'checks', 'limits'] as const) {
    if (defaults[key] !== undefined && raw[key] !== undefined) merged[key] = { ...defined(defaults[key]), ...defined(raw[key]) };
  }
  return merged as CaseFile;
}

function defined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

function resolveCase(item: CaseItem, rel: string, absolute: string, naming: Naming, manifest: Manifest, context: SuiteContext): SuiteCase {
  const c = withDefaults(item.raw, item.defaults);
  const fail = item.fail;

  if (c.id === undefined) throw fail(['id'], 'expected a case id, but it is missing');
  const categories = manifest.categories.map((k) => k.name);
  if (c.category === undefined) throw fail(['category'], `expected a category (${categories.join(', ')}), but it is missing`);
  if (!categories.includes(c.category)) throw fail(['category'], `expected one of the suite's categories (${categories.join(', ')}), got ${describeValue(c.category)}`);

  const roleNames = Object.keys(manifest.roles);
  const roleName = c.role ?? (roleNames.length === 1 ? roleNames[0]! : undefined);
  if (roleName === undefined) throw fail(['role'], `expected a role (the suite has several: ${roleNames.join(', ')}), but it is missing`);
  if (!Object.hasOwn(manifest.roles, roleName)) {
    throw fail(['role'], `expected one of the suite's roles (${roleNames.join(', ')}), got ${describeValue(roleName)}`);
  }
  const role = manifest.roles[roleName]!;

  const position = resolvePosition(manifest.game, context.game, {
    position: c.position,
    player: c.player,
    caseFile: absolute,
    displayFile: naming.display,
    fail,
  });
  if (role.kind === 'agent' && context.game.isOver(position.state)) {
    throw fail(['position'], 'the game is over in this position: an agent has no move to choose');
  }
  if (role.kind === 'heuristic' && c.checks?.playoff !== undefined && context.game.isOver(position.state)) {
    throw fail(['position'], 'the game is over in this position: a playoff has no game to play');
  }

  const limits: Limits = { ms: c.limits?.ms ?? manifest.limits.ms, memoryMb: c.limits?.memory_mb ?? manifest.limits.memoryMb };
  const options = resolveOptions(c, roleName, role, manifest, context, fail);
  const checks = resolveChecks(c.checks, roleName, role, options, limits, manifest, context, fail);

  const resolved: SuiteCase = {
    id: c.id,
    file: rel,
    category: c.category,
    role: roleName,
    board: position.board,
    options,
    checks,
    points: c.points ?? 1,
    limits,
    visibility: c.visibility ?? manifest.visibility,
  };
  if (c.description !== undefined) resolved.description = c.description;
  if (position.tictactoe !== undefined) resolved.tictactoe = position.tictactoe;
  return resolved;
}

type Fail = (field: FieldPath, message: string) => UserError;

/**
 * What the agent is asked, complete: the case's options over the role reference's own options
 * (`alphabeta:caching`) over the profile's conventions. A heuristic role's case takes none,
 * except a playoff: its options are the reference alpha-beta's that plays with the heuristic.
 */
function resolveOptions(c: CaseFile, roleName: string, role: RoleSpec, manifest: Manifest, context: SuiteContext, fail: Fail): CaseOptions {
  const o = c.options ?? {};
  if (role.kind === 'heuristic') {
    if (c.checks?.playoff !== undefined) return heuristicPlayoffOptions(o, roleName, context, fail);
    const first = Object.keys(defined(o))[0];
    if (first !== undefined) throw fail(['options', first], `role "${roleName}" is a heuristic: its cases evaluate the position and take no options`);
    return {};
  }
  const spec = context.agentReferences[roleName]!.options;
  const conventions = context.conventions;
  const depth = o.depth !== undefined ? o.depth : spec.depth !== undefined ? spec.depth : conventions.defaultDepth;
  const options: CaseOptions = {
    depth: depth === null || depth < 0 ? null : depth,
    unit: o.unit ?? spec.unit ?? conventions.depthUnit,
    terminal: o.terminal ?? spec.terminal ?? conventions.terminal,
    caching: o.caching ?? spec.caching ?? false,
    heuristic: o.heuristic ?? 'basic',
    seed: o.seed ?? 1,
  };
  const ms = o.ms ?? spec.ms;
  if (ms !== undefined) options.ms = ms;

  const heuristic = options.heuristic!;
  const heuristicRoles = Object.entries(manifest.roles).filter(([, r]) => r.kind === 'heuristic').map(([n]) => n);
  const valid = `${SANDBOX_HEURISTICS.join(', ')}${heuristicRoles.length > 0 ? `, or ${heuristicRoles.map((n) => `role:${n}`).join(', ')}` : ''}`;
  if (heuristic.startsWith('role:')) {
    if (!heuristicRoles.includes(heuristic.slice('role:'.length))) {
      throw fail(['options', 'heuristic'], `expected a heuristic role of the suite (${valid}), got ${describeValue(heuristic)}`);
    }
  } else if (!SANDBOX_HEURISTICS.includes(heuristic)) {
    // Only given code enters the submission's process; `advanced` is a reference solution.
    throw fail(['options', 'heuristic'], `expected a heuristic the sandbox offers: ${valid}; got ${describeValue(heuristic)}`);
  }
  return options;
}

/** The options a heuristic role's playoff case may set: the reference alpha-beta's search. */
const HEURISTIC_PLAYOFF_OPTIONS = ['depth', 'unit', 'terminal', 'caching'];

/**
 * A heuristic's playoff: the reference alpha-beta plays with the submission's heuristic
 * (`role:NAME`), to the case's depth (default DEFAULT_HEURISTIC_PLAYOFF_DEPTH, not the profile's:
 * a profile may have none) in the profile's unit and terminal evaluation.
 */
function heuristicPlayoffOptions(o: NonNullable<CaseFile['options']>, roleName: string, context: SuiteContext, fail: Fail): CaseOptions {
  for (const key of Object.keys(defined(o))) {
    if (!HEURISTIC_PLAYOFF_OPTIONS.includes(key)) {
      throw fail(
        ['options', key],
        `role "${roleName}" is a heuristic: a playoff case's options are the reference alpha-beta's (${HEURISTIC_PLAYOFF_OPTIONS.join(', ')}), which plays with role:${roleName}`,
      );
    }
  }
  if (o.depth !== undefined && (o.depth === null || o.depth < 1)) {
    throw fail(['options', 'depth'], `expected the reference alpha-beta's depth: a whole number ≥ 1 (a playoff needs a depth limit), got ${describeValue(o.depth)}`);
  }
  return {
    depth: o.depth ?? DEFAULT_HEURISTIC_PLAYOFF_DEPTH,
    unit: o.unit ?? context.conventions.depthUnit,
    terminal: o.terminal ?? context.conventions.terminal,
    caching: o.caching ?? false,
    heuristic: `role:${roleName}`,
  };
}

const AGENT_CHECKS = ['move', 'value', 'nodes', 'evaluations', 'trace', 'next_state', 'time', 'playoff'];
const HEURISTIC_CHECKS = ['heuristic_value', 'time', 'playoff'];

function resolveChecks(
  raw: ChecksFile | undefined,
  roleName: string,
  role: RoleSpec,
  options: CaseOptions,
  limits: Limits,
  manifest: Manifest,
  context: SuiteContext,
  fail: Fail,
): Checks {
  const allowed = role.kind === 'agent' ? AGENT_CHECKS : HEURISTIC_CHECKS;
  const asked = Object.entries(raw ?? {}).filter(([, v]) => v !== undefined && v !== false);
  if (asked.length === 0) {
    throw fail(['checks'], `expected at least one check (${allowed.join(', ')}) for role "${roleName}", but ${raw === undefined ? 'it is missing' : 'none is on'}`);
  }
  for (const [name] of asked) {
    if (!allowed.includes(name)) {
      throw fail(['checks', name], `does not apply to ${role.kind === 'agent' ? 'an agent' : 'a heuristic'} role ("${roleName}"): expected one of ${allowed.join(', ')}`);
    }
  }
  const r = raw!;
  const checks: Checks = {};
  const reference = role.kind === 'agent' ? context.agentReferences[roleName]!.name : undefined;

  if (r.move === true) checks.move = true;
  if (r.value !== undefined && r.value !== false) {
    if (reference !== undefined && VALUELESS_AGENTS.includes(reference)) {
      throw fail(['checks', 'value'], `the role's reference (${role.reference}) returns no value to compare with`);
    }
    checks.value = { tolerance: r.value === true ? 0 : r.value.tolerance };
  }
  const nodes = r.nodes === undefined ? undefined : countCheck(r.nodes);
  if (nodes) checks.nodes = nodes;
  const evaluations = r.evaluations === undefined ? undefined : countCheck(r.evaluations);
  if (evaluations) checks.evaluations = evaluations;

  if (r.trace !== undefined && r.trace !== false) {
    const format = r.trace === true ? 'events' : typeof r.trace === 'string' ? r.trace : r.trace.format;
    if (!TRACING_AGENTS.includes(reference!)) {
      throw fail(['checks', 'trace'], `needs a reference that traces its search (${TRACING_AGENTS.join(', ')}); role "${roleName}" has ${role.reference}`);
    }
    if (format === 'traverse-log' && options.caching) {
      throw fail(['checks', 'trace'], 'traverse-log needs options.caching false: a cache hit hides a subtree the log must show');
    }
    checks.trace = { format };
  }
  if (r.next_state === true) {
    if (manifest.game.kind !== 'mancala') throw fail(['checks', 'next_state'], 'applies to Mancala suites (the board after the move)');
    checks.nextState = true;
  }
  if (r.heuristic_value !== undefined && r.heuristic_value !== false) {
    const given = r.heuristic_value === true ? {} : r.heuristic_value;
    const name = given.reference ?? role.reference;
    if (findHeuristic(name) === undefined) {
      throw fail(['checks', 'heuristic_value', 'reference'], `expected a reference heuristic (${HEURISTIC_NAMES.join(', ')}), got ${describeValue(name)}`);
    }
    checks.heuristicValue = { reference: name, tolerance: given.tolerance ?? 0 };
  }
  if (r.time !== undefined) {
    const ms = typeof r.time === 'number' ? r.time : r.time.ms;
    if (ms > limits.ms) throw fail(['checks', 'time'], `expected at most the case's time limit (${limits.ms} ms; over it the case is a timeout), got ${ms}`);
    checks.time = { ms };
  }
  if (r.playoff !== undefined) {
    const p = r.playoff;
    if (role.kind === 'heuristic' && manifest.game.kind !== 'mancala') {
      throw fail(['checks', 'playoff'], 'applies to Mancala suites (the reference alpha-beta plays Mancala games with the heuristic)');
    }
    const field = ['checks', 'playoff', 'opponent'];
    try {
      parseAgentSpec(p.opponent);
    } catch (e) {
      if (e instanceof UserError) throw fail(field, e.message);
      throw e;
    }
    checks.playoff = { opponent: p.opponent, games: p.games, winRate: p.win_rate, seed: p.seed ?? 1, msPerMove: p.ms_per_move ?? limits.ms };
  }
  return checks;
}

// ---- expected.json and staleness ---------------------------------------------------------------

/** The suite's expected.json (absent: nothing blessed yet). */
export function readExpected(dir: string): Record<string, Expected> {
  const absolute = join(resolve(dir), EXPECTED_FILE);
  if (!existsSync(absolute)) return {};
  const source = readSource(absolute, join(dir, EXPECTED_FILE), 'the expected answers');
  const parsed = expectedFileSchema.safeParse(source.data ?? {});
  if (!parsed.success) throw issueError(source, [], parsed.error.issues);
  return parsed.data as Record<string, Expected>;
}

/**
 * A stable hash of everything that decides a case's expected answers: the game, the role's kind
 * and reference (and the reference heuristic a `role:NAME` heuristic stands for), the position,
 * the resolved options and the checks. Not its id, description, points, category, limits or
 * visibility: changing those needs no new bless.
 */
export function caseHash(c: SuiteCase, manifest: Manifest): string {
  const role = manifest.roles[c.role];
  const heuristic = c.options.heuristic;
  const content = {
    version: 1,
    game: manifest.game,
    role: role === undefined ? c.role : { kind: role.kind, reference: role.reference },
    heuristicReference: heuristic?.startsWith('role:') ? manifest.roles[heuristic.slice('role:'.length)]?.reference : undefined,
    board:
      c.tictactoe === undefined
        ? { top: c.board.top, bottom: c.board.bottom, topStore: c.board.topStore, bottomStore: c.board.bottomStore, toMove: c.board.toMove ?? 0 }
        : undefined,
    tictactoe: c.tictactoe,
    options: c.options,
    checks: c.checks,
  };
  return createHash('sha256').update(canonicalJson(content)).digest('hex').slice(0, 16);
}

/** True when expected.json holds answers for the case as it is now. */
export function isBlessed(suite: Suite, c: SuiteCase): boolean {
  const entry = Object.hasOwn(suite.expected, c.id) ? suite.expected[c.id] : undefined;
  return entry !== undefined && entry.hash === caseHash(c, suite.manifest);
}

/** Cases never blessed, or edited since: the runner refuses to grade them ("run mancala suite bless"). */
export function unblessedCases(suite: Suite): SuiteCase[] {
  return suite.cases.filter((c) => !isBlessed(suite, c));
}

/** Ids in expected.json that no case has any more (bless removes them). */
export function orphanedExpected(suite: Suite): string[] {
  const ids = new Set(suite.cases.map((c) => c.id));
  return Object.keys(suite.expected).filter((id) => !ids.has(id)).sort();
}

