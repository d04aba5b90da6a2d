/**
 * What a student kit's command has in place of the `esbuild` package (student-package.ts bundles
 * the kit's command with `esbuild` resolved to this module). A check builds two kinds of thing:
 *  - the framework's own code: the sandbox's runtime and its bootstrap (framework/sandbox/runtime.ts)
 *    and the pool's thread module (worker-bundle.ts: prebuilt too, declared by the kit's root);
 *    these were built when the kit was made, by the instructor's esbuild, and are read here from
 *    the package's dist/prebuilt/ (plain files, which the kit's reference scans read like any other);
 *  - a student's TypeScript or JavaScript agent: bundle.ts finds `compileSubmission` here (the
 *    real esbuild has none) and compiles it file by file with sucrase, in pure JavaScript
 *    (sandbox/submissions/module-tree.ts), under the same import rules.
 * So no kit installs esbuild's 11 MB native compiler, and every kit runs with nothing installed.
 * Anything else asked of esbuild (the web app's build) goes to the real one where it is installed.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { BuildOptions, BuildResult } from 'esbuild';
import type { BundleSite } from '../sandbox/submissions/import-rules.ts';
import { UserError } from '../errors.ts';
import { PROJECT_ROOT } from '../sandbox/paths.ts';

/** One build made when the kit was made: its entry (relative to the package) and format, its output's file and the files it read. */
export interface PrebuiltBuild {
  entry: string;
  format: 'cjs' | 'esm';
  /** the output, a file of dist/prebuilt/ */
  file: string;
  /** what it read, relative to the package (as esbuild's metafile names them) */
  inputs: string[];
}

export interface PrebuiltManifest {
  /** the esbuild that built them: the build caches' keys name it */
  version: string;
  builds: PrebuiltBuild[];
}

export const PREBUILT_FOLDER = join('dist', 'prebuilt');
export const PREBUILT_MANIFEST = 'builds.json';

function readManifest(root: string): PrebuiltManifest {
  const file = join(root, PREBUILT_FOLDER, PREBUILT_MANIFEST);
  if (!existsSync(file)) return { version: 'none', builds: [] };
  return JSON.parse(readFileSync(file, 'utf8')) as PrebuiltManifest;
}

/** esbuild's `build` and `version` for the package at `root` (see the module comment); the kit's command uses its own package's. */
export function prebuiltEsbuild(root: string): { version: string; build(options: BuildOptions): Promise<BuildResult> } {
  const manifest = readManifest(root);
  /** The build `options` asks for, if it was made ahead: same entry, same format, the package as its working folder. */
  const prebuiltFor = (options: BuildOptions): PrebuiltBuild | undefined => {
    const entries = options.entryPoints;
    if (!Array.isArray(entries) || entries.length !== 1 || typeof entries[0] !== 'string' || options.stdin !== undefined) return undefined;
    if (resolve(options.absWorkingDir ?? process.cwd()) !== root) return undefined;
    const entry = resolve(root, entries[0]);
    return manifest.builds.find((b) => b.format === options.format && join(root, b.entry) === entry);
  };
  return {
    version: manifest.version,
    async build(options) {
      const made = prebuiltFor(options);
      if (made !== undefined) {
        const file = join(root, PREBUILT_FOLDER, made.file);
        const text = readFileSync(file, 'utf8');
        return {
          errors: [],
          warnings: [],
          outputFiles: [{ path: file, text, contents: Buffer.from(text), hash: '' }],
          metafile: { inputs: Object.fromEntries(made.inputs.map((i) => [i, { bytes: 0, imports: [] }])), outputs: {} },
          mangleCache: undefined,
        };
      }
      let real: typeof import('esbuild');
      try {
        real = await import('esbuild');
      } catch {
        throw new UserError("esbuild is not installed in a student kit: the kit's check compiles agents without it, but this command needs it (run it from the project)");
      }
      return real.build(options);
    },
  };
}

/** A submission's module compiled for the sandbox without esbuild (bundle.ts calls it where it exists). */
export async function compileSubmission(entry: string, outfile: string, site: BundleSite): Promise<{ ok: true } | { ok: false; message: string }> {
  const { compileModuleTree } = await import('../sandbox/submissions/module-tree.ts');
  return compileModuleTree(entry, outfile, site);
}

const own = prebuiltEsbuild(PROJECT_ROOT);
export const version = own.version;
export const build = own.build;
