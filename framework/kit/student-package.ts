/**
 * The framework as a course's students receive it: an npm package (a tarball inside their kit)
 * built from this project without the course's reference solutions. It holds framework/ (the
 * platform), graders/ without "name the bug" (whose broken variants are references), the agents
 * the course gives its students, the stdio clients, and a composition root of its own, written
 * here, that registers those and names every other agent of the catalog as held back
 * (plugins/student-kit.ts). Its dist/ is compiled from those files alone, so no reference code
 * reaches it by an import.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, sep } from 'node:path';
import { build, type Metafile } from 'esbuild';
import { UserError } from '../errors.ts';
import { agentTable, heuristicNames } from '../plugins/agents.ts';
import { PACKAGE_DIRS, PACKAGE_NAME, PROJECT_ROOT } from '../sandbox/paths.ts';
import { INSTRUCTOR_ONLY_DEPENDENCIES, UNBUNDLED_PACKAGES, writeShippedBundle } from '../workers/source-bundle.ts';
import type { CourseKit } from './course-kit.ts';

/** Project files a student package never holds, even inside the folders it copies. */
export function excludedFromPackage(rel: string): string | undefined {
  const path = rel.split(sep).join('/');
  if (/\.test\.ts$/.test(path)) return 'a test';
  if (path.startsWith('graders/name-the-bug/')) return "name the bug: deliberately broken references";
  if (path === 'graders/testing.ts') return "the graders' test helpers";
  if (path === 'graders/index.ts' || path === 'graders/plugin.ts') return "the instructor's graders, name the bug included (the kit's root uses grade-case.ts)";
  if (path === 'framework/search/specification.ts') return 'the readable specification search: a reference';
  if (path.startsWith('agents/perfect/')) return 'the perfect-play solver: it knows every position\'s true value';
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
  /** the tarball, in `outDir` */
  tarball: string;
  /** the package's files (paths inside it), as npm packed them */
  files: string[];
}

/** A package's name from an import path: `zod/mini` is zod, `@scope/pkg/x` is @scope/pkg. */
function packageName(path: string): string {
  const parts = path.split('/');
  return path.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
}

/**
 * The packages the kit's check can load, found by esbuild in the staged package: those the command
 * in dist/ leaves outside its bundle (esbuild, piscina), and those reached at run time by what a
 * check bundles from the package's sources: a worker thread's module (the composition root, the
 * job server and every job module) and a TypeScript submission importing the framework's
 * contracts and heuristics. Everything else the project depends on (distributed runs' queue and
 * Redis clients, the web app's server, the tournaments' ratings, Dolos) is either bundled into
 * dist/ already or never loaded by a check: installing it cost every student tens of MB and an
 * npm warning about msgpackr-extract's install script, for nothing.
 */
async function checkPackages(stage: string, nodePaths: readonly string[]): Promise<Set<string>> {
  const sources = (dir: string) => (existsSync(join(stage, dir)) ? (readdirSync(join(stage, dir), { recursive: true }) as string[]).map((f) => join(dir, String(f))).filter((f) => f.endsWith('.ts')) : []);
  const jobModules = sources('framework').filter((f) => /\bjobKind\(/.test(readFileSync(join(stage, f), 'utf8')));
  const entries = [join('bin', 'plugins.ts'), join('framework', 'workers', 'serve-job.ts'), ...jobModules, ...sources(join('framework', 'contracts')), ...sources(join('framework', 'heuristics'))];
  const metafile = await importsOf(
    { contents: entries.map((f) => `import ${JSON.stringify(`./${f.split(sep).join('/')}`)};`).join('\n'), resolveDir: stage },
    stage,
    nodePaths,
    { packages: 'external' },
  );
  // Static imports only: a dynamic one is a command's own path (grading's distributed runs load their queue so), not a check's.
  const reached = new Set(UNBUNDLED_PACKAGES.filter((name) => !INSTRUCTOR_ONLY_DEPENDENCIES.includes(name)));
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

/** What the student package depends on: the project's dependencies that a check can load (checkPackages). */
export function studentDependencies(all: Record<string, string>, loaded: ReadonlySet<string>): Record<string, string> {
  return Object.fromEntries(Object.entries(all).filter(([name]) => loaded.has(name) && !INSTRUCTOR_ONLY_DEPENDENCIES.includes(name)));
}

/** Builds the course's student package into `outDir` (npm pack); its files are listed for `mancala kit --list`. */
export async function buildStudentPackage(kit: CourseKit, outDir: string): Promise<StudentPackage> {
  const stage = mkdtempSync(join(tmpdir(), `mancala-kit-${kit.course}-`));
  try {
    const root = kitCompositionRoot(kit);
    const files = new Set<string>([...projectFiles('framework'), ...projectFiles('graders'), ...projectFiles(join('agents', 'clients')), ...(await agentFiles(root))]);
    for (const rel of [...files, join('bin', 'mancala.js'), join('bin', 'cli.ts')]) {
      mkdirSync(dirname(join(stage, rel)), { recursive: true });
      cpSync(join(PROJECT_ROOT, rel), join(stage, rel));
    }
    writeFileSync(join(stage, 'bin', 'plugins.ts'), root);
    const project = JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as { version: string; engines: unknown; dependencies: Record<string, string>; license?: string };
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
          dependencies: studentDependencies(project.dependencies, await checkPackages(stage, [...PACKAGE_DIRS])),
        },
        null,
        2,
      )}\n`,
    );
    writeFileSync(join(stage, 'README.md'), `# ${PACKAGE_NAME} for the ${kit.course} student kit\n\nInstalled by the kit's \`npm ci\`; see the kit's README.md.\n`);
    await writeShippedBundle(join(stage, 'bin', 'cli.ts'), stage, join(stage, 'dist'), [...PACKAGE_DIRS]);
    mkdirSync(outDir, { recursive: true });
    const out = execFileSync('npm', ['pack', '--json', '--pack-destination', outDir], { cwd: stage, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    const [packed] = JSON.parse(out) as { filename: string; files: { path: string }[] }[];
    return { tarball: join(outDir, packed!.filename), files: packed!.files.map((f) => f.path).sort() };
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
}
