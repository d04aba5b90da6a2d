/**
 * Gradescope's results.json as an exported autograder writes it: the project's Gradescope
 * reporter (framework/grading/reporters/gradescope.ts: a test per case, `score`, `max_score`,
 * `status`, `output`, `visibility`) on one report of the whole assignment, with a header above the
 * summary (the grader, the course, the sandbox it ran in and why, where the submission's files
 * were found), and the course's `leaderboard`.
 *
 * Every path ends in a results.json whose tests add up to the assignment's total: a graded
 * submission; an empty one, or one the grader could not grade (zeroReport: every test at 0, its
 * output saying why); a run stopped by its time budget (partialReport: what was graded, the rest
 * at 0); and run_autograder's fallback, written at export time (fallbackResults).
 */
import { FORFEIT_REASONS } from '../../matches/match-results.ts';
import type { ForfeitReason } from '../../matches/types.ts';
import { CS540_OPPONENTS, MAX_SCORE as GAUNTLET_MAX, type GauntletResult, type OpponentResult } from '../../packs/cs540/gauntlet.ts';
import { gauntletReport } from '../../packs/cs540/report.ts';
import { toGradescope, type GradescopeResults } from '../../grading/reporters/gradescope.ts';
import { roundScore } from '../../grading/reporters/text.ts';
import type { GradeReport, SubmissionReport } from '../../grading/report.ts';
import { scoreSubmission } from '../../grading/score.ts';
import type { CaseStatus } from '../../grading/types.ts';
import type { Suite } from '../../suites/types.ts';
import type { GauntletSettings } from './settings.ts';

/** One column of Gradescope's leaderboard. */
export interface LeaderboardEntry {
  name: string;
  value: number | string;
  order?: 'asc' | 'desc';
}

export interface AutograderResults extends GradescopeResults {
  leaderboard?: LeaderboardEntry[];
}

/** What is graded: suites (csci561's may run a submission as a file program: run.ts), or the gauntlet. */
export type GradingPlan = { kind: 'suites'; suites: Suite[] } | { kind: 'gauntlet'; settings: GauntletSettings };

/** The id a submission has in its report: Gradescope's folder. */
export const SUBMISSION_ID = 'submission';

/**
 * The reports of several suites as one: cases one after the other (their categories named after
 * their suite when there are several, so that Gradescope's numbering and the totals stay apart).
 */
export function mergeReports(reports: readonly GradeReport[]): GradeReport {
  if (reports.length === 1) return reports[0]!;
  const subs = reports.map((r) => r.submissions[0]!);
  const unique = (xs: readonly string[]) => [...new Set(xs)];
  const notes = unique(reports.flatMap((r) => r.notes ?? []));
  const submission: SubmissionReport = {
    id: subs[0]!.id,
    path: subs[0]!.path,
    score: roundScore(subs.reduce((t, s) => t + s.score, 0)),
    maxScore: roundScore(subs.reduce((t, s) => t + s.maxScore, 0)),
    cases: reports.flatMap((r) => r.submissions[0]!.cases.map((c) => ({ ...c, category: `${r.suite}: ${c.category}` }))),
    notes: unique(subs.flatMap((s) => s.notes)),
  };
  return {
    version: 1,
    suite: reports.map((r) => r.suite).join(' + '),
    isolation: { network: reports.every((r) => r.isolation.network), ...(reports[0]!.isolation.note !== undefined ? { note: reports[0]!.isolation.note } : {}) },
    ...(notes.length > 0 ? { notes } : {}),
    submissions: [submission],
  };
}

/** A suite's report with each case's status as given (absent: `error` with `missing`'s message). */
function suiteReport(suite: Suite, path: string, statuses: ReadonlyMap<string, { status: CaseStatus; message: string }>, missing: string, isolation: GradeReport['isolation']): GradeReport {
  const results = suite.cases.map((c) => {
    const got = statuses.get(c.id);
    return { c, status: got?.status ?? ('error' as const), message: got?.message ?? missing, ms: 0, nodes: null };
  });
  return { version: 1, suite: suite.manifest.name, isolation, submissions: [scoreSubmission(suite, SUBMISSION_ID, path, [], results)] };
}

const noForfeits = (): Record<ForfeitReason, number> => Object.fromEntries(FORFEIT_REASONS.map((r) => [r, 0])) as Record<ForfeitReason, number>;

/** The gauntlet with no game played: every opponent "not played", saying why. */
function unplayedGauntlet(settings: GauntletSettings, path: string, why: string): GauntletResult {
  const opponents: OpponentResult[] = CS540_OPPONENTS.map((opponent) => ({
    opponent,
    settings: [],
    games: 0,
    wins: 0,
    draws: 0,
    losses: 0,
    storeMargin: 0,
    forfeits: noForfeits(),
    deadlineMoves: 0,
    beaten: false,
    error: why,
  }));
  return {
    submission: path,
    stones: settings.stones,
    timesPerMoveMs: settings.timesPerMoveMs,
    gamesPerSetting: settings.gamesPerSetting,
    seed: settings.seed,
    openings: { kind: 'random', plies: settings.matchRules === 'course' ? 0 : 2 },
    matchRules: settings.matchRules,
    graceMs: [],
    bonus: settings.bonus,
    opponents,
    score: 0,
    maxScore: GAUNTLET_MAX,
  };
}

const NOT_RUN: GradeReport['isolation'] = { network: true, note: 'no submitted code ran' };

/** Every test at 0, each saying `why`: an empty submission, one that could not be graded. */
export function zeroReport(plan: GradingPlan, path: string, why: string, isolation: GradeReport['isolation'] = NOT_RUN): GradeReport {
  if (plan.kind === 'gauntlet') return gauntletReport([{ result: unplayedGauntlet(plan.settings, path, why), id: SUBMISSION_ID }], isolation);
  return mergeReports(plan.suites.map((s) => suiteReport(s, path, new Map(), why, isolation)));
}

/** What a run stopped part way knows: each suite's report, or the statuses of the cases graded so far. */
export interface PartialRun {
  /** reports of the suites finished */
  done: GradeReport[];
  /** statuses of the cases graded so far in the suite under way (by case id) */
  current: Map<string, CaseStatus>;
}

/**
 * The report of a run stopped part way (`why`: "the time budget of 540 s ran out"): the suites
 * finished as graded, the cases of the one under way with the status they got (their details
 * lost), the rest at 0, not graded.
 */
export function partialReport(plan: GradingPlan, path: string, run: PartialRun, why: string, isolation: GradeReport['isolation']): GradeReport {
  if (plan.kind === 'gauntlet') return zeroReport(plan, path, why, isolation);
  const reports = plan.suites.map((suite, k) => {
    if (k < run.done.length) return run.done[k]!;
    const statuses = new Map<string, { status: CaseStatus; message: string }>();
    if (k === run.done.length) {
      for (const [id, status] of run.current) {
        statuses.set(id, { status, message: status === 'passed' ? '' : `${status} (the details were lost: the grader was stopped, ${why}, before it could report them)` });
      }
    }
    return suiteReport(suite, path, statuses, `not graded: ${why} before this case`, isolation);
  });
  return mergeReports(reports);
}

/** The total of the assignment: every test's max_score added up. */
export function planMaxScore(plan: GradingPlan): number {
  return zeroReport(plan, SUBMISSION_ID, '').submissions[0]!.maxScore;
}

export interface ResultsOptions {
  /** lines above the summary: the grader, the sandbox, where the files were found */
  header: readonly string[];
  leaderboard?: LeaderboardEntry[];
  /** a line added to the output of each test that did not pass (how to reproduce a gauntlet's games) */
  reproduce?: string;
}

/** Gradescope's results.json for the one submission of `report`. */
export function gradescopeResults(report: GradeReport, o: ResultsOptions): AutograderResults {
  const results: AutograderResults = toGradescope(report);
  if (o.header.length > 0) results.output = `${o.header.join('\n')}\n\n${results.output}`;
  if (o.reproduce !== undefined) {
    for (const t of results.tests) if (t.status !== 'passed') t.output = `${t.output ?? ''}${t.output === undefined ? '' : '\n'}${o.reproduce}`;
  }
  if (o.leaderboard !== undefined) results.leaderboard = o.leaderboard;
  return results;
}

/** The placeholder run_autograder replaces with why the grader wrote nothing. */
export const REASON_PLACEHOLDER = '@@REASON@@';

/** run_autograder's fallback-results.json: every test at 0, the output saying that the grader wrote nothing, and why. */
export function fallbackResults(plan: GradingPlan, leaderboard: readonly string[]): AutograderResults {
  const why = `the autograder stopped before it could grade this (${REASON_PLACEHOLDER})`;
  const results = gradescopeResults(zeroReport(plan, SUBMISSION_ID, why), {
    header: [`The autograder stopped before it wrote its results: ${REASON_PLACEHOLDER}. Your submission was not graded: resubmit, or tell your instructor.`],
    ...(leaderboard.length > 0 ? { leaderboard: leaderboard.map((name) => ({ name, value: 0 })) } : {}),
  });
  return results;
}
