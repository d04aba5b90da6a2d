/**
 * The framework as a course's students receive it: a package folder inside their kit
 * (vendor/mancala-autograder), built from this project without the course's reference solutions. It holds framework/ (the
 * platform), graders/ without "name the bug" (whose broken variants are references), the agents
 * the course gives its students, the stdio clients, and a composition root of its own, written
 * here, that registers those and names every other agent of the catalog as held back
 * (plugins/student-kit.ts). Its dist/ is compiled from those files alone, so no reference code
 * reaches it by an import.
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, sep } from 'node:path';
import { build, version, type Metafile, type Plugin } from 'esbuild';
import { UserError } from '../errors.ts';
import { agentTable, heuristicNames } from '../plugins/agents.ts';
import { PACKAGE_DIRS, PACKAGE_NAME, PROJECT_ROOT } from '../sandbox/paths.ts';
import { INSTRUCTOR_ONLY_DEPENDENCIES, writeShippedBundle } from '../workers/source-bundle.ts';
import type { CourseKit } from './course-kit.ts';
import { PREBUILT_FOLDER, PREBUILT_MANIFEST, type PrebuiltBuild, type PrebuiltManifest } from './prebuilt-esbuild.ts';

/** Project files a student package never holds, even inside the folders it copies. */
export function excludedFromPackage(rel: string): string | undefined {
  const path = rel.split(sep).join('/');
  if (/\.test\.ts$/.test(path)) return 'a test';
  if (path.startsWith('graders/name-the-bug/')) return "name the bug: deliberately broken references";
  if (path === 'graders/testing.ts') return "the graders' test helpers";
  if (path === 'graders/index.ts' || path === 'graders/plugin.ts') return "the instructor's graders, name the bug included (the kit's root uses grade-case.ts)";
  if (path === 'framework/search/specification.ts') return 'the readable specification search: a reference';
  if (path.startsWith('agents/perfect/')) return 'the perfect-play solver: it knows every position\'s true value';
  if (path.startsWith('framework/web/screenshots/')) return "the web app's screenshots, for the project's docs";
  return undefined;
}

/** The heuristics the courses give: the framework's own basic one (course code in every seed) and seed 002's provided score. */
const GIVEN_HEURISTICS: Record<string, string> = { basic: '../framework/heuristics/basic.ts', 'cpsc4610-provided': '../framework/heuristics/cpsc4610-provided.ts' };

/** The identifier a given heuristic is imported as: heuristic_basic, heuristic_cpsc4610_provided. */
function heuristicId(name: string): string {
  return `heuristic_${name.replace(/\W/g, '_')}`;
}

/** bin/plugins.ts of the student package: registers what the course gives, names the rest as held back. */
export function kitCompositionRoot(kit: CourseKit): string {
  const table = agentTable();
  const given = Object.entries(kit.agents);
  for (const [name] of given) if (table[name] === undefined) throw new UserError(`${kit.starter}/kit.json: agents.${name}: no agent of that name in the catalog`);
  const lines = [
    '/**',
    ` * The composition root of the ${kit.course} student kit, written by \`mancala kit\`: it registers what the`,
    " * course gives its students; every other agent of the catalog is named but held back (plugins/student-kit.ts).",
    ' */',
    "import { declareStudentKit, withheldAgent, withheldHeuristic } from '../framework/plugins/student-kit.ts';",
    "import { registerAgents } from '../framework/plugins/agents.ts';",
    "import { setCompositionRoot } from '../framework/plugins/composition.ts';",
    "import { registerGraders } from '../framework/grading/grader-plugin.ts';",
    "import { caseMessage, gradeCaseWith } from '../graders/grade-case.ts';",
    ...given.map(([, module], k) => `import given${k} from ${JSON.stringify(`../agents/${module}`)};`),
    ...Object.entries(GIVEN_HEURISTICS).map(([name, module]) => `import ${heuristicId(name)} from ${JSON.stringify(module)};`),
    '',
    `declareStudentKit(${JSON.stringify(kit.course)}${kit.requires !== undefined && kit.requires.length > 0 ? `, ${JSON.stringify(kit.requires)}` : ''});`,
    'registerAgents({',
    '  agents: {',
  ];
  for (const [name, entry] of Object.entries(table)) {
    const { agent: _agent, ...meta } = entry;
    const k = given.findIndex(([n]) => n === name);
    const agent = k >= 0 ? `given${k}` : `withheldAgent(${JSON.stringify(name)})`;
    lines.push(`    ${JSON.stringify(name)}: { ...${JSON.stringify(k >= 0 ? meta : { ...meta, withheld: true })}, agent: ${agent} },`);
  }
  lines.push('  },', '  heuristics: {');
  for (const name of heuristicNames()) {
    lines.push(`    ${JSON.stringify(name)}: ${GIVEN_HEURISTICS[name] !== undefined ? heuristicId(name) : `withheldHeuristic(${JSON.stringify(name)})`},`);
  }
  lines.push('  },', '});', 'registerGraders({ gradeCase: gradeCaseWith(), caseMessage });', 'setCompositionRoot(import.meta.url);', '');
  return lines.join('\n');
}

/** The project's files under `dir` (relative to the project), but what a student package never holds. */
function projectFiles(dir: string): string[] {
  const abs = join(PROJECT_ROOT, dir);
  return (readdirSync(abs, { recursive: true }) as string[])
    .map((f) => join(dir, String(f)))
    .filter((rel) => statSync(join(PROJECT_ROOT, rel)).isFile() && excludedFromPackage(rel) === undefined);
}

/** What the TypeScript `stdin` imports, by esbuild's account (a bundle built in memory and dropped). */
async function importsOf(stdin: { contents: string; resolveDir: string }, workingDir: string, nodePaths: readonly string[], outside: { external: string[] } | { packages: 'external' }): Promise<Metafile> {
  const result = await build({ stdin: { ...stdin, loader: 'ts' }, bundle: true, write: false, metafile: true, platform: 'node', format: 'esm', logLevel: 'silent', absWorkingDir: workingDir, nodePaths: [...nodePaths], ...outside });
  return result.metafile;
}

/** The files of agents/ the composition root reaches, by esbuild's account of what it reads. */
async function agentFiles(root: string): Promise<string[]> {
  const metafile = await importsOf({ contents: root, resolveDir: join(PROJECT_ROOT, 'bin') }, PROJECT_ROOT, PACKAGE_DIRS, { external: ['esbuild', 'piscina'] });
  const reached = Object.keys(metafile.inputs).filter((p) => p.startsWith('agents/'));
  // A given agent that imports a reference would carry it into the kit: refused, never dropped (the kit would not run).
  const refused = reached.filter((p) => excludedFromPackage(p) !== undefined);
  if (refused.length > 0) throw new Error(`the kit's agents import ${refused.join(', ')}: ${excludedFromPackage(refused[0]!)}; a student kit must not hold it`);
  return reached;
}

export interface StudentPackage {
  /** the package's folder (the kit's vendor/mancala-autograder) */
  dir: string;
  /** the package's files (paths inside it, '/'-separated), sorted */
  files: string[];
  /** the packages copied into its own node_modules/ (what its command imports by name) */
  vendored: string[];
  /** what the kit's own npm ci must install (the packages a TypeScript student's framework imports reach; none today): name → version */
  kitDependencies: Record<string, string>;
}

/** A package's name from an import path: `zod/mini` is zod, `@scope/pkg/x` is @scope/pkg. */
function packageName(path: string): string {
  const parts = path.split('/');
  return path.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
}

/** The packages a bundle imports from outside itself by name: those it must find installed. */
function externalPackages(metafile: Metafile): Set<string> {
  const names = new Set<string>();
  for (const output of Object.values(metafile.outputs)) {
    for (const i of output.imports) if (i.external && i.kind !== 'dynamic-import' && !isBuiltin(i.path) && !i.path.startsWith('.')) names.add(packageName(i.path));
  }
  return names;
}

/**
 * The packages a TypeScript student's agent can reach through the framework's sources it may
 * import (its contracts and the given heuristics): the check copies them from the kit's
 * node_modules beside the compiled agent (module-tree.ts). Static imports only, by esbuild's
 * account of the staged package.
 */
async function studentImportPackages(stage: string, nodePaths: readonly string[]): Promise<Set<string>> {
  const sources = (dir: string) => (existsSync(join(stage, dir)) ? (readdirSync(join(stage, dir), { recursive: true }) as string[]).map((f) => join(dir, String(f))).filter((f) => f.endsWith('.ts')) : []);
  // module-shapes.ts is the loader's (modules/load.ts checks a module's export with zod, 8 MB installed), not the student's.
  const entries = [...sources(join('framework', 'contracts')), ...sources(join('framework', 'heuristics'))].filter((f) => !f.endsWith(`${sep}module-shapes.ts`));
  const metafile = await importsOf(
    { contents: entries.map((f) => `import ${JSON.stringify(`./${f.split(sep).join('/')}`)};`).join('\n'), resolveDir: stage },
    stage,
    nodePaths,
    { packages: 'external' },
  );
  const reached = new Set<string>();
  const { inputs } = metafile;
  const seen = new Set<string>();
  const queue = Object.keys(inputs).filter((f) => f.startsWith('<stdin>'));
  for (let file = queue.pop(); file !== undefined; file = queue.pop()) {
    if (seen.has(file)) continue;
    seen.add(file);
    for (const i of inputs[file]?.imports ?? []) {
      if (i.kind === 'dynamic-import') continue;
      if (!i.external) queue.push(i.path);
      else if (!isBuiltin(i.path)) reached.add(packageName(i.path));
    }
  }
  return reached;
}

/** A course whose starter is TypeScript: its students' agents are compiled at check time (by the kit's command itself: module-tree.ts). */
export function compilesAgents(kit: CourseKit): boolean {
  return (readdirSync(kit.starter, { recursive: true }) as string[]).map(String).some((f) => /\.[cm]?ts$/.test(f) && !f.endsWith('.test.ts'));
}

/** The job modules of the staged package (files naming a job kind): the pool's threads serve them. */
function jobModulesOf(stage: string): string[] {
  return (readdirSync(join(stage, 'framework'), { recursive: true }) as string[])
    .map((f) => join('framework', String(f)))
    .filter((f) => f.endsWith('.ts') && /\bjobKind\(/.test(readFileSync(join(stage, f), 'utf8')));
}

const slashed = (p: string) => p.split(sep).join('/');

/**
 * bin/kit-worker.ts: the pool's thread module, bundled with the command when the kit is made
 * (as worker-bundle.ts builds it at run time elsewhere): the composition root, the job server and
 * every job module, each found by the URL its module names itself by.
 */
function kitWorkerSource(jobModules: readonly string[]): string {
  const lines = [
    "// The pool's thread module of a student kit, written by `mancala kit` (student-package.ts): built with the command, so a check builds nothing.",
    "import './plugins.ts';",
    "import { serveJob, type JobModules } from '../framework/workers/serve-job.ts';",
    "import type { JobTask } from '../framework/workers/pool.ts';",
    ...jobModules.map((m, k) => `import * as job${k} from ${JSON.stringify(`../${slashed(m)}`)};`),
    'const modules: JobModules = {',
    ...jobModules.map((m, k) => `  [new URL(${JSON.stringify(`../${slashed(m)}`)}, import.meta.url).href]: job${k},`),
    '};',
    'export default (task: JobTask) => serveJob(task, modules);',
    '',
  ];
  return lines.join('\n');
}

/** The kit's composition root's last lines: the prebuilt thread module, and the job modules it holds. */
function prebuiltWorkerLines(jobModules: readonly string[]): string {
  return [
    "import { usePrebuiltWorker } from '../framework/workers/worker-bundle.ts';",
    "import { fileURLToPath as kitFileUrlToPath } from 'node:url';",
    `usePrebuiltWorker(kitFileUrlToPath(new URL('../dist/kit-worker.mjs', import.meta.url)), [${jobModules.map((m) => `new URL(${JSON.stringify(`../${slashed(m)}`)}, import.meta.url).href`).join(', ')}]);`,
    '',
  ].join('\n');
}

/**
 * The sandbox's runtime and bootstrap (framework/sandbox/runtime.ts builds them at run time, with
 * these options), built now from the staged package into dist/prebuilt/ with a manifest the kit's
 * stand-in for esbuild reads (prebuilt-esbuild.ts). Refused if either reads anything outside the
 * package's framework/ or an installed package, as runtime.ts refuses it: no reference reaches them.
 */
async function prebuildSandboxRuntime(stage: string, nodePaths: readonly string[]): Promise<void> {
  const builds: PrebuiltBuild[] = [];
  const folder = join(stage, PREBUILT_FOLDER);
  mkdirSync(folder, { recursive: true });
  for (const [name, format, file] of [['main.ts', 'cjs', 'sandbox-runtime.cjs'], ['bootstrap.ts', 'esm', 'sandbox-bootstrap.mjs']] as const) {
    const entry = join('framework', 'sandbox', 'child', name);
    const result = await build({ entryPoints: [join(stage, entry)], bundle: true, format, platform: 'node', target: 'node20', metafile: true, write: false, logLevel: 'silent', absWorkingDir: stage, nodePaths: [...nodePaths] });
    // A package's file is named as in the package's own node_modules, where the kit's runtime.ts finds it one (the stage has none).
    const inputs = Object.keys(result.metafile.inputs).map((i) => (i.includes('node_modules/') ? `node_modules/${i.slice(i.lastIndexOf('node_modules/') + 'node_modules/'.length)}` : i));
    const leaked = inputs.filter((i) => !i.startsWith('framework/') && !i.startsWith('node_modules/'));
    if (leaked.length > 0) throw new Error(`the kit's sandbox runtime must contain nothing outside framework/, but it bundles ${leaked.join(', ')}`);
    writeFileSync(join(folder, file), result.outputFiles[0]!.text);
    builds.push({ entry: slashed(entry), format, file, inputs });
  }
  const manifest: PrebuiltManifest = { version, builds };
  writeFileSync(join(folder, PREBUILT_MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
}

/**
 * The packages only instructors' commands use, which the kit's command holds a stand-in for
 * (withheld-package.ts): distributed grading's queue and Redis client, the web app's server.
 * Bundled, they were about 4 MB of the kit's 7 MB command.
 */
export const WITHHELD_PACKAGES: readonly string[] = ['bullmq', 'ioredis', 'fastify'];

/** What a kit whose students write Python, Java or C++ has for module-tree.ts (sucrase and its compiler: 0.7 MB of command). */
const NO_AGENT_COMPILER =
  'export async function compileModuleTree() { return { ok: false, message: "this kit runs agents in its course\'s language (Python, Java, C++) as they are, and compiles no TypeScript or JavaScript agent" }; }';

/**
 * Bundling the kit's command: `esbuild` is prebuilt-esbuild.ts (but where that module asks for the
 * real one), and each package of WITHHELD_PACKAGES is withheld-package.ts's stand-in. A kit that
 * compiles no agent (`compiles` false) holds no sucrase: its module-tree.ts says so in one line.
 */
function kitStandIns(stage: string, compiles: boolean): Plugin {
  const standIn = join(stage, 'framework', 'kit', 'prebuilt-esbuild.ts');
  const withheld = join(stage, 'framework', 'kit', 'withheld-package.ts');
  const names = new RegExp(`^(${WITHHELD_PACKAGES.join('|')})(/.*)?$`);
  return {
    name: 'kit-stand-ins',
    setup(b) {
      b.onResolve({ filter: /^esbuild$/ }, (a) => (a.importer === standIn ? { path: 'esbuild', external: true } : { path: standIn }));
      if (!compiles) {
        b.onResolve({ filter: /module-tree\.ts$/ }, (a) => (a.importer === standIn ? { path: 'module-tree', namespace: 'no-agent-compiler' } : undefined));
        b.onLoad({ filter: /.*/, namespace: 'no-agent-compiler' }, () => ({ contents: NO_AGENT_COMPILER, loader: 'js' }));
      }
      b.onResolve({ filter: names }, (a) => ({ path: names.exec(a.path)![1]!, namespace: 'withheld-package' }));
      b.onLoad({ filter: /.*/, namespace: 'withheld-package' }, (a) => ({
        contents: `module.exports = require(${JSON.stringify(withheld)}).withheldPackage(${JSON.stringify(a.path)});`,
        loader: 'js',
        resolveDir: stage,
      }));
    },
  };
}

/**
 * The packages the kit's command imports by name, copied as the project installed them (the
 * version its lock pins) into the package's own node_modules/, where Node finds them from the
 * command's files: so the kit needs no npm registry, and runs with nothing installed. Only a
 * package with no dependencies of its own is taken so (piscina: its one native helper is an
 * optional dependency it does without).
 */
function vendorPackages(names: Iterable<string>, packageDir: string): string[] {
  const vendored: string[] = [];
  for (const name of [...names].sort()) {
    const from = join(PROJECT_ROOT, 'node_modules', name);
    const manifest = JSON.parse(readFileSync(join(from, 'package.json'), 'utf8')) as { version: string; dependencies?: Record<string, string> };
    const needs = Object.keys(manifest.dependencies ?? {});
    if (needs.length > 0) throw new Error(`the kit's command imports ${name}, which needs ${needs.join(', ')}: a kit vendors packages without dependencies only`);
    cpSync(from, join(packageDir, 'node_modules', name), { recursive: true, dereference: true });
    vendored.push(`${name}@${manifest.version}`);
  }
  return vendored;
}

/**
 * Builds the course's student package into the folder `packageDir` (the kit's
 * vendor/mancala-autograder): its files are listed for `mancala kit --list`.
 */
export async function buildStudentPackage(kit: CourseKit, packageDir: string): Promise<StudentPackage> {
  const stage = mkdtempSync(join(tmpdir(), `mancala-kit-${kit.course}-`));
  try {
    const root = kitCompositionRoot(kit);
    const files = new Set<string>([...projectFiles('framework'), ...projectFiles('graders'), ...projectFiles(join('agents', 'clients')), ...(await agentFiles(root))]);
    for (const rel of [...files, join('bin', 'mancala.js'), join('bin', 'cli.ts')]) {
      mkdirSync(dirname(join(stage, rel)), { recursive: true });
      cpSync(join(PROJECT_ROOT, rel), join(stage, rel));
    }
    const jobModules = jobModulesOf(stage);
    writeFileSync(join(stage, 'bin', 'plugins.ts'), `${root}${prebuiltWorkerLines(jobModules)}`);
    writeFileSync(join(stage, 'bin', 'kit-worker.ts'), kitWorkerSource(jobModules));
    await prebuildSandboxRuntime(stage, [...PACKAGE_DIRS]);
    // The command and its thread module, built now (nothing is built at check time), without source maps (a third of the size).
    const written = await writeShippedBundle(join(stage, 'bin', 'cli.ts'), stage, join(stage, 'dist'), [...PACKAGE_DIRS], {
      moreEntries: [join(stage, 'bin', 'kit-worker.ts')],
      plugins: [kitStandIns(stage, compilesAgents(kit))],
      sourcemap: false,
    });
    const project = JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as { version: string; engines: unknown; dependencies: Record<string, string>; license?: string };
    // What the bundle leaves outside it (piscina finds its own worker script) is vendored; where students write TypeScript, the kit installs what the framework they may import needs.
    const outside = [...externalPackages(written.metafile)].filter((name) => !INSTRUCTOR_ONLY_DEPENDENCIES.includes(name));
    const kitDependencies: Record<string, string> = {};
    if (compilesAgents(kit)) {
      for (const name of await studentImportPackages(stage, [...PACKAGE_DIRS])) {
        const range = project.dependencies[name];
        if (range === undefined) throw new Error(`a student's TypeScript may import ${name}, which is not a dependency of the project`);
        kitDependencies[name] = range;
      }
    }
    writeFileSync(
      join(stage, 'package.json'),
      `${JSON.stringify(
        {
          name: PACKAGE_NAME,
          version: project.version,
          description: `The ${kit.course} student kit's framework: the mancala command and the framework to write and check agents with, without the course's reference solutions.`,
          type: 'module',
          license: project.license ?? 'MIT',
          engines: project.engines,
          bin: { mancala: 'bin/mancala.js' },
          exports: { '.': './dist/cli.mjs', './framework/*': './framework/*', './package.json': './package.json' },
          mancalaStudentKit: kit.course,
          // None from the registry: what the command imports by name is in node_modules/ here (vendorPackages).
          dependencies: {},
        },
        null,
        2,
      )}\n`,
    );
    rmSync(packageDir, { recursive: true, force: true });
    mkdirSync(dirname(packageDir), { recursive: true });
    cpSync(stage, packageDir, { recursive: true });
    const vendored = vendorPackages(outside, packageDir);
    writeFileSync(
      join(packageDir, 'README.md'),
      `# ${PACKAGE_NAME} for the ${kit.course} student kit\n\nThe kit's \`mancala\` command (\`node mancala.mjs\` in the kit's folder runs it); see the kit's README.md.\n` +
        (vendored.length > 0 ? `\nnode_modules/ holds the published packages the command imports, as the project installed them: ${vendored.join(', ')}.\n` : ''),
    );
    const packaged = (readdirSync(packageDir, { recursive: true }) as string[]).map(String).filter((f) => statSync(join(packageDir, f)).isFile());
    return { dir: packageDir, files: packaged.map((f) => f.split(sep).join('/')).sort(), vendored, kitDependencies };
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
}
