/**
 * The late policy applied to a graded class: each submission's time against its due date (the
 * run's --due, or the student's extension), grace days spent from the ledger to cover lateness,
 * then the penalty, capped, or zero past `zero_after`. The raw score stays in the report's
 * `score`; the verdict (`late`) holds raw, lateness and adjusted score for every report to show.
 *
 * Where no time is known (Canvas's download has none: intake/times.ts) the export's late mark
 * decides: unmarked is on time; marked (`_LATE`) is late by an unknown time, counted as late by the
 * least the policy charges: one hour with a penalty per hour, else one day (one day's penalty, or
 * one grace day), never zeroed by `zero_after`, which needs a time. `--submission-times` gives the
 * times instead (submission-times.ts). `noTimesLines` says this once a run.
 */
import type { GradeReport, LateVerdict, SubmissionReport } from '../report.ts';
import { studentOf, type ClassStudents } from '../class-students.ts';
import type { SubmissionRecord } from '../../intake/submission.ts';
import { formatDuration, formatPoints, roundScore } from '../reporters/text.ts';
import { newestFileTime } from './file-times.ts';
import { isoInstant, parseInstant } from './instant.ts';
import { readLedger, recordSpent, spentElsewhere, writeLedger, type GraceLedger } from './ledger.ts';
import type { LatePolicy } from './policy.ts';
import { timeOf, unusedTimesLine, type SubmissionTimes } from './submission-times.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

export interface LateRun {
  /** --due, ms */
  due: number;
  policy?: LatePolicy;
  /** the ledger file: --grace-ledger, else the policy's grace_ledger */
  ledgerFile?: string;
  /** the ledger's name for this assignment */
  assignment: string;
  /** --submission-times: each student's time, over the export's */
  times?: SubmissionTimes;
}

/** When the submission was handed in, as its record says. */
export interface HandedIn {
  submittedAt?: string;
  submittedAtSource?: SubmittedAtSource;
  /** the export's late mark (Canvas's `_LATE`), where it marks them: what decides when no time is known */
  markedLate?: boolean;
}

export type SubmittedAtSource = 'export' | 'file-times' | 'submission-times';

/** The lateness a submission marked late with no time is counted as: the least the policy charges. */
export function unknownLateness(policy: LatePolicy | undefined): number {
  return policy?.penalty?.per === 'hour' ? HOUR : DAY;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/**
 * One submission's verdict. `available` is the grace days the student has left before this
 * assignment (0 without grace days); the verdict says how many it spent.
 */
export function lateVerdict(o: { due: number; extended: boolean; policy?: LatePolicy; raw: number; maxScore: number; handedIn: HandedIn; available: number }): LateVerdict {
  const at = o.handedIn.submittedAt === undefined ? undefined : parseInstant(o.handedIn.submittedAt) ?? Date.parse(o.handedIn.submittedAt);
  const base = {
    due: isoInstant(o.due),
    ...(o.extended ? { extended: true } : {}),
    ...(at !== undefined && !Number.isNaN(at) ? { submittedAt: isoInstant(at), ...(o.handedIn.submittedAtSource !== undefined ? { submittedAtSource: o.handedIn.submittedAtSource } : {}) } : {}),
  };
  const raw = roundScore(o.raw);
  const out = (rest: { minutesLate: number; graceDaysSpent: number; penalty: number; summary: string }): LateVerdict => {
    const penalty = roundScore(Math.min(raw, Math.max(0, rest.penalty)));
    return {
      ...base,
      ...(rest.minutesLate > 0 && base.submittedAt === undefined ? { latenessUnknown: true } : {}),
      minutesLate: rest.minutesLate,
      graceDaysSpent: rest.graceDaysSpent,
      ...(o.policy !== undefined && o.policy.graceDays > 0 ? { graceDaysLeft: o.available - rest.graceDaysSpent } : {}),
      penalty,
      rawScore: raw,
      score: roundScore(raw - penalty),
      summary: `${rest.summary}: ${formatPoints(raw)}${penalty > 0 ? ` → ${formatPoints(raw - penalty)}` : ''} / ${formatPoints(o.maxScore)}`,
    };
  };
  const known = at !== undefined && !Number.isNaN(at);
  if (!known && o.handedIn.markedLate !== true) return out({ minutesLate: 0, graceDaysSpent: 0, penalty: 0, summary: o.handedIn.markedLate === false ? 'no submission time known, not marked late: on time' : 'no submission time known: taken as on time' });
  const p = o.policy;
  const lateMs = known ? Math.max(0, at - o.due) : unknownLateness(p);
  const dueText = o.extended ? 'the extended due date' : 'the due date';
  if (lateMs === 0) return out({ minutesLate: 0, graceDaysSpent: 0, penalty: 0, summary: 'on time' });
  const minutesLate = Math.ceil(lateMs / MINUTE);
  // Grace days cover whole days of lateness, as many as it takes and the student has.
  const spent = Math.min(o.available, Math.ceil(lateMs / DAY));
  const charged = Math.max(0, lateMs - spent * DAY);
  const parts = [known ? `${formatDuration(lateMs)} after ${dueText}` : `marked late with no time known (Canvas's _LATE): counted ${formatDuration(lateMs)} late${p?.penalty !== undefined || (p?.graceDays ?? 0) > 0 ? ', the least the policy charges' : ''}`];
  if (spent > 0) parts.push(`${plural(spent, 'grace day')} spent${charged === 0 ? ' (covered)' : ''}`);
  if (p === undefined) return out({ minutesLate, graceDaysSpent: spent, penalty: 0, summary: `${parts.join(', ')}, no late policy` });
  // zero_after needs a time: a lateness counted, not known, is never past it.
  const zeroed = known && charged > 0 && p.zeroAfter !== undefined && ('afterMs' in p.zeroAfter ? charged > p.zeroAfter.afterMs : at - spent * DAY > p.zeroAfter.at);
  if (zeroed) return out({ minutesLate, graceDaysSpent: spent, penalty: raw, summary: `${parts.join(', ')}, past the last day accepted: scored 0` });
  let penalty = 0;
  if (charged > 0 && p.penalty !== undefined) {
    const unit = p.penalty.per === 'hour' ? HOUR : DAY;
    const units = Math.ceil(charged / unit);
    const each = p.penalty.percent !== undefined ? (raw * p.penalty.percent) / 100 : p.penalty.points!;
    penalty = units * each;
    const cap = p.maxPenalty === undefined ? Infinity : p.maxPenalty.percent !== undefined ? (raw * p.maxPenalty.percent) / 100 : p.maxPenalty.points!;
    const capped = penalty > cap;
    penalty = Math.min(penalty, cap);
    const rate = p.penalty.percent !== undefined ? `${p.penalty.percent}%` : `${formatPoints(p.penalty.points!)} points`;
    parts.push(`${plural(units, p.penalty.per)} charged at ${rate} a ${p.penalty.per}${capped ? ', capped' : ''}: −${formatPoints(roundScore(Math.min(raw, penalty)))}`);
  }
  return out({ minutesLate, graceDaysSpent: spent, penalty, summary: parts.join(', ') });
}

/**
 * Sets `late` on every graded submission of the report, spending grace days from the ledger and
 * writing it back (when the policy gives grace days). Returns the ledger file written, if any.
 */
export function applyLatePolicy(report: GradeReport, run: LateRun, students?: ClassStudents): string | undefined {
  const policy = run.policy;
  const graceDays = policy?.graceDays ?? 0;
  const ledger: GraceLedger | undefined = graceDays > 0 && run.ledgerFile !== undefined ? readLedger(run.ledgerFile) : undefined;
  for (const s of report.submissions) {
    if (s.notGraded !== undefined) continue;
    s.late = verdictOf(s, run, students, ledger, graceDays);
  }
  if (ledger === undefined) return undefined;
  writeLedger(ledger, graceDays);
  return ledger.file;
}

/** When the student handed in: the --submission-times file's time, else the record's, else its late mark. */
function handedIn(student: SubmissionRecord, times: SubmissionTimes | undefined): HandedIn {
  const given = timeOf(times, student);
  if (given !== undefined) return { submittedAt: given, submittedAtSource: 'submission-times' };
  if (student.submittedAt !== undefined) return { submittedAt: student.submittedAt, ...(student.submittedAtSource !== undefined ? { submittedAtSource: student.submittedAtSource } : {}) };
  return student.late !== undefined ? { markedLate: student.late } : {};
}

/**
 * What the run says once about times it did not have, after applyLatePolicy: for each reason the
 * intake gave (Canvas's download has no times; a zip of one time), how many were taken as on time
 * and how many counted late by their mark; and the --submission-times ids no student had.
 */
export function noTimesLines(report: GradeReport, run: LateRun, students?: ClassStudents): string[] {
  const byReason = new Map<string, { onTime: number; late: number }>();
  for (const s of report.submissions) {
    if (s.late === undefined || s.late.submittedAt !== undefined) continue;
    const reason = studentOf(students, s).noTimes ?? 'no submission time known';
    const n = byReason.get(reason) ?? { onTime: 0, late: 0 };
    if (s.late.latenessUnknown === true) n.late++;
    else n.onTime++;
    byReason.set(reason, n);
  }
  const lines = [...byReason].map(([reason, n]) => {
    const parts = [`${plural(n.onTime, 'submission')} taken as on time`];
    if (n.late > 0) parts.push(`${plural(n.late, 'submission')} marked late (_LATE) counted ${formatDuration(unknownLateness(run.policy))} late each`);
    return `late policy: ${reason}: ${parts.join(', ')}; --submission-times FILE (a CSV: id,submitted_at) gives their times`;
  });
  const unused = run.times === undefined ? undefined : unusedTimesLine(run.times);
  if (unused !== undefined) lines.push(unused);
  return lines;
}

function verdictOf(s: SubmissionReport, run: LateRun, students: ClassStudents | undefined, ledger: GraceLedger | undefined, graceDays: number): LateVerdict {
  const student = studentOf(students, s, newestFileTime);
  const extension = run.policy?.extensions.get(student.id);
  const available = ledger === undefined ? (run.policy === undefined ? 0 : graceDays) : Math.max(0, graceDays - spentElsewhere(ledger, student.id, run.assignment));
  const verdict = lateVerdict({
    due: extension ?? run.due,
    extended: extension !== undefined,
    ...(run.policy !== undefined ? { policy: run.policy } : {}),
    raw: s.score,
    maxScore: s.maxScore,
    handedIn: handedIn(student, run.times),
    available,
  });
  if (ledger !== undefined) recordSpent(ledger, student.id, run.assignment, verdict.graceDaysSpent);
  return verdict;
}
