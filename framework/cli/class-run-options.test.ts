/**
 * Where a class run's journal goes (journalFile), and the --submission-time-limit parser. The
 * journal itself, resumed by real runs: grading/grade-journal.test.ts and
 * commands/grade-class-runs.slow.test.ts.
 */
import { basename, dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { journalFile, parseDuration } from './class-run-options.ts';

describe('journalFile', () => {
  it('beside the first report file, in the order json, csv, gradescope, junit, html', () => {
    expect(journalFile({}, { csv: 'out/grades.csv', html: 'out/r.html' })).toBe(join('out', 'grades.journal.jsonl'));
    expect(journalFile({}, { html: 'r/index.html', json: 'out/report.json' })).toBe(join('out', 'report.journal.jsonl'));
  });

  it("with only a gradebook: beside the gradebook's file (the first, when there are several)", () => {
    expect(journalFile({}, { gradebook: ['canvas', 'out/canvas-import.csv', 'moodle', 'elsewhere/moodle.csv'] })).toBe(join('out', 'canvas-import.journal.jsonl'));
    // A report file still comes first.
    expect(journalFile({}, { gradebook: ['canvas', 'out/canvas-import.csv'], junit: 'ci/junit.xml' })).toBe(join('ci', 'junit.journal.jsonl'));
  });

  it('with only --feedback: beside the folder, never in it (students receive its files; the journal holds hidden answers)', () => {
    expect(journalFile({}, { feedback: 'out/feedback' })).toBe(resolve('out', 'feedback.journal.jsonl'));
    expect(journalFile({}, { feedback: 'out/feedback/' })).toBe(resolve('out', 'feedback.journal.jsonl'));
    expect(journalFile({}, { feedback: '.' })).toBe(join(dirname(resolve('.')), `${basename(resolve('.'))}.journal.jsonl`));
    // A gradebook's file comes before the feedback folder.
    expect(journalFile({}, { feedback: 'out/feedback', gradebook: ['moodle', 'lms/moodle.csv'] })).toBe(join('lms', 'moodle.journal.jsonl'));
  });

  it('--journal FILE wins, --no-journal keeps none, and a run writing nothing keeps none', () => {
    expect(journalFile({ journal: 'j.jsonl' }, { feedback: 'fb' })).toBe('j.jsonl');
    expect(journalFile({ journal: false }, { json: 'r.json', feedback: 'fb', gradebook: ['csv', 'g.csv'] })).toBeUndefined();
    expect(journalFile({}, {})).toBeUndefined();
  });
});

describe('parseDuration', () => {
  it('ms, or a number with a unit; under a second is refused', () => {
    expect([parseDuration('600000'), parseDuration('90s'), parseDuration('10m'), parseDuration('1.5h'), parseDuration('1500ms')]).toEqual([600_000, 90_000, 600_000, 5_400_000, 1500]);
    expect(() => parseDuration('999ms')).toThrow(/at least 1 s/);
    expect(() => parseDuration('10x')).toThrow(/at least 1 s/);
  });
});
