/**
 * How a student kit compiles a submission's module, where bundle.ts would use esbuild (whose
 * native binary, 11 MB, was most of the TypeScript kit): each file the module reaches is
 * compiled on its own with sucrase (pure JavaScript: it strips the types, as esbuild does for a
 * file, and keeps every line where it was) and written as an .mjs into the role's own folder in
 * the submission's private folder, the only place the sandboxed child may read. Its imports are
 * found with es-module-lexer and rewritten to those files; the rules are bundle.ts's own
 * (import-rules.ts): the submission's files, the framework (compiled the same way from the
 * kit's framework/), installed packages (copied beside them, for Node to find) and Node's
 * builtins; anything else is refused, naming the file and line of the import, and a syntax
 * error is named the same way.
 *
 * The role's file (`outfile`) re-exports the entry's compiled module, so the child loads it as it
 * loads a bundle.
 */
import { cpSync, mkdirSync, readFileSync, realpathSync, statSync, writeFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { basename, dirname, extname, join, relative, resolve, sep } from 'node:path';
import { init, parse } from 'es-module-lexer';
import { transform } from 'sucrase';
import { isInside, PACKAGE_DIRS, PACKAGE_NAME, PROJECT_ROOT } from '../paths.ts';
import { allowedFile, isPathImport, outsideAllowed, pathImportFrom, type BundleSite } from './import-rules.ts';

type Compiled = { ok: true } | { ok: false; message: string };

/** A refusal or a syntax error at a place in a file. */
class ModuleError extends Error {
  constructor(
    readonly file: string,
    readonly line: number | undefined,
    readonly column: number | undefined,
    text: string,
  ) {
    super(text);
  }
}

// ESM has no `require`: a module that calls it (CommonJS habits) gets Node's own, as bundle.ts's banner gives it.
const REQUIRE_SHIM = "import { createRequire as __sandboxCreateRequire } from 'node:module'; const require = __sandboxCreateRequire(import.meta.url); ";

/** The extensions esbuild tries for an import without one, in its order. */
const EXTENSIONS = ['.tsx', '.ts', '.jsx', '.js', '.css', '.json'];
/** What TypeScript's habit of naming the compiled file means: `./x.js` for x.ts. */
const TS_FOR_JS: Record<string, string[]> = { '.js': ['.ts', '.tsx'], '.jsx': ['.ts', '.tsx'], '.mjs': ['.mts'], '.cjs': ['.cts'] };

const isFile = (p: string) => statSync(p, { throwIfNoEntry: false })?.isFile() === true;
const isDir = (p: string) => statSync(p, { throwIfNoEntry: false })?.isDirectory() === true;

/** The file an import of `base` (an absolute path) names, as esbuild resolves it; undefined if none. */
function resolveFile(base: string): string | undefined {
  if (isFile(base)) return base;
  for (const ext of EXTENSIONS) if (isFile(base + ext)) return base + ext;
  const ext = extname(base);
  for (const ts of TS_FOR_JS[ext] ?? []) if (isFile(base.slice(0, -ext.length) + ts)) return base.slice(0, -ext.length) + ts;
  if (isDir(base)) {
    const manifest = join(base, 'package.json');
    if (isFile(manifest)) {
      const main = (JSON.parse(readFileSync(manifest, 'utf8')) as { main?: unknown }).main;
      if (typeof main === 'string') {
        const found = resolveFile(resolve(base, main));
        if (found !== undefined) return found;
      }
    }
    for (const e of EXTENSIONS) if (isFile(join(base, `index${e}`))) return join(base, `index${e}`);
  }
  return undefined;
}

/**
 * An installed package's real folder (links followed, as esbuild's resolver follows them, so a
 * link in node_modules is judged by where it leads), as Node finds it from `fromDir`, then in the
 * project's package folders.
 */
function packageFolder(name: string, fromDir: string): string | undefined {
  let found: string | undefined;
  for (let d = fromDir; d !== dirname(d) && found === undefined; d = dirname(d)) if (basename(d) !== 'node_modules' && isDir(join(d, 'node_modules', name))) found = join(d, 'node_modules', name);
  found ??= PACKAGE_DIRS.map((d) => join(d, name)).find(isDir);
  return found === undefined ? undefined : realpathSync(found);
}

/** A package's name from an import path: `zod/mini` is zod, `@scope/pkg/x` is @scope/pkg. */
function packageName(path: string): string {
  const parts = path.split('/');
  return path.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
}

/** 1-based line and column of `offset` in `text`. */
function place(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  return { line, column: offset - (before.lastIndexOf('\n') + 1) + 1 };
}

class Tree {
  /** source file → its compiled file in the tree */
  private readonly out = new Map<string, string>();
  private readonly packages = new Set<string>();

  constructor(
    private readonly site: BundleSite,
    private readonly dir: string,
  ) {}

  /** Where a source file's compilation goes: the copy's under submission/, the project's under project/. */
  private outputFor(file: string): string {
    const rel = isInside(this.site.copyRoot, file) ? join('submission', relative(this.site.copyRoot, file)) : join('project', relative(PROJECT_ROOT, file));
    return join(this.dir, `${rel}.mjs`);
  }

  /** Compiles `file` and everything it imports (once each); returns its compiled file. */
  compile(file: string): string {
    const done = this.out.get(file);
    if (done !== undefined) return done;
    const target = this.outputFor(file);
    this.out.set(file, target);
    const source = readFileSync(file, 'utf8');
    let code: string;
    if (extname(file) === '.json') {
      try {
        code = `export default ${JSON.stringify(JSON.parse(source))};\n`;
      } catch (e) {
        throw new ModuleError(file, undefined, undefined, (e as Error).message);
      }
    } else {
      code = this.rewriteImports(file, source, this.transpile(file, source, target));
    }
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, code);
    return target;
  }

  /** The file's JavaScript: its types stripped (lines kept), with an inline source map to the file. */
  private transpile(file: string, source: string, target: string): string {
    const ext = extname(file);
    const typescript = ['.ts', '.mts', '.cts', '.tsx'].includes(ext);
    const jsx = ext === '.tsx' || ext === '.jsx';
    try {
      const result = transform(source, {
        transforms: [...(typescript ? (['typescript'] as const) : []), ...(jsx ? (['jsx'] as const) : [])],
        // Class fields, optional chaining and the like are left to Node 20, as esbuild's target node20 leaves them.
        disableESTransforms: true,
        injectCreateRequireForImportRequire: true,
        filePath: file,
        sourceMapOptions: { compiledFilename: basename(target) },
      });
      const map = { ...result.sourceMap!, sources: [relative(dirname(target), file).split(sep).join('/')] };
      return `${result.code}\n//# sourceMappingURL=data:application/json;base64,${Buffer.from(JSON.stringify(map)).toString('base64')}\n`;
    } catch (e) {
      const err = e as Error & { pos?: number };
      const at = typeof err.pos === 'number' ? place(source, err.pos) : undefined;
      const text = err.message.replace(/^Error transforming [^:]*: /, '').replace(/ \(\d+:\d+\)$/, '');
      throw new ModuleError(file, at?.line, at?.column, text);
    }
  }

  /** `code` with each import's specifier pointing at the compiled file it names (those compiled now). */
  private rewriteImports(file: string, source: string, code: string): string {
    let imports;
    try {
      [imports] = parse(code, file);
    } catch (e) {
      const idx = (e as { idx?: number }).idx;
      const at = typeof idx === 'number' ? place(code, idx) : undefined;
      throw new ModuleError(file, at?.line, at?.column, (e as Error).message.replace(/^Parse error [^:]*:\s*/, 'Unexpected syntax: '));
    }
    const target = this.outputFor(file);
    const edits: { start: number; end: number; text: string }[] = [];
    for (const i of imports) {
      if (i.type === 'import-meta' || typeof i.specifier !== 'string' || (i.type === 'dynamic' && i.glob)) continue;
      const spec = i.specifier;
      // A static specifier's bounds are inside its quotes, a dynamic import's around them.
      const quoted = i.type === 'dynamic' ? { start: i.start, end: i.end } : { start: i.start - 1, end: i.end + 1 };
      const resolved = this.resolveImport(file, spec, () => {
        const at = place(code, quoted.start);
        // Lines are the source's (sucrase keeps them); the column is the specifier's in the source's line.
        const line = source.split('\n')[at.line - 1] ?? '';
        const col = line.indexOf(spec);
        return { line: at.line, column: col > 0 ? col : at.column };
      });
      if (resolved === undefined) continue;
      const compiled = this.compile(resolved);
      let rel = relative(dirname(target), compiled).split(sep).join('/');
      if (!rel.startsWith('.')) rel = `./${rel}`;
      edits.push({ ...quoted, text: JSON.stringify(rel) });
    }
    let out = code;
    for (const e of edits.sort((a, b) => b.start - a.start)) out = out.slice(0, e.start) + e.text + out.slice(e.end);
    return /\brequire\s*\(/.test(out) && !out.includes('__sandboxCreateRequire') ? REQUIRE_SHIM + out : out;
  }

  /**
   * The file `spec` (imported by `file`) names, to compile too; undefined when it stays as written
   * (a builtin, an installed package: copied into the tree). Throws what refuses it.
   */
  private resolveImport(file: string, spec: string, where: () => { line: number; column: number }): string | undefined {
    const refuse = (text: string) => {
      const at = where();
      return new ModuleError(file, at.line, at.column, text);
    };
    if (isBuiltin(spec)) return undefined;
    let resolveDir = dirname(file);
    let path = spec;
    if (isPathImport(spec) && isInside(this.site.copyRoot, file)) {
      const from = pathImportFrom(this.site, resolveDir, spec);
      if ('refused' in from) throw refuse(from.refused);
      ({ resolveDir, path } = from);
    }
    // What a refusal names: the import as esbuild's resolver is given it (the package's name before it stands for the project).
    const asGiven = path;
    if (!isPathImport(path)) {
      // The kit's form of the framework: the package's own name is this project.
      if (path === PACKAGE_NAME || path.startsWith(`${PACKAGE_NAME}/`)) {
        path = `.${path.slice(PACKAGE_NAME.length) || '/'}`;
        resolveDir = PROJECT_ROOT;
      } else {
        const name = packageName(path);
        const folder = packageFolder(name, resolveDir);
        if (folder === undefined) throw refuse(`Could not resolve "${path}"`);
        if (!allowedFile(this.site, folder)) throw refuse(outsideAllowed(path, folder));
        this.copyPackage(name, folder);
        return undefined;
      }
    }
    const named = resolveFile(resolve(resolveDir, path));
    if (named === undefined) throw refuse(`Could not resolve "${asGiven}"`);
    // Judged and compiled where a link leads, as esbuild's resolver does.
    const found = realpathSync(named);
    if (!allowedFile(this.site, found)) throw refuse(outsideAllowed(asGiven, found));
    return found;
  }

  /** An installed package and what it depends on, copied as installed into the tree's node_modules/ (Node finds them there from every compiled file). */
  private copyPackage(name: string, folder: string): void {
    if (this.packages.has(name)) return;
    this.packages.add(name);
    cpSync(folder, join(this.dir, 'node_modules', name), { recursive: true, dereference: true });
    const manifest = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as { dependencies?: Record<string, string> };
    for (const dep of Object.keys(manifest.dependencies ?? {})) {
      const depFolder = packageFolder(dep, folder);
      if (depFolder !== undefined && allowedFile(this.site, depFolder)) this.copyPackage(dep, depFolder);
    }
  }
}

/** "file:line:column: text", the file relative to the submission (or the project), as bundle.ts words esbuild's messages. */
function formatError(e: ModuleError, site: BundleSite): string {
  const file = isInside(site.copyRoot, e.file) ? relative(site.copyRoot, e.file) : isInside(PROJECT_ROOT, e.file) ? relative(PROJECT_ROOT, e.file) : e.file;
  return e.line === undefined ? `${file}: ${e.message}` : `${file}:${e.line}:${e.column}: ${e.message}`;
}

/**
 * Compiles `entry` (inside the copy) and what it imports into a folder beside `outfile`, which
 * re-exports the entry; returns a message when that is impossible (bundle.ts's contract).
 */
export async function compileModuleTree(entry: string, outfile: string, site: BundleSite): Promise<Compiled> {
  await init();
  const dir = join(dirname(outfile), `${basename(outfile, '.mjs')}.modules`);
  try {
    const tree = new Tree(site, dir);
    const compiled = tree.compile(entry);
    const [, exports] = parse(readFileSync(compiled, 'utf8'));
    let rel = relative(dirname(outfile), compiled).split(sep).join('/');
    if (!rel.startsWith('.')) rel = `./${rel}`;
    const lines = [`export * from ${JSON.stringify(rel)};`];
    if (exports.some((x) => x.type !== 'reexport-all' && x.name === 'default' && !x.typeOnly)) lines.push(`export { default } from ${JSON.stringify(rel)};`);
    writeFileSync(outfile, `${lines.join('\n')}\n`);
    return { ok: true };
  } catch (e) {
    if (e instanceof ModuleError) return { ok: false, message: formatError(e, site) };
    return { ok: false, message: (e as Error).message ?? String(e) };
  }
}

