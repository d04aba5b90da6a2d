/**
 * A suite's files as data that remembers where each value was written: YAML and JSON are both read
 * with the `yaml` package (JSON is YAML), so every mistake can name the file, the line and the
 * field path, e.g. `cases/opening.yaml:12: cases[2].checks.nodes: expected …, got "exactly"`.
 */
import { readFileSync } from 'node:fs';
import { isMap, isPair, isScalar, isSeq, LineCounter, parseDocument, type Document, type Node } from 'yaml';
import type * as z from 'zod';
import { located, UserError } from '../errors.ts';

import { describeValue, formatPath, valueAt } from '../field-path.ts';
import { jsonSyntaxLine, jsonSyntaxReason } from '../json-syntax.ts';
export type FieldPath = readonly (string | number)[];
export { describeValue, formatPath, valueAt } from '../field-path.ts';

/** A parsed file: its data, and the line of any field in it. */
export interface SourceFile {
  /** the file as messages name it (relative to the current folder when the suite was given so) */
  name: string;
  data: unknown;
  /** the line of the value at `path` (or of its nearest ancestor written in the file) */
  lineOf(path: FieldPath): number | undefined;
  /** the line of the key `key` in the map at `path` (an unknown field points at its key) */
  lineOfKey(path: FieldPath, key: string): number | undefined;
}

const READ_FAILURES: Record<string, string> = {
  ENOENT: 'no such file',
  EISDIR: 'it is a folder, not a file',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
};

export function readText(path: string, name: string, what: string): string {
  try {
    return readFileSync(path, 'utf8').replace(/^\uFEFF/, '');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code ?? '';
    throw new UserError(`${name}: cannot read ${what}: ${READ_FAILURES[code] ?? (e as Error).message}`);
  }
}

/** Parses YAML or JSON text (`name` is what messages call the file; a `.json` name means JSON). */
export function parseSource(text: string, name: string): SourceFile {
  const json = /\.json$/i.test(name);
  // YAML reads most JSON mistakes (a trailing comma) as valid: a JSON file must pass JSON's parser too.
  if (json) checkJsonSyntax(text, name);
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines });
  const problem = doc.errors[0];
  if (problem !== undefined) {
    // The yaml package appends " at line L, column C:" and a code excerpt; keep the first clause.
    const reason = problem.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '');
    throw located(name, problem.linePos?.[0]?.line, `expected valid ${json ? 'JSON' : 'YAML'} (${reason})`);
  }
  const data: unknown = doc.toJS({ maxAliasCount: 1000 });
  const lineAt = (offset: number | undefined) => (offset === undefined ? undefined : lines.linePos(offset).line);
  const keyLine = (path: FieldPath, key: string | number): number | undefined => {
    const parent = nearestNode(doc, path);
    if (!isMap(parent)) return undefined;
    const pair = parent.items.find((p) => isPair(p) && isScalar(p.key) && String(p.key.value) === String(key));
    return lineAt((pair?.key as Node | undefined)?.range?.[0]);
  };
  return {
    name,
    data,
    // A field's line is its key's: a block map or list under a key starts on the next line.
    lineOf: (path) => (path.length > 0 ? keyLine(path.slice(0, -1), path[path.length - 1]!) : undefined) ?? lineAt(nearestNode(doc, path)?.range?.[0]),
    lineOfKey: (path, key) => keyLine(path, key) ?? lineAt(nearestNode(doc, path)?.range?.[0]),
  };
}

/** JSON.parse's complaint on one line, at the line its position points to. */
function checkJsonSyntax(text: string, name: string): void {
  try {
    JSON.parse(text);
  } catch (e) {
    if (!(e instanceof SyntaxError)) throw e;
    throw located(name, jsonSyntaxLine(text, e), `expected valid JSON (${jsonSyntaxReason(e)})`);
  }
}

export function readSource(path: string, name: string, what: string): SourceFile {
  return parseSource(readText(path, name, what), name);
}

/** The node at `path`, or the deepest ancestor of it that exists. */
function nearestNode(doc: Document, path: FieldPath): Node | undefined {
  let node: unknown = doc.contents;
  for (const key of path) {
    let next: unknown;
    if (isMap(node)) next = node.get(key, true);
    else if (isSeq(node) && typeof key === 'number') next = node.get(key, true);
    if (next === undefined || next === null) break;
    node = next;
  }
  return node === null || node === undefined ? undefined : (node as Node);
}

// ---- messages ----------------------------------------------------------------------------------




/** One line: "file:line: path: message". */
export function fieldError(source: SourceFile, path: FieldPath, message: string, line = source.lineOf(path)): UserError {
  const field = formatPath(path);
  return located(source.name, line, field === '' ? message : `${field}: ${message}`);
}

/**
 * The problem zod found (an unknown field first, else the first), as one line. `prefix` is where the validated value sits in the file
 * (`['cases', 2]`). Messages set in the schemas say what was expected; this adds what was found.
 */
export function issueError(source: SourceFile, prefix: FieldPath, issues: readonly z.core.$ZodIssue[]): UserError {
  // A misspelt field usually also leaves a required one missing: the misspelling is the news.
  const issue = issues.find((i) => i.code === 'unrecognized_keys') ?? issues[0]!;
  const closest = closestIssue(issue);
  const path = [...prefix, ...(closest.path as (string | number)[])];
  if (closest.code === 'unrecognized_keys') {
    const key = closest.keys[0]!;
    return fieldError(source, [...path, key], closest.message, source.lineOfKey(path, key));
  }
  const value = valueAt(source.data, path);
  const message = closest.message;
  if (value === undefined) return fieldError(source, path, `${message}, but it is missing`);
  return fieldError(source, path, `${message}, got ${describeValue(value)}`);
}

/**
 * A union that failed reports every alternative's complaint. When one alternative got further
 * into the value than the others (the value is an object and a field of it is wrong), its
 * complaint is the useful one; otherwise the union's own message says what was expected.
 */
function closestIssue(issue: z.core.$ZodIssue): z.core.$ZodIssue {
  if (issue.code !== 'invalid_union' || issue.errors.length === 0) return issue;
  let best: z.core.$ZodIssue | undefined;
  for (const alternative of issue.errors) {
    const first = alternative.find((i) => i.code === 'unrecognized_keys') ?? alternative[0];
    if (first === undefined) continue;
    const deeper = first.path.length > 0 || first.code === 'unrecognized_keys';
    if (deeper && (best === undefined || first.path.length > best.path.length)) best = first;
  }
  if (best === undefined) return issue;
  const inner = closestIssue(best);
  return { ...inner, path: [...issue.path, ...inner.path] } as z.core.$ZodIssue;
}
