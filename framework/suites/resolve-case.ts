/**
 * One case, resolved completely: its position becomes a BoardSpec (who moves included), its
 * options get the profile's conventions and the role reference's own options filled in, and its
 * checks their defaults, so the runner, the graders and `suite bless` all read the same values.
 * Every mistake is one UserError at the case's field (CaseItem.fail).
 */
import type { GameCache } from './game.ts';
import type { SearchConventions } from '../contracts/search-conventions.ts';
import { UserError } from '../errors.ts';
import { SANDBOX_HEURISTICS } from '../heuristics/sandbox-heuristics.ts';
import { agentTable, findHeuristic, heuristicNames, parseAgentSpec, type AgentSpec } from '../plugins/agents.ts';
import { resolvePosition } from './position.ts';
import { resolveQuality } from './quality-check.ts';
import { countCheck, DEFAULT_HEURISTIC_PLAYOFF_DEPTH, type CaseFile, type ChecksFile } from './schema.ts';
import { describeValue, fieldError, type FieldPath, type SourceFile } from './source.ts';
import type { CaseOptions, Checks, Limits, Manifest, RoleSpec, SuiteCase } from './types.ts';

/** What resolving cases needs beyond the manifest. */
export interface SuiteContext {
  /** the engines of the suite's game, one per board size its cases use */
  games: GameCache;
  conventions: SearchConventions;
  /** the parsed reference of each agent role */
  agentReferences: Record<string, AgentSpec>;
}

/** One case as its file gives it: the validated fields, and where each was written. */
export interface CaseItem {
  source: SourceFile;
  raw: CaseFile;
  defaults?: CaseFile;
  /** where the case sits in the file: [] (a single case), [i] (a list), ['cases', i] */
  prefix: FieldPath;
  /** a one-line error at a field of the case (from the case, else from the file's defaults) */
  fail(field: FieldPath, message: string): UserError;
}

/** Where the case came from: its file relative to the suite, absolute, and as messages name a file. */
export interface CaseLocation {
  rel: string;
  absolute: string;
  display(absolute: string): string;
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

export function resolveCase(item: CaseItem, where: CaseLocation, manifest: Manifest, context: SuiteContext): SuiteCase {
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

  const position = resolvePosition(manifest.game, context.games, {
    position: c.position,
    player: c.player,
    caseFile: where.absolute,
    displayFile: where.display,
    fail,
  });
  if (role.kind === 'agent' && position.game.isOver(position.state)) {
    throw fail(['position'], 'the game is over in this position: an agent has no move to choose');
  }
  if (role.kind === 'heuristic' && c.checks?.playoff !== undefined && position.game.isOver(position.state)) {
    throw fail(['position'], 'the game is over in this position: a playoff has no game to play');
  }

  const limits: Limits = { ms: c.limits?.ms ?? manifest.limits.ms, memoryMb: c.limits?.memory_mb ?? manifest.limits.memoryMb };
  const options = resolveOptions(c, roleName, role, manifest, context, fail);
  const checks = resolveChecks(c.checks, roleName, role, options, limits, manifest, context, fail);
  if (c.checks?.quality !== undefined && c.checks.quality !== false) {
    const quality = resolveQuality(c.checks.quality, manifest.game, position.board);
    if ('error' in quality) throw fail(['checks', 'quality', ...quality.field], quality.error);
    checks.quality = quality;
  }
  // Said in the case itself (not its file's defaults) where no node count is checked, it would do nothing.
  if (item.raw.node_counts !== undefined && checks.nodes === undefined) {
    throw fail(['node_counts'], 'applies to a case with a nodes check, and this case checks no node count');
  }

  const resolved: SuiteCase = {
    id: c.id,
    file: where.rel,
    category: c.category,
    role: roleName,
    board: position.board,
    options,
    checks,
    ...(checks.nodes !== undefined ? { nodeCounts: c.node_counts ?? manifest.nodeCounts ?? 'graded' } : {}),
    points: c.points ?? 1,
    limits,
    // The most specific says: the case (or its file's defaults), its category, the suite.
    visibility: c.visibility ?? manifest.categories.find((k) => k.name === c.category)?.visibility ?? manifest.visibility,
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

const AGENT_CHECKS = ['move', 'value', 'quality', 'nodes', 'evaluations', 'trace', 'next_state', 'time', 'playoff'];
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
    if (reference !== undefined && agentTable()[reference]!.valueless === true) {
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
    if (agentTable()[reference!]!.traces !== true) {
      const tracing = Object.keys(agentTable()).filter((name) => agentTable()[name]!.traces === true);
      throw fail(['checks', 'trace'], `needs a reference that traces its search (${tracing.join(', ')}); role "${roleName}" has ${role.reference}`);
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
      throw fail(['checks', 'heuristic_value', 'reference'], `expected a reference heuristic (${heuristicNames().join(', ')}), got ${describeValue(name)}`);
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

