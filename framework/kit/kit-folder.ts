/**
 * `mancala kit <course> --out DIR`: the folder a course's students unzip and use.
 *
 *   mancala.mjs                       the command: `node mancala.mjs check …` runs with nothing installed
 *   package.json, package-lock.json   `npm run check` and `npm run play`; `npm ci` links the command
 *                                     (`npx mancala`)
 *   vendor/mancala-autograder/        the student package (student-package.ts), with what it imports
 *   agent/                            the course's starter, importing the framework by package name
 *   suites/<suite>/                   the public suites, with their (public) expected answers
 *   README.md, tsconfig.json, .gitignore
 *
 * Every file is there for a reason `kitListing` states (`--list`). The lock file is made here
 * with `npm install --package-lock-only`, which asks the npm registry for the versions of what
 * the kit installs from it (nothing: a TypeScript student's agent is compiled by the command itself,
 * with sucrase bundled in it; see framework/sandbox/submissions/module-tree.ts).
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, join, relative, sep } from 'node:path';
import { UserError } from '../errors.ts';
import { PACKAGE_NAME, PROJECT_ROOT } from '../sandbox/paths.ts';
import { isCourseSuite, loadProgramSuite } from '../packs/csci561/course-suite.ts';
import type { Suite } from '../suites/types.ts';
import { AGENTS_DIR, KIT_FILE, TESTCASES_DIR, type CourseKit } from './course-kit.ts';
import { NODE_MAJOR } from './requirements.ts';
import { buildStudentPackage, compilesAgents, type StudentPackage } from './student-package.ts';

export const KIT_MARKER_FIELD = 'mancalaKit';

export interface KitFile {
  /** the path inside the kit ('/'-separated) */
  path: string;
  why: string;
}

export interface WrittenKit {
  dir: string;
  files: KitFile[];
  /** bytes of the kit's folder, and of the package in it */
  bytes: number;
  packageBytes: number;
}

/** Refuses an output folder that holds anything but an earlier kit (which is replaced). */
export function checkKitFolder(out: string): void {
  if (!existsSync(out)) return;
  if (!statSync(out).isDirectory()) throw new UserError(`--out ${out}: not a folder`);
  const entries = readdirSync(out);
  if (entries.length === 0) return;
  const pkg = join(out, 'package.json');
  const earlier = existsSync(pkg) && (JSON.parse(readFileSync(pkg, 'utf8')) as Record<string, unknown>)[KIT_MARKER_FIELD] !== undefined;
  if (!earlier) throw new UserError(`--out ${out}: the folder is not empty and holds no earlier kit: give a new or empty folder`);
}

/** The public suites of the kit, loaded: a kit holds no case that is not visible to students. */
async function publicSuites(kit: CourseKit): Promise<Suite[]> {
  const suites: Suite[] = [];
  for (const name of kit.suites) {
    const suite = await loadProgramSuite(join(TESTCASES_DIR, name));
    const hidden = suite.cases.filter((c) => c.visibility !== 'visible');
    if (hidden.length > 0) throw new UserError(`${kit.starter}/${KIT_FILE}: suites: ${name} has cases students may not see (${hidden.map((c) => c.id).join(', ')}): a kit holds public suites only`);
    suites.push(suite);
  }
  return suites;
}

/** A starter file as the kit holds it: framework imports by the package's name, since the kit has no framework/ beside it. */
export function kitStarterText(text: string): string {
  return text.replace(/(['"])(?:\.\.\/)+framework\//g, `$1${PACKAGE_NAME}/framework/`);
}

function filesUnder(dir: string): string[] {
  return (readdirSync(dir, { recursive: true }) as string[]).map(String).filter((f) => statSync(join(dir, f)).isFile());
}

const slash = (p: string) => p.split(sep).join('/');

export async function writeKit(kit: CourseKit, out: string): Promise<WrittenKit> {
  checkKitFolder(out);
  const suites = await publicSuites(kit);
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  const files: KitFile[] = [];
  const add = (path: string, why: string) => files.push({ path: slash(path), why });

  const vendor = `vendor/${PACKAGE_NAME}`;
  const pkg = await buildStudentPackage(kit, join(out, vendor));
  for (const f of pkg.files) add(`${vendor}/${f}`, packageFileReason(kit, f, pkg));
  writeFileSync(join(out, KIT_COMMAND), `${KIT_COMMAND_TEXT}\n`);
  add(KIT_COMMAND, 'the mancala command: node mancala.mjs check … (npm run check runs it); nothing to install');

  for (const f of filesUnder(kit.starter)) {
    if (f === KIT_FILE || f.endsWith('.test.ts')) continue;
    // A folder kit.json puts beside agent/ (starters in the course's other languages) goes to the kit's top.
    const beside = kit.beside?.includes(f.split(sep)[0]!) === true;
    const path = beside ? f : join('agent', f);
    const target = join(out, path);
    mkdirSync(join(target, '..'), { recursive: true });
    const text = readFileSync(join(kit.starter, f), 'utf8');
    writeFileSync(target, f.endsWith('.ts') ? kitStarterText(text) : text.replaceAll(`agents/starters/${kit.course}`, 'agent').replaceAll('testcases/', 'suites/'));
    add(path, beside ? "a starter of the course's, to copy into agent/ (its README says when)" : "the course's starter: your work goes here");
  }
  for (const [name, path] of Object.entries(kit.provided ?? {})) {
    cpSync(join(AGENTS_DIR, path), join(out, 'agent', name));
    add(join('agent', name), `the course's ${name} as this project wrote it (grading runs its own copy): read it, do not change it`);
  }
  const typescript = filesUnder(join(out, 'agent')).some((f) => f.endsWith('.ts'));
  for (const suite of suites) {
    const name = basename(suite.manifest.dir);
    for (const f of filesUnder(suite.manifest.dir)) {
      if (f.endsWith('.test.ts')) continue;
      const target = join(out, 'suites', name, f);
      mkdirSync(join(target, '..'), { recursive: true });
      cpSync(join(suite.manifest.dir, f), target);
      add(join('suites', name, f), `${suite.manifest.name}: a public suite (every case visible; ${isCourseSuite(suite) ? 'the answer files beside each testInput_K.txt hold' : 'expected.json holds'} their public answers)`);
    }
  }

  // A course's own game manager runs in agent/, after `mancala doctor` has checked the tools it needs.
  const mancala = `node ${KIT_COMMAND}`;
  const play = Array.isArray(kit.play) ? `${mancala} ${kit.play.join(' ')}` : `${mancala} doctor agent && cd agent && ${kit.play.run.join(' ')}`;
  const scripts = { check: `${mancala} ${kit.check.join(' ')}`, play };
  // The package by link (npm ci makes node_modules/mancala-autograder and the bin for npx mancala: no copy, nothing fetched).
  const dependencies = { [PACKAGE_NAME]: `file:${vendor}`, ...pkg.kitDependencies };
  writeFileSync(
    join(out, 'package.json'),
    `${JSON.stringify({ name: `${kit.course}-kit`, private: true, type: 'module', [KIT_MARKER_FIELD]: kit.course, engines: { node: `>=${NODE_MAJOR}` }, scripts, dependencies }, null, 2)}\n`,
  );
  add('package.json', 'the npm run scripts check and play, and what npm ci links');
  if (typescript) {
    writeFileSync(join(out, 'tsconfig.json'), `${JSON.stringify(KIT_TSCONFIG, null, 2)}\n`);
    add('tsconfig.json', "your editor's type checking of agent/ (TypeScript, the framework's settings)");
  }
  writeFileSync(join(out, '.gitignore'), 'node_modules/\n');
  add('.gitignore', 'keeps node_modules/ out of your repository');
  writeFileSync(join(out, 'README.md'), kitReadme(kit, suites, scripts));
  add('README.md', 'for students: install, check, play, what is graded and how');
  try {
    execFileSync('npm', ['install', '--package-lock-only', '--no-audit', '--no-fund', '--ignore-scripts'], { cwd: out, stdio: ['ignore', 'ignore', 'pipe'] });
  } catch (e) {
    const stderr = (e as { stderr?: Buffer }).stderr?.toString().trim().split('\n').slice(-2).join(' ') ?? String(e);
    throw new UserError(`${out}: the lock file could not be made (npm install --package-lock-only needs the npm registry): ${stderr}`);
  }
  add('package-lock.json', 'the exact versions npm ci installs');
  files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const bytes = filesUnder(out).reduce((sum, f) => sum + statSync(join(out, f)).size, 0);
  return { dir: out, files, bytes, packageBytes: pkg.files.reduce((sum, f) => sum + statSync(join(pkg.dir, f)).size, 0) };
}

const KIT_TSCONFIG = {
  compilerOptions: {
    target: 'ES2022',
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    lib: ['ES2023'],
    types: ['node'],
    strict: true,
    allowImportingTsExtensions: true,
    noEmit: true,
    verbatimModuleSyntax: true,
    skipLibCheck: true,
  },
  include: ['agent'],
};

/** The kit's command, at its top: runs the package's. */
const KIT_COMMAND = 'mancala.mjs';
const KIT_COMMAND_TEXT = [
  '#!/usr/bin/env node',
  `// The kit's mancala command (node ${KIT_COMMAND} check …; npm run check and npm run play run it): the framework's, in vendor/${PACKAGE_NAME}.`,
  `import './vendor/${PACKAGE_NAME}/bin/mancala.js';`,
].join('\n');

/** Why a file of the student package is in it. */
function packageFileReason(kit: CourseKit, f: string, pkg: StudentPackage): string {
  if (f.startsWith('node_modules/')) return `a published package the command imports (${pkg.vendored.join(', ')}), as the project installed it`;
  if (f === 'dist/kit-worker.mjs') return "the worker pool's thread module, built with the kit (a check builds nothing)";
  if (f.startsWith('dist/prebuilt/')) return "the sandbox's runtime and bootstrap, built with the kit from framework/sandbox/child/ (a check builds nothing)";
  if (f === 'package.json') return "the package's manifest (the mancala bin; no dependencies from the registry)";
  if (f === 'README.md') return 'says what the package is';
  if (f.startsWith('dist/')) return 'the mancala command, compiled from the files below (the composition root is bin/plugins.ts)';
  if (f === 'bin/plugins.ts') return `the kit's composition root: registers ${Object.keys(kit.agents).join(', ')} and holds back the rest of the catalog`;
  if (f.startsWith('bin/')) return 'the mancala command';
  if (f.startsWith('agents/clients/')) return 'clients for agents in Python and Java over stdio (agents/clients/PROTOCOL.md)';
  if (f.startsWith('agents/')) return `an agent the course gives its students (${Object.keys(kit.agents).join(', ')}), or what it imports`;
  if (f.startsWith('graders/')) return 'the checks a case asks for (move, value, nodes, trace, …), without name-the-bug';
  if (f.startsWith('framework/')) return 'the platform: contracts, engine, sandbox, suites, reports, commands';
  return 'part of the package';
}

function kitReadme(kit: CourseKit, suites: readonly Suite[], scripts: { check: string; play: string }): string {
  const graded = suites.flatMap((s) => [
    `- **${s.manifest.name}** (\`suites/${basename(s.manifest.dir)}\`, ${s.cases.length} cases):`,
    ...s.manifest.categories.map((c) => `  - ${c.name}: ${c.weight} points${c.description !== undefined ? ` — ${c.description}` : ''}`),
  ]);
  return [
    `# ${kit.title}`,
    '',
    "Your course's starter, its public checks and the `mancala` command, in one folder. You need",
    `Node ${NODE_MAJOR} or newer for the checker${(kit.requires ?? []).map((r) => `, ${r.install}${r.when !== undefined ? ` (for ${r.when.join(', ')})` : ''}`).join('')};`,
    'the check says in one line what is missing. Tested on Linux (macOS and Windows not yet).',
    '',
    '```sh',
    'npm run check     # the public sanity checks on agent/ (add -- --json report.json for a JSON report)',
    'npm run play      # play against your agent in the terminal',
    '```',
    '',
    `\`npm run check\` runs \`${scripts.check}\`; \`npm run play\` runs \`${scripts.play}\`.`,
    `Nothing to install: the framework is in \`vendor/\` (under 10 MB${compilesAgents(kit) ? ', with what compiles your TypeScript' : ''}) and \`node ${KIT_COMMAND} --help\` lists every command; \`npm ci\` (optional, under a second, nothing downloaded) links it for \`npx mancala\`.`,
    'Work in `agent/` (its README says what to fill in). The starter as shipped is legal but',
    'unfinished: its cases fail, each saying what is missing (a function not written yet is named).',
    '',
    '## What is graded, and how',
    '',
    suites.length > 0 ? 'Your instructor grades with more cases of the same kinds (hidden ones too). The public suites here:' : 'Your instructor grades your agent by matches against the course\'s agents (`npm run check` plays the ones this kit holds).',
    '',
    ...graded,
    '',
    'Each case runs your agent on one position and compares what it did (the move, the value, the',
    'positions searched, the trace, the time) with the answer in the suite\'s `expected.json`.',
    '',
    '## Your machine',
    '',
    "Where bubblewrap is installed, the check runs your code in the same sandbox as the grading;",
    "without it, it runs your code unconfined, and says so once at the start. The",
    "course's reference solutions are not in this kit: a check that needs one (e.g. games played",
    'by the reference alpha-beta with your heuristic) is left out and named; your instructor\'s',
    'grading runs it.',
    '',
  ].join('\n');
}
