/**
 * Lateness where the export gives no times: a Canvas download (every file bears the time its zip
 * was made, here days after the due date) taken in for real, its unmarked student on time and its
 * _LATE one late by the least the policy charges; --submission-times giving the times instead; a
 * zip whose entries share one time; and the times file's mistakes, one line each.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buffer } from 'node:stream/consumers';
import { afterAll, describe, expect, it } from 'vitest';
import { ZipFile } from 'yazl';
import { UserError } from '../../errors.ts';
import { takeInSubmissions, type Intake } from '../../intake/take-in.ts';
import { classStudents } from '../class-students.ts';
import type { GradeReport } from '../report.ts';
import { lateBrief } from '../reporters/text.ts';
import { requireInstant } from './instant.ts';
import { applyLatePolicy, lateVerdict, noTimesLines, type LateRun } from './lateness.ts';
import { loadLatePolicy } from './policy.ts';
import { readSubmissionTimes } from './submission-times.ts';

const work = mkdtempSync(join(tmpdir(), 'no-times-test-'));
const intakes: Intake[] = [];
afterAll(async () => {
  for (const i of intakes) await i.dispose();
  rmSync(work, { recursive: true, force: true });
});

const DUE = requireInstant('2026-10-12T23:59:00-04:00', '--due');
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

function file(name: string, text: string): string {
  writeFileSync(join(work, name), text);
  return join(work, name);
}

async function zipped(name: string, files: Record<string, string>, mtime: Date): Promise<string> {
  const z = new ZipFile();
  for (const [f, text] of Object.entries(files)) z.addBuffer(Buffer.from(text), f, { mtime });
  z.end();
  writeFileSync(join(work, name), await buffer(z.outputStream));
  return join(work, name);
}

async function graded(zip: string, score: number): Promise<{ report: GradeReport; intake: Intake }> {
  const intake = await takeInSubmissions([zip]);
  intakes.push(intake);
  const report: GradeReport = { version: 1, suite: 'Mancala 1', isolation: { network: false }, submissions: intake.records.map((r) => ({ id: r.id, path: r.path, score, maxScore: 100, cases: [], notes: [] })) };
  return { report, intake };
}

/** Canvas's download, made five days after the due date: every entry bears that time. */
const canvasZip = () =>
  zipped('canvas.zip', { 'smithalice_1001_70001_agent.ts': 'alice', 'jonesbob_LATE_1002_70002_agent.ts': 'bob', 'jonesbob_LATE_1002_70003_helpers.ts': 'bob helpers' }, new Date(DUE + 5 * DAY));

describe('a Canvas download stamped after the due date', () => {
  it('the unmarked student is on time, the _LATE one late by one hour (a penalty per hour), said once', async () => {
    const { report, intake } = await graded(await canvasZip(), 80);
    const students = classStudents(intake.records);
    const run: LateRun = { due: DUE, policy: loadLatePolicy(file('hourly.yaml', 'penalty: {per: hour, percent: 10}\n')), assignment: 'Mancala 1' };
    applyLatePolicy(report, run, students);
    const [alice, bob] = report.submissions;
    expect(alice!.id).toBe('1001');
    expect(alice!.late).toMatchObject({ minutesLate: 0, penalty: 0, score: 80, summary: 'no submission time known, not marked late: on time: 80 / 100' });
    expect(alice!.late!.submittedAt).toBeUndefined();
    expect(bob!.late).toMatchObject({ latenessUnknown: true, minutesLate: 60, penalty: 8, score: 72 });
    expect(bob!.late!.summary).toBe("marked late with no time known (Canvas's _LATE): counted 1 h late, the least the policy charges, 1 hour charged at 10% a hour: −8: 80 → 72 / 100");
    // The console's few words say it was marked, not how late.
    expect(lateBrief(bob!.late!)).toBe('raw 80, marked late, time unknown, \u22128');
    expect(noTimesLines(report, run, students)).toEqual([
      "late policy: Canvas's download carries no submission times (each file in it bears the time the zip was made): 1 submission taken as on time, 1 submission marked late (_LATE) counted 1 h late each; --submission-times FILE (a CSV: id,submitted_at) gives their times",
    ]);
  });

  it('with a penalty per day: one day charged, or one grace day spent; never zeroed by zero_after, which needs a time', () => {
    const daily = loadLatePolicy(file('daily.yaml', 'penalty: {per: day, percent: 10}\nzero_after: {hours: 2}\n'));
    const v = lateVerdict({ due: DUE, extended: false, policy: daily, raw: 50, maxScore: 100, handedIn: { markedLate: true }, available: 0 });
    expect(v).toMatchObject({ latenessUnknown: true, minutesLate: 1440, penalty: 5, score: 45 });
    const grace = loadLatePolicy(file('grace.yaml', 'penalty: {per: day, percent: 10}\ngrace_days: 2\n'));
    expect(lateVerdict({ due: DUE, extended: false, policy: grace, raw: 50, maxScore: 100, handedIn: { markedLate: true }, available: 2 })).toMatchObject({ graceDaysSpent: 1, graceDaysLeft: 1, penalty: 0, score: 50 });
    // A time known wins over the mark.
    expect(lateVerdict({ due: DUE, extended: false, policy: daily, raw: 50, maxScore: 100, handedIn: { submittedAt: new Date(DUE - HOUR).toISOString(), submittedAtSource: 'export', markedLate: true }, available: 0 })).toMatchObject({ minutesLate: 0, score: 50 });
  });

  it('--submission-times gives the times: measured against the due date, over the mark', async () => {
    const { report, intake } = await graded(await canvasZip(), 80);
    const students = classStudents(intake.records);
    const times = readSubmissionTimes(file('times.csv', `id,submitted_at\n1002,${new Date(DUE + 2.5 * HOUR).toISOString()}\n1001,2026-10-12T22:00:00-04:00\nghost,2026-10-12T22:00:00-04:00\n`));
    const run: LateRun = { due: DUE, policy: loadLatePolicy(file('hourly.yaml', 'penalty: {per: hour, percent: 10}\n')), assignment: 'Mancala 1', times };
    applyLatePolicy(report, run, students);
    const [alice, bob] = report.submissions;
    expect(alice!.late).toMatchObject({ submittedAt: '2026-10-13T02:00:00Z', submittedAtSource: 'submission-times', minutesLate: 0, score: 80 });
    expect(bob!.late).toMatchObject({ submittedAtSource: 'submission-times', minutesLate: 150, penalty: 24, score: 56 });
    expect(bob!.late!.latenessUnknown).toBeUndefined();
    expect(noTimesLines(report, run, students)).toEqual([`--submission-times ${join(work, 'times.csv')}: no submission for the id ghost`]);
  });
});

describe('a zip whose entries share one time', () => {
  it('gives no times: each taken as on time, said once with the reason', async () => {
    const zip = await zipped('class.zip', { 'alice/agent.ts': 'a', 'bob/agent.ts': 'b' }, new Date(DUE + 3 * DAY));
    const { report, intake } = await graded(zip, 60);
    const students = classStudents(intake.records);
    const run: LateRun = { due: DUE, assignment: 'Mancala 1' };
    applyLatePolicy(report, run, students);
    expect(report.submissions.map((s) => [s.id, s.late!.minutesLate, s.late!.summary])).toEqual([
      ['alice', 0, 'no submission time known: taken as on time: 60 / 100'],
      ['bob', 0, 'no submission time known: taken as on time: 60 / 100'],
    ]);
    expect(noTimesLines(report, run, students)).toEqual([
      `late policy: every file in ${zip} has the same time (${new Date(DUE + 3 * DAY).toISOString()}), the time the zip was made, not when each was handed in: 2 submissions taken as on time; --submission-times FILE (a CSV: id,submitted_at) gives their times`,
    ]);
  });
});

describe('the times file, refused in one line', () => {
  it.each([
    ['student,when\n1001,2026-10-12T22:00:00Z\n', ':1: expected a header naming the columns id and submitted_at (id,submitted_at), got "student,when"'],
    ['id,submitted_at\n1001,2026-10-12 22:00\n', ':2: column submitted_at: expected a date and time in ISO 8601 with a time zone, e.g. 2026-10-12T23:59:00-04:00, got "2026-10-12 22:00"'],
    ['id,submitted_at\n1001,2026-10-12T22:00:00Z\n1001,2026-10-12T23:00:00Z\n', ':3: 1001: given a second time (first on line 2)'],
    ['id,submitted_at\n,2026-10-12T22:00:00Z\n', ":2: column id: expected the student's id"],
  ])('%j', (text, message) => {
    const f = file('bad-times.csv', text);
    expect(() => readSubmissionTimes(f)).toThrow(UserError);
    expect(() => readSubmissionTimes(f)).toThrow(`--submission-times ${f}${message}`);
  });
});
