/**
 * `mancala export gradescope --course C --suite DIR --out autograder.zip`: the zip to upload as a
 * Gradescope assignment's autograder. Gradescope unpacks it into /autograder/source, runs
 * setup.sh there once (as root, when it builds the image) and run_autograder for each submission.
 *
 *   setup.sh               installs what is missing: Node 20, the course's runtimes, bubblewrap
 *   run_autograder         runs `mancala gradescope-run` (run.ts) under the time budget
 *   autograder.json        the course, the suites or the gauntlet's settings, the sandbox policy,
 *                          the leaderboard, the budget, the total (settings.ts)
 *   fallback-results.json  what run_autograder writes if the grader writes nothing (every test 0)
 *   suites/<name>/         the suites, with their expected answers (and files they name: suite-files.ts)
 *   mancala/               the grader: sources, a fresh dist/, the packages it runs (grader-package.ts)
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { UserError } from '../../errors.ts';
import { overrideLimits, type LimitOverrides } from '../../grading/runner.ts';
import type { Suite } from '../../suites/types.ts';
import { COMMON_NEEDS, findCourse, type CourseSpec, type Need } from './courses.ts';
import { filesUnder, stageGrader } from './grader-package.ts';
import { fallbackResults, planMaxScore, type GradingPlan } from './results.ts';
import { planSuiteCopies } from './suite-files.ts';
import { checkSuiteForCourse, graderName, graderVersion, leaderboardColumns, loadCourseSuite, loadPlan } from './run.ts';
import { CONFIG_FILE, SUITES_FOLDER, defaultGauntletSettings, readGauntletSettings, type AutograderConfig, type GauntletSettings, type SandboxPolicy } from './settings.ts';
import { writeZip, type ZipEntry } from './zip.ts';

export interface ExportOptions {
  course: string;
  /** suite folders; for cs540, at most one gauntlet settings file (or a folder holding gauntlet.yaml) */
  suites: readonly string[];
  out: string;
  sandbox: SandboxPolicy;
  /** seconds run_autograder gives the grader (0: none) */
  timeBudgetS: number;
  leaderboard: boolean;
  /** more apt packages setup.sh installs when missing */
  apt: readonly string[];
  /** every case's limits, over the suites' (not for the gauntlet, whose settings have their own) */
  limits?: LimitOverrides;
}

export interface ExportSummary {
  zip: string;
  bytes: number;
  entries: number;
  maxScore: number;
  /** tests per submission */
  tests: number;
  packages: number;
  warnings: string[];
  config: AutograderConfig;
}

/** `uname -m` of the machines the exported grader's esbuild binary runs on. */
const MACHINE: Record<string, string> = { 'linux-x64': 'x86_64', 'linux-arm64': 'aarch64' };

/** What Gradescope and the grader need, read before anything is built: every mistake is one line. */
async function planFor(course: CourseSpec, suites: readonly string[]): Promise<{ plan: GradingPlan; gauntlet?: GauntletSettings }> {
  if (course.grading === 'gauntlet') {
    if (suites.length > 1) throw new UserError(`--suite: ${course.name} is graded by the gauntlet: give at most one --suite, its settings file (gauntlet.yaml)`);
    const settings = suites.length === 0 ? defaultGauntletSettings() : readGauntletSettings(suites[0]!);
    return { plan: { kind: 'gauntlet', settings }, gauntlet: settings };
  }
  if (suites.length === 0) throw new UserError(`--suite: the ${course.name} course is graded on a suite: give its folder, e.g. --suite testcases/${course.name}-hidden`);
  const seen = new Set<string>();
  for (const dir of suites) {
    if (seen.has(resolve(dir))) throw new UserError(`--suite ${dir}: given twice`);
    seen.add(resolve(dir));
  }
  const loaded: Suite[] = [];
  for (const dir of suites) {
    let suite: Suite;
    try {
      suite = await loadCourseSuite(course, dir);
    } catch (e) {
      if (e instanceof UserError && !e.message.startsWith(dir)) throw new UserError(`--suite ${dir}: ${e.message}`);
      throw e;
    }
    checkSuiteForCourse(course, suite);
    loaded.push(suite);
  }
  return { plan: { kind: 'suites', suites: loaded } };
}

/** The longest the grading can take, roughly, when every case or move runs to its limit. */
export function worstCaseSeconds(plan: GradingPlan): number {
  if (plan.kind === 'gauntlet') {
    const s = plan.settings;
    // About 30 decisions of the submission's in a game; each may run to its time and a quarter.
    const games = 3 * s.stones.length * s.gamesPerSetting;
    return Math.ceil(s.timesPerMoveMs.reduce((t, ms) => t + games * 30 * ms * 1.25, 0) / 1000);
  }
  let ms = 0;
  for (const suite of plan.suites) {
    for (const c of suite.cases) ms += c.checks.playoff !== undefined ? c.checks.playoff.games * 30 * c.checks.playoff.msPerMove : c.limits.ms;
  }
  return Math.ceil(ms / 1000);
}

function needLines(needs: readonly Need[], apt: readonly string[]): string {
  const lines = needs.map((n) => `${n.optional === true ? 'want' : 'need'} ${n.command} ${n.apt} # ${n.why}`);
  for (const p of apt) lines.push(`dpkg -s ${p} >/dev/null 2>&1 || required+=(${p}) # --apt`);
  return lines.join('\n');
}

function template(name: string, values: Record<string, string>): string {
  let text = readFileSync(new URL(`./${name}`, import.meta.url), 'utf8');
  for (const [key, value] of Object.entries(values)) text = text.replaceAll(`@@${key}@@`, value);
  return text;
}

/** Builds the zip (the caller has checked that `o.out` can be written: framework/cli/output-paths.ts). */
export async function exportGradescope(o: ExportOptions, log: (line: string) => void = () => {}): Promise<ExportSummary> {
  const course = findCourse(o.course);
  for (const p of o.apt) if (!/^[a-z0-9][a-z0-9+.-]+$/.test(p)) throw new UserError(`--apt ${p}: expected a Debian package name`);
  const { plan, gauntlet } = await planFor(course, o.suites);
  const limits = o.limits ?? {};
  const overridden = limits.ms !== undefined || limits.memoryMb !== undefined;
  if (overridden && plan.kind === 'gauntlet') {
    throw new UserError('--time-limit and --memory: cs540 is graded by the gauntlet: set time_per_move and memory_mb in its settings file (--suite gauntlet.yaml)');
  }
  const warnings: string[] = [];
  const worst = worstCaseSeconds(plan.kind === 'suites' ? { kind: 'suites', suites: plan.suites.map((s) => overrideLimits(s, limits)) } : plan);
  if (o.timeBudgetS > 0 && worst > o.timeBudgetS) {
    warnings.push(
      `a submission that runs every case (or move) to its limit could take about ${worst} s, over the time budget of ${o.timeBudgetS} s: ` +
        'what is not graded by then counts 0 (lower the limits with --time-limit, or raise --time-budget and the timeout of the assignment on Gradescope above it)',
    );
  }
  const copies = plan.kind === 'suites' ? planSuiteCopies(plan.suites) : [];
  const stage = mkdtempSync(join(tmpdir(), 'mancala-gradescope-'));
  try {
    log('building the grader (its sources, a fresh dist/, the packages it runs)…');
    const grader = await stageGrader(join(stage, 'mancala'));
    const machine = MACHINE[grader.platform];
    if (machine === undefined) throw new UserError(`esbuild's binary installed here is for ${grader.platform}: export on Linux x64 (Gradescope's machines)`);
    if (grader.platform !== 'linux-x64') warnings.push(`the grader's esbuild binary is for ${grader.platform}; Gradescope's machines are x86_64: its setup.sh will refuse to run there`);
    for (const copy of copies) {
      for (const [file, place] of copy.files) {
        mkdirSync(dirname(join(stage, SUITES_FOLDER, place)), { recursive: true });
        cpSync(file, join(stage, SUITES_FOLDER, place));
      }
    }
    const leaderboard = o.leaderboard ? (course.leaderboard ?? null) : null;
    const config: AutograderConfig = {
      version: 1,
      grader: graderName(graderVersion()),
      course: course.name,
      grading: course.grading,
      suites: copies.map((c) => `${SUITES_FOLDER}/${c.place}`),
      ...(gauntlet !== undefined ? { gauntlet } : {}),
      sandbox: o.sandbox,
      ...(overridden ? { limits } : {}),
      leaderboard,
      timeBudgetS: o.timeBudgetS,
      maxScore: planMaxScore(plan),
      platform: grader.platform,
    };
    writeFileSync(join(stage, CONFIG_FILE), `${JSON.stringify(config, null, 2)}\n`);
    // The copies must load as the originals did (a suite that reaches outside its folder would not).
    const staged = await loadPlan(config, stage);
    if (plan.kind === 'suites' && staged.kind === 'suites') {
      plan.suites.forEach((original, k) => {
        const ids = (s: Suite) => s.cases.map((c) => c.id).join(',');
        if (ids(staged.suites[k]!) !== ids(original)) {
          throw new UserError(`--suite ${original.manifest.dir}: its copy in the autograder does not load the same cases (${staged.suites[k]!.cases.length} of ${original.cases.length}): does it read files the export does not know of?`);
        }
      });
    }
    const fallback = fallbackResults(staged, leaderboardColumns(leaderboard));
    writeFileSync(join(stage, 'fallback-results.json'), `${JSON.stringify(fallback, null, 2)}\n`);
    const values = { GRADER: config.grader, COURSE: course.name, NEEDS: needLines([...COMMON_NEEDS, ...course.needs], o.apt), MACHINE: machine, BUDGET: String(o.timeBudgetS) };
    writeFileSync(join(stage, 'setup.sh'), template('setup.sh', values), { mode: 0o755 });
    writeFileSync(join(stage, 'run_autograder'), template('run_autograder', values), { mode: 0o755 });
    const entries: ZipEntry[] = filesUnder(stage).map((f) => ({
      path: f.path,
      from: { file: join(stage, f.path) },
      executable: f.executable || f.path === 'setup.sh' || f.path === 'run_autograder',
    }));
    log(`writing ${o.out} (${entries.length} files)…`);
    const bytes = await writeZip(o.out, entries);
    return { zip: o.out, bytes, entries: entries.length, maxScore: config.maxScore, tests: fallback.tests.length, packages: grader.packages.length, warnings, config };
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
}
