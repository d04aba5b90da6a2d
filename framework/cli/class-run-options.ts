/**
 * The options of a class run (`mancala grade`, `mancala csci561-grade`) that keep one submission
 * from stalling it and a Ctrl-C from losing it: `--submission-time-limit` (grading/early-stop.ts),
 * and the journal (grading/grade-journal.ts) with `--journal`, `--no-journal`, `--only` and `--fresh`.
 * docs/class-runs.md is the instructors' page on them.
 */
import { basename, dirname, extname, join, resolve } from 'node:path';
import { InvalidArgumentError, Option, type Command } from 'commander';
import { UserError } from '../errors.ts';
import { CASE_START_MS, defaultBudgetMs, formatDuration, MIN_BUDGET_MS, MOVES_A_GAME, MS_A_REFERENCE_NODE, type StopRules } from '../grading/early-stop.ts';
import { checkOnlyIds, GradeJournal, type JournalOpener } from '../grading/grade-journal.ts';
import { toolIdentity } from '../grading/tool-identity.ts';
import { referenceWork } from '../grading/reference-work.ts';
import type { Suite, SuiteCase } from '../suites/types.ts';
import { keepOnInterrupt } from './interrupt.ts';
import type { CliIo } from './options.ts';
import { checkOutputFile } from './output-paths.ts';

export interface ClassRunFlags {
  submissionTimeLimit?: number;
  /** a file; false: --no-journal; undefined: beside the first report file */
  journal?: string | false;
  only?: string[];
  fresh?: boolean;
}

/** The report files a journal may sit beside, in the order one is chosen (then a gradebook's file, then the feedback folder). */
const JOURNAL_BESIDE = ['json', 'csv', 'gradescope', 'junit', 'html'] as const;
type ReportFlags = Partial<Record<(typeof JOURNAL_BESIDE)[number], string>> & {
  /** --gradebook's words: kind, file, kind, file, … */
  gradebook?: readonly string[];
  /** --feedback's folder */
  feedback?: string;
};

/** "600000" (ms), "500ms", "90s", "10m", "1.5h" → ms. */
export function parseDuration(value: string): number {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|min|h)?\s*$/.exec(value);
  const unit = { ms: 1, s: 1000, m: 60_000, min: 60_000, h: 3_600_000 }[m?.[2] ?? 'ms'];
  const ms = m === null || unit === undefined ? NaN : Math.round(Number(m[1]) * unit);
  if (!Number.isFinite(ms) || ms < 1000) throw new InvalidArgumentError('Expected a time of at least 1 s: ms as a whole number (600000), or with a unit (90s, 10m, 1.5h).');
  return ms;
}

/** "a list,of,ids" (repeatable) → ['a', 'list', 'of', 'ids'] */
function collectIds(value: string, previous: string[] | undefined): string[] {
  const ids = value.split(',').map((s) => s.trim()).filter((s) => s !== '');
  if (ids.length === 0) throw new InvalidArgumentError('Expected submission ids (their folder names), e.g. --only alice,bob.');
  return [...(previous ?? []), ...ids];
}

export function addClassRunOptions(cmd: Command): Command {
  return cmd
    .addOption(
      new Option(
        '--submission-time-limit <time>',
        "wall-clock time each submission's cases may take in all (600000 ms, 90s, 10m, 1h); its remaining cases are then not run and fail as timeouts. " +
          `Default: sized from what the suite's reference needs, run as suite bless runs it: each case ${formatDuration(CASE_START_MS)} and ${MS_A_REFERENCE_NODE} ms a node the reference searches on it; ` +
          `a playoff, an anytime case or one with no reference answer twice its limits (a playoff's games × ${MOVES_A_GAME} moves × its time a move); never more than twice a case's limits, and at least ${formatDuration(MIN_BUDGET_MS)} in all. ` +
          "The per-case limits stay the suite's (--time-limit overrides them). " +
          'Whatever the budget, a submission stops early after 3 timeouts in a row (in one category: that category only) or the same start-up failure on its first 2 cases (docs/class-runs.md)',
      ).argParser(parseDuration),
    )
    .option('--journal <file>', "record each submission's result in FILE as it is graded, and reuse it when the same command runs again (default: beside the first of --json, --csv, --gradescope, --junit, --html, then --gradebook's file, as <name>.journal.jsonl, or beside the --feedback folder DIR as DIR.journal.jsonl; none without one)")
    .option('--no-journal', 'neither read nor write a journal')
    .option('--only <ids>', 'grade these submissions again (their ids: folder names; commas or the flag repeated) even when the journal has them; the others are reused when they can be', collectIds)
    .option('--fresh', 'grade every submission again (the journal is started anew)');
}

/**
 * The early-stop rules for a run of `cases` of `suite`: --submission-time-limit, or the default
 * sized from what the suite's reference needs (run here, as `suite bless` runs it).
 */
export async function stopRules(flags: ClassRunFlags, suite: Suite, cases: readonly SuiteCase[]): Promise<StopRules> {
  if (flags.submissionTimeLimit !== undefined) return { budgetMs: flags.submissionTimeLimit };
  return { budgetMs: defaultBudgetMs(cases, await referenceWork(suite, cases)) };
}

/** The journal's file: --journal, or beside the first report file; undefined: none. */
export function journalFile(flags: ClassRunFlags, reports: ReportFlags): string | undefined {
  if (flags.journal === false) return undefined;
  if (typeof flags.journal === 'string') return flags.journal;
  const beside = JOURNAL_BESIDE.map((k) => reports[k]).find((f) => f !== undefined) ?? reports.gradebook?.[1];
  if (beside !== undefined) return join(dirname(beside), `${basename(beside, extname(beside))}.journal.jsonl`);
  if (reports.feedback === undefined) return undefined;
  // Beside the feedback folder, never in it: its files go to students, and the journal holds hidden answers.
  const folder = resolve(reports.feedback);
  return join(dirname(folder), `${basename(folder)}.journal.jsonl`);
}

/**
 * Opens the run's journal (checked before anything runs), or undefined when there is none; says
 * on stderr what it reused, and on Ctrl-C what it kept.
 */
export function openClassJournal(io: CliIo, flags: ClassRunFlags, reports: ReportFlags, submissions: readonly string[], nameOf?: (path: string) => string): GradeJournal | undefined {
  const file = journalFile(flags, reports);
  const only = flags.only === undefined ? undefined : new Set(flags.only);
  if (only !== undefined) {
    if (file === undefined) throw new UserError('--only: re-grades some submissions of a journal, and this run has none: give --json, --csv, --gradebook, --feedback, … (the journal goes beside it) or --journal FILE');
    checkOnlyIds(only, submissions);
  }
  if (file === undefined) return undefined;
  checkOutputFile('--journal', file);
  const journal = GradeJournal.open({ file, tool: toolIdentity(), ...(flags.fresh === true ? { fresh: true } : {}), ...(only !== undefined ? { only } : {}), announce: (line) => io.err(`${line}\n`), ...(nameOf !== undefined ? { nameOf } : {}) });
  for (const note of journal.notes) io.err(`${note}\n`);
  forgetKept?.();
  forgetKept = keepOnInterrupt(() => `kept ${journal.graded} submission${journal.graded === 1 ? '' : 's'} graded in this run in ${file}: the same command again grades only the rest`);
  return journal;
}

/** The journal option of a run of `kind` over `submissions` (none without a journal), for gradeSubmissions and gradeProgramsWithRuns. */
export function journalFor<Result>(journal: GradeJournal | undefined, kind: 'agent' | 'program', submissions: readonly string[]): { journal?: JournalOpener<Result> } {
  return journal === undefined ? {} : { journal: (setup) => journal.forRun<Result>(kind, setup, submissions) };
}

/** The run completed and its reports are written: the journal keeps this run's entries only. */
export function finishJournal(journal: GradeJournal | undefined): void {
  journal?.compact();
  journal?.close();
  forgetKept?.();
  forgetKept = undefined;
}

/** What an interrupt would say of the journal open now (one run at a time in a process). */
let forgetKept: (() => void) | undefined;
