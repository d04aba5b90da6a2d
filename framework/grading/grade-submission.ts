/**
 * Grading one submission on a suite's cases (DESIGN §2): copied and bundled (sandbox/submissions/prepare.ts),
 * then run in ONE sandboxed process reused across its cases (sandbox/session.ts): a case costs a
 * message round trip, not a process start. An agent in any language over stdio is one program
 * reused the same way (sandbox/stdio-agents/session.ts). A heuristic role's playoff plays the
 * reference alpha-beta with the submission's heuristic in this process, asking the submission's
 * process for heuristic values only (grader-search-player.ts): no process that runs student code
 * holds the reference search. The case's
 * answer comes back as an Observation; the graders compare it, here, with the blessed
 * expectations, which never enter the submission's process.
 *
 * It is a job of the worker pool (GRADE_SUBMISSION_JOB): with --jobs N, N submissions are graded
 * at once, each in a thread of its own, so the graders' work (a playoff's games, name-the-bug's
 * searches) runs on every core, not only the submissions.
 *
 * Whatever a submission does (loops, crashes, lies, exits) ends as a case status; only the grader's
 * own failures (an unreadable suite, an unblessed case) stop a run.
 */
import { createHash } from 'node:crypto';
import { basename, resolve } from 'node:path';
import type { Player } from '../contracts/game.ts';
import { UserError } from '../errors.ts';
import { unreadableSubmission } from '../files/submission-entries.ts';
import type { Attempt, ChildRequest, MoveAsker } from '../sandbox/exchange.ts';
import type { SandboxMode } from '../sandbox/jail/mechanisms.ts';
import { prepareSubmission, type PreparedRole, type PreparedSubmission } from '../sandbox/submissions/prepare.ts';
import { hardLimitFor, SandboxSession, type SessionOptions } from '../sandbox/session.ts';
import { StdioAgentSession } from '../sandbox/stdio-agents/session.ts';
import { findStdioAgent } from '../sandbox/stdio-agents/spec.ts';
import { noSubmissionAt, presenceQuery } from '../sandbox/submission-presence.ts';
import type { Manifest, Suite, SuiteCase } from '../suites/types.ts';
import { jobKind, type Job } from '../workers/job.ts';
import { caseMessage, gradeCase } from './grader-plugin.ts';
import { GraderSearchPlayer } from './grader-search-player.ts';
import { scoreSubmission, type CaseResult } from './score.ts';
import type { SubmissionReport } from './report.ts';
import type { CaseStatus, CheckResult } from './types.ts';
import { caseGame } from '../suites/game.ts';
import { isUnfinished } from '../contracts/not-implemented.ts';
import { EarlyStop, type StopRules } from './early-stop.ts';
import { studentName } from '../student-text.ts';

/** A submission's name in reports: its folder or file name (without a .ts/.js extension), terminal-safe. */
export function submissionId(path: string): string {
  return studentName(basename(resolve(path)).replace(/\.(m?[jt]s)$/, '') || path);
}

/** A case graded: what progress reports see as it happens. */
export interface CaseGraded {
  submission: string;
  caseId: string;
  status: CaseStatus;
  /** ms the agent thought, as measured in its own process (0 when it gave no answer) */
  agentMs: number;
  /** the case was not run: the submission was stopped early (early-stop.ts) */
  notRun?: true;
}

export interface GradedSubmission {
  report: SubmissionReport;
  isolation: { network: boolean; note?: string };
}

/** What every submission of a run is graded on (plain data: it crosses to the pool's threads). */
export interface GradeJobSetup {
  suite: Suite;
  cases: SuiteCase[];
  sandbox: SandboxMode;
  /** when to stop a submission early (early-stop.ts); absent: every case runs */
  stop?: StopRules;
}

/** Grades the submissions it is given one after the other, telling each case as it is graded. */
export function gradeSubmissionJob(setup: GradeJobSetup, tell: (event: CaseGraded) => void): Job<string, GradedSubmission> {
  return {
    run: (path) => gradeSubmission(setup.suite, path, setup.cases, setup.sandbox, tell, setup.stop),
    close: async () => {},
  };
}

export const GRADE_SUBMISSION_JOB = jobKind(import.meta.url, 'gradeSubmissionJob', gradeSubmissionJob);

export async function gradeSubmission(
  suite: Suite,
  path: string,
  cases: readonly SuiteCase[],
  sandbox: SandboxMode,
  tell: (event: CaseGraded) => void,
  stop?: StopRules,
): Promise<GradedSubmission> {
  const id = submissionId(path);
  const progress = (c: SuiteCase, status: CaseStatus, agentMs: number, notRun = false) => tell({ submission: id, caseId: c.id, status, agentMs, ...(notRun ? { notRun: true as const } : {}) });
  const early = stop === undefined ? undefined : new EarlyStop(stop);
  const notes: string[] = [];
  let prepared: PreparedSubmission | undefined;
  let session: SandboxSession | StdioAgentSession | undefined;
  const results: CaseResult[] = [];
  let isolation: GradedSubmission['isolation'] = { network: true };
  try {
    let roles: Record<string, PreparedRole>;
    // Nothing there at all (an empty folder, notes only): every case says what this course's students hand in.
    const absent = await noSubmissionAt(path, presenceQuery(suite.manifest.game, suite.manifest.roles));
    if (absent !== undefined) throw new UserError(absent);
    // An agent in any language over stdio (agents/clients/PROTOCOL.md): one program for all its cases.
    const stdio = await findStdioAgent(path);
    if (stdio !== undefined) {
      notes.push(`agent over stdio: ${stdio.source}`);
      session = await StdioAgentSession.open(stdio, { memoryMb: suite.manifest.limits.memoryMb }, { game: suite.manifest.game, sandbox });
      roles = stdioRoles(suite, stdio.evaluates === true);
    } else {
      prepared = await prepareSubmission(path, suite.manifest.roles);
      notes.push(...prepared.notes);
      for (const [role, found] of Object.entries(prepared.roles)) {
        if (!('missing' in found)) notes.push(`role ${role}: ${found.source}`);
      }
      const options: SessionOptions = { game: suite.manifest.game, sandbox };
      session = await SandboxSession.open(prepared, { memoryMb: suite.manifest.limits.memoryMb }, options);
      roles = prepared.roles;
    }
    isolation = session.isolation;
    for (const c of cases) {
      // A case whose role the submission lacks costs nothing: it says so, stopped or not.
      const role = roles[c.role];
      const skipped = role === undefined || 'missing' in role ? undefined : early?.before(c);
      if (skipped !== undefined) {
        results.push({ c, ...skipped, ms: 0, nodes: null });
        progress(c, skipped.status, 0, true);
        continue;
      }
      const started = performance.now();
      const result = await gradeOneCase(suite, roles, session, c);
      early?.after(c, result.status, result.message, performance.now() - started);
      results.push({ c, ...result });
      progress(c, result.status, result.agentMs ?? 0);
    }
  } catch (e) {
    // The submission could not even be set up (unreadable path, a folder it cannot read, …): every
    // remaining case is an error, and the other submissions of the class are graded.
    const why = e instanceof UserError ? e.message : unreadableSubmission(e);
    if (why === undefined) throw e;
    for (const c of cases.slice(results.length)) {
      results.push({ c, status: 'error', message: why, ms: 0, nodes: null });
      progress(c, 'error', 0);
    }
  } finally {
    await session?.close();
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

/**
 * A stdio program fills every agent role; a heuristic role only when it answers evaluate requests
 * (a course bridge that holds the student's heuristics: CSC384's utils.py), otherwise it needs a module.
 */
function stdioRoles(suite: Suite, evaluates: boolean): Record<string, PreparedRole> {
  const roles: Record<string, PreparedRole> = {};
  for (const [name, spec] of Object.entries(suite.manifest.roles)) {
    roles[name] =
      spec.kind === 'agent' || evaluates
        ? { file: '', source: 'the stdio program', kind: spec.kind }
        : { missing: `role ${name}: an agent over stdio answers move requests only; a heuristic role needs a TypeScript module (${spec.files.join(', ')})` };
  }
  return roles;
}

async function gradeOneCase(
  suite: Suite,
  roles: Record<string, PreparedRole>,
  session: SandboxSession | StdioAgentSession,
  c: SuiteCase,
): Promise<CaseOutcome> {
  const manifest = suite.manifest;
  const role = roles[c.role];
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
    return { status: unfinishedAsFailed(attempt.status, message), message, ms: attempt.ms, nodes: null };
  }
  const observation = attempt.observation;
  // A heuristic's playoff: the reference alpha-beta plays with it here, asking the submission's
  // process (a TypeScript module's sandbox, or a program over stdio) for its heuristic's values only.
  const heuristicPlayoff = manifest.roles[c.role]!.kind === 'heuristic' && c.checks.playoff !== undefined;
  const mover: MoveAsker = heuristicPlayoff ? new GraderSearchPlayer(session, manifest.game) : session;
  const checks = await gradeCase({ manifest, case: c, expected, observation, session: mover });
  const failed = checks.filter((r) => !r.passed);
  const override = failed.find((r) => r.status !== undefined && r.status !== 'failed')?.status;
  const message = failed.length === 0 ? '' : caseMessage(checks);
  return {
    status: failed.length === 0 ? 'passed' : unfinishedAsFailed(override ?? 'failed', message),
    message,
    ms: attempt.ms,
    nodes: observation.nodes ?? null,
    checks,
    agentMs: observation.ms,
  };
}

/**
 * A starter's function not written yet (contracts/not-implemented.ts) is an unfinished part, not
 * a crash: the case failed (its message names the function), whether the agent threw it or a
 * playoff's games ended on it.
 */
function unfinishedAsFailed(status: CaseStatus, message: string): CaseStatus {
  return status === 'error' && isUnfinished(message) ? 'failed' : status;
}

/** What the submission's process is asked for case `c`. Nothing expected goes into it. */
export function childRequest(manifest: Manifest, c: SuiteCase): ChildRequest {
  const player: Player = c.board.toMove ?? 0;
  const game = caseGame(manifest, c);
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
