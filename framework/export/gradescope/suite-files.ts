/**
 * A suite as the autograder carries it: its folder, and what it reads outside it (a hidden suite
 * may grade the public one's case files too, and take a board from it:
 * `position: {file: ../../csc384-public/…}`),
 * laid out so that every relative path still leads where it did. Each suite's files are placed
 * under suites/ relative to the nearest folder that holds the suite and all it names
 * (testcases/csc384-hidden and testcases/csc384-public/boards/x.txt become suites/csc384-hidden/
 * and suites/csc384-public/boards/x.txt). The copy is then loaded again by the export, which
 * refuses it if it does not add up as the original does.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { UserError } from '../../errors.ts';
import { isInside } from '../../sandbox/paths.ts';
import type { Suite } from '../../suites/types.ts';

/** Every string under a key `file` in parsed case data (a board file a position names). */
function namedFiles(data: unknown, out: string[] = []): string[] {
  if (Array.isArray(data)) for (const v of data) namedFiles(v, out);
  else if (data !== null && typeof data === 'object') {
    for (const [k, v] of Object.entries(data)) {
      if (k === 'file' && typeof v === 'string') out.push(v);
      else namedFiles(v, out);
    }
  }
  return out;
}

/**
 * The files outside the suite's folder it reads: case files its manifest takes from elsewhere (a
 * hidden suite that grades the public one's cases too), and the files its case files name
 * (absolute, existing files only).
 */
export function filesOutside(suite: Suite): string[] {
  const dir = suite.manifest.dir;
  const found = new Set<string>();
  for (const caseFile of new Set(suite.cases.map((c) => c.file))) {
    const abs = resolve(dir, caseFile);
    if (!isInside(dir, abs)) found.add(abs);
    let data: unknown;
    try {
      data = parseYaml(readFileSync(abs, 'utf8'));
    } catch {
      continue; // the loader read it already; what it could not parse it has said
    }
    for (const name of namedFiles(data)) {
      const target = resolve(dirname(abs), name);
      if (!isInside(dir, target) && existsSync(target) && statSync(target).isFile()) found.add(target);
    }
  }
  return [...found].sort();
}

/** The nearest folder holding all of `paths`. */
function commonFolder(paths: readonly string[]): string {
  let common = paths[0]!;
  for (const p of paths.slice(1)) while (!isInside(common, p)) common = dirname(common);
  return common;
}

export interface SuiteCopy {
  /** the suite folder, relative to suites/ ('/'-separated) */
  place: string;
  /** file (absolute) → its path relative to suites/ */
  files: Map<string, string>;
}

const slash = (p: string) => p.split(sep).join('/');

/** Where each suite and the files it names go under suites/; a clash of two different files at one place is refused. */
export function planSuiteCopies(suites: readonly Suite[]): SuiteCopy[] {
  const placed = new Map<string, string>();
  return suites.map((suite) => {
    const dir = suite.manifest.dir;
    const outside = filesOutside(suite);
    const root = outside.length === 0 ? dirname(dir) : commonFolder([dirname(dir), ...outside.map(dirname)]);
    const files = new Map<string, string>();
    const inside = (readdirSync(dir, { recursive: true }) as string[]).map((f) => join(dir, String(f))).filter((f) => statSync(f).isFile() && !f.endsWith('.test.ts'));
    for (const f of [...inside, ...outside]) {
      const place = slash(relative(root, f));
      const other = placed.get(place);
      if (other !== undefined && other !== f) throw new UserError(`--suite ${dir}: its file ${f} and ${other} would both be suites/${place} in the autograder: give suites from folders of other names`);
      placed.set(place, f);
      files.set(f, place);
    }
    return { place: slash(relative(root, dir)), files };
  });
}
