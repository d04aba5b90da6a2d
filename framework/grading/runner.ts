/**
 * Grades submissions on a suite: suite + submissions in, a GradeReport out (DESIGN §2).
 *
 * Each submission is copied and bundled (sandbox/prepare.ts), then runs in ONE sandboxed process
 * reused across its cases (sandbox/session.ts): a case costs a message round trip, not a process
 * start. A heuristic role's playoff plays the reference alpha-beta with the submission's heuristic
 * in a second process, a player session, opened only when such a case comes up (session.ts says
 * why it is a separate process). The case's answer comes back as an Observation; the graders compare it, here in the
 * parent, with the blessed expectations, which never enter the submission's process.
 *
 * Whatever a submission does (loops, crashes, lies, exits) ends as a case status; only the grader's
 * own failures (an unreadable suite, an unblessed case) stop a run.
 */
import { createHash } from 'node:crypto';
import { basename, resolve } from 'node:path';
import type { Player } from '../contracts/game.ts';
import { UserError } from '../errors.ts';
import type { Attempt, ChildRequest } from '../sandbox/exchange.ts';
import { describeMechanisms, sandboxFor, type SandboxMode } from '../sandbox/mechanisms.ts';
import { prepareSubmission, type PreparedSubmission } from '../sandbox/prepare.ts';
import { hardLimitFor, SandboxSession, type SessionOptions } from '../sandbox/session.ts';
import { isBlessed } from '../suites/expected.ts';
import type { Limits, Manifest, Suite, SuiteCase } from '../suites/types.ts';
import { caseMessage, gradeCase } from './grader-plugin.ts';
import type { CaseReport, GradeReport, SubmissionReport } from './report.ts';
import type { CaseStatus, CheckResult } from './types.ts';

export type VisibilityFilter = 'all' | 'visible';

export interface ProgressEvent {
  submission: string;
  caseId: string;
  status: CaseStatus;
  /** ms the agent thought, as measured in its own process (0 when it gave no answer) */
  agentMs: number;
  /** cases finished so far over all submissions, and the total */
  done: number;
  total: number;
}

export interface GradeRunOptions {
  suite: Suite;
  /** agent files or submission folders, as given on the command line */
  submissions: readonly string[];
  /** `visible`: only the cases students may see (what `mancala check` runs) */
  visibility: VisibilityFilter;
  /** submissions graded at the same time (each in its own process) */
  jobs: number;
  /** how submissions are confined (mechanisms.ts); default `full`, which needs bubblewrap */
  sandbox?: SandboxMode;
  /** limits for every case of this run, over the suite's own (`--time-limit`, `--memory`); noted in the report */
  limits?: LimitOverrides;
  onProgress?: (event: ProgressEvent) => void;
}

/** Limits that replace every case's for one run; an absent field keeps the suite's. */
export interface LimitOverrides {
  /** ms a case */
  ms?: number;
  /** MB for the submission's process */
  memoryMb?: number;
}

/**
 * The suite with `overrides` in every case's limits and in the manifest's (what a session is
 * opened with). Blessed answers stay valid: limits are not part of a case's hash.
 */
export function overrideLimits(suite: Suite, overrides: LimitOverrides): Suite {
  if (overrides.ms === undefined && overrides.memoryMb === undefined) return suite;
  const over = (limits: Limits): Limits => ({ ms: overrides.ms ?? limits.ms, memoryMb: overrides.memoryMb ?? limits.memoryMb });
  return {
    ...suite,
    manifest: { ...suite.manifest, limits: over(suite.manifest.limits) },
    cases: suite.cases.map((c) => ({ ...c, limits: over(c.limits) })),
  };
}

/** The report's note on overridden limits, or undefined when none was. */
export function limitsNote(overrides: LimitOverrides): string | undefined {
  const parts = [
    ...(overrides.ms !== undefined ? [`time ${overrides.ms} ms (--time-limit)`] : []),
    ...(overrides.memoryMb !== undefined ? [`memory ${overrides.memoryMb} MB (--memory)`] : []),
  ];
  return parts.length === 0 ? undefined : `limits overridden for this run, for every case instead of the suite's: ${parts.join(', ')}`;
}

/** A submission's name in reports: its folder or file name (without a .ts/.js extension). */
export function submissionId(path: string): string {
  return basename(resolve(path)).replace(/\.(m?[jt]s)$/, '') || path;
}

/** The cases a run grades, in suite order. */
export function selectCases(suite: Suite, visibility: VisibilityFilter): SuiteCase[] {
  return visibility === 'all' ? suite.cases : suite.cases.filter((c) => c.visibility === 'visible');
}

/** Every case must carry a blessed answer that matches its current content. */
export function assertBlessed(suite: Suite, cases: readonly SuiteCase[]): void {
  const stale = cases.filter((c) => !isBlessed(suite, c)).map((c) => c.id);
  if (stale.length > 0) {
    const shown = stale.length > 5 ? `${stale.slice(0, 5).join(', ')} and ${stale.length - 5} more` : stale.join(', ');
    throw new UserError(
      `${suite.manifest.dir}: ${stale.length} case(s) have no reference answers or changed since blessing (${shown}): run \`mancala suite bless ${suite.manifest.dir}\``,
    );
  }
}

export async function gradeSubmissions(o: GradeRunOptions): Promise<GradeReport> {
  const suite = overrideLimits(o.suite, o.limits ?? {});
  const cases = selectCases(suite, o.visibility);
  assertBlessed(suite, cases);
  const mode = o.sandbox ?? 'full';
  // Refused here, before any submission is copied, when the machine cannot confine as asked.
  const confinement = describeMechanisms(await sandboxFor(mode), mode);
  const total = cases.length * o.submissions.length;
  let done = 0;
  const progress = (submission: string, c: SuiteCase, status: CaseStatus, agentMs: number): void => {
    done++;
    o.onProgress?.({ submission, caseId: c.id, status, agentMs, done, total });
  };
  const reports = await pool(o.submissions, Math.max(1, o.jobs), (path) => gradeSubmission(suite, path, cases, mode, progress));
  // The weak sandbox leaves the network open whatever a session says of itself.
  const network = mode === 'full' && reports.every((r) => r.isolation.network);
  const sessionNote = reports.map((r) => r.isolation.note).find((n) => n !== undefined);
  const overridden = limitsNote(o.limits ?? {});
  return {
    version: 1,
    suite: suite.manifest.name,
    // A session of a weaker sandbox says the same line itself: once is enough.
    isolation: { network, note: sessionNote === undefined || sessionNote.includes(confinement) ? confinement : `${confinement}; ${sessionNote}` },
    ...(overridden !== undefined ? { notes: [overridden] } : {}),
    submissions: reports.map((r) => r.report),
  };
}

interface GradedSubmission {
  report: SubmissionReport;
  isolation: { network: boolean; note?: string };
}

async function gradeSubmission(
  suite: Suite,
  path: string,
  cases: readonly SuiteCase[],
  sandbox: SandboxMode,
  progress: (submission: string, c: SuiteCase, status: CaseStatus, agentMs: number) => void,
): Promise<GradedSubmission> {
  const id = submissionId(path);
  const notes: string[] = [];
  let prepared: PreparedSubmission | undefined;
  let session: SandboxSession | undefined;
  let players: LazySession | undefined;
  const results: CaseResult[] = [];
  let isolation: GradedSubmission['isolation'] = { network: true };
  try {
    prepared = await prepareSubmission(path, suite.manifest.roles);
    notes.push(...prepared.notes);
    for (const [role, found] of Object.entries(prepared.roles)) {
      if (!('missing' in found)) notes.push(`role ${role}: ${found.source}`);
    }
    const options: SessionOptions = { game: suite.manifest.game, sandbox };
    session = await SandboxSession.open(prepared, { memoryMb: suite.manifest.limits.memoryMb }, options);
    isolation = session.isolation;
    const opened = prepared;
    players = new LazySession(() => SandboxSession.open(opened, { memoryMb: suite.manifest.limits.memoryMb }, { ...options, runtime: 'player' }));
    for (const c of cases) {
      const result = await gradeOneCase(suite, prepared, session, players, c);
      results.push({ c, ...result });
      progress(id, c, result.status, result.agentMs ?? 0);
    }
  } catch (e) {
    // The submission could not even be set up (unreadable path, …): every remaining case is an error.
    if (e instanceof UserError) {
      for (const c of cases.slice(results.length)) {
        results.push({ c, status: 'error', message: e.message, ms: 0, nodes: null });
        progress(id, c, 'error', 0);
      }
    } else {
      throw e;
    }
  } finally {
    await session?.close();
    await players?.close();
    await prepared?.dispose();
  }
  return { report: scoreSubmission(suite, id, path, notes, results), isolation };
}

interface CaseOutcome {
  status: CaseStatus;
  message: string;
  ms: number;
  nodes: number | null;
  checks?: CheckResult[];
  /** the agent's own time, measured in its process */
  agentMs?: number;
}

/** A session opened on first use (a player session: most suites never need one). */
class LazySession {
  private opening: Promise<SandboxSession> | undefined;

  constructor(private readonly open: () => Promise<SandboxSession>) {}

  get(): Promise<SandboxSession> {
    this.opening ??= this.open();
    return this.opening;
  }

  async close(): Promise<void> {
    const opening = this.opening;
    this.opening = undefined;
    // A session that failed to open has nothing to close (its failure was reported where it was needed).
    const opened = await opening?.catch(() => undefined);
    await opened?.close();
  }
}

async function gradeOneCase(suite: Suite, prepared: PreparedSubmission, session: SandboxSession, players: LazySession, c: SuiteCase): Promise<CaseOutcome> {
  const manifest = suite.manifest;
  const role = prepared.roles[c.role];
  if (role === undefined || 'missing' in role) {
    const why = role === undefined ? `no module found for role ${c.role}` : role.missing;
    return { status: 'error', message: why, ms: 0, nodes: null };
  }
  const expected = suite.expected[c.id]!;
  const onlyPlayoff = Object.keys(c.checks).every((k) => k === 'playoff');
  let attempt: Attempt;
  if (onlyPlayoff) {
    attempt = { status: 'ok', observation: { ms: 0 }, ms: 0 };
  } else {
    attempt = await session.request(childRequest(manifest, c), hardLimitFor(c.limits.ms));
    if (attempt.status === 'ok' && attempt.observation.ms > c.limits.ms) {
      attempt = {
        status: 'timeout',
        message: `took ${Math.round(attempt.observation.ms)} ms; the limit is ${c.limits.ms} ms`,
        ms: attempt.ms,
      };
    }
  }
  if (attempt.status !== 'ok') {
    // The sandbox names its hard limit (the case's plus a grace); students know the case's.
    const message = attempt.status === 'timeout' ? attempt.message.replace(/^no answer within \d+ ms/, `no answer within the case's ${c.limits.ms} ms limit`) : attempt.message;
    return { status: attempt.status, message, ms: attempt.ms, nodes: null };
  }
  const observation = attempt.observation;
  // A heuristic's playoff: the reference alpha-beta plays with it, in the player session.
  const mover = manifest.roles[c.role]!.kind === 'heuristic' && c.checks.playoff !== undefined ? await players.get() : session;
  const checks = await gradeCase({ manifest, case: c, expected, observation, session: mover });
  const failed = checks.filter((r) => !r.passed);
  const override = failed.find((r) => r.status !== undefined && r.status !== 'failed')?.status;
  return {
    status: failed.length === 0 ? 'passed' : (override ?? 'failed'),
    message: failed.length === 0 ? '' : caseMessage(checks),
    ms: attempt.ms,
    nodes: observation.nodes ?? null,
    checks,
    agentMs: observation.ms,
  };
}

/** What the submission's process is asked for case `c`. Nothing expected goes into it. */
export function childRequest(manifest: Manifest, c: SuiteCase): ChildRequest {
  const player: Player = c.board.toMove ?? 0;
  const game = manifest.game;
  const ttt = c.tictactoe !== undefined ? { tictactoe: c.tictactoe } : {};
  if (manifest.roles[c.role]!.kind === 'heuristic') return { type: 'evaluate', role: c.role, game, board: c.board, player, ...ttt };
  return {
    type: 'move',
    role: c.role,
    game,
    board: c.board,
    player,
    options: c.options,
    heuristic: c.options.heuristic ?? 'basic',
    timeLimitMs: c.limits.ms,
    seed: c.options.seed ?? caseSeed(c.id),
    trace: c.checks.trace !== undefined,
    ...ttt,
  };
}

/** A case without a seed gets one from its id: stable across runs, different across cases. */
export function caseSeed(id: string): number {
  return createHash('sha256').update(id).digest().readUInt32BE(0);
}

type CaseResult = CaseOutcome & { c: SuiteCase };

/** Scales case points to category weights and adds them up (report.ts explains the scheme). */
export function scoreSubmission(suite: Suite, id: string, path: string, notes: string[], results: readonly CaseResult[]): SubmissionReport {
  const categoryPoints = new Map<string, number>();
  for (const { c } of results) categoryPoints.set(c.category, (categoryPoints.get(c.category) ?? 0) + c.points);
  const weight = new Map(suite.manifest.categories.map((k) => [k.name, k.weight]));
  const share = (c: SuiteCase): number => {
    const points = categoryPoints.get(c.category)!;
    return points > 0 ? (c.points / points) * (weight.get(c.category) ?? 0) : 0;
  };
  // Cumulative rounding within each category: case maxima add up exactly to the weight
  // (3.333333 + 3.333333 + 3.333334 = 10), so Gradescope's and the CSV's sums agree with ours.
  const running = new Map<string, number>();
  const maxOf = results.map(({ c }) => {
    const before = running.get(c.category) ?? 0;
    const after = before + share(c);
    running.set(c.category, after);
    return round(after) - round(before);
  });
  const cases: CaseReport[] = results.map(({ c, status, message, ms, nodes, checks }, k): CaseReport => {
    const maxScore = round(maxOf[k]!);
    return {
      id: c.id,
      category: c.category,
      status,
      score: status === 'passed' ? maxScore : 0,
      maxScore,
      message,
      ms: Math.round(ms * 10) / 10,
      nodes,
      visibility: c.visibility,
      ...(c.description !== undefined ? { description: c.description } : {}),
      ...(checks !== undefined ? { checks } : {}),
    };
  });
  // Totals add the unrounded shares: three cases of 10/3 points make 10, not 3 × 3.333333 = 9.999999.
  const sum = (counts: (r: CaseResult) => boolean): number => round(results.reduce((a, r) => a + (counts(r) ? share(r.c) : 0), 0));
  return { id, path, score: sum((r) => r.status === 'passed'), maxScore: sum(() => true), cases, notes };
}

/** Scores keep six decimals: enough for any weighting, and no 0.30000000000000004 in reports. */
function round(x: number): number {
  return Math.round(x * 1e6) / 1e6;
}

/** Runs `work` over `items`, at most `jobs` at a time, keeping the items' order in the result. */
export async function pool<T, R>(items: readonly T[], jobs: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const k = next++;
      results[k] = await work(items[k]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(jobs, items.length) }, worker));
  return results;
}

export type { CaseReport };
