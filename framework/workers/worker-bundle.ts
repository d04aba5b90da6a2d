/**
 * The file the pool's threads run (pool.ts): the composition root, the job server and every job
 * module, bundled by esbuild into one JavaScript module. A thread then starts in about 60 ms; with
 * tsx registered in each thread (its own loader thread, every TypeScript file resolved and
 * loaded one by one) it took about 0.6 s, and 1.1 s for two threads on two cores, as long as
 * a thousand games of the bench.
 *
 * The bundle is the same source compiled by the same compiler as tsx (esbuild), so jobs behave the
 * same in a thread as in this one. Two things are made to hold in it as in the sources:
 *  - `import.meta.url` is each source file's own URL (the sandbox finds its paths from it, a job
 *    kind is named by it), not the bundle's;
 *  - packages stay outside the bundle, imported by their resolved file URL, so the file can live
 *    in the temp dir, away from the project's node_modules.
 * Written under its content hash, so processes starting together share one file.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build, type Plugin } from 'esbuild';

/** What the bundle's code names `import.meta.url` as; each file defines it as its own URL. */
const META_URL = '__sourceModuleUrl';

/** Each project file (packages are not bundled) gets its own URL, on its first line so no line moves. */
const sourceUrls: Plugin = {
  name: 'source-urls',
  setup(b) {
    b.onLoad({ filter: /\.[cm]?[jt]s$/ }, (a) => {
      const prefix = `var ${META_URL} = ${JSON.stringify(pathToFileURL(a.path).href)}; `;
      return { contents: prefix + readFileSync(a.path, 'utf8'), loader: /\.[cm]?ts$/.test(a.path) ? 'ts' : 'js' };
    });
  },
};

/** A package is imported by its resolved file URL: the bundle's folder has no node_modules. */
const packagesByUrl: Plugin = {
  name: 'packages-by-url',
  setup(b) {
    const resolving = Symbol('resolving');
    b.onResolve({ filter: /^[^./]/ }, async (a) => {
      if (a.pluginData === resolving) return undefined;
      if (isBuiltin(a.path)) return { path: a.path, external: true };
      const r = await b.resolve(a.path, { kind: a.kind, resolveDir: a.resolveDir, importer: a.importer, pluginData: resolving });
      if (r.errors.length > 0) return { errors: r.errors };
      return { path: pathToFileURL(r.path).href, external: true };
    });
  },
};

/** The bundle's entry: `default` serves a task with the job modules, found by their URLs. */
function entrySource(compositionRoot: string, jobModules: readonly string[]): string {
  const serveJob = fileURLToPath(new URL('./serve-job.ts', import.meta.url));
  const lines = [`import ${JSON.stringify(fileURLToPath(compositionRoot))};`, `import { serveJob } from ${JSON.stringify(serveJob)};`];
  jobModules.forEach((url, k) => lines.push(`import * as job${k} from ${JSON.stringify(fileURLToPath(url))};`));
  lines.push(`const modules = { ${jobModules.map((url, k) => `${JSON.stringify(url)}: job${k}`).join(', ')} };`);
  lines.push('export default (task) => serveJob(task, modules);');
  return lines.join('\n');
}

/** Bundles the threads' module (see the module comment) and returns its file's path. */
export async function workerBundle(compositionRoot: string, jobModules: readonly string[]): Promise<string> {
  const result = await build({
    stdin: { contents: entrySource(compositionRoot, jobModules), resolveDir: fileURLToPath(new URL('.', import.meta.url)), loader: 'js' },
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
    plugins: [sourceUrls, packagesByUrl],
    sourcemap: 'inline',
    sourcesContent: false,
    write: false,
    logLevel: 'silent',
  });
  const code = result.outputFiles[0]!.text;
  const dir = join(tmpdir(), `mancala-job-workers-${userInfo().uid}`);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const file = join(dir, `jobs-${createHash('sha256').update(code).digest('hex').slice(0, 16)}.mjs`);
  if (!existsSync(file)) {
    // Written aside and renamed: a process starting at the same moment never reads half a file.
    const partial = `${file}.${process.pid}.partial`;
    writeFileSync(partial, code);
    renameSync(partial, file);
  }
  return file;
}
