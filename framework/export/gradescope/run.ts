/**
 * `mancala gradescope-run`: what an exported autograder's run_autograder runs on Gradescope, once
 * per submission. It reads ROOT/source/autograder.json, grades ROOT/submission in the sandbox and
 * writes ROOT/results/results.json (ROOT: --root, else $AUTOGRADER_ROOT, else /autograder).
 *
 *  - The submission in the course's own form: whatever `mancala grade` (and, for csci561
 *    programs, `mancala csci561-grade`; for cs540, `mancala gauntlet`) takes in a folder. A zip
 *    that held one folder is looked into (the files are graded from there, and the output says so).
 *  - An empty submission, one that cannot be graded, a grader that fails: a results.json all the
 *    same, every test at 0 and the output saying why (results.ts zeroReport).
 *  - The sandbox: the full one where this machine gives it; else, unless the export required it,
 *    the weak one, and the output's first lines say so and what it no longer enforces.
 *  - SIGTERM (run_autograder's time budget): the results of what was graded so far, the rest at 0.
 * `--self-check` (setup.sh runs it) loads everything and says what the sandbox can do here.
 */
import { chmodSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { UserError } from '../../errors.ts';
import { gradeSubmissions, limitsNote, overrideLimits, selectCases, type LimitOverrides } from '../../grading/runner.ts';
import type { GradeReport } from '../../grading/report.ts';
import type { CaseStatus } from '../../grading/types.ts';
import { playMatch } from '../../matches/match.ts';
import { gradeProgramsWithRuns } from '../../packs/csci561/grade-programs.ts';
import { isCourseSuite, loadProgramSuite } from '../../packs/csci561/course-suite.ts';
import { COMMAND_FILE } from '../../packs/csci561/program.ts';
import { CS540_OPPONENTS, runGauntlet, type GauntletResult } from '../../packs/cs540/gauntlet.ts';
import { gauntletReport } from '../../packs/cs540/report.ts';
import { describeMechanisms, mechanisms, type Mechanisms, type SandboxMode } from '../../sandbox/jail/mechanisms.ts';
import { PACKAGE_NAME, PROJECT_ROOT } from '../../sandbox/paths.ts';
import { dropsOutsideJail } from '../../sandbox/jail/sandbox-user.ts';
import { MANIFEST_FILE } from '../../sandbox/programs/build-plan.ts';
import { isBlessed } from '../../suites/expected.ts';
import { loadSuite } from '../../suites/load.ts';
import type { Suite } from '../../suites/types.ts';
import { writeFileAtomically } from '../../write-file.ts';
import { findCourse, type CourseSpec, type LadderSpec } from './courses.ts';
import {
  gradescopeResults,
  mergeReports,
  partialReport,
  zeroReport,
  type GradingPlan,
  type LeaderboardEntry,
  type PartialRun,
} from './results.ts';
import { withoutGraderPaths } from './student-paths.ts';
import { CONFIG_FILE, SUITES_FOLDER, readConfig, type AutograderConfig, type GauntletSettings, type SandboxPolicy } from './settings.ts';

/** Where Gradescope puts everything; AUTOGRADER_ROOT moves it (tests). */
export const DEFAULT_ROOT = '/autograder';
export const ROOT_ENV = 'AUTOGRADER_ROOT';

export interface RunPaths {
  root: string;
  /** the unpacked zip: autograder.json, the suites, the grader */
  source: string;
  submission: string;
  results: string;
}

export function runPaths(root: string): RunPaths {
  const r = resolve(root);
  return { root: r, source: join(r, 'source'), submission: join(r, 'submission'), results: join(r, 'results', 'results.json') };
}

export function defaultRoot(): string {
  return process.env[ROOT_ENV] !== undefined && process.env[ROOT_ENV] !== '' ? process.env[ROOT_ENV]! : DEFAULT_ROOT;
}

/** The grader's name and version: mancala-autograder 0.1.0. */
export function graderName(version: string): string {
  return `${PACKAGE_NAME} ${version}`;
}

/** This grader's version (its package.json). */
export function graderVersion(): string {
  return (JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as { version: string }).version;
}

/** A suite in the course's terms: csci561 also takes a folder of the course's own files. */
export async function loadCourseSuite(course: CourseSpec, dir: string): Promise<Suite> {
  return course.name === 'csci561' ? loadProgramSuite(dir) : loadSuite(dir);
}

/** The suite fits the course (its game), and carries its answers; else one line saying what to do. */
export function checkSuiteForCourse(course: CourseSpec, suite: Suite): void {
  const game = suite.manifest.game.kind === 'tictactoe' ? 'tictactoe' : suite.manifest.game.profile;
  if (course.games !== undefined && !course.games.includes(game)) {
    throw new UserError(`--suite ${suite.manifest.dir}: the suite plays ${game}; the ${course.name} course's suites play ${course.games.join(' or ')}`);
  }
  if (isCourseSuite(suite)) return;
  const stale = suite.cases.filter((c) => !isBlessed(suite, c)).map((c) => c.id);
  if (stale.length > 0) {
    throw new UserError(`--suite ${suite.manifest.dir}: ${stale.length} case(s) have no reference answers or changed since blessing (${stale.slice(0, 5).join(', ')}): run \`mancala suite bless ${suite.manifest.dir}\``);
  }
  if (selectCases(suite, 'all').length === 0) throw new UserError(`--suite ${suite.manifest.dir}: the suite has no cases`);
}

/** The plan autograder.json describes, loaded from the folder it sits in. */
export async function loadPlan(config: AutograderConfig, source: string): Promise<GradingPlan> {
  const course = findCourse(config.course);
  if (config.grading === 'gauntlet') {
    if (config.gauntlet === undefined) throw new UserError(`${join(source, CONFIG_FILE)}: gauntlet: missing (the course is graded by the gauntlet)`);
    return { kind: 'gauntlet', settings: config.gauntlet };
  }
  const suites: Suite[] = [];
  for (const dir of config.suites) {
    const suite = await loadCourseSuite(course, join(source, dir));
    checkSuiteForCourse(course, suite);
    suites.push(suite);
  }
  if (suites.length === 0) throw new UserError(`${join(source, CONFIG_FILE)}: suites: none`);
  return { kind: 'suites', suites };
}

/** Names Gradescope's upload leaves beside a student's files, and macOS's zip litter. */
const LITTER = new Set(['__MACOSX', '.DS_Store', 'Thumbs.db']);

export interface LocatedSubmission {
  dir: string;
  /** nothing was submitted */
  empty: boolean;
  notes: string[];
}

/** The submission's folder: `dir`, or the one folder a zip held (looked into, and said). */
export function locateSubmission(dir: string): LocatedSubmission {
  const notes: string[] = [];
  let at = dir;
  for (let depth = 0; depth < 4; depth++) {
    if (!existsSync(at) || !statSync(at).isDirectory()) return { dir: at, empty: true, notes };
    const entries = readdirSync(at).filter((n) => !LITTER.has(n) && !n.startsWith('.'));
    if (entries.length === 0) return { dir: at, empty: true, notes };
    const only = entries.length === 1 ? join(at, entries[0]!) : undefined;
    // Looked into only when it is a folder itself: a link to a folder (the autograder's own suites) is never followed.
    if (only === undefined || !lstatSync(only).isDirectory()) return { dir: at, empty: false, notes };
    notes.push(`Your files were inside the folder ${entries[0]}/: they were graded from there.`);
    at = only;
  }
  return { dir: at, empty: false, notes };
}

/** A csci561 submission is a file-in/file-out program unless it holds the TypeScript modules the suite's roles name. */
export function runsAsProgram(suite: Suite, dir: string): boolean {
  if (isCourseSuite(suite)) return true;
  const names = readdirSync(dir);
  if (names.includes(COMMAND_FILE)) return true;
  if (names.includes(MANIFEST_FILE)) return true;
  return !names.some((n) => /\.(m?[jt]s)$/.test(n));
}

/**
 * The suites (their expected answers) closed to every user but root, the results folder to
 * writes by others: the weak sandbox runs a submission on this file system as SANDBOX_UID
 * (sandbox/jail/sandbox-user.ts), where the zip's modes would let it read them. Only root can do this, and
 * only a root grader drops submissions to another user.
 */
export function closeToSubmissions(paths: RunPaths): void {
  if (process.getuid?.() !== 0) return;
  const suites = join(paths.source, SUITES_FOLDER);
  if (existsSync(suites)) chmodSync(suites, 0o700);
  if (existsSync(dirname(paths.results))) chmodSync(dirname(paths.results), 0o755);
}

/** The sandbox to grade in, and what the results must say about it; `refused` when the export required the full one and it is not here. */
export function chooseSandbox(policy: SandboxPolicy, m: Mechanisms): { mode: SandboxMode; note?: string; refused?: string } {
  const missing = m.missing.join('; ');
  const weakly = dropsOutsideJail(m)
    ? `submissions run as an unprivileged user who cannot read the suites, but with no private file system and with the network (TypeScript agents keep Node's permission model); time, memory and processes are still capped.`
    : `no file-system or network isolation (TypeScript agents keep Node's permission model); time, memory and processes are still capped.`;
  if (policy === 'weak') return { mode: 'weak', note: `Sandbox: the weak one, as the autograder was exported (--sandbox weak): ${weakly}` };
  if (m.bwrap !== undefined) return { mode: 'full' };
  if (policy === 'full') return { mode: 'full', refused: `the autograder requires the full sandbox (exported with --sandbox full), and this machine cannot give it: ${missing}` };
  return {
    mode: 'weak',
    note:
      `Sandbox: this machine cannot give the full sandbox (${missing}), so submissions are graded in the WEAK sandbox: ${weakly}`,
  };
}

/** The leaderboard's columns for `kind`, in order (fallback-results.json gives each 0). */
export function leaderboardColumns(leaderboard: AutograderConfig['leaderboard']): string[] {
  if (leaderboard === null) return [];
  if (leaderboard.kind === 'gauntlet') return ['Gauntlet score', 'Win % vs advanced', 'Store margin vs advanced'];
  return ['Ladder points %', 'Store margin a game'];
}

const round1 = (x: number) => Math.round(x * 10) / 10;

function gauntletLeaderboard(r: GauntletResult): LeaderboardEntry[] {
  const [score, winRate, margin] = leaderboardColumns({ kind: 'gauntlet' });
  const advanced = r.opponents.find((o) => o.opponent.name === CS540_OPPONENTS[CS540_OPPONENTS.length - 1]!.name);
  const games = advanced?.games ?? 0;
  return [
    { name: score!, value: r.score },
    { name: winRate!, value: games === 0 ? 0 : round1((100 * advanced!.wins) / games) },
    { name: margin!, value: games === 0 ? 0 : round1(advanced!.storeMargin / games) },
  ];
}

/** The ladder's games (courses.ts): points won in % (a draw is half), and the store margin a game. */
async function ladderLeaderboard(ladder: LadderSpec, dir: string, mode: SandboxMode): Promise<{ entries: LeaderboardEntry[]; note: string }> {
  const [points, margin] = leaderboardColumns({ kind: 'ladder', ladder });
  let won = 0;
  let games = 0;
  let storeMargin = 0;
  const parts: string[] = [];
  for (const op of ladder.opponents) {
    try {
      const r = await playMatch({ A: dir, B: op.spec, rules: ladder.rules, games: ladder.gamesPerOpponent, timePerMoveMs: ladder.timePerMoveMs, seed: ladder.seed, sandbox: mode });
      const a = r.stats.A;
      won += a.wins + a.draws / 2;
      games += r.games.length;
      storeMargin += a.storeMargin;
      parts.push(`${op.name} (${op.spec}): won ${a.wins}, drew ${a.draws}, lost ${a.losses}`);
    } catch (e) {
      // The player could not be opened (no agent module, a bundling error): no game against anyone.
      if (!(e instanceof UserError)) throw e;
      return { entries: [{ name: points!, value: 0 }, { name: margin!, value: 0 }], note: `Leaderboard: no ladder games were played: ${e.message}` };
    }
  }
  const entries = [
    { name: points!, value: games === 0 ? 0 : round1((100 * won) / games) },
    { name: margin!, value: games === 0 ? 0 : round1(storeMargin / games) },
  ];
  return { entries, note: `Leaderboard: your player's ladder games (${ladder.gamesPerOpponent} against each opponent, ${ladder.timePerMoveMs} ms a move, seed ${ladder.seed}): ${parts.join('; ')}.` };
}

/** The command a student runs to replay their gauntlet games (the instructor's settings). */
function gauntletReproduce(s: GauntletSettings): string {
  return (
    `reproduce: npx mancala gauntlet <your folder> --stones ${s.stones.join(',')} --time-per-move ${s.timesPerMoveMs.join(',')} ` +
    `--games ${s.gamesPerSetting} --seed ${s.seed} --match-rules ${s.matchRules} --bonus ${s.bonus}`
  );
}

export interface RunOutcome {
  /** 0: results written for the submission; 1: the autograder itself is broken (results written all the same) */
  code: number;
  results: string;
}

/** Grades the submission under `root` (see the module comment); progress and problems on `log`. */
export async function gradescopeRun(root: string, version: string, log: (line: string) => void): Promise<RunOutcome> {
  const paths = runPaths(root);
  mkdirSync(dirname(paths.results), { recursive: true });
  const header = [`Graded by ${graderName(version)}.`];
  // The folder graded, once found: its path is left out of what the student reads (student-paths.ts).
  let graded = paths.submission;
  const write = (report: GradeReport, extra: { leaderboard?: LeaderboardEntry[]; reproduce?: string; header?: string[] } = {}) => {
    const results = gradescopeResults(withoutGraderPaths(report, graded, paths.root), { header: [...header, ...(extra.header ?? [])], ...(extra.leaderboard ? { leaderboard: extra.leaderboard } : {}), ...(extra.reproduce ? { reproduce: extra.reproduce } : {}) });
    writeFileAtomically(paths.results, `${JSON.stringify(results, null, 2)}\n`);
  };

  // The autograder's own files: a mistake there is the instructor's, said to both.
  let config: AutograderConfig;
  let plan: GradingPlan;
  try {
    config = readConfig(join(paths.source, CONFIG_FILE));
    plan = await loadPlan(config, paths.source);
  } catch (e) {
    const message = e instanceof UserError ? e.message : String(e instanceof Error ? e.stack : e);
    log(`gradescope-run: the autograder is broken: ${message}`);
    // A student reads the output: an internal error's message and stack name the grader's files, so they stay in the log.
    const shown = e instanceof UserError ? e.message : internalError(e);
    const results = { score: 0, output: `The autograder is broken, so your submission was not graded (tell your instructor): ${shown}`, output_format: 'text', stdout_visibility: 'hidden', tests: [] };
    writeFileAtomically(paths.results, `${JSON.stringify(results, null, 2)}\n`);
    return { code: 1, results: paths.results };
  }
  const course = findCourse(config.course);
  const leaderboardZero = leaderboardColumns(config.leaderboard).map((name) => ({ name, value: 0 }));
  const reproduce = plan.kind === 'gauntlet' ? gauntletReproduce(plan.settings) : undefined;
  header[0] = `Graded by ${graderName(version)} for ${course.name} (${plan.kind === 'gauntlet' ? 'the gauntlet' : plan.suites.map((s) => s.manifest.name).join(', ')}).`;

  const located = locateSubmission(paths.submission);
  graded = located.dir;
  header.push(...located.notes);
  if (located.empty) {
    log('gradescope-run: the submission is empty');
    write(zeroReport(plan, located.dir, `nothing was submitted: expected ${course.forms}`), { header: [`Your submission is empty: expected ${course.forms}.`], leaderboard: leaderboardZero });
    return { code: 0, results: paths.results };
  }

  closeToSubmissions(paths);
  const m = await mechanisms();
  const sandbox = chooseSandbox(config.sandbox, m);
  log(describeMechanisms(m, sandbox.mode));
  if (sandbox.refused !== undefined) {
    log(`gradescope-run: ${sandbox.refused}`);
    write(zeroReport(plan, located.dir, `not graded: ${sandbox.refused}`), { header: [`Not graded: ${sandbox.refused}. Tell your instructor.`], leaderboard: leaderboardZero });
    return { code: 1, results: paths.results };
  }
  if (sandbox.note !== undefined) header.push(sandbox.note);

  // Stopped by run_autograder's time budget: what was graded, the rest at 0.
  const partial: PartialRun = { done: [], current: new Map<string, CaseStatus>() };
  const onTerm = () => {
    const why = `the autograder's time budget${config.timeBudgetS > 0 ? ` of ${config.timeBudgetS} s` : ''} ran out`;
    log(`gradescope-run: stopped (SIGTERM): writing the results graded so far`);
    write(partialReport(plan, located.dir, partial, why, { network: sandbox.mode === 'full' }), { header: [`The grading was stopped: ${why}. Cases not graded count 0.`], leaderboard: leaderboardZero });
    process.exit(0);
  };
  process.once('SIGTERM', onTerm);
  try {
    if (plan.kind === 'gauntlet') {
      const s = plan.settings;
      const result = await runGauntlet({
        submission: located.dir,
        stones: s.stones,
        timesPerMoveMs: s.timesPerMoveMs,
        gamesPerSetting: s.gamesPerSetting,
        seed: s.seed,
        matchRules: s.matchRules,
        bonus: s.bonus,
        memoryMb: s.memoryMb,
        jobs: 1,
        sandbox: sandbox.mode,
      });
      const report = gauntletReport([{ result, id: 'submission' }], { network: sandbox.mode === 'full', note: describeMechanisms(m, sandbox.mode) });
      write(report, { ...(config.leaderboard !== null ? { leaderboard: gauntletLeaderboard(result) } : {}), ...(reproduce !== undefined ? { reproduce } : {}) });
      log(`gradescope-run: gauntlet score ${result.score} / ${result.maxScore}`);
      return { code: 0, results: paths.results };
    }
    for (const suite of plan.suites) {
      partial.current = new Map();
      const onCase = (caseId: string, status: CaseStatus) => void partial.current.set(caseId, status);
      const limits: LimitOverrides = config.limits ?? {};
      let report: GradeReport;
      if (course.name === 'csci561' && runsAsProgram(suite, located.dir)) {
        const graded = await gradeProgramsWithRuns({ suite: overrideLimits(suite, limits), submissions: [located.dir], visibility: 'all', jobs: 1, sandbox: sandbox.mode, onCase: (_s, id, status) => onCase(id, status) });
        report = graded.report;
        const note = limitsNote(limits);
        if (note !== undefined) report.notes = [...(report.notes ?? []), note];
      } else {
        report = await gradeSubmissions({ suite, submissions: [located.dir], visibility: 'all', jobs: 1, sandbox: sandbox.mode, limits, onProgress: (e) => onCase(e.caseId, e.status) });
      }
      partial.done.push(report);
      log(`gradescope-run: ${suite.manifest.name}: ${report.submissions[0]!.score} / ${report.submissions[0]!.maxScore}`);
    }
    const report = mergeReports(partial.done);
    let leaderboard: LeaderboardEntry[] | undefined;
    if (config.leaderboard?.kind === 'ladder') {
      const ladder = await ladderLeaderboard(config.leaderboard.ladder, located.dir, sandbox.mode);
      leaderboard = ladder.entries;
      header.push(ladder.note);
    }
    write(report, leaderboard !== undefined ? { leaderboard } : {});
    return { code: 0, results: paths.results };
  } catch (e) {
    // The submission's problems are verdicts, not errors; what lands here is the grader's (or a folder it cannot read at all).
    const message = e instanceof UserError ? e.message : `the grader failed: ${internalError(e)}`;
    log(`gradescope-run: ${e instanceof Error && !(e instanceof UserError) ? (e.stack ?? String(e)) : message}`);
    write(zeroReport(plan, located.dir, `not graded: ${message}`, { network: sandbox.mode === 'full' }), { header: [`Your submission could not be graded: ${message}`], leaderboard: leaderboardZero });
    return { code: e instanceof UserError ? 0 : 1, results: paths.results };
  } finally {
    process.removeListener('SIGTERM', onTerm);
  }
}

/** An internal error as a student may read it: its kind and code only (its message and stack name the grader's files), the rest in the log. */
function internalError(e: unknown): string {
  const code = (e as NodeJS.ErrnoException | undefined)?.code;
  const kind = e instanceof Error ? e.name : 'error';
  return `an internal error (${kind}${typeof code === 'string' ? ` ${code}` : ''}); the autograder's log has the details`;
}

/** setup.sh's check: the configuration and the suites load, and what the sandbox can do here. */
export async function selfCheck(root: string, version: string, log: (line: string) => void): Promise<void> {
  const paths = runPaths(root);
  const config = readConfig(join(paths.source, CONFIG_FILE));
  const plan = await loadPlan(config, paths.source);
  closeToSubmissions(paths);
  const m = await mechanisms();
  const sandbox = chooseSandbox(config.sandbox, m);
  const what = plan.kind === 'gauntlet' ? 'the gauntlet' : plan.suites.map((s) => `${s.manifest.name} (${s.cases.length} cases)`).join(', ');
  log(`${graderName(version)} (${PROJECT_ROOT}): course ${config.course}, ${what}, ${config.maxScore} points`);
  log(describeMechanisms(m, sandbox.mode));
  if (sandbox.refused !== undefined) throw new UserError(sandbox.refused);
  if (sandbox.note !== undefined) log(sandbox.note);
}
