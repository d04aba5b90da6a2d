/**
 * From a suite folder to a validated Suite: the manifest (`suite.yaml`, `suite.yml` or
 * `suite.json`), the case files its `cases` patterns match (globby), each case resolved
 * (resolve-case.ts), and `expected.json` (expected.ts).
 *
 * Every mistake is ONE UserError line naming the file, the line and the field path, e.g.
 * `testcases/x/cases/opening.yaml:12: cases[2].checks.nodes: expected exact, at-most or {ratio: N}, got "exactly"`.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { globby } from 'globby';
import { UserError } from '../errors.ts';
import { findHeuristic, heuristicNames, parseAgentSpec, type AgentSpec } from '../plugins/agents.ts';
import { EXPECTED_FILE, readExpected } from './expected.ts';
import { conventionsOf, GameCache, gameSpec } from './game.ts';
import { resolveCase, type CaseItem, type SuiteContext } from './resolve-case.ts';
import { caseListFileSchema, caseSchema, DEFAULT_CASE_PATTERNS, DEFAULT_LIMITS, manifestSchema, type CaseFile } from './schema.ts';
import { describeValue, fieldError, issueError, readSource, valueAt, type FieldPath, type SourceFile } from './source.ts';
import type { Limits, Manifest, RoleSpec, Suite, SuiteCase } from './types.ts';

export const MANIFEST_FILES = ['suite.yaml', 'suite.yml', 'suite.json'] as const;

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

function findManifest(naming: Naming): string {
  if (!existsSync(naming.absDir)) throw new UserError(`${naming.dir}: no such suite folder`);
  const found = MANIFEST_FILES.filter((f) => existsSync(join(naming.absDir, f)));
  if (found.length === 0) throw new UserError(`${naming.dir}: not a suite folder: expected a manifest, ${MANIFEST_FILES.join(' or ')}${courseFilesHint(naming.absDir)}`);
  if (found.length > 1) throw new UserError(`${naming.dir}: expected one manifest, found ${found.join(' and ')}`);
  return join(naming.absDir, found[0]!);
}

/** A folder of seed 000's own files is a suite for programs, not for agent modules: say where it goes. */
function courseFilesHint(dir: string): string {
  let names: string[] = [];
  try {
    names = readdirSync(dir);
  } catch {
    return '';
  }
  return names.some((n) => /^testInput_\d+\.txt$/.test(n)) ? ' (it holds the course\'s testInput_K.txt files: grade programs on it with `mancala csci561-grade`)' : '';
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
      throw fieldError(source, ['roles', name, 'reference'], `expected a reference heuristic (${heuristicNames().join(', ')}), got ${describeValue(role.reference)}`);
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
    categories: m.categories.map((c) => ({
      name: c.name,
      weight: c.weight,
      ...(c.description === undefined ? {} : { description: c.description }),
      ...(c.visibility === undefined ? {} : { visibility: c.visibility }),
    })),
    limits,
    visibility: m.visibility,
    cases: m.cases === undefined ? [...DEFAULT_CASE_PATTERNS] : typeof m.cases === 'string' ? [m.cases] : m.cases,
  };
  if (m.description !== undefined) manifest.description = m.description;
  if (m.node_counts !== undefined) manifest.nodeCounts = m.node_counts;
  return { manifest, context: { games: new GameCache(), conventions: conventionsOf(game), agentReferences } };
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
      const c = resolveCase(item, { rel: rel.split(sep).join('/'), absolute, display: naming.display }, manifest, context);
      const other = ids.get(c.id);
      if (other !== undefined) throw item.fail(['id'], `duplicate case id "${c.id}": also the id of a case in ${other}`);
      ids.set(c.id, source.name);
      cases.push(c);
    }
  }
  return cases;
}

/** The cases of one file: a single case, a list of cases, or {defaults, cases}; each validated. */
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

