/**
 * What a grading command hands back to a class (grade, csci561-grade): the late policy applied
 * (--due, --late-policy, --grace-ledger, --submission-times), a feedback file per student (--feedback), and the LMS's
 * import file (--gradebook KIND FILE, --assignment). The logic is in grading/late/,
 * grading/feedback/ and grading/gradebook/; this module holds the options and their order:
 * everything a run could refuse is refused by `prepareClassOutputs`, before any submission runs;
 * `finishClassOutputs` runs after grading, before the report files are written (so the JSON and
 * CSV carry the late verdicts), and writes the feedback and gradebooks.
 */
import { basename, resolve } from 'node:path';
import { InvalidArgumentError, type Command } from 'commander';
import { UserError } from '../errors.ts';
import type { ClassStudents } from '../grading/class-students.ts';
import { checkFeedbackDir, writeFeedback } from '../grading/feedback/write.ts';
import { caseShown } from '../grading/feedback/student-view.ts';
import type { Visibility } from '../suites/types.ts';
import { parseAssignment, type Assignment } from '../grading/gradebook/assignment.ts';
import { checkAssignment, GRADEBOOK_KINDS, renderGradebook, type GradebookKind } from '../grading/gradebook/formats.ts';
import { requireInstant } from '../grading/late/instant.ts';
import { applyLatePolicy, noTimesLines, type LateRun } from '../grading/late/lateness.ts';
import { readSubmissionTimes, type SubmissionTimes } from '../grading/late/submission-times.ts';
import { readLedger } from '../grading/late/ledger.ts';
import { loadLatePolicy, type LatePolicy } from '../grading/late/policy.ts';
import type { GradeReport } from '../grading/report.ts';
import { writeFileAtomically } from '../write-file.ts';
import type { CliIo } from './options.ts';
import { checkOutputFile, checkOutputFolder } from './output-paths.ts';

export interface ClassFlags {
  feedback?: string;
  gradebook?: string[];
  assignment?: string;
  due?: string;
  latePolicy?: string;
  graceLedger?: string;
  submissionTimes?: string;
}

/** `--gradebook canvas a.csv --gradebook moodle b.csv` → the pairs, each kind checked. */
function gradebookPairs(values: readonly string[]): { kind: GradebookKind; file: string }[] {
  const pairs: { kind: GradebookKind; file: string }[] = [];
  for (let k = 0; k < values.length; k += 2) {
    const kind = values[k]!;
    const file = values[k + 1];
    if (!(GRADEBOOK_KINDS as readonly string[]).includes(kind)) {
      // The option takes every word up to the next option: submissions written after it land here.
      const after = k > 0 ? ' (give the submissions before --gradebook, or another option after its file)' : '';
      throw new UserError(`--gradebook ${kind}: expected one of ${GRADEBOOK_KINDS.join(', ')}, then the file to write: --gradebook canvas canvas-import.csv${after}`);
    }
    if (file === undefined) throw new UserError(`--gradebook ${kind}: expected the file to write after the kind: --gradebook ${kind} ${kind}-import.csv`);
    pairs.push({ kind: kind as GradebookKind, file });
  }
  return pairs;
}

export function addClassOptions(command: Command): Command {
  return command
    .option(
      '--feedback <dir>',
      "write each student's feedback, named by their id: DIR/<id>.html and DIR/<id>.md, holding only what the suite lets students see (visible cases whole, after_due_date ones once --due has passed, hidden ones as points only)",
    )
    .option(
      '--gradebook <kind-and-file...>',
      `write an LMS's grade import file: --gradebook ${GRADEBOOK_KINDS.join('|')} FILE (repeat for several); canvas and blackboard rows need the LMS's ids (from the export or --roster), students without them are left out and named on stderr; late penalties applied, the raw score in its own column where the format has one`,
      (value: string, previous: string[] | undefined) => {
        if (value.startsWith('-')) throw new InvalidArgumentError('expected a kind and a file');
        return [...(previous ?? []), value];
      },
    )
    .option('--assignment <name>', 'the assignment\'s name in the gradebook and the grace-day ledger, with its LMS id to fill an existing column: "Mancala 1 (12345)" (Canvas), "Mancala 1 |123456" (Blackboard); default: the suite\'s name')
    .option('--due <date>', 'the due date, ISO 8601 with a time zone (2026-10-12T23:59:00-04:00): every report shows each submission\'s lateness, and after_due_date cases are shown in feedback once it (and every extension) has passed')
    .option('--late-policy <file>', 'a late policy (YAML: penalty per hour or day, max_penalty, zero_after, extensions, grace_days, grace_ledger; docs/late-policy.md): the reports show the raw score, the lateness and the adjusted score; needs --due')
    .option('--grace-ledger <file>', "the term's grace-day ledger (JSON), read and updated by this run; over the policy's grace_ledger")
    .option(
      '--submission-times <file>',
      "when each student handed in, where the export does not say (Canvas's download has no times: without this, a submission Canvas marks _LATE counts as late by the least the policy charges): a CSV with the columns id,submitted_at (ISO 8601 with a time zone), the id any the student is known by; needs --due",
    );
}

export interface ClassOutputs {
  flags: ClassFlags;
  assignment: Assignment;
  due?: number;
  policy?: LatePolicy;
  ledgerFile?: string;
  times?: SubmissionTimes;
  gradebooks: { kind: GradebookKind; file: string }[];
  /** folders only the machine has, kept out of feedback */
  machinePaths: string[];
}

/** Everything the flags could refuse, refused now: dates, the policy, the ledger, the places written. */
export function prepareClassOutputs(flags: ClassFlags, o: { suiteName: string; suiteDir: string; submissions: readonly string[]; students?: ClassStudents }): ClassOutputs {
  const assignment = parseAssignment(flags.assignment, o.suiteName);
  const due = flags.due === undefined ? undefined : requireInstant(flags.due, '--due');
  if (flags.latePolicy !== undefined && due === undefined) throw new UserError(`--late-policy ${flags.latePolicy}: needs --due, the date its penalties count from`);
  const policy = flags.latePolicy === undefined ? undefined : loadLatePolicy(flags.latePolicy);
  const ledgerFile = flags.graceLedger !== undefined ? resolve(flags.graceLedger) : policy?.graceLedger;
  if (flags.graceLedger !== undefined && (policy === undefined || policy.graceDays === 0)) throw new UserError(`--grace-ledger ${flags.graceLedger}: needs --late-policy with grace_days`);
  if (policy !== undefined && policy.graceDays > 0) {
    if (ledgerFile === undefined) throw new UserError(`${policy.file}: grace_days needs a ledger, to carry the days spent from one assignment to the next: grace_ledger: FILE in the policy, or --grace-ledger FILE`);
    readLedger(ledgerFile);
    checkOutputFile('--grace-ledger', ledgerFile);
  }
  if (flags.submissionTimes !== undefined && due === undefined) throw new UserError(`--submission-times ${flags.submissionTimes}: needs --due, the date the times are measured against`);
  const times = flags.submissionTimes === undefined ? undefined : readSubmissionTimes(flags.submissionTimes);
  const gradebooks = gradebookPairs(flags.gradebook ?? []);
  for (const g of gradebooks) {
    checkAssignment(g.kind, assignment);
    checkOutputFile(`--gradebook ${g.kind}`, g.file);
  }
  if (flags.feedback !== undefined) {
    const ids = o.submissions.map((s) => o.students?.get(resolve(s))?.id ?? basename(resolve(s)));
    checkFeedbackDir(flags.feedback, ids, checkOutputFolder);
  }
  return {
    flags,
    assignment,
    ...(due !== undefined ? { due } : {}),
    ...(policy !== undefined ? { policy } : {}),
    ...(ledgerFile !== undefined ? { ledgerFile } : {}),
    ...(times !== undefined ? { times } : {}),
    gradebooks,
    machinePaths: [o.suiteDir],
  };
}

/** Whether a case of this visibility is shown to students in this run's feedback. */
export function shownInFeedback(c: ClassOutputs): (v: Visibility) => boolean {
  const clock = { ...(revealAt(c) !== undefined ? { revealAt: revealAt(c)! } : {}), now: Date.now() };
  return (v) => caseShown(v, clock);
}

/** The latest due date of anyone in the class: after_due_date cases are revealed after it. */
function revealAt(c: ClassOutputs): number | undefined {
  if (c.due === undefined) return undefined;
  return Math.max(c.due, ...(c.policy?.extensions.values() ?? []));
}

/**
 * After grading: the late verdicts set on the report (before its files are written), then the
 * feedback and the gradebooks written; each said once on stderr.
 */
export function finishClassOutputs(io: CliIo, report: GradeReport, c: ClassOutputs, students?: ClassStudents): void {
  if (c.due !== undefined) {
    const run: LateRun = { due: c.due, ...(c.policy !== undefined ? { policy: c.policy } : {}), ...(c.ledgerFile !== undefined ? { ledgerFile: c.ledgerFile } : {}), assignment: c.assignment.name, ...(c.times !== undefined ? { times: c.times } : {}) };
    const ledger = applyLatePolicy(report, run, students);
    const late = report.submissions.filter((s) => (s.late?.minutesLate ?? 0) > 0).length;
    io.err(`late policy: ${late} of ${report.submissions.length} submission${report.submissions.length === 1 ? '' : 's'} late${ledger !== undefined ? `; grace days spent recorded in ${ledger} (as "${c.assignment.name}")` : ''}\n`);
    for (const line of noTimesLines(report, run, students)) io.err(`${line}\n`);
  }
  if (c.flags.feedback !== undefined) {
    const clock = { ...(revealAt(c) !== undefined ? { revealAt: revealAt(c)! } : {}), now: Date.now() };
    const written = writeFeedback(c.flags.feedback, report, { ...(students !== undefined ? { students } : {}), clock, machinePaths: c.machinePaths });
    io.err(`wrote feedback for ${written.length} student${written.length === 1 ? '' : 's'} in ${c.flags.feedback} (<id>.html and <id>.md)\n`);
  }
  for (const g of c.gradebooks) {
    const book = renderGradebook(g.kind, report, c.assignment, students);
    writeFileAtomically(g.file, book.text);
    const rows = report.submissions.length - book.left.length;
    io.err(`wrote the ${g.kind} gradebook ${g.file} (${rows} student${rows === 1 ? '' : 's'})\n`);
    if (book.left.length > 0) io.err(`${g.kind} gradebook: left out ${book.left.length}, which ${g.kind} could not match: ${book.left.join(', ')}\n`);
    for (const n of book.notes) io.err(`${g.kind} gradebook: ${n}\n`);
  }
}
