/**
 * --submission-times through the class outputs as grade and csci561-grade use them: refused
 * without --due, read before anything runs, and the run's line about times it did not have said
 * once, after the late policy's own line.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { classStudents } from '../grading/class-students.ts';
import type { GradeReport } from '../grading/report.ts';
import type { SubmissionRecord } from '../intake/submission.ts';
import { CANVAS_NO_TIMES } from '../intake/times.ts';
import { finishClassOutputs, prepareClassOutputs } from './class-outputs.ts';

const work = mkdtempSync(join(tmpdir(), 'class-times-test-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const canvas = (id: string, late: boolean): SubmissionRecord => ({ id, path: join(work, id), source: `x_${id}_*`, files: ['agent.ts'], notes: [], layout: 'canvas', late, lms: { userId: id }, noTimes: CANVAS_NO_TIMES });
const students = classStudents([canvas('1001', false), canvas('1002', true), canvas('1003', true)]);
const report = (): GradeReport => ({ version: 1, suite: 'Mancala 1', isolation: { network: false }, submissions: ['1001', '1002', '1003'].map((id) => ({ id, path: join(work, id), score: 50, maxScore: 100, cases: [], notes: [] })) });

describe('--submission-times in a class run', () => {
  it('needs --due', () => {
    expect(() => prepareClassOutputs({ submissionTimes: 'times.csv' }, { suiteName: 's', suiteDir: work, submissions: [] })).toThrow('--submission-times times.csv: needs --due, the date the times are measured against');
  });

  it('without it, the Canvas students without times are said once; with it, the times are used', () => {
    const err: string[] = [];
    const io = { out: () => {}, err: (t: string) => err.push(t) };
    const flags = { due: '2026-10-12T23:59:00-04:00' };
    const r = report();
    finishClassOutputs(io, r, prepareClassOutputs(flags, { suiteName: 's', suiteDir: work, submissions: [] }), students);
    expect(err).toEqual([
      'late policy: 2 of 3 submissions late\n',
      `late policy: ${CANVAS_NO_TIMES}: 1 submission taken as on time, 2 submissions marked late (_LATE) counted 1 day late each; --submission-times FILE (a CSV: id,submitted_at) gives their times\n`,
    ]);
    writeFileSync(join(work, 'times.csv'), 'id,submitted_at\n1001,2026-10-12T20:00:00-04:00\n1002,2026-10-13T01:00:00-04:00\n1003,2026-10-12T23:00:00-04:00\n');
    err.length = 0;
    const timed = report();
    finishClassOutputs(io, timed, prepareClassOutputs({ ...flags, submissionTimes: join(work, 'times.csv') }, { suiteName: 's', suiteDir: work, submissions: [] }), students);
    expect(err).toEqual(['late policy: 1 of 3 submissions late\n']);
    expect(timed.submissions.map((s) => [s.id, s.late!.minutesLate, s.late!.submittedAtSource])).toEqual([
      ['1001', 0, 'submission-times'],
      ['1002', 61, 'submission-times'],
      ['1003', 0, 'submission-times'],
    ]);
  });
});
