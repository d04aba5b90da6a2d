/**
 * TypeScript sources bundled by esbuild into one JavaScript module, for code that should run as
 * compiled JavaScript rather than through a loader: the `mancala` command itself (bin/mancala.js)
 * and the worker pool's threads (worker-bundle.ts).
 *
 * Why: tsx, which runs the sources, compiles with esbuild's keepNames, which wraps every closure
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
 * Written under its content hash, so processes starting together share one file, and reused
 * while none of its sources changed.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { tmpdir, userInfo } from 'node:os';
import { join, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build, version, type Plugin } from 'esbuild';

/** What the bundle's code names `import.meta.url` as; each file defines it as its own URL. */
const META_URL = '__sourceModuleUrl';

/**
 * Each file gets its own URL, on its first line so no line moves. A package's file only when it
 * reads import.meta: a line before a CommonJS file's "use strict" would end its strict mode.
 */
const sourceUrls: Plugin = {
  name: 'source-urls',
  setup(b) {
    b.onLoad({ filter: /\.[cm]?[jt]s$/ }, (a) => {
      const source = readFileSync(a.path, 'utf8');
      const loader = /\.[cm]?ts$/.test(a.path) ? 'ts' : 'js';
      if (a.path.includes(`${sep}node_modules${sep}`) && !source.includes('import.meta')) return { contents: source, loader };
      return { contents: `var ${META_URL} = ${JSON.stringify(pathToFileURL(a.path).href)}; ${source}`, loader };
    });
  },
};

/**
 * Packages are bundled too: a thread then compiles one file instead of opening, resolving and
 * compiling each of the hundreds a package is made of (that was most of a thread's start, about
 * 300 ms). Those that find files of their own at run time (esbuild its binary, piscina its
 * worker script) stay outside, imported by their resolved file URL, since the bundle's folder has
 * no node_modules.
 */
const UNBUNDLED_PACKAGES = ['esbuild', 'piscina'];

const packagesOutside: Plugin = {
  name: 'packages-outside',
  setup(b) {
    const resolving = Symbol('resolving');
    b.onResolve({ filter: /^[^./]/ }, async (a) => {
      if (a.pluginData === resolving) return undefined;
      if (isBuiltin(a.path)) return { path: a.path, external: true };
      if (!UNBUNDLED_PACKAGES.some((name) => a.path === name || a.path.startsWith(`${name}/`))) return undefined;
      const r = await b.resolve(a.path, { kind: a.kind, resolveDir: a.resolveDir, importer: a.importer, pluginData: resolving });
      if (r.errors.length > 0) return { errors: r.errors };
      return { path: pathToFileURL(r.path).href, external: true };
    });
  },
};

/**
 * What a bundle was made from, kept beside it: every source file with its size and modification
 * time, so that a later process whose sources are unchanged reuses the file without building
 * (a build takes 100-500 ms of a core, as long as a few hundred games).
 */
interface BundleRecord {
  file: string;
  /** absolute path → [size, mtimeMs] */
  inputs: Record<string, [number, number]>;
}

function bundleFolder(): string {
  const dir = join(tmpdir(), `mancala-bundles-${userInfo().uid}`);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  return dir;
}

function fileStamp(path: string): [number, number] | undefined {
  try {
    const s = statSync(path);
    return [s.size, s.mtimeMs];
  } catch {
    return undefined;
  }
}

/** The recorded bundle, if it is there and none of its sources changed since. */
function reusableBundle(recordFile: string): string | undefined {
  let record: BundleRecord;
  try {
    record = JSON.parse(readFileSync(recordFile, 'utf8')) as BundleRecord;
  } catch {
    return undefined;
  }
  const unchanged = Object.entries(record.inputs).every(([path, [size, mtime]]) => {
    const now = fileStamp(path);
    return now !== undefined && now[0] === size && now[1] === mtime;
  });
  return unchanged && existsSync(record.file) ? record.file : undefined;
}

/** A module to bundle: its source, and the folder its relative imports start from. */
export interface BundleEntry {
  contents: string;
  resolveDir: string;
}

/** Bundles `entry` (see the module comment), or reuses an unchanged bundle of it, and returns its file's path. */
export async function sourceBundle(entry: BundleEntry): Promise<string> {
  const dir = bundleFolder();
  // This file is a source too: a change to how bundles are built makes them all stale.
  const recordFile = join(dir, `record-${createHash('sha256').update(`${entry.resolveDir}\n${entry.contents}\n${version}`).digest('hex').slice(0, 16)}.json`);
  const reused = reusableBundle(recordFile);
  if (reused !== undefined) return reused;
  const workingDir = fileURLToPath(new URL('../..', import.meta.url));
  const result = await build({
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
    plugins: [sourceUrls, packagesOutside],
    // A bundled CommonJS package's require() of a Node built-in needs a real require in an ES module.
    banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
    // Beside the file, not inside it: an inline map tripled what a thread reads and decodes at start.
    sourcemap: 'external',
    outfile: 'bundle.mjs',
    sourcesContent: false,
    write: false,
    logLevel: 'silent',
  });
  const output = (ending: string) => result.outputFiles.find((f) => f.path.endsWith(ending))!.text;
  const code = output('.mjs');
  const name = `bundle-${createHash('sha256').update(code).digest('hex').slice(0, 16)}.mjs`;
  const file = join(dir, name);
  if (!existsSync(file)) {
    // Written aside and renamed, the map first: a process starting at the same moment never reads half a file.
    writeAtomically(`${file}.map`, output('.mjs.map'));
    writeAtomically(file, `${code}//# sourceMappingURL=${name}.map\n`);
  }
  const sources = [fileURLToPath(import.meta.url), ...Object.keys(result.metafile.inputs).filter((p) => p !== '<stdin>').map((p) => resolve(workingDir, p))];
  const inputs: BundleRecord['inputs'] = {};
  for (const path of sources) {
    const stamp = fileStamp(path);
    if (stamp !== undefined) inputs[path] = stamp;
  }
  writeAtomically(recordFile, JSON.stringify({ file, inputs } satisfies BundleRecord));
  return file;
}

function writeAtomically(file: string, text: string): void {
  const partial = `${file}.${process.pid}.partial`;
  writeFileSync(partial, text);
  renameSync(partial, file);
}
