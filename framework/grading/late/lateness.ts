/**
 * The late policy applied to a graded class: each submission's time against its due date (the
 * run's --due, or the student's extension), grace days spent from the ledger to cover lateness,
 * then the penalty, capped, or zero past `zero_after`. The raw score stays in the report's
 * `score`; the verdict (`late`) holds raw, lateness and adjusted score for every report to show.
 */
import type { GradeReport, LateVerdict, SubmissionReport } from '../report.ts';
import { studentOf, type ClassStudents } from '../class-students.ts';
import { formatDuration, formatPoints, roundScore } from '../reporters/text.ts';
import { newestFileTime } from './file-times.ts';
import { isoInstant, parseInstant } from './instant.ts';
import { readLedger, recordSpent, spentElsewhere, writeLedger, type GraceLedger } from './ledger.ts';
import type { LatePolicy } from './policy.ts';

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
}

/** When the submission was handed in, as its record says. */
export interface HandedIn {
  submittedAt?: string;
  submittedAtSource?: 'export' | 'file-times';
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
      minutesLate: rest.minutesLate,
      graceDaysSpent: rest.graceDaysSpent,
      ...(o.policy !== undefined && o.policy.graceDays > 0 ? { graceDaysLeft: o.available - rest.graceDaysSpent } : {}),
      penalty,
      rawScore: raw,
      score: roundScore(raw - penalty),
      summary: `${rest.summary}: ${formatPoints(raw)}${penalty > 0 ? ` → ${formatPoints(raw - penalty)}` : ''} / ${formatPoints(o.maxScore)}`,
    };
  };
  if (at === undefined || Number.isNaN(at)) return out({ minutesLate: 0, graceDaysSpent: 0, penalty: 0, summary: 'no submission time known: taken as on time' });
  const lateMs = Math.max(0, at - o.due);
  const dueText = o.extended ? 'the extended due date' : 'the due date';
  if (lateMs === 0) return out({ minutesLate: 0, graceDaysSpent: 0, penalty: 0, summary: 'on time' });
  const minutesLate = Math.ceil(lateMs / MINUTE);
  const p = o.policy;
  // Grace days cover whole days of lateness, as many as it takes and the student has.
  const spent = Math.min(o.available, Math.ceil(lateMs / DAY));
  const charged = Math.max(0, lateMs - spent * DAY);
  const parts = [`${formatDuration(lateMs)} after ${dueText}`];
  if (spent > 0) parts.push(`${plural(spent, 'grace day')} spent${charged === 0 ? ' (covered)' : ''}`);
  if (p === undefined) return out({ minutesLate, graceDaysSpent: spent, penalty: 0, summary: `${parts.join(', ')}, no late policy` });
  const zeroed = charged > 0 && p.zeroAfter !== undefined && ('afterMs' in p.zeroAfter ? charged > p.zeroAfter.afterMs : at - spent * DAY > p.zeroAfter.at);
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
    handedIn: { ...(student.submittedAt !== undefined ? { submittedAt: student.submittedAt } : {}), ...(student.submittedAtSource !== undefined ? { submittedAtSource: student.submittedAtSource } : {}) },
    available,
  });
  if (ledger !== undefined) recordSpent(ledger, student.id, run.assignment, verdict.graceDaysSpent);
  return verdict;
}
