/**
 * TypeScript sources bundled by esbuild into one JavaScript module, for code that should run as
 * compiled JavaScript rather than through a loader: the `mancala` command itself (dist/, written by
 * `npm run build`, which bin/mancala.js runs) and the worker pool's threads (worker-bundle.ts).
 * Nothing runs through a TypeScript loader: tsx instantiated WebAssembly at start, which fails
 * under an address-space cap (`ulimit -v`, common on grading servers); esbuild is a native binary.
 *
 * Why bundles: tsx, which once ran the sources, compiles with esbuild's keepNames, which wraps every closure
 * made in a call in a helper that renames it; the closures a match makes each move and each game
 * then all had shapes of their own, and V8 kept throwing away its optimised code (a core kept
 * busy recompiling: a match ran at half speed, and two at once hardly faster than one). A thread
 * also starts in a fraction of the time, one file instead of hundreds through a loader.
 *
 * The bundle is the same source compiled by the same compiler, so code behaves as in the sources.
 * Two things are made to hold in it as in the sources:
 *  - `import.meta.url` is each source file's own URL (the sandbox finds its paths from it, a job
 *    kind is named by it), not the bundle's;
 *  - the packages that find files of their own at run time stay outside the bundle, imported by
 *    their resolved file URL, so the file can live in the temp dir, away from node_modules.
 * A thread's bundle is kept in the build cache (build-cache.ts): reused while none of its sources
 * changed.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build, version, type BuildOptions, type Metafile, type Plugin } from 'esbuild';
import { outputFileName, recordBuild, reusableBuild } from '../build-cache.ts';
import { writeAtomically } from '../write-file.ts';

/** What the bundle's code names `import.meta.url` as; each file defines it as its own URL. */
const META_URL = '__sourceModuleUrl';
/** The bundle file's own URL, taken in the banner (the define below rewrites import.meta.url in every source). */
const BUNDLE_URL = '__bundleFileUrl';

/**
 * Where a bundle is built decides how its files name their URLs: a bundle built where it runs (the
 * build cache) names them absolutely; the command's bundle in dist/ (`npm run build`), which the
 * package carries wherever it is installed, names them relative to its own file.
 */
type Placement = { kind: 'here' } | { kind: 'shipped'; outDir: string };

/**
 * Each file gets its own URL, on its first line so no line moves. A package's file only when it
 * reads import.meta: a line before a CommonJS file's "use strict" would end its strict mode.
 */
function sourceUrls(placement: Placement): Plugin {
  const urlOf = (path: string) =>
    placement.kind === 'here' ? JSON.stringify(pathToFileURL(path).href) : `new URL(${JSON.stringify(relative(placement.outDir, path).split(sep).join('/'))}, ${BUNDLE_URL}).href`;
  return {
    name: 'source-urls',
    setup(b) {
      b.onLoad({ filter: /\.[cm]?[jt]s$/ }, (a) => {
        const source = readFileSync(a.path, 'utf8');
        const loader = /\.[cm]?ts$/.test(a.path) ? 'ts' : 'js';
        if (a.path.includes(`${sep}node_modules${sep}`) && !source.includes('import.meta')) return { contents: source, loader };
        return { contents: `var ${META_URL} = ${urlOf(a.path)}; ${source}`, loader };
      });
    },
  };
}

/**
 * Packages are bundled too: a thread then compiles one file instead of opening, resolving and
 * compiling each of the hundreds a package is made of (that was most of a thread's start, about
 * 300 ms). Those that find files of their own at run time (esbuild its binary, piscina its
 * worker script, web-tree-sitter its WebAssembly runtime) stay outside: a bundle built here imports them by their resolved file URL, since
 * the build cache has no node_modules; the shipped bundle by name, found from wherever it is installed.
 */
export const UNBUNDLED_PACKAGES: readonly string[] = ['esbuild', 'piscina', 'web-tree-sitter'];

/**
 * Instructors' tools that neither a student kit nor an exported Gradescope grader carries: a
 * check never compares sources, and the parsers' WebAssembly grammars (about 45 MB) would be
 * installed (kit) or copied (export) for nothing. There `mancala similarity` says in one line that it needs the package.
 */
export const INSTRUCTOR_ONLY_DEPENDENCIES: readonly string[] = ['@dodona/dolos-core', 'web-tree-sitter', 'tree-sitter-wasms'];

function packagesOutside(placement: Placement): Plugin {
  return {
    name: 'packages-outside',
    setup(b) {
      const resolving = Symbol('resolving');
      b.onResolve({ filter: /^[^./]/ }, async (a) => {
        if (a.pluginData === resolving) return undefined;
        if (isBuiltin(a.path)) return { path: a.path, external: true };
        // The instructors' tools too: a student kit or an export leaves them out, so its bundle must not need them to build.
        if (![...UNBUNDLED_PACKAGES, ...INSTRUCTOR_ONLY_DEPENDENCIES].some((name) => a.path === name || a.path.startsWith(`${name}/`))) return undefined;
        if (placement.kind === 'shipped') return { path: a.path, external: true };
        const r = await b.resolve(a.path, { kind: a.kind, resolveDir: a.resolveDir, importer: a.importer, pluginData: resolving });
        if (r.errors.length > 0) return { errors: r.errors };
        return { path: pathToFileURL(r.path).href, external: true };
      });
    },
  };
}

/** The build both kinds of bundle share (see the module comment for why each option). */
function bundleOptions(entry: BundleEntry, workingDir: string, placement: Placement): BuildOptions {
  return {
    stdin: { contents: entry.contents, resolveDir: entry.resolveDir, loader: 'js' },
    absWorkingDir: workingDir,
    metafile: true,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    // Not as tsx compiles (names kept): esbuild's shared __name helper, called on closures made
    // each move, kept V8 from ever finishing the optimised code of the search (the compile was
    // thrown away on a map change, about 150 times a run, a core busy with it). Nothing reads a
    // function's or class's name; a renamed one (MancalaGame as _MancalaGame) shows in stacks only.
    keepNames: false,
    define: { 'import.meta.url': META_URL },
    plugins: [sourceUrls(placement), packagesOutside(placement)],
    // A bundled CommonJS package's require() of a Node built-in needs a real require in an ES module.
    banner: {
      js: `import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url); const ${BUNDLE_URL} = import.meta.url;`,
    },
    // Beside the file, not inside it: an inline map tripled what a thread reads and decodes at start.
    sourcemap: 'external',
    sourcesContent: false,
    logLevel: 'silent',
  };
}

/** A module to bundle: its source, and the folder its relative imports start from. */
export interface BundleEntry {
  contents: string;
  resolveDir: string;
}

/** Bundles `entry` (see the module comment), or reuses an unchanged bundle of it, and returns its file's path. */
export async function sourceBundle(entry: BundleEntry): Promise<string> {
  const key = `source bundle\n${entry.resolveDir}\n${entry.contents}\n${version}`;
  const reused = reusableBuild(key);
  if (reused !== undefined) return reused.bundle!;
  const workingDir = fileURLToPath(new URL('../..', import.meta.url));
  const result = await build({ ...bundleOptions(entry, workingDir, { kind: 'here' }), outfile: 'bundle.mjs', write: false });
  const output = (ending: string) => result.outputFiles.find((f) => f.path.endsWith(ending))!.text;
  const map = output('.mjs.map');
  const code = `${output('.mjs')}//# sourceMappingURL=${outputFileName('bundle-map', map, '.map')}\n`;
  // This file is a source too: a change to how bundles are built makes them all stale.
  const sources = [fileURLToPath(import.meta.url), ...Object.keys(result.metafile!.inputs).filter((p) => p !== '<stdin>').map((p) => resolve(workingDir, p))];
  const files = recordBuild(key, { 'bundle-map': { text: map, extension: '.map' }, bundle: { text: code, extension: '.mjs' } }, sources);
  return files.bundle!;
}

/** What a student kit's package asks of its shipped bundle beyond `npm run build`'s (framework/kit/student-package.ts). */
export interface ShippedBundleOptions {
  /** more entries beside the first, sharing its chunks (the kit's worker thread module) */
  moreEntries?: readonly string[];
  /** plugins run before the bundle's own (the kit's stand-in for esbuild) */
  plugins?: readonly Plugin[];
  /** false: no source maps (a kit's are a third of its size, and a student debugs agent/, not the framework) */
  sourcemap?: boolean;
}

/**
 * `npm run build`: `entryFile` bundled into `outDir` (its name, .mjs, with source maps beside),
 * its files' URLs relative to the bundle so that the package runs wherever it is installed, and
 * split at dynamic imports: a chunk loads when first imported (a command loads its own code
 * only). `root` is the project's folder, whose sources the bundle's files name. The chunks sit
 * beside the entry, so every file's URL is relative to the one folder. `nodePaths`: where packages
 * are found when `root` has no node_modules. Returns the files written, and esbuild's account of
 * what the bundle read and left outside it.
 */
export async function writeShippedBundle(entryFile: string, root: string, outDir: string, nodePaths: readonly string[] = [], more: ShippedBundleOptions = {}): Promise<string[] & { metafile: Metafile }> {
  const { stdin: _stdin, ...options } = bundleOptions({ contents: '', resolveDir: root }, root, { kind: 'shipped', outDir });
  const result = await build({
    ...options,
    // A staged copy of the project (a student kit's package) has no node_modules of its own.
    nodePaths: [...nodePaths],
    entryPoints: [entryFile, ...(more.moreEntries ?? [])],
    outdir: outDir,
    outExtension: { '.js': '.mjs' },
    entryNames: '[name]',
    chunkNames: 'chunk-[hash]',
    splitting: true,
    write: false,
    plugins: [...(more.plugins ?? []), ...(options.plugins ?? [])],
    ...(more.sourcemap === false ? { sourcemap: false } : {}),
  });
  // Each file replaced at once, never removed here: a `mancala` process already running (another
  // test run, a long tournament) may still load a chunk of the bundle it started with.
  mkdirSync(outDir, { recursive: true });
  for (const file of result.outputFiles) writeAtomically(file.path, file.text);
  return Object.assign(
    result.outputFiles.map((f) => f.path),
    { metafile: result.metafile! },
  );
}
