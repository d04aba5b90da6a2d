/**
 * The grace-day ledger: a JSON file the course keeps for the term, that every graded assignment
 * reads and updates, so that a second assignment's run sees the days the first one spent:
 *
 *   {"version": 1, "grace_days": 3,
 *    "students": {"12345": {"spent": {"Mancala 1": 1, "Mancala 2": 2}, "left": 0}}}
 *
 * An assignment's entry is replaced each time it is graded again (a re-run spends nothing twice);
 * students and assignments the run did not grade are kept as they were. `left` is written for the
 * reader; what counts is `spent`.
 */
import { existsSync } from 'node:fs';
import * as z from 'zod';
import { UserError } from '../../errors.ts';
import { writeFileAtomically } from '../../write-file.ts';
import { issueError, readSource } from '../../suites/source.ts';

export interface GraceLedger {
  file: string;
  /** student id → assignment name → days spent */
  spent: Map<string, Map<string, number>>;
}

const days = z.number({ error: 'expected a whole number of days' }).int({ error: 'expected a whole number of days' }).min(0, { error: 'expected a whole number of days ≥ 0' });
const ledgerSchema = z.object(
  {
    version: z.literal(1, { error: 'expected version 1' }),
    grace_days: days.optional(),
    students: z.record(z.string(), z.object({ spent: z.record(z.string(), days, { error: 'expected a map from assignment to days spent' }), left: z.number().optional() }, { error: 'expected {spent, left}' }), {
      error: 'expected a map from student id to {spent, left}',
    }),
  },
  { error: 'expected a grace-day ledger: {version: 1, grace_days, students}' },
);

/** The ledger in `file`; a missing file is an empty ledger (the term's first assignment). */
export function readLedger(file: string): GraceLedger {
  const ledger: GraceLedger = { file, spent: new Map() };
  if (!existsSync(file)) return ledger;
  const source = readSource(file, file, 'the grace-day ledger');
  const parsed = ledgerSchema.safeParse(source.data);
  if (!parsed.success) throw issueError(source, [], parsed.error.issues);
  for (const [id, entry] of Object.entries(parsed.data.students)) ledger.spent.set(id, new Map(Object.entries(entry.spent)));
  return ledger;
}

/** Days the student spent on assignments other than `assignment`. */
export function spentElsewhere(ledger: GraceLedger, student: string, assignment: string): number {
  let total = 0;
  for (const [name, n] of ledger.spent.get(student) ?? []) if (name !== assignment) total += n;
  return total;
}

/** Records what `assignment` spent for `student` (0 removes the entry). */
export function recordSpent(ledger: GraceLedger, student: string, assignment: string, n: number): void {
  let entry = ledger.spent.get(student);
  if (entry === undefined) {
    if (n === 0) return;
    entry = new Map();
    ledger.spent.set(student, entry);
  }
  if (n === 0) entry.delete(assignment);
  else entry.set(assignment, n);
}

/** The ledger as its file holds it: students and assignments sorted, so re-runs give the same bytes. */
export function ledgerJson(ledger: GraceLedger, graceDays: number): string {
  const students: Record<string, { spent: Record<string, number>; left: number }> = {};
  for (const id of [...ledger.spent.keys()].sort()) {
    const entry = ledger.spent.get(id)!;
    if (entry.size === 0) continue;
    const spent = Object.fromEntries([...entry.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
    const total = Object.values(spent).reduce((t, n) => t + n, 0);
    students[id] = { spent, left: Math.max(0, graceDays - total) };
  }
  return `${JSON.stringify({ version: 1, grace_days: graceDays, students }, null, 2)}\n`;
}

export function writeLedger(ledger: GraceLedger, graceDays: number): void {
  try {
    writeFileAtomically(ledger.file, ledgerJson(ledger, graceDays));
  } catch (e) {
    if (e instanceof UserError) throw new UserError(`the grace-day ledger: ${e.message}`);
    throw e;
  }
}
