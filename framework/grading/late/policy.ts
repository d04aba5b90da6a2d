/**
 * A course's late policy as data (`--late-policy FILE`, YAML or JSON):
 *
 *   penalty: {per: day, percent: 10}     # each started day (or hour) late costs 10% of the score (or `points: 2`)
 *   max_penalty: {percent: 50}           # never more than this (or `points: N`); optional
 *   zero_after: {days: 5}                # later than this after the due date scores 0 ({hours: N}, or a date); optional
 *   extensions:                          # a new due date by student id (the id the reports and feedback use)
 *     "12345": 2026-10-14T23:59:00-04:00
 *   grace_days: 3                        # each student's for the term, spent automatically to cover lateness
 *   grace_ledger: grace-ledger.json      # where the days spent are kept, relative to this file (--grace-ledger overrides)
 *
 * Every field is optional; a file that is empty is refused (say `penalty: {per: day, percent: 0}`
 * for none). A mistake is one line naming the file, its line and the field.
 */
import { dirname, resolve } from 'node:path';
import * as z from 'zod';
import { UserError } from '../../errors.ts';
import { fieldError, issueError, readSource } from '../../suites/source.ts';
import { INSTANT_EXAMPLE, parseInstant } from './instant.ts';

export interface LatePolicy {
  /** what each started unit of lateness costs */
  penalty?: { per: 'hour' | 'day'; percent?: number; points?: number };
  /** the most a penalty takes */
  maxPenalty?: { percent?: number; points?: number };
  /** lateness after which the score is 0: ms after the due date, or an instant */
  zeroAfter?: { afterMs: number } | { at: number };
  /** student id → the due date that applies to them instead (ms) */
  extensions: Map<string, number>;
  /** grace days each student has for the term */
  graceDays: number;
  /** the ledger the policy names, absolute (resolved against the policy file's folder) */
  graceLedger?: string;
  /** the file, as given */
  file: string;
}

const nonNegative = (what: string) => z.number({ error: `expected ${what}: a number ≥ 0` }).min(0, { error: `expected ${what}: a number ≥ 0` });
const percent = z.number({ error: 'expected a percent: a number from 0 to 100' }).min(0, { error: 'expected a percent from 0 to 100' }).max(100, { error: 'expected a percent from 0 to 100' });

function strict<T extends z.core.$ZodLooseShape>(shape: T, what: string) {
  const keys = Object.keys(shape);
  return z.strictObject(shape, {
    error: (issue) => {
      if (issue.code === 'unrecognized_keys') return `unknown field: expected one of ${keys.join(', ')}`;
      if (issue.code === 'invalid_type') return `expected ${what}`;
      return undefined;
    },
  });
}

const amount = (what: string) =>
  strict({ percent: percent.optional(), points: nonNegative('points').optional() }, `${what}: {percent: N} or {points: N}`).refine((a) => (a.percent === undefined) !== (a.points === undefined), {
    error: `expected ${what} as exactly one of percent (of the score) or points`,
  });

const policySchema = strict(
  {
    penalty: strict(
      { per: z.enum(['hour', 'day'], { error: 'expected hour or day' }), percent: percent.optional(), points: nonNegative('points').optional() },
      'a penalty: {per: hour|day, percent: N} or {per: hour|day, points: N}',
    )
      .refine((p) => (p.percent === undefined) !== (p.points === undefined), { error: 'expected the penalty as exactly one of percent (of the score) or points, per hour or day' })
      .optional(),
    max_penalty: amount('the largest penalty').optional(),
    zero_after: z
      .union([z.string(), strict({ hours: nonNegative('hours').optional(), days: nonNegative('days').optional() }, '{hours: N} or {days: N}')], {
        error: `expected {days: N}, {hours: N} or a date and time (${INSTANT_EXAMPLE})`,
      })
      .optional(),
    extensions: z.record(z.string(), z.string({ error: `expected a due date and time, e.g. ${INSTANT_EXAMPLE}` }), { error: 'expected a map from student id to a due date' }).optional(),
    grace_days: z.number({ error: 'expected a whole number of days ≥ 0' }).int({ error: 'expected a whole number of days ≥ 0' }).min(0, { error: 'expected a whole number of days ≥ 0' }).optional(),
    grace_ledger: z.string({ error: 'expected a file name' }).min(1, { error: 'expected a file name' }).optional(),
  },
  'a late policy: {penalty, max_penalty, zero_after, extensions, grace_days, grace_ledger}',
);

const HOUR = 3_600_000;

/** The policy in `file`, checked whole before anything is graded. */
export function loadLatePolicy(file: string): LatePolicy {
  const source = readSource(file, file, 'the late policy');
  if (source.data === null || source.data === undefined) throw new UserError(`${file}: expected a late policy (penalty, max_penalty, zero_after, extensions, grace_days, grace_ledger), but the file is empty`);
  const parsed = policySchema.safeParse(source.data);
  if (!parsed.success) throw issueError(source, [], parsed.error.issues);
  const p = parsed.data;
  const policy: LatePolicy = { extensions: new Map(), graceDays: p.grace_days ?? 0, file };
  if (p.penalty !== undefined) policy.penalty = { per: p.penalty.per, ...(p.penalty.percent !== undefined ? { percent: p.penalty.percent } : { points: p.penalty.points! }) };
  if (p.max_penalty !== undefined) policy.maxPenalty = p.max_penalty.percent !== undefined ? { percent: p.max_penalty.percent } : { points: p.max_penalty.points! };
  if (p.zero_after !== undefined) {
    if (typeof p.zero_after === 'string') {
      const at = parseInstant(p.zero_after);
      if (at === undefined) throw fieldError(source, ['zero_after'], `expected {days: N}, {hours: N} or a date and time in ISO 8601 with a time zone (${INSTANT_EXAMPLE}), got ${JSON.stringify(p.zero_after)}`);
      policy.zeroAfter = { at };
    } else {
      const { hours, days } = p.zero_after;
      if ((hours === undefined) === (days === undefined)) throw fieldError(source, ['zero_after'], 'expected exactly one of hours or days');
      policy.zeroAfter = { afterMs: (hours ?? days! * 24) * HOUR };
    }
  }
  for (const [id, when] of Object.entries(p.extensions ?? {})) {
    const at = parseInstant(when);
    if (at === undefined) throw fieldError(source, ['extensions', id], `expected a due date and time in ISO 8601 with a time zone, e.g. ${INSTANT_EXAMPLE}, got ${JSON.stringify(when)}`);
    policy.extensions.set(id, at);
  }
  if (p.grace_ledger !== undefined) policy.graceLedger = resolve(dirname(resolve(file)), p.grace_ledger);
  return policy;
}
