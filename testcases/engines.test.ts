/**
 * The Node versions package.json promises (engines.node) and those the installed packages accept
 * agree, so that installing warns of nothing (npm's EBADENGINE) on a Node we promise:
 *  - every package a user installs (the production tree: the command, a student kit) accepts
 *    every Node we promise;
 *  - every installed package, development tools included, accepts the Node running this test,
 *    which is what `npm ci` checks here.
 * Once, fastify's light-my-request 6.8 brought cookie 2, which wants Node 22 (package.json's
 * overrides keep light-my-request at 6.6, whose cookie 1 runs on Node 18 and later).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import semver from 'semver';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../framework/sandbox/paths.ts';

interface Installed {
  /** its folder, relative to the project: node_modules/a/node_modules/b */
  path: string;
  name: string;
  version: string;
  /** engines.node */
  node: string;
}

function readJson(file: string): any {
  return JSON.parse(readFileSync(file, 'utf8'));
}

/** Every package under `dir` (node_modules), nested ones included, that says which Node it needs. */
function installed(dir: string, out: Installed[] = []): Installed[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (!entry.isDirectory() || entry.name.startsWith('.')) continue;
    const folder = join(dir, entry.name);
    if (entry.name.startsWith('@')) {
      installed(folder, out);
      continue;
    }
    const manifest = join(folder, 'package.json');
    if (existsSync(manifest)) {
      const pkg = readJson(manifest);
      const node = pkg.engines?.node;
      if (typeof node === 'string') out.push({ path: relative(PROJECT_ROOT, folder), name: pkg.name, version: pkg.version, node });
    }
    if (existsSync(join(folder, 'node_modules'))) installed(join(folder, 'node_modules'), out);
  }
  return out;
}

/**
 * Does a package that needs `theirs` run on every Node `ours` promises? semver.subset alone is too
 * strict for a union: `>=20.11` is inside `^18 || ^20 || >=21` (node-addon-api's), yet no single
 * part of the union holds it. So, failing subset, every version where either range can change its
 * answer (each comparator's version and the next patch, each major up to 40) is tried.
 */
export function acceptsAll(ours: string, theirs: string): boolean {
  if (semver.subset(ours, theirs, { includePrerelease: false })) return true;
  const probes = new Set<string>();
  for (const range of [ours, theirs]) {
    for (const set of new semver.Range(range).set) {
      for (const c of set) {
        if (c.value === '') continue; // the any-version comparator (`*`)
        const v = c.semver as semver.SemVer;
        probes.add(v.version);
        probes.add(semver.inc(v.version, 'patch')!);
        if (v.patch > 0) probes.add(`${v.major}.${v.minor}.${v.patch - 1}`);
      }
    }
  }
  for (let major = 0; major <= 40; major++) probes.add(`${major}.0.0`);
  const inOurs = [...probes].filter((v) => semver.satisfies(v, ours));
  return inOurs.length > 0 && inOurs.every((v) => semver.satisfies(v, theirs));
}

const promised: string = readJson(join(PROJECT_ROOT, 'package.json')).engines.node;
const lock = readJson(join(PROJECT_ROOT, 'package-lock.json')).packages as Record<string, { dev?: boolean; devOptional?: boolean }>;
const packages = installed(join(PROJECT_ROOT, 'node_modules'));
/** In the production tree: what `npm install --omit=dev` installs. */
const production = (p: Installed) => lock[p.path] !== undefined && lock[p.path]!.dev !== true && lock[p.path]!.devOptional !== true;
const described = (p: Installed) => `${p.path} (${p.name}@${p.version}) needs Node ${p.node}`;

describe('engines: the Node we promise and the packages agree', () => {
  it('reads the promise and the installed packages', () => {
    expect(semver.validRange(promised)).not.toBeNull();
    expect(packages.length).toBeGreaterThan(50);
    expect(packages.some((p) => p.name === 'commander' && production(p))).toBe(true);
    expect(packages.some((p) => p.name === 'vitest' && !production(p))).toBe(true);
  });

  it('tells a package that needs a newer Node from one that does not', () => {
    expect(acceptsAll('>=20.11', '>=22')).toBe(false);
    expect(acceptsAll('>=20.11', '^20.19.0 || >=22.12.0')).toBe(false);
    expect(acceptsAll('>=20.11', '>=18')).toBe(true);
    expect(acceptsAll('>=20.11', '^18.19.0 || >=20.5.0')).toBe(true);
    expect(acceptsAll('>=20.11', '^18 || ^20 || >= 21')).toBe(true);
  });

  it('every package of the production tree runs on every Node package.json promises', () => {
    const refused = packages.filter((p) => production(p) && !acceptsAll(promised, p.node)).map(described);
    expect(refused).toEqual([]);
  });

  it('every installed package, development tools included, runs on this Node (npm ci warns of none)', () => {
    expect(semver.satisfies(process.version, promised)).toBe(true);
    const refused = packages.filter((p) => !semver.satisfies(process.version, p.node)).map(described);
    expect(refused).toEqual([]);
  });
});
