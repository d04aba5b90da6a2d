/**
 * The late policy as data: penalties per hour and per day, capped or zeroed, an extension, grace
 * days spent across two assignments through the ledger (written, read back by the second run),
 * submission times from the intake's records or the files' own times, and a bad policy file or
 * due date refused in one line that names the field.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { UserError } from '../../errors.ts';
import type { SubmissionRecord } from '../../intake/submission.ts';
import type { GradeReport } from '../report.ts';
import { classStudents } from '../class-students.ts';
import { requireInstant } from './instant.ts';
import { applyLatePolicy, lateVerdict } from './lateness.ts';
import { readLedger } from './ledger.ts';
import { loadLatePolicy, type LatePolicy } from './policy.ts';

const work = mkdtempSync(join(tmpdir(), 'late-policy-test-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const DUE = requireInstant('2026-10-12T23:59:00-04:00', '--due');
const HOUR = 3_600_000;
const at = (hoursAfterDue: number) => new Date(DUE + hoursAfterDue * HOUR).toISOString();

function policyFile(name: string, yaml: string): string {
  const file = join(work, name);
  writeFileSync(file, yaml);
  return file;
}

const verdict = (policy: LatePolicy | undefined, hoursLate: number, o: { raw?: number; available?: number } = {}) =>
  lateVerdict({ due: DUE, extended: false, ...(policy ? { policy } : {}), raw: o.raw ?? 80, maxScore: 100, handedIn: { submittedAt: at(hoursLate), submittedAtSource: 'export' }, available: o.available ?? 0 });

describe('penalties', () => {
  it('per hour, as a percent of the score: each started hour counts', () => {
    const p = loadLatePolicy(policyFile('hourly.yaml', 'penalty: {per: hour, percent: 2}\n'));
    expect(verdict(p, -1)).toMatchObject({ minutesLate: 0, penalty: 0, score: 80, rawScore: 80, summary: 'on time: 80 / 100' });
    // 2 h 30 min late: 3 started hours, 2% of 80 each.
    const v = verdict(p, 2.5);
    expect(v).toMatchObject({ minutesLate: 150, penalty: 4.8, score: 75.2, rawScore: 80 });
    expect(v.summary).toBe('2 h 30 min after the due date, 3 hours charged at 2% a hour: −4.8: 80 → 75.2 / 100');
  });

  it('per day, in points, with a cap', () => {
    const p = loadLatePolicy(policyFile('daily.yaml', 'penalty: {per: day, points: 10}\nmax_penalty: {points: 25}\n'));
    expect(verdict(p, 1)).toMatchObject({ penalty: 10, score: 70 });
    expect(verdict(p, 25)).toMatchObject({ penalty: 20, score: 60 });
    // 4 days would be 40 points: the cap keeps it at 25.
    const capped = verdict(p, 80);
    expect(capped).toMatchObject({ penalty: 25, score: 55 });
    expect(capped.summary).toContain('capped');
    // Never below zero.
    expect(verdict(p, 80, { raw: 12 })).toMatchObject({ penalty: 12, score: 0 });
  });

  it('a cap as a percent, and zero after a time', () => {
    const p = loadLatePolicy(policyFile('zero.yaml', 'penalty: {per: day, percent: 20}\nmax_penalty: {percent: 50}\nzero_after: {days: 5}\n'));
    expect(verdict(p, 24 * 4)).toMatchObject({ penalty: 40, score: 40 });
    expect(verdict(p, 24 * 5 + 1)).toMatchObject({ penalty: 80, score: 0 });
    expect(verdict(p, 24 * 5 + 1).summary).toContain('scored 0');
    const absolute = loadLatePolicy(policyFile('zero-at.yaml', 'penalty: {per: day, percent: 10}\nzero_after: 2026-10-14T23:59:00-04:00\n'));
    expect(verdict(absolute, 47)).toMatchObject({ score: 64 });
    expect(verdict(absolute, 49)).toMatchObject({ score: 0 });
  });

  it('without a policy, --due alone reports the lateness and takes nothing', () => {
    expect(verdict(undefined, 30)).toMatchObject({ minutesLate: 1800, penalty: 0, score: 80, summary: '1 day 6 h after the due date, no late policy: 80 / 100' });
  });
});

function report(...subs: { path: string; score: number }[]): GradeReport {
  return {
    version: 1,
    suite: 'Mancala 1',
    isolation: { network: false },
    submissions: subs.map((s) => ({ id: s.path.split('/').pop()!, path: s.path, score: s.score, maxScore: 100, cases: [], notes: [] })),
  };
}

const record = (id: string, submittedAt: string | undefined): SubmissionRecord => ({
  id,
  path: join(work, 'snap', id),
  source: id,
  layout: 'folders',
  files: [],
  notes: [],
  ...(submittedAt !== undefined ? { submittedAt, submittedAtSource: 'export' as const } : {}),
});

describe('an extension, and grace days across assignments', () => {
  it('an extended student is graded against their own due date', () => {
    const p = loadLatePolicy(policyFile('ext.yaml', 'penalty: {per: day, percent: 10}\nextensions:\n  "4711": 2026-10-15T23:59:00-04:00\n'));
    const students = classStudents([record('4711', at(48)), record('4712', at(48))]);
    const r = report({ path: join(work, 'snap', '4711'), score: 90 }, { path: join(work, 'snap', '4712'), score: 90 });
    applyLatePolicy(r, { due: DUE, policy: p, assignment: 'Mancala 1' }, students);
    expect(r.submissions[0]!.late).toMatchObject({ extended: true, due: '2026-10-16T03:59:00Z', minutesLate: 0, score: 90 });
    expect(r.submissions[1]!.late).toMatchObject({ minutesLate: 2880, penalty: 18, score: 72 });
    // The raw score stays the report's score.
    expect(r.submissions.map((s) => s.score)).toEqual([90, 90]);
  });

  it('grace days are spent automatically, written to the ledger, and the second assignment sees them', () => {
    const ledgerFile = join(work, 'term', 'grace-ledger.json');
    mkdirSync(join(work, 'term'), { recursive: true });
    const p = loadLatePolicy(policyFile('term/policy.yaml', 'penalty: {per: day, percent: 10}\ngrace_days: 3\ngrace_ledger: grace-ledger.json\n'));
    expect(p.graceLedger).toBe(ledgerFile);
    // Assignment 1: ada is 30 h late (2 grace days cover it), bo 5 h late (1 day), cy on time.
    const first = report({ path: join(work, 'snap', 'ada'), score: 100 }, { path: join(work, 'snap', 'bo'), score: 100 }, { path: join(work, 'snap', 'cy'), score: 100 });
    const one = classStudents([record('ada', at(30)), record('bo', at(5)), record('cy', at(-2))]);
    expect(applyLatePolicy(first, { due: DUE, policy: p, ledgerFile, assignment: 'Mancala 1' }, one)).toBe(ledgerFile);
    expect(first.submissions.map((s) => [s.late!.graceDaysSpent, s.late!.graceDaysLeft, s.late!.score])).toEqual([[2, 1, 100], [1, 2, 100], [0, 3, 100]]);
    const written = JSON.parse(readFileSync(ledgerFile, 'utf8'));
    expect(written).toEqual({ version: 1, grace_days: 3, students: { ada: { spent: { 'Mancala 1': 2 }, left: 1 }, bo: { spent: { 'Mancala 1': 1 }, left: 2 } } });

    // Assignment 2: ada is 50 h late with 1 day left: it covers 24 h, and 26 h (2 started days) are charged.
    const second = report({ path: join(work, 'snap', 'ada'), score: 100 }, { path: join(work, 'snap', 'bo'), score: 100 });
    const due2 = DUE + 7 * 24 * HOUR;
    const two2 = classStudents([record('ada', new Date(due2 + 50 * HOUR).toISOString()), record('bo', new Date(due2 + 20 * HOUR).toISOString())]);
    applyLatePolicy(second, { due: due2, policy: p, ledgerFile, assignment: 'Mancala 2' }, two2);
    expect(second.submissions[0]!.late).toMatchObject({ graceDaysSpent: 1, graceDaysLeft: 0, penalty: 20, score: 80 });
    expect(second.submissions[0]!.late!.summary).toBe('2 days 2 h after the due date, 1 grace day spent, 2 days charged at 10% a day: −20: 100 → 80 / 100');
    expect(second.submissions[1]!.late).toMatchObject({ graceDaysSpent: 1, graceDaysLeft: 1, score: 100 });
    const ledger = readLedger(ledgerFile);
    expect(Object.fromEntries([...ledger.spent].map(([id, m]) => [id, Object.fromEntries(m)]))).toEqual({ ada: { 'Mancala 1': 2, 'Mancala 2': 1 }, bo: { 'Mancala 1': 1, 'Mancala 2': 1 } });

    // Grading assignment 1 again spends nothing twice: its entry is replaced, not added to.
    const again = report({ path: join(work, 'snap', 'ada'), score: 100 });
    applyLatePolicy(again, { due: DUE, policy: p, ledgerFile, assignment: 'Mancala 1' }, one);
    expect(again.submissions[0]!.late).toMatchObject({ graceDaysSpent: 2, graceDaysLeft: 0 });
    expect(JSON.parse(readFileSync(ledgerFile, 'utf8')).students.ada).toEqual({ spent: { 'Mancala 1': 2, 'Mancala 2': 1 }, left: 0 });
  });
});

describe('submission times', () => {
  it("a plain folder with no record was handed in when its newest file was written", () => {
    const dir = join(work, 'plain', 'dee');
    mkdirSync(join(dir, 'src'), { recursive: true });
    writeFileSync(join(dir, 'agent.ts'), 'x');
    writeFileSync(join(dir, 'src', 'helper.ts'), 'y');
    utimesSync(join(dir, 'agent.ts'), new Date(DUE - HOUR), new Date(DUE - HOUR));
    utimesSync(join(dir, 'src', 'helper.ts'), new Date(DUE + 3 * HOUR), new Date(DUE + 3 * HOUR));
    const r = report({ path: dir, score: 50 });
    applyLatePolicy(r, { due: DUE, policy: loadLatePolicy(policyFile('h.yaml', 'penalty: {per: hour, points: 1}\n')), assignment: 'A' });
    expect(r.submissions[0]!.late).toMatchObject({ submittedAtSource: 'file-times', minutesLate: 180, penalty: 3, score: 47 });
  });

  it('a record without a time is taken as on time, and says so', () => {
    const r = report({ path: join(work, 'snap', 'eve'), score: 50 });
    applyLatePolicy(r, { due: DUE, assignment: 'A' }, classStudents([record('eve', undefined)]));
    expect(r.submissions[0]!.late).toMatchObject({ minutesLate: 0, score: 50, summary: 'no submission time known: taken as on time: 50 / 100' });
  });
});

describe('mistakes are one line naming the field', () => {
  const refused = (yaml: string): string => {
    try {
      loadLatePolicy(policyFile('bad.yaml', yaml));
    } catch (e) {
      expect(e).toBeInstanceOf(UserError);
      return (e as Error).message.replace(work, '$');
    }
    throw new Error('accepted');
  };
  it.each([
    ['penalty: {per: week, percent: 10}\n', '$/bad.yaml:1: penalty.per: expected hour or day, got "week"'],
    ['penalty: {per: day, percent: 10, points: 2}\n', '$/bad.yaml:1: penalty: expected the penalty as exactly one of percent (of the score) or points, per hour or day, got an object'],
    ['penalty: {per: day, percent: 120}\n', '$/bad.yaml:1: penalty.percent: expected a percent from 0 to 100, got 120'],
    ['penalty: {per: day, percent: 10}\ngrace_dayz: 2\n', '$/bad.yaml:2: grace_dayz: unknown field: expected one of penalty, max_penalty, zero_after, extensions, grace_days, grace_ledger'],
    ['grace_days: 1.5\n', '$/bad.yaml:1: grace_days: expected a whole number of days ≥ 0, got 1.5'],
    ['extensions:\n  ada: next tuesday\n', '$/bad.yaml:2: extensions.ada: expected a due date and time in ISO 8601 with a time zone, e.g. 2026-10-12T23:59:00-04:00, got "next tuesday"'],
    ['extensions:\n  ada: 2026-10-12T23:59:00\n', '$/bad.yaml:2: extensions.ada: expected a due date and time in ISO 8601 with a time zone, e.g. 2026-10-12T23:59:00-04:00, got "2026-10-12T23:59:00"'],
    ['zero_after: {weeks: 1}\n', '$/bad.yaml:1: zero_after.weeks: unknown field: expected one of hours, days'],
    ['zero_after: soon\n', '$/bad.yaml:1: zero_after: expected {days: N}, {hours: N} or a date and time in ISO 8601 with a time zone (2026-10-12T23:59:00-04:00), got "soon"'],
    ['', '$/bad.yaml: expected a late policy (penalty, max_penalty, zero_after, extensions, grace_days, grace_ledger), but the file is empty'],
  ])('%j', (yaml, message) => {
    expect(refused(yaml)).toBe(message);
  });

  it('--due without a time zone, or not a date', () => {
    expect(() => requireInstant('2026-10-12 23:59', '--due')).toThrow('--due: expected a date and time in ISO 8601 with a time zone, e.g. 2026-10-12T23:59:00-04:00 or 2026-10-13T03:59Z, got "2026-10-12 23:59"');
    expect(() => requireInstant('2026-02-30T23:59Z', '--due')).toThrow(UserError);
    expect(requireInstant('2026-10-13T03:59Z', '--due')).toBe(DUE);
  });

  it('a ledger that is not one', () => {
    const file = policyFile('ledger.json', '{"version": 1, "students": {"ada": {"spent": {"Mancala 1": -1}}}}');
    expect(() => readLedger(file)).toThrow(/ledger\.json:1: students\.ada\.spent\.Mancala 1: expected a whole number of days ≥ 0, got -1/);
  });
});
