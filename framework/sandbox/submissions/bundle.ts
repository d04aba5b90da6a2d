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
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, version, type Message, type Plugin } from 'esbuild';
import { cachedBundle, keepBundle } from './bundle-cache.ts';
import { FRAMEWORK_DIR, isInside, isPackageFile, PACKAGE_DIRS, PACKAGE_NAME, PROJECT_ROOT } from '../paths.ts';

export interface BundleSite {
  /** the submission's private copy */
  copyRoot: string;
  /** where the copied folder came from (a single-file submission: the file's folder) */
  originalRoot: string;
  /** the copy holds one file only: any other relative import is read from the original place */
  singleFile: boolean;
}

// ESM output has no `require`; code that calls require() on a builtin (CommonJS habits, or a
// bundled CommonJS package) gets Node's own.
const REQUIRE_SHIM = "import { createRequire as __sandboxCreateRequire } from 'node:module'; const require = __sandboxCreateRequire(import.meta.url);";

/** What decides a bundle beside its input files: the compiler, this module's own code, and where the submission sits. */
let bundlerIdentity: string | undefined;
function bundleKey(entry: string, site: BundleSite): string {
  bundlerIdentity ??= `${version}\n${createHash('sha256').update(readFileSync(fileURLToPath(import.meta.url))).digest('hex')}`;
  // Where the submission sat matters only inside the project (an import read from there); a snapshot's temp folder, new each run, does not.
  const place = isInside(PROJECT_ROOT, site.originalRoot) ? site.originalRoot : 'outside the project';
  return ['submission bundle', bundlerIdentity, relative(site.copyRoot, entry), place, String(site.singleFile)].join('\n');
}

/**
 * Bundles `entry` (inside the copy) to `outfile`; returns a message when that is impossible. A
 * bundle made before from files of the same content is reused (bundle-cache.ts).
 */
export async function bundleModule(entry: string, outfile: string, site: BundleSite): Promise<{ ok: true } | { ok: false; message: string }> {
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

const ALLOWED = 'a submission may import its own files, the project\'s framework/ and installed packages';

function confineImports(site: BundleSite): Plugin {
  const allowed = (path: string) => isInside(site.copyRoot, path) || isInside(FRAMEWORK_DIR, path) || isPackageFile(path);
  return {
    name: 'sandbox-confine-imports',
    setup(b) {
      b.onResolve({ filter: /.*/ }, async (args) => {
        if (args.pluginData?.confined === true || args.kind === 'entry-point') return undefined;
        if (isBuiltin(args.path)) return { path: args.path, external: true };
        let resolveDir = args.resolveDir;
        const isPath = args.path.startsWith('.') || isAbsolute(args.path);
        if (isPath && isInside(site.copyRoot, args.importer)) {
          const target = resolve(resolveDir, args.path);
          const inCopy = isInside(site.copyRoot, target) && (!site.singleFile || existsSync(target) || hasResolvableSibling(target));
          if (!inCopy) {
            // Read the import as it was written, from the submission's original folder.
            const originalDir = join(site.originalRoot, relative(site.copyRoot, resolveDir));
            if (isInside(FRAMEWORK_DIR, resolve(originalDir, args.path))) resolveDir = originalDir;
            else {
              // `../../framework/…` written beside the project's framework/, taken in (a snapshot, an LMS's zip) elsewhere.
              const framework = frameworkImport(args.path);
              if (framework === undefined) return { errors: [{ text: `import "${args.path}" reaches outside the submission: ${ALLOWED}` }] };
              resolveDir = PROJECT_ROOT;
              args = { ...args, path: framework };
            }
          }
        }
        const result = await b.resolve(args.path, { kind: args.kind, importer: args.importer, resolveDir, pluginData: { confined: true }, with: args.with });
        if (result.errors.length > 0) return { errors: result.errors };
        if (result.external || result.namespace !== 'file' || !allowed(result.path)) {
          return { errors: [{ text: `import "${args.path}" resolves to ${shown(result.path)}, outside what ${ALLOWED}` }] };
        }
        return { path: result.path, namespace: result.namespace, sideEffects: result.sideEffects, suffix: result.suffix };
      });
    },
  };
}

/**
 * A relative import that climbs out to a `framework/` folder (`../../../framework/contracts/agent.ts`):
 * the project's framework, as `./framework/…` from the project root; undefined for anything else.
 */
function frameworkImport(path: string): string | undefined {
  const parts = path.split('/');
  let i = 0;
  while (parts[i] === '..') i++;
  if (i === 0 || parts[i] !== 'framework' || parts.length <= i + 1 || parts.slice(i + 1).includes('..')) return undefined;
  return `./${parts.slice(i).join('/')}`;
}

/** `./helper` may name helper.ts or helper/index.ts: for a single file, those count as present. */
function hasResolvableSibling(target: string): boolean {
  return ['.ts', '.mts', '.js', '.mjs', '.json'].some((ext) => existsSync(target + ext));
}

function shown(path: string): string {
  return isInside(PROJECT_ROOT, path) ? relative(PROJECT_ROOT, path) || '.' : path;
}
