/**
 * Bundles one role's module of a submission into a single .mjs with esbuild, in the grader's
 * (trusted) process: TypeScript is transpiled here, so the sandboxed child runs plain JavaScript
 * and needs to read nothing but its own folder.
 *
 * Imports are confined. A module may import:
 *  - files of the submission (its private copy);
 *  - the project's `framework/` (contracts, the engine, helpers a course hands out) — a relative
 *    import that leaves the copy is read as it was meant from the submission's original place,
 *    so `../../framework/contracts/agent.ts` works from a folder next to framework/, and
 *    `mancala-autograder/framework/…` (a student kit's form) names the same files;
 *  - installed packages (the project's node_modules) and Node's builtins (left external; the
 *    permission model decides what they may do at run time).
 * Anything else — the reference agents in agents/, the suites' expected answers, another
 * submission, an absolute path — is refused, and the role is missing with a message naming the
 * file and line of the import. Syntax errors are reported the same way.
 * A module bundled before, from files of the same content, is not compiled again (bundle-cache.ts).
 */
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';
import type { Message, Plugin } from 'esbuild';
import { cachedBundle, keepBundle } from './bundle-cache.ts';
import { allowedFile, isPathImport, outsideAllowed, pathImportFrom, type BundleSite } from './import-rules.ts';
import { isInside, PACKAGE_DIRS, PACKAGE_NAME, PROJECT_ROOT } from '../paths.ts';

/**
 * A student kit has no esbuild: its stand-in (framework/kit/prebuilt-esbuild.ts) compiles a
 * submission file by file instead (module-tree.ts), with the same rules; the real esbuild has no
 * such export.
 */
type SubmissionCompiler = (entry: string, outfile: string, site: BundleSite) => Promise<{ ok: true } | { ok: false; message: string }>;
const kitCompiler = (esbuild as { compileSubmission?: SubmissionCompiler }).compileSubmission;
const { build, version } = esbuild;

export type { BundleSite };

// ESM output has no `require`; code that calls require() on a builtin (CommonJS habits, or a
// bundled CommonJS package) gets Node's own.
const REQUIRE_SHIM = "import { createRequire as __sandboxCreateRequire } from 'node:module'; const require = __sandboxCreateRequire(import.meta.url);";

/** What decides a bundle beside its input files: the compiler, this module's own code, and where the submission sits. */
let bundlerIdentity: string | undefined;
function bundleKey(entry: string, site: BundleSite): string {
  bundlerIdentity ??= `${version}\n${createHash('sha256').update(readFileSync(fileURLToPath(import.meta.url))).update(readFileSync(fileURLToPath(new URL('./import-rules.ts', import.meta.url)))).digest('hex')}`;
  // Where the submission sat matters only inside the project (an import read from there); a snapshot's temp folder, new each run, does not.
  const place = isInside(PROJECT_ROOT, site.originalRoot) ? site.originalRoot : 'outside the project';
  return ['submission bundle', bundlerIdentity, relative(site.copyRoot, entry), place, String(site.singleFile)].join('\n');
}

/**
 * Bundles `entry` (inside the copy) to `outfile`; returns a message when that is impossible. A
 * bundle made before from files of the same content is reused (bundle-cache.ts).
 */
export async function bundleModule(entry: string, outfile: string, site: BundleSite): Promise<{ ok: true } | { ok: false; message: string }> {
  if (kitCompiler !== undefined) return kitCompiler(entry, outfile, site);
  const key = bundleKey(entry, site);
  const cached = cachedBundle(key, site.copyRoot);
  if (cached !== undefined) {
    writeFileSync(outfile, cached);
    return { ok: true };
  }
  try {
    const result = await build({
      entryPoints: [entry],
      outfile,
      bundle: true,
      format: 'esm',
      platform: 'node',
      target: 'node20',
      // Stack traces in the child point at the student's own files and lines.
      sourcemap: 'inline',
      sourcesContent: false,
      banner: { js: REQUIRE_SHIM },
      absWorkingDir: site.copyRoot,
      // Bare imports find the project's packages (the copy has no node_modules).
      nodePaths: [...PACKAGE_DIRS],
      // A student kit's starters import the framework by the package's name (mancala kit): it is
      // this project wherever the submission is graded, installed or checked out.
      alias: { [PACKAGE_NAME]: PROJECT_ROOT },
      logLevel: 'silent',
      plugins: [confineImports(site)],
      metafile: true,
      write: false,
    });
    const text = result.outputFiles[0]!.text;
    writeFileSync(outfile, text);
    keepBundle(key, site.copyRoot, Object.keys(result.metafile.inputs).map((p) => resolve(site.copyRoot, p)), text);
    return { ok: true };
  } catch (e) {
    const errors = (e as { errors?: Message[] }).errors;
    if (!Array.isArray(errors) || errors.length === 0) return { ok: false, message: (e as Error).message ?? String(e) };
    return { ok: false, message: formatMessage(errors[0]!, site) + (errors.length > 1 ? ` (and ${errors.length - 1} more)` : '') };
  }
}

/** "file:line:column: text", the file relative to the submission (or the project). */
function formatMessage(m: Message, site: BundleSite): string {
  const loc = m.location;
  if (loc === null || loc === undefined) return m.text;
  const absolute = resolve(site.copyRoot, loc.file);
  const file = isInside(site.copyRoot, absolute) ? relative(site.copyRoot, absolute) : isInside(PROJECT_ROOT, absolute) ? relative(PROJECT_ROOT, absolute) : loc.file;
  return `${file}:${loc.line}:${loc.column + 1}: ${m.text}`;
}

function confineImports(site: BundleSite): Plugin {
  return {
    name: 'sandbox-confine-imports',
    setup(b) {
      b.onResolve({ filter: /.*/ }, async (args) => {
        if (args.pluginData?.confined === true || args.kind === 'entry-point') return undefined;
        if (isBuiltin(args.path)) return { path: args.path, external: true };
        let resolveDir = args.resolveDir;
        if (isPathImport(args.path) && isInside(site.copyRoot, args.importer)) {
          const from = pathImportFrom(site, resolveDir, args.path);
          if ('refused' in from) return { errors: [{ text: from.refused }] };
          resolveDir = from.resolveDir;
          args = { ...args, path: from.path };
        }
        const result = await b.resolve(args.path, { kind: args.kind, importer: args.importer, resolveDir, pluginData: { confined: true }, with: args.with });
        if (result.errors.length > 0) return { errors: result.errors };
        if (result.external || result.namespace !== 'file' || !allowedFile(site, result.path)) return { errors: [{ text: outsideAllowed(args.path, result.path) }] };
        return { path: result.path, namespace: result.namespace, sideEffects: result.sideEffects, suffix: result.suffix };
      });
    },
  };
}
