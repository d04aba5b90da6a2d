/**
 * Each course's student kit, made by the built command, used as a student would: `npm ci`, then
 * `npm run check -- --json report.json` on the starter as shipped, on a machine where the OS
 * sandbox is unavailable (PATH holds node, npm, sh, ps and the tools the kit's kit.json requires
 * only: no bubblewrap, as on macOS or Windows) and time and memory are read with ps, as on macOS
 * (MANCALA_POLLING_METER=ps). The starter's unfinished parts must read as failed cases, never as
 * errors. Where the project has a finished solution in the course's language (the course-apis
 * fixtures), the kit's check grades it too, full marks, and both the starter and the solution get
 * the verdicts the project's own `mancala check` gives the same files. A PATH lacking a tool the
 * kit requires gets one line naming what to install, from check and play. Then the kit is scanned:
 * no file of agents/reference, agents/examples or a hidden suite, and no line of them, anywhere in
 * it — its own files, the framework tarball, or what npm ci installed from it; and no search in
 * any language outside agent/, nor a name the grader runs in playoffs (framework/kit/reference-scan.ts).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scanKit } from '../framework/kit/reference-scan.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const COURSES = ['csci561', 'csc384', 'cpsc4610', 'cs540', 'kalah'];
const work = mkdtempSync(join(tmpdir(), 'kit-test-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/**
 * A finished solution of the project's own in the course's language (a folder whose files replace
 * the starter's in agent/), and the functions the starter's failed cases name: every one to write
 * that the kit's public checks reach.
 */
const SOLUTIONS: Record<string, { dir: string; unfinished: string[] }> = {
  csc384: {
    dir: 'testcases/fixtures/course-apis/csc384/full-marks',
    unfinished: ['alphabeta_max_basic', 'alphabeta_max_limit', 'alphabeta_max_limit_caching', 'heuristic_basic', 'minimax_max_basic', 'minimax_max_limit', 'minimax_max_limit_caching'],
  },
  cpsc4610: { dir: 'testcases/fixtures/course-apis/cpsc4610/full-marks', unfinished: ['Player.alphaBetaMove', 'YourPlayer.chooseMove'] },
};

/** Programs a required tool runs from the PATH itself (g++ calls the assembler and the linker). */
const COMPANIONS: Record<string, string[]> = { 'g++': ['as', 'ld'], gcc: ['as', 'ld'] };

interface Requirement {
  tool: string | string[];
  install: string;
}
interface KitJson {
  check: string[];
  /** starter folders placed beside agent/: the student's own too (csci561's other languages) */
  beside?: string[];
  requires?: Requirement[];
}
const kitJson = (course: string) => JSON.parse(readFileSync(join(ROOT, 'agents/starters', course, 'kit.json'), 'utf8')) as KitJson;
const toolsOf = (course: string) => (kitJson(course).requires ?? []).flatMap((r) => (typeof r.tool === 'string' ? [r.tool] : r.tool));

const which = (name: string) => spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).stdout.trim();
/** The interpreter itself, not a version manager's shim (a shim needs the manager on the PATH). */
const realPython = () => execFileSync('python3', ['-c', 'import sys; print(sys.executable)'], { encoding: 'utf8' }).trim();

/** A folder of links to these programs: a PATH with them only. */
function binWith(name: string, programs: Record<string, string>): string {
  const dir = join(work, name);
  mkdirSync(dir);
  for (const [program, target] of Object.entries(programs)) if (target !== '') symlinkSync(target, join(dir, program));
  return dir;
}

/** A PATH with node, npm, sh and ps only: no bubblewrap, no prlimit, no setpriv, no course language. */
let bareBin = '';
beforeAll(() => {
  bareBin = binWith('bin', { node: process.execPath, npm: which('npm'), sh: '/bin/sh', ps: which('ps') });
});

/** bareBin's programs and the tools the course's kit requires (with what they call in turn). */
function courseBin(course: string): string {
  const programs: Record<string, string> = { node: process.execPath, npm: which('npm'), sh: '/bin/sh', ps: which('ps') };
  for (const tool of toolsOf(course)) {
    programs[tool] = tool === 'python3' ? realPython() : which(tool);
    for (const c of COMPANIONS[tool] ?? []) programs[c] = which(c);
  }
  return binWith(`bin-${course}`, programs);
}

interface CaseResult {
  id: string;
  status: string;
  message: string;
}
/** The cases of a check's JSON report (one suite, or several under `reports`). */
function casesOf(file: string): CaseResult[] {
  const json = JSON.parse(readFileSync(file, 'utf8')) as { reports?: { submissions: { cases: CaseResult[] }[] }[]; submissions?: { cases: CaseResult[] }[] };
  return (json.reports ?? [json as { submissions: { cases: CaseResult[] }[] }]).flatMap((rep) => rep.submissions.flatMap((s) => s.cases));
}

/** The kit's `npm run check` in its folder with PATH `bin` (no OS sandbox), timed. */
function kitCheck(kit: string, bin: string, report: string) {
  const started = Date.now();
  const r = spawnSync('npm', ['run', 'check', '--', '--json', report], { cwd: kit, encoding: 'utf8', env: { ...process.env, PATH: bin, MANCALA_POLLING_METER: 'ps' }, timeout: 300_000 });
  return { ...r, ms: Date.now() - started };
}

/** The project's own `mancala check` on the same files, with the kit's check arguments (its suites are the project's testcases/). */
function repoCheck(course: string, agent: string, report: string): CaseResult[] {
  const args = kitJson(course).check.map((a) => (a === 'agent' ? agent : a.replace(/^suites\//, `${ROOT}/testcases/`)));
  spawnSync(process.execPath, [join(ROOT, 'bin/mancala.js'), ...args, '--json', report], { encoding: 'utf8', timeout: 300_000 });
  return casesOf(report);
}

/** Each case the kit ran has the status the project's grader gives it. */
function sameVerdicts(kit: CaseResult[], repo: CaseResult[]): void {
  const byId = new Map(repo.map((c) => [c.id, c.status]));
  expect(kit.map((c) => [c.id, c.status])).toEqual(kit.map((c) => [c.id, byId.get(c.id)]));
}

/** A course whose starter is TypeScript: its kit's check compiles the student's agent (without esbuild). */
const compilesTypeScript = (course: string) => filesUnder(join(ROOT, 'agents/starters', course)).some((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'));

function filesUnder(dir: string): string[] {
  return (readdirSync(dir, { recursive: true }) as string[]).map(String).filter((f) => statSync(join(dir, f)).isFile());
}

/** A file's distinctive lines: long, and not an import, a comment or a closing line many files share. */
function distinctiveLines(file: string): string[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l.length >= 40 && !/^(import |export \{|\/\/|\*|\/\*)/.test(l));
}

/**
 * What must never reach a student: the files (relative to the project) of the reference, the
 * examples and the hidden suites, and their lines that no other file of the project has (a line
 * an example shares with a starter, or a hidden suite with a public one, tells nothing).
 */
function forbidden(): { paths: string[]; lines: Set<string> } {
  const dirs = ['agents/reference', 'agents/examples', ...readdirSync(join(ROOT, 'testcases')).filter((d) => /hidden/.test(d)).map((d) => `testcases/${d}`)];
  const paths = dirs.flatMap((d) => filesUnder(join(ROOT, d)).map((f) => `${d}/${f.split(sep).join('/')}`));
  const secret = new Set(paths);
  const elsewhere = new Set<string>();
  for (const top of ['framework', 'graders', 'agents', 'testcases', 'bin']) {
    for (const f of filesUnder(join(ROOT, top))) {
      const rel = `${top}/${f.split(sep).join('/')}`;
      if (!secret.has(rel)) for (const l of distinctiveLines(join(ROOT, rel))) elsewhere.add(l);
    }
  }
  const lines = new Set(paths.flatMap((p) => distinctiveLines(join(ROOT, p))).filter((l) => !elsewhere.has(l)));
  return { paths, lines };
}

describe.each(COURSES)('the %s kit', (course) => {
  const kit = join(work, course);
  let made: { code: number | null; out: string; err: string };
  let bin = '';
  let starter: CaseResult[] = [];
  /** the kit's npm ci: its exit, what it printed, the bytes of the whole kit after it (vendor/ and node_modules/) and the packages' folders in both */
  let installed: { code: number | null; output: string; bytes: number; packages: Set<string> } = { code: null, output: '', bytes: 0, packages: new Set() };

  beforeAll(() => {
    bin = courseBin(course);
    let started = Date.now();
    const r = spawnSync(process.execPath, [join(ROOT, 'bin/mancala.js'), 'kit', course, '--out', kit, '--list'], { encoding: 'utf8', timeout: 300_000 });
    made = { code: r.status, out: r.stdout, err: r.stderr };
    const makeMs = Date.now() - started;
    if (made.code !== 0) return;
    const bytes = filesUnder(kit).reduce((sum, f) => sum + statSync(join(kit, f)).size, 0);
    started = Date.now();
    const ci = spawnSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: kit, encoding: 'utf8', timeout: 300_000 });
    const installMs = Date.now() - started;
    // Every real file once: node_modules/mancala-autograder is npm's link to vendor/mancala-autograder (its files are counted there).
    const real = new Map<string, string>();
    for (const f of filesUnder(kit)) {
      const path = realpathSync(join(kit, f));
      if (!real.has(path)) real.set(path, f.split(sep).join('/'));
    }
    const all = [...real.values()];
    installed = {
      code: ci.status,
      output: `${ci.stdout}${ci.stderr}`,
      bytes: all.reduce((sum, f) => sum + statSync(join(kit, f)).size, 0),
      // A package's folder: node_modules/NAME or node_modules/@SCOPE/NAME, at any depth (not a package.json of a package's own subfolder).
      packages: new Set(all.filter((f) => /(^|\/)node_modules\/(@[^/]+\/)?[^/@.][^/]*\/package\.json$/.test(f)).map((f) => dirname(f))),
    };
    // Speed is printed, not asserted (a busy machine and a far registry are no failure of the kit).
    console.log(
      `${course} kit: ${(bytes / 1e6).toFixed(1)} MB as made (in ${(makeMs / 1000).toFixed(1)} s); npm ci ${(installMs / 1000).toFixed(1)} s; installed: ${(installed.bytes / 1e6).toFixed(1)} MB, ` +
        `${installed.packages.size} packages (${[...installed.packages].map((d) => d.replace(/^.*node_modules\//, '')).join(', ') || 'none'})`,
    );
  });

  it("installed, the kit holds only what a check loads, with no npm warning a student would have to read", () => {
    expect(installed.code, installed.output).toBe(0);
    expect(installed.output).not.toMatch(/npm warn/i);
    const names = [...installed.packages].map((d) => d.replace(/^.*node_modules\//, ''));
    // Distributed runs' queue, the web app's server, the tournaments' ratings and Dolos: no check loads them.
    for (const unused of ['bullmq', 'fastify', 'ioredis', 'openskill', '@dodona/dolos-lib', 'msgpackr', 'msgpackr-extract', 'zod']) expect(names).not.toContain(unused);
    // No kit installs esbuild: a TypeScript course's check compiles the student's agent with the command's own sucrase (module-tree.ts); the others build nothing. npm downloads nothing.
    expect(names.filter((n) => n.includes('esbuild'))).toEqual([]);
    expect(installed.bytes).toBeLessThan(10e6);
  });

  it('--list names every file of the kit and of its framework package, each with its reason', () => {
    expect(made.err).toBe('');
    expect(made.code).toBe(0);
    const listed = new Map(made.out.trim().split('\n').slice(0, -1).map((l) => [l.split(/\s{2,}/)[0]!, l.slice(l.indexOf('  ')).trim()]));
    const own = filesUnder(kit).filter((f) => !f.startsWith(`node_modules${sep}`)).map((f) => f.split(sep).join('/'));
    for (const f of own) expect(listed.get(f), f).toMatch(/\w/);
    expect(own.filter((f) => f.startsWith('vendor/mancala-autograder/')).length).toBeGreaterThan(100);
    expect(made.out).toMatch(new RegExp(`wrote the ${course} kit to .*students run npm run check there\\n$`));
  });

  it('npm run check -- --json grades the starter without the OS sandbox: failed cases, never an error', () => {
    const report = join(work, `${course}-report.json`);
    const r = kitCheck(kit, bin, report);
    console.log(`${course} kit: npm run check on the starter ${(r.ms / 1000).toFixed(1)} s`);
    expect(r.stderr).toMatch(/sandbox: none on this machine: your own code runs unconfined here[^\n]*CPU time and memory polled with ps/);
    starter = casesOf(report);
    expect(starter.length).toBeGreaterThan(0);
    for (const c of starter) expect(['passed', 'failed'], `${c.id}: ${c.message}`).toContain(c.status);
  });

  it('with nothing installed, node mancala.mjs runs the check as npm run check does', () => {
    const bare = join(work, `${course}-no-npm`);
    cpSync(kit, bare, { recursive: true, filter: (f) => !f.split(sep).includes('node_modules') || f.includes(`vendor${sep}mancala-autograder${sep}node_modules`) });
    expect(readdirSync(bare)).not.toContain('node_modules');
    const report = join(work, `${course}-no-npm.json`);
    const r = spawnSync(process.execPath, ['mancala.mjs', ...kitJson(course).check, '--json', report], { cwd: bare, encoding: 'utf8', env: { ...process.env, PATH: bin, MANCALA_POLLING_METER: 'ps' }, timeout: 300_000 });
    expect(r.stderr).not.toMatch(/internal error|\n\s+at /);
    const cases = casesOf(report);
    expect(cases.length).toBeGreaterThan(0);
    for (const c of cases) expect(['passed', 'failed'], `${c.id}: ${c.message}`).toContain(c.status);
    // The same cases, with the same verdicts, as npm run check gave the starter.
    expect(cases.map((c) => [c.id, c.status])).toEqual(starter.map((c) => [c.id, c.status]));
    rmSync(bare, { recursive: true, force: true });
  });

  const solution = SOLUTIONS[course];
  it.runIf(solution !== undefined)("the course's language: each failed case names the function to write, with the verdicts of the project's grader", () => {
    const named = new Set<string>();
    for (const c of starter) {
      expect(c.status, c.id).toBe('failed');
      const m = /(?:^|: )not written yet: ([\w.]+)/m.exec(c.message);
      expect(m, `${c.id}: ${c.message}`).not.toBeNull();
      named.add(m![1]!);
    }
    expect([...named].sort()).toEqual(solution!.unfinished);
    expect(filesUnder(join(kit, 'agent')).filter((f) => /\.[cm]?[jt]s$/.test(f))).toEqual([]);
    sameVerdicts(starter, repoCheck(course, join(kit, 'agent'), join(work, `${course}-repo-starter.json`)));
  });

  it.runIf(solution !== undefined)("a finished solution in the course's language: full marks from npm run check, as from the project's grader", () => {
    const agent = join(kit, 'agent');
    const shipped = join(work, `${course}-shipped-agent`);
    cpSync(agent, shipped, { recursive: true });
    try {
      cpSync(join(ROOT, solution!.dir), agent, { recursive: true });
      const report = join(work, `${course}-solution.json`);
      const r = kitCheck(kit, bin, report);
      console.log(`${course} kit: npm run check on a finished solution ${(r.ms / 1000).toFixed(1)} s`);
      const cases = casesOf(report);
      expect(cases.filter((c) => c.status !== 'passed').map((c) => `${c.id}: ${c.status}: ${c.message}`)).toEqual([]);
      expect(r.status).toBe(0);
      sameVerdicts(cases, repoCheck(course, agent, join(work, `${course}-repo-solution.json`)));
    } finally {
      rmSync(agent, { recursive: true, force: true });
      cpSync(shipped, agent, { recursive: true });
    }
  });

  it.runIf(compilesTypeScript(course))('a finished TypeScript agent (the example alice, in the kit form), and one importing a given agent: the verdicts of the project\'s grader, with esbuild', () => {
    const agent = join(kit, 'agent');
    const shipped = join(work, `${course}-shipped-agent`);
    cpSync(agent, shipped, { recursive: true });
    const kitForm = (dir: string) => {
      for (const f of filesUnder(dir).filter((f) => f.endsWith('.ts'))) writeFileSync(join(agent, f), readFileSync(join(dir, f), 'utf8').replace(/(['"])(?:\.\.\/)+framework\//g, '$1mancala-autograder/framework/'));
    };
    try {
      kitForm(join(ROOT, 'agents/examples/alice'));
      const report = join(work, `${course}-alice.json`);
      const r = kitCheck(kit, bin, report);
      console.log(`${course} kit: npm run check on a finished TypeScript agent ${(r.ms / 1000).toFixed(1)} s`);
      const cases = casesOf(report);
      expect(cases.length).toBeGreaterThan(0);
      expect(cases.filter((c) => c.status === 'passed').length, JSON.stringify(cases.filter((c) => c.status !== 'passed'))).toBeGreaterThan(cases.length / 2);
      sameVerdicts(cases, repoCheck(course, agent, join(work, `${course}-repo-alice.json`)));

      // A helper that imports an agent the kit gives (agents/ is no framework): refused by both, in the same words, naming the file and line.
      writeFileSync(join(agent, 'helpers.ts'), `${readFileSync(join(agent, 'helpers.ts'), 'utf8')}\nimport given from 'mancala-autograder/agents/random.ts';\nexport const borrowed = given;\n`);
      const refusedReport = join(work, `${course}-refused.json`);
      kitCheck(kit, bin, refusedReport);
      const refused = casesOf(refusedReport);
      const repo = repoCheck(course, agent, join(work, `${course}-repo-refused.json`));
      sameVerdicts(refused, repo);
      const line = readFileSync(join(agent, 'helpers.ts'), 'utf8').split('\n').findIndex((l) => l.includes('agents/random.ts')) + 1;
      const said = refused.map((c) => c.message).find((m) => m.includes('agents/random.ts'));
      expect(said, JSON.stringify(refused.slice(0, 2))).toMatch(new RegExp(`helpers\\.ts:${line}:\\d+: import "mancala-autograder/agents/random\\.ts" resolves to agents/random\\.ts, outside what a submission may import`));
      expect(repo.map((c) => c.message).find((m) => m.includes('agents/random.ts'))?.replace(/:\d+: import/, ': import')).toBe(said?.replace(/:\d+: import/, ': import'));
    } finally {
      rmSync(agent, { recursive: true, force: true });
      cpSync(shipped, agent, { recursive: true });
    }
  });

  it.runIf(toolsOf(course).length > 0)('a PATH without the tools the kit requires: check and play each say in one line what to install', () => {
    const install = (kitJson(course).requires ?? []).map((r) => r.install);
    for (const script of ['check', 'play']) {
      const r = spawnSync('npm', ['run', '-s', script], { cwd: kit, encoding: 'utf8', env: { ...process.env, PATH: bareBin }, timeout: 120_000, input: '' });
      expect(r.status, script).not.toBe(0);
      const lines = r.stderr.trim().split('\n');
      expect(lines, script).toHaveLength(1);
      expect(lines[0]).toMatch(/^mancala: this kit needs .+? on your PATH to run your code, and (?:it is|they are) not there: install /);
      expect(install.some((i) => lines[0]!.includes(i)), lines[0]).toBe(true);
    }
  });

  it('holds no file of the reference, the examples or a hidden suite, and no line of them', () => {
    const { paths, lines } = forbidden();
    expect(lines.size).toBeGreaterThan(100);
    // The kit's own files, the framework package among them (vendor/), and what npm ci installed beside it (a TypeScript kit's esbuild).
    const scanned = filesUnder(kit).map((f) => join(kit, f)).filter((f) => !/\.(node|wasm)$|[\\/]bin[\\/]esbuild$/.test(f));
    // The compiled command names each module it holds on a line of its own: only the package's own files.
    const pkg = join(kit, 'vendor', 'mancala-autograder');
    const packaged = new Set(filesUnder(pkg).map((f) => f.split(sep).join('/')));
    for (const f of filesUnder(join(pkg, 'dist')).filter((f) => /\.[cm]js$/.test(f))) {
      for (const m of readFileSync(join(pkg, 'dist', f), 'utf8').matchAll(/^\/\/ ((?:agents|graders|framework|bin)\/\S+)$/gm)) {
        expect(packaged.has(m[1]!), `dist/${f} holds ${m[1]}, which the package does not`).toBe(true);
      }
    }
    for (const file of scanned) {
      const rel = relative(work, file).split(sep).join('/');
      for (const p of paths) expect(rel.endsWith(p), `${rel} is ${p}`).toBe(false);
      const text = readFileSync(file, 'utf8');
      for (const line of text.split('\n')) expect(lines.has(line.trim()), `${rel} holds a line of the reference: ${line.trim()}`).toBe(false);
    }
  });

  it('holds no search in any language but its starter, and none of the names the grader runs in playoffs (vendor/ included)', () => {
    // The student's own: agent/ and the starters beside it. What the check wrote (csci561's reports/: the program's own output) is not the kit's.
    const hits = scanKit(kit, ['agent', ...(kitJson(course).beside ?? [])]).filter((h) => !h.file.startsWith('reports/'));
    expect(hits.map((h) => `${h.file}:${h.line}: ${h.kind}: ${h.text}`)).toEqual([]);
  });
});
