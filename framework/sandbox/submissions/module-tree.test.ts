/**
 * module-tree.ts, a student kit's compiler of submissions, against bundle.ts's esbuild on the same
 * copies: the same imports taken and refused, with the same words at the same file and line, and
 * the compiled module behaves as the bundle does when imported.
 */
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { bundleModule } from './bundle.ts';
import type { BundleSite } from './import-rules.ts';
import { compileModuleTree } from './module-tree.ts';

const ZOO = join(dirname(fileURLToPath(import.meta.url)), '../../../testcases/fixtures/hostile-agents');
const scratch: string[] = [];
afterAll(() => {
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
});

function temp(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  scratch.push(dir);
  return dir;
}

function folderWith(files: Record<string, string>): string {
  const dir = temp('module-tree-src-');
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

type Result = { ok: true; module: Record<string, unknown> } | { ok: false; message: string };

/** `entry` of the folder `original`, copied as prepare.ts copies it, compiled by both; each result imported. */
async function both(original: string, entry: string): Promise<{ esbuild: Result; tree: Result; dir: string }> {
  const dir = temp('module-tree-');
  const copyRoot = join(dir, 'submission');
  cpSync(original, copyRoot, { recursive: true });
  mkdirSync(join(dir, 'bundles'));
  const site: BundleSite = { copyRoot, originalRoot: original, singleFile: false };
  const run = async (compile: typeof bundleModule, name: string): Promise<Result> => {
    const outfile = join(dir, 'bundles', `${name}.mjs`);
    const r = await compile(join(copyRoot, entry), outfile, site);
    if (!r.ok) return r;
    return { ok: true, module: (await import(pathToFileURL(outfile).href)) as Record<string, unknown> };
  };
  return { esbuild: await run(bundleModule, 'esbuild'), tree: await run(compileModuleTree, 'tree'), dir };
}

/** The module a compiler's result imported (a failed result fails the test here, with its message). */
function moduleOf(r: Result): { default: { name: string; chooseMove: unknown } } {
  if (!r.ok) throw new Error(r.message);
  return r.module as { default: { name: string; chooseMove: unknown } };
}

/** A message without its column (the two compilers point at the import's start and at its path). */
const noColumn = (m: string) => m.replace(/^([^:]+:\d+):\d+:/, '$1:');

describe('a submission compiled file by file, against the esbuild bundle', () => {
  it('a TypeScript agent with a helper of its own and framework types: the same agent', async () => {
    const { esbuild, tree, dir } = await both(join(ZOO, 'normal'), 'agent.ts');
    expect(esbuild.ok && tree.ok).toBe(true);
    const agent = (r: Result) => moduleOf(r).default;
    expect(agent(tree).name).toBe(agent(esbuild).name);
    expect(typeof agent(tree).chooseMove).toBe('function');
    // Only the role's own folder holds what it runs: compiled copies of the submission's files, nothing else.
    expect((readdirSync(join(dir, 'bundles', 'tree.modules'), { recursive: true }) as string[]).map(String).filter((f) => f.endsWith('.mjs')).sort()).toEqual(['submission/agent.ts.mjs', 'submission/search.ts.mjs']);
  });

  it('framework values, in the kit form and by a relative path, run from compiled framework files', async () => {
    const src = folderWith({
      'agent.ts':
        'import type { Agent } from "mancala-autograder/framework/contracts/agent.ts";\nimport { createRandom } from "mancala-autograder/framework/random.ts";\nimport basic from "./lib/basic.ts";\n' +
        'const agent: Agent = { name: `kit-${typeof createRandom(1)()}-${typeof basic.evaluate}`, chooseMove: (ctx) => ctx.game.legalMoves(ctx.state)[0]! };\nexport default agent;\n',
      'lib/basic.ts': 'export { default } from "mancala-autograder/framework/heuristics/basic.ts";\n',
    });
    const { esbuild, tree, dir } = await both(src, 'agent.ts');
    const name = (r: Result) => moduleOf(r).default.name;
    expect(name(tree)).toBe('kit-number-function');
    expect(name(tree)).toBe(name(esbuild));
    expect(readFileSync(join(dir, 'bundles', 'tree.modules', 'submission', 'agent.ts.mjs'), 'utf8')).toMatch(/from "\.\.\/project\/framework\/random\.ts\.mjs"/);
    // random.ts imports pure-rand: the package is copied beside the compiled files, where Node finds it (the child reads nothing else).
    expect(readFileSync(join(dir, 'bundles', 'tree.modules', 'project', 'framework', 'random.ts.mjs'), 'utf8')).toMatch(/from ["']pure-rand\//);
    expect(readdirSync(join(dir, 'bundles', 'tree.modules', 'node_modules'))).toEqual(['pure-rand']);
  });

  it('the reference agents are refused, naming the file and line of the import, in the same words', async () => {
    const { esbuild, tree } = await both(join(ZOO, 'imports-reference'), 'agent.ts');
    expect(tree.ok).toBe(false);
    expect(esbuild.ok).toBe(false);
    const message = (tree as { message: string }).message;
    expect(message).toMatch(/^agent\.ts:2:\d+: import "\.\.\/\.\.\/\.\.\/\.\.\/agents\/alphabeta\.ts" reaches outside the submission/);
    expect(noColumn(message)).toBe(noColumn((esbuild as { message: string }).message));
  });

  it('relative imports out of the submission, absolute ones, and a project file outside framework/ by the kit form: refused as esbuild refuses them', async () => {
    const outside = folderWith({ 'answers.js': 'export default 4;' });
    const cases: Record<string, string>[] = [
      { 'agent.js': `\nimport a from "../${outside.split('/').pop()}/answers.js";\nexport default { name: "x", chooseMove: () => a };` },
      { 'agent.js': `import a from "${join(outside, 'answers.js')}";\nexport default { name: "x", chooseMove: () => a };` },
      { 'agent.js': `// a helper first\nimport { helper } from "./h.js";\nexport default { name: "x", chooseMove: () => helper() };`, 'h.js': '\n\nimport ab from "mancala-autograder/agents/alphabeta.ts";\nexport const helper = () => ab;' },
    ];
    for (const files of cases) {
      const { esbuild, tree } = await both(folderWith(files), 'agent.js');
      expect(tree.ok, JSON.stringify(files)).toBe(false);
      expect(esbuild.ok).toBe(false);
      expect(noColumn((tree as { message: string }).message)).toBe(noColumn((esbuild as { message: string }).message));
    }
  });

  it('a syntax error names the file and line', async () => {
    const { esbuild, tree } = await both(join(ZOO, 'syntax-error'), 'agent.js');
    expect(esbuild.ok).toBe(false);
    expect((tree as { message: string }).message).toMatch(/^agent\.js:4:\d+: Unexpected/);
    const ts = await both(folderWith({ 'agent.ts': 'import { h } from "./h.ts";\nexport default h;', 'h.ts': 'export const h = {\n  name: "x",\n  chooseMove(: number) {},\n};' }), 'agent.ts');
    expect((ts.tree as { message: string }).message).toMatch(/^h\.ts:3:\d+: /);
    expect((ts.esbuild as { message: string }).message).toMatch(/^h\.ts:3:\d+: /);
  });

  it('TypeScript as esbuild compiles it: enums, parameter properties, class fields, type-only imports, JSON, require of a builtin', async () => {
    const src = folderWith({
      'agent.ts': [
        'import type { Agent } from "mancala-autograder/framework/contracts/agent.ts";',
        'import { Depth, Searcher } from "./search";',
        'import settings from "./settings.json";',
        'const os = require("node:os");',
        'const s = new Searcher(Depth.Deep);',
        'const agent: Agent = { name: `${s.describe()}-${settings.level}-${typeof os.cpus}`, chooseMove: (ctx) => ctx.game.legalMoves(ctx.state)[0]! };',
        'export default agent;',
      ].join('\n'),
      'search.ts': 'export enum Depth { Shallow = 1, Deep = 5 }\nexport class Searcher {\n  seen = 0;\n  constructor(private readonly depth: Depth) {}\n  describe(): string { return `${Depth[this.depth]}${this.depth}${this.seen}`; }\n}\n',
      'settings.json': '{ "level": 3 }',
    });
    const { esbuild, tree } = await both(src, 'agent.ts');
    const name = (r: Result) => moduleOf(r).default.name;
    expect(name(esbuild)).toBe('Deep50-3-function');
    expect(name(tree)).toBe(name(esbuild));
  });
});
