/**
 * Stopping a submission early, so that one runaway cannot stall a class: a submission's cases run
 * one after the other in one job (grade-submission.ts, packs/csci561/grade-programs.ts), and before
 * each case the job asks an EarlyStop whether to run it. A case not run is reported "not run: …"
 * and scored as failed, with the status it would most likely have had.
 *
 * The rules (docs/class-runs.md says them to instructors):
 *  - **Timeouts.** After 3 timeouts in a row the submission is stopped, unless all 3 fell in one
 *    category: then only that category's remaining cases are skipped (a loop in one function must
 *    not zero the others), and the next case that also times out stops the whole submission (the
 *    loop is not that category's own). A loop everywhere costs 3 or 4 cases, whatever the suite.
 *  - **Start-up failures.** When the first 2 cases fail (status error) with the same reason, and
 *    the reason is one no case can change (the program never started, its runtime cannot load it, a
 *    module that fails at import), the rest is not run. A crash that may depend on the case (an
 *    IndexError in a search) never stops anything: it costs little, and other cases may pass.
 *  - **The time budget.** The wall-clock time the submission's cases took, added up; once it is
 *    spent, the remaining cases are not run. The case in play when it runs out finishes (its own
 *    limit bounds it). The default is sized from what the reference needs (defaultBudgetMs), at
 *    least a minute; `--submission-time-limit` sets it.
 *
 * A submission that cannot be set up at all (no agent found, a build that failed) runs no case,
 * as before: each case already reports that reason without running anything.
 */
import { tmpdir } from 'node:os';
import type { SuiteCase } from '../suites/types.ts';
import type { CaseStatus } from './types.ts';

/** How a submission is stopped early (plain data: it crosses to the pool's threads). */
export interface StopRules {
  /** wall-clock ms the submission's cases may take, added up */
  budgetMs: number;
}

/** Timeouts in a row that stop (a category, or the submission). */
export const TIMEOUTS_IN_A_ROW = 3;
/** The first cases that, failing the same start-up way, stop the submission. */
export const START_UP_CASES = 2;
/** The default budget is never under this. */
export const MIN_BUDGET_MS = 60_000;
/** A playoff's game is counted as this many moves of the submission's, each at its time a move, in the default budget. */
export const MOVES_A_GAME = 50;

/** Every message of a case not run starts so (reports, and the console's grouping, can tell them). */
export const NOT_RUN = 'not run: ';

/** A case not run, and why. */
export interface NotRun {
  status: CaseStatus;
  message: string;
}

/**
 * The longest a case may take within its limits: its time limit, or for a playoff its games ×
 * MOVES_A_GAME × its time a move (the reference opponent's moves come on top, so it is no bound).
 */
export function worstCaseMs(c: SuiteCase): number {
  const playoff = c.checks.playoff;
  const games = playoff === undefined ? 0 : playoff.games * MOVES_A_GAME * playoff.msPerMove;
  return c.limits.ms + games;
}

/**
 * What a case may take in the default budget, whatever the reference needs: a process or a JVM
 * started and the submission's modules loaded, on a busy machine (a submission's session is
 * usually reused from case to case, and then this is mostly slack).
 */
export const CASE_START_MS = 5000;
/**
 * Each node the reference's search visits, in the default budget: the reference (TypeScript)
 * visits about 2 million a second; a correct CPython search is 30–100 times slower on this code,
 * and a busy machine's wall clock doubles that again, so 5,000 a second is what a slow but correct
 * submission may need.
 */
export const MS_A_REFERENCE_NODE = 0.2;

/**
 * Whether a case's time is set by the case, not by its work: a playoff (games × moves × a time a
 * move), an anytime search given `ms`, a time check. The reference's work says nothing of these.
 */
function timeBound(c: SuiteCase): boolean {
  return c.checks.playoff !== undefined || c.checks.time !== undefined || c.options.ms !== undefined;
}

/**
 * What a case may take in the default budget. With `nodes`, the nodes the reference searches on
 * it (reference-work.ts; 0: a heuristic evaluated once): CASE_START_MS + nodes ×
 * MS_A_REFERENCE_NODE. Without (no reference runs on it), and for a time-bound case: twice its
 * worst case (wall clock is no CPU time). Never more than that, so no case's share grows.
 */
export function caseBudgetMs(c: SuiteCase, nodes: number | undefined): number {
  const old = 2 * worstCaseMs(c);
  if (nodes === undefined || timeBound(c)) return old;
  return Math.min(old, CASE_START_MS + nodes * MS_A_REFERENCE_NODE);
}

/**
 * The default budget: the cases' shares added up (caseBudgetMs), in whole seconds, at least
 * MIN_BUDGET_MS. `reference` holds the nodes the reference searches on each case, by id; absent
 * (or a case missing from it), the old rule: twice the longest the case's limits allow.
 */
export function defaultBudgetMs(cases: readonly SuiteCase[], reference?: ReadonlyMap<string, number>): number {
  const total = cases.reduce((sum, c) => sum + caseBudgetMs(c, reference?.get(c.id)), 0);
  return Math.max(MIN_BUDGET_MS, Math.ceil(total / 1000) * 1000);
}

/** "90 s", "10 min", "1.5 h": a budget as people say it. */
export function formatDuration(ms: number): string {
  const round1 = (x: number) => String(Math.round(x * 10) / 10);
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 120_000) return `${round1(ms / 1000)} s`;
  if (ms < 2 * 3_600_000) return `${round1(ms / 60_000)} min`;
  return `${round1(ms / 3_600_000)} h`;
}

/**
 * Failures no case can change: the program or its runtime never got going, or the submission's
 * module fails as it is imported. Matched anywhere in the reason (a program's is what it printed).
 */
const START_UP_SIGNS: readonly RegExp[] = [
  // The Node sandbox: a module that fails at import, a process that never started.
  /while loading role /,
  /the sandbox could not start/,
  /did not start within/,
  // A program whose runtime could not start it.
  /Could not find or load main class|ClassNotFoundException|NoClassDefFoundError|UnsupportedClassVersionError/,
  /\b(SyntaxError|IndentationError|TabError|ModuleNotFoundError|ImportError)\b/,
  /error while loading shared libraries|exec format error|cannot execute|command not found|[Pp]ermission denied/,
  /No such file or directory/,
];

/** A temporary folder's name (a run's own, random). */
const TEMP_FOLDER = new RegExp(`${tmpdir().replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/[^/\\s'"):,]+`, 'g');

/** Whether `reason` (a case's error) is a start-up failure (START_UP_SIGNS). */
export function isStartUpFailure(reason: string): boolean {
  return START_UP_SIGNS.some((sign) => sign.test(reason));
}

/**
 * One submission's stop: ask `before` whether to run each case (undefined: run it), and tell
 * `after` how it ended. `now` is injectable for tests; wall-clock ms.
 */
export class EarlyStop {
  private spentMs = 0;
  private streak: string[] = [];
  private readonly stoppedCategories = new Map<string, NotRun>();
  private stopped: NotRun | undefined;
  /** the first cases' errors, and the same with each run's own temporary folder named alike */
  private readonly firstErrors: string[] = [];
  private readonly firstShapes: string[] = [];
  private casesEnded = 0;

  constructor(private readonly rules: StopRules) {}

  /** The verdict of case `c` if it is not to run; undefined: run it. */
  before(c: SuiteCase): NotRun | undefined {
    if (this.stopped === undefined && this.spentMs >= this.rules.budgetMs) {
      this.stopped = { status: 'timeout', message: `${NOT_RUN}the submission's time budget (${formatDuration(this.rules.budgetMs)}) was spent` };
    }
    return this.stopped ?? this.stoppedCategories.get(c.category);
  }

  /**
   * Case `c` ended with `status` after `wallMs`; `reason` is what went wrong, without what is
   * particular to the case (a program's input and reproduce line), empty when it passed.
   */
  after(c: SuiteCase, status: CaseStatus, reason: string, wallMs: number): void {
    this.spentMs += wallMs;
    this.casesEnded++;
    this.countStartUp(status, reason);
    if (status !== 'timeout') {
      this.streak = [];
      return;
    }
    this.streak.push(c.category);
    if (this.streak.length < TIMEOUTS_IN_A_ROW) return;
    const categories = new Set(this.streak);
    const shown = `${NOT_RUN}stopped after ${this.streak.length} timeouts in a row`;
    if (categories.size === 1 && this.streak.length === TIMEOUTS_IN_A_ROW) {
      this.stoppedCategories.set(c.category, { status: 'timeout', message: `${shown} in this category (${c.category})` });
    } else {
      this.stopped ??= { status: 'timeout', message: shown };
    }
  }

  private countStartUp(status: CaseStatus, reason: string): void {
    if (this.casesEnded > START_UP_CASES) return;
    // Only the first cases count: an error later says nothing of start-up.
    const text = status === 'error' ? reason.trim() : '';
    this.firstErrors.push(text);
    // Each program run has a folder of its own, which its traceback names: the same failure all the same.
    this.firstShapes.push(text.replace(TEMP_FOLDER, '<tmp>'));
    if (this.firstErrors.length < START_UP_CASES) return;
    const first = this.firstErrors[0]!;
    if (first === '' || this.firstShapes.some((r) => r !== this.firstShapes[0]) || !isStartUpFailure(first)) return;
    this.stopped ??= { status: 'error', message: `${NOT_RUN}stopped after the same start-up failure on the first ${START_UP_CASES} cases: ${first}` };
  }
}

/** A not-run message's reason, for comparing failures across cases ("… on the first 2 cases: X" is X). */
export function reasonOfNotRun(message: string): string {
  const m = /^not run: stopped after the same start-up failure on the first \d+ cases: (.*)$/s.exec(message);
  return m === null ? message : m[1]!;
}
