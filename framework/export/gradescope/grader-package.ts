/**
 * The grader as an exported autograder carries it (`mancala/` in the zip): this project's package
 * as `npm pack` lists its files, with its dist/ built afresh and exactly the installed packages it
 * needs at run time, so that grading on Gradescope needs no package registry.
 *
 * What the grader needs at run time, and why:
 *  - dist/ (the `mancala` command, bin/mancala.js runs it) bundles every package it uses except
 *    esbuild and piscina, which it imports by name because they find files of their own (esbuild
 *    its native binary, piscina its worker script): see framework/workers/source-bundle.ts.
 *  - But dist/ is not all that runs: the worker pool's threads, the sandbox's child runtimes and
 *    the students' own modules are bundled at run time from the TypeScript sources (framework/,
 *    agents/, graders/, bin/plugins.ts), and those bundles take the packages the sources import
 *    from node_modules. So the sources ship, and with them every package they can reach.
 *  - The packages are found by bundling every shipped source with esbuild and reading which
 *    installed files it took (its metafile): those packages, plus what each of them declares it
 *    needs (dependencies, and the optional ones installed here): esbuild's platform binary
 *    (@esbuild/linux-x64) and piscina's @napi-rs/nice come in that way. A package of the lock
 *    file that no source reaches (a devDependency, a dependency nothing imports yet) stays out.
 *  - esbuild's own bin/esbuild, a copy of the platform binary for its command line, stays out:
 *    its API runs the platform package's binary.
 * The dist/ bundle is then built in the staged copy, from its own node_modules, so that every
 * file URL in it points inside the copy; and every package it imports by name is checked to be there.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { build } from 'esbuild';
import { UserError } from '../../errors.ts';
import { PACKAGE_DIRS, PROJECT_ROOT } from '../../sandbox/paths.ts';
import { INSTRUCTOR_ONLY_DEPENDENCIES, writeShippedBundle } from '../../workers/source-bundle.ts';

/** The files of bin/ that run: the command, its entry, the composition root (the build scripts stay out). */
const BIN_FILES = new Set(['bin/mancala.js', 'bin/cli.ts', 'bin/plugins.ts']);

/** Why a file of the npm package is not in the exported grader (undefined: it is). */
export function excludedFromGrader(path: string): string | undefined {
  const p = path.split(sep).join('/');
  if (/\.test\.ts$/.test(p)) return 'a test';
  if (p.startsWith('dist/')) return 'dist/ is built afresh for the export';
  if (p.startsWith('testcases/')) return 'the suites: the exported one ships beside the grader (suites/), the others stay home';
  if (p.startsWith('agents/examples/')) return 'example submissions: nothing grading runs';
  if (p.startsWith('agents/starters/')) return "the students' starters: nothing grading runs";
  if (p.startsWith('bin/') && !BIN_FILES.has(p)) return 'a build script';
  return undefined;
}

/** The project's files as `npm pack` would pack them (its `files` field), without running any script. */
export function packageFiles(root = PROJECT_ROOT): string[] {
  let out: string;
  try {
    out = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 << 20 });
  } catch (e) {
    const err = e as { code?: string; stderr?: string };
    throw new UserError(err.code === 'ENOENT' ? 'npm not found: the export lists the grader\'s files with `npm pack --dry-run`' : `npm pack --dry-run failed in ${root}: ${String(err.stderr ?? e).trim().split('\n').pop()}`);
  }
  const [packed] = JSON.parse(out) as { files: { path: string }[] }[];
  return packed!.files.map((f) => f.path).filter((p) => existsSync(join(root, p)));
}

/** An installed package: its folder, and where it goes under the staged node_modules. */
interface InstalledPackage {
  name: string;
  dir: string;
  /** the path under node_modules/ (nested packages keep their nesting: a/node_modules/b) */
  place: string;
  /** only these files of it (absolute), with its package.json and licence files; absent: the whole package */
  files?: Set<string>;
}

/** The package folder holding `file` (a path inside some node_modules), or undefined. */
function packageOf(file: string): InstalledPackage | undefined {
  const parts = file.split(sep);
  const at = parts.lastIndexOf('node_modules');
  if (at < 0 || at + 1 >= parts.length) return undefined;
  const scoped = parts[at + 1]!.startsWith('@');
  const nameParts = parts.slice(at + 1, at + (scoped ? 3 : 2));
  const dir = parts.slice(0, at + 1 + nameParts.length).join(sep);
  // Where it sits under the outermost node_modules the project's packages are found in.
  const top = PACKAGE_DIRS.find((d) => dir.startsWith(d + sep));
  const place = top === undefined ? nameParts.join('/') : relative(top, dir).split(sep).join('/');
  return { name: nameParts.join('/'), dir, place };
}

/** `name` as Node finds it from `fromDir`: the nearest node_modules/<name> up the tree. */
function resolvePackage(name: string, fromDir: string): InstalledPackage | undefined {
  for (let d = fromDir; ; d = dirname(d)) {
    const candidate = join(d, 'node_modules', ...name.split('/'));
    if (existsSync(join(candidate, 'package.json'))) return packageOf(join(candidate, 'package.json'));
    if (dirname(d) === d) return undefined;
  }
}

/** The installed packages whose files a bundle of `entryPoints` (in `root`) takes, and those files, by esbuild's metafile. */
export async function bundledPackages(root: string, entryPoints: readonly string[]): Promise<InstalledPackage[]> {
  const result = await build({
    entryPoints: [...entryPoints],
    bundle: true,
    write: false,
    metafile: true,
    outdir: join(root, '.metafile-out'),
    platform: 'node',
    format: 'esm',
    target: 'node20',
    splitting: true,
    logLevel: 'silent',
    absWorkingDir: root,
    nodePaths: [...PACKAGE_DIRS],
    external: [...INSTRUCTOR_ONLY_DEPENDENCIES],
  }).catch((e: Error) => {
    throw new UserError(`the grader's sources do not bundle, so they could not be exported: ${e.message.split('\n').slice(0, 3).join(' ')}`);
  });
  const found = new Map<string, InstalledPackage>();
  for (const input of Object.keys(result.metafile.inputs)) {
    const file = resolve(root, input);
    const pkg = packageOf(file);
    if (pkg === undefined) continue;
    const known = found.get(pkg.dir) ?? { ...pkg, files: new Set<string>() };
    known.files!.add(file);
    found.set(pkg.dir, known);
  }
  return [...found.values()];
}

/**
 * The packages Node loads when `names` are imported from the project: each one and what it
 * declares it needs (dependencies, and the optional ones installed here, such as a native binary
 * for this platform), as Node finds them from each package's folder.
 */
export function packageClosure(names: readonly string[], from = PROJECT_ROOT): InstalledPackage[] {
  const found = new Map<string, InstalledPackage>();
  const queue: InstalledPackage[] = [];
  const add = (pkg: InstalledPackage | undefined) => {
    if (pkg === undefined || found.has(pkg.dir)) return;
    found.set(pkg.dir, pkg);
    queue.push(pkg);
  };
  for (const name of names) add(resolvePackage(name, from));
  while (queue.length > 0) {
    const pkg = queue.shift()!;
    const manifest = JSON.parse(readFileSync(join(pkg.dir, 'package.json'), 'utf8')) as { dependencies?: Record<string, string>; optionalDependencies?: Record<string, string> };
    // An optional dependency for another platform is not installed: nothing to ship.
    for (const name of [...Object.keys(manifest.dependencies ?? {}), ...Object.keys(manifest.optionalDependencies ?? {})]) add(resolvePackage(name, pkg.dir));
  }
  return [...found.values()];
}

/** The platform of the esbuild binary among `packages` (`linux-x64`); only Linux can grade. */
export function esbuildPlatform(packages: readonly InstalledPackage[]): string {
  const binaries = packages.filter((p) => p.name.startsWith('@esbuild/')).map((p) => p.name.slice('@esbuild/'.length));
  const platform = binaries[0];
  if (platform === undefined) throw new UserError("esbuild's platform binary (@esbuild/<platform>) is not installed here: run npm ci in the project first");
  if (!platform.startsWith('linux-')) {
    throw new UserError(`esbuild's binary installed here is for ${platform}; Gradescope runs Linux (x64): export on a Linux machine (x64), where npm ci installs @esbuild/linux-x64`);
  }
  return platform;
}

/** A package's licence, kept wherever any of its files is. */
const LICENCE = /^(licen[cs]e|copying|notice)/i;

/**
 * Copies a package: the files a bundle takes (with its package.json, which resolution reads, and
 * its licence), or, for one Node loads at run time, the whole folder without its nested
 * node_modules (nested packages are packages of their own here).
 */
function copyPackage(pkg: InstalledPackage, nodeModules: string): void {
  const target = join(nodeModules, ...pkg.place.split('/'));
  if (pkg.files !== undefined) {
    const files = new Set(pkg.files);
    for (const name of readdirSync(pkg.dir)) if (name === 'package.json' || LICENCE.test(name)) files.add(join(pkg.dir, name));
    for (const file of files) {
      if (!statSync(file).isFile()) continue;
      mkdirSync(dirname(join(target, relative(pkg.dir, file))), { recursive: true });
      cpSync(file, join(target, relative(pkg.dir, file)));
    }
    return;
  }
  const skip = new Set([join(pkg.dir, 'node_modules')]);
  // esbuild's command-line copy of its binary: the API runs @esbuild/<platform>/bin/esbuild.
  if (pkg.name === 'esbuild') skip.add(join(pkg.dir, 'bin'));
  cpSync(pkg.dir, target, { recursive: true, dereference: true, filter: (src) => !skip.has(src) });
}

/** The packages the built command in `distDir` imports by name (what stays outside its bundle), by esbuild's reading of it. */
async function distExternals(distDir: string): Promise<string[]> {
  const result = await build({
    entryPoints: [join(distDir, 'cli.mjs')],
    bundle: true,
    write: false,
    metafile: true,
    outdir: join(distDir, '.externals'),
    platform: 'node',
    format: 'esm',
    packages: 'external',
    logLevel: 'silent',
  });
  const names = new Set<string>();
  for (const output of Object.values(result.metafile.outputs)) {
    for (const i of output.imports) {
      if (i.external !== true || isBuiltin(i.path) || i.path.startsWith('.') || i.path.startsWith('/')) continue;
      const parts = i.path.split('/');
      names.add(i.path.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!);
    }
  }
  return [...names];
}

export interface StagedGrader {
  dir: string;
  /** files of the package copied (dist/ and node_modules/ apart) */
  sourceFiles: number;
  /** the packages under node_modules/, by their place there */
  packages: string[];
  /** the packages dist/ imports by name */
  externals: string[];
  platform: string;
}

/** Writes the grader into `dir` (which must not exist yet or be empty): sources, node_modules, a fresh dist/. */
export async function stageGrader(dir: string): Promise<StagedGrader> {
  const files = packageFiles().filter((f) => excludedFromGrader(f) === undefined);
  mkdirSync(dir, { recursive: true });
  for (const f of files) {
    mkdirSync(dirname(join(dir, f)), { recursive: true });
    cpSync(join(PROJECT_ROOT, f), join(dir, f));
  }
  // The packages the sources bundle (dist/ now, the threads' and the sandbox's bundles at run time)...
  const entries = files.filter((f) => /\.ts$/.test(f) && !f.endsWith('.d.ts')).map((f) => join(dir, f));
  const shipped = new Map<string, InstalledPackage>();
  for (const pkg of await bundledPackages(dir, entries)) shipped.set(pkg.place, pkg);
  const nodeModules = join(dir, 'node_modules');
  for (const pkg of shipped.values()) copyPackage(pkg, nodeModules);
  await writeShippedBundle(join(dir, 'bin', 'cli.ts'), dir, join(dir, 'dist'));
  // ...and those the built command imports by name, with what Node loads with them.
  const externals = (await distExternals(join(dir, 'dist'))).filter((name) => !INSTRUCTOR_ONLY_DEPENDENCIES.includes(name));
  for (const pkg of packageClosure(externals)) {
    // Loaded by Node, which may read any file of it: the whole package, over the files a bundle took.
    shipped.set(pkg.place, pkg);
    copyPackage(pkg, nodeModules);
  }
  for (const name of externals) {
    if (!existsSync(join(nodeModules, ...name.split('/'), 'package.json'))) {
      throw new UserError(`the built grader imports the package ${name}, which is not installed here: run npm ci in the project first`);
    }
  }
  const packages = [...shipped.values()].sort((a, b) => (a.place < b.place ? -1 : a.place > b.place ? 1 : 0));
  return { dir, sourceFiles: files.length, packages: packages.map((p) => p.place), externals: externals.sort(), platform: esbuildPlatform(packages) };
}

/** Every file under `dir` (relative, '/'-separated), with whether it is executable. */
export function filesUnder(dir: string): { path: string; executable: boolean }[] {
  const out: { path: string; executable: boolean }[] = [];
  for (const rel of readdirSync(dir, { recursive: true }) as string[]) {
    const info = statSync(join(dir, String(rel)));
    if (info.isFile()) out.push({ path: String(rel).split(sep).join('/'), executable: (info.mode & 0o111) !== 0 });
  }
  return out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
