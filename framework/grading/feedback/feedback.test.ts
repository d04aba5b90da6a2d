/**
 * The student's view (student-view.ts) and its files (markdown.ts, write.ts), on a report built
 * here: a visible case shows expected against got and the likely bug; a hidden one only its
 * points; an after_due_date one is hidden until every due date has passed; the grader's paths are
 * left out; a student's output cannot break out of the Markdown it is quoted in.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { GradeReport } from '../report.ts';
import { classStudents } from '../class-students.ts';
import { feedbackMarkdown } from './markdown.ts';
import { caseShown, studentView } from './student-view.ts';
import { checkFeedbackDir, feedbackName, writeFeedback } from './write.ts';

const work = mkdtempSync(join(tmpdir(), 'feedback-test-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const SUB = join(work, 'snapshots', 'ada');
const SUITE = join(work, 'course', 'secret-suite');

function report(): GradeReport {
  return {
    version: 1,
    suite: 'Mancala 1',
    isolation: { network: true },
    notes: ['--time-limit 3000 for this run'],
    submissions: [
      {
        id: 'ada',
        path: SUB,
        score: 30,
        maxScore: 100,
        notes: [`role agent: ${SUB}/agent.ts`],
        cases: [
          {
            id: 'shown-depth-2',
            category: 'search',
            status: 'failed',
            score: 0,
            maxScore: 20,
            message: 'move: expected B3 (index 3), got B1 (index 1)\nlikely bug: Your search counts depth in turns where moves are expected.\n```\n# injected heading',
            ms: 3,
            nodes: 40,
            visibility: 'visible',
          },
          {
            id: 'secret-depth-7',
            category: 'search',
            status: 'failed',
            score: 0,
            maxScore: 40,
            message: `nodes: expected exactly 98,765 (the reference's count), got 12 (see ${SUITE}/cases/secret.yaml)`,
            ms: 3,
            nodes: 12,
            visibility: 'hidden',
          },
          { id: 'after-deadline-case', category: 'counts', status: 'failed', score: 10, maxScore: 40, message: 'value: expected -417, got 3', ms: 3, nodes: 9, visibility: 'after_due_date' },
        ],
      },
    ],
  };
}

const DUE = Date.parse('2026-10-13T03:59:00Z');

describe('the tiers', () => {
  it('visible always, after_due_date once the due date has passed, hidden never', () => {
    expect(caseShown('visible', { now: 0 })).toBe(true);
    expect(caseShown('after_due_date', { now: DUE + 1 })).toBe(false); // no due date given: hidden
    expect(caseShown('after_due_date', { revealAt: DUE, now: DUE - 1 })).toBe(false);
    expect(caseShown('after_due_date', { revealAt: DUE, now: DUE })).toBe(true);
    expect(caseShown('hidden', { revealAt: DUE, now: DUE * 2 })).toBe(false);
  });

  it('before the due date: the visible case whole, the others as points by category', () => {
    const view = studentView(report(), report().submissions[0]!, { id: 'ada', name: 'Lovelace, Ada' }, { revealAt: DUE, now: DUE - 1000 }, [SUITE]);
    const md = feedbackMarkdown(view);
    expect(view.report.submissions[0]!.cases.map((c) => c.id)).toEqual(['shown-depth-2']);
    expect(md).toContain('| move | B3 (index 3) | B1 (index 1) |');
    expect(md).toContain('**Likely bug:** Your search counts depth in turns where moves are expected.');
    expect(md).toContain('Cases not shown: 2 cases, 10 / 80 points (search: 0 / 40; counts: 10 / 40). Some are shown after the due date.');
    for (const secret of ['secret-depth-7', '98,765', 'after-deadline-case', '-417', SUITE, SUB, 'time-limit']) expect(md).not.toContain(secret);
    // The student's own output, quoted, cannot close its fence: the fence is longer than any run of backticks in it.
    expect(md).toContain('````text\nmove: expected B3');
    expect(md).toContain('- role agent: your submission/agent.ts');
  });

  it('after every due date has passed, an after_due_date case is shown whole', () => {
    const view = studentView(report(), report().submissions[0]!, { id: 'ada' }, { revealAt: DUE, now: DUE + 1 }, [SUITE]);
    const md = feedbackMarkdown(view);
    expect(view.revealed).toBe(true);
    expect(md).toContain('after-deadline-case');
    expect(md).toContain('| value | -417 | 3 |');
    expect(md).not.toContain('98,765');
    expect(md).toContain('Cases not shown: 1 case, 0 / 40 points (search: 0 / 40).');
  });
});

describe('the files', () => {
  it('one HTML and one Markdown file per student, named by the id, the student view in both', () => {
    const r = report();
    const dir = join(work, 'feedback');
    const students = classStudents([{ id: 'u/1001', name: 'Lovelace, Ada', path: SUB, source: 'x', files: [], notes: [], layout: 'folders' }]);
    const written = writeFeedback(dir, r, { students, clock: { now: DUE }, machinePaths: [SUITE] });
    expect(written).toEqual([{ id: 'u/1001', files: [join(dir, 'u_1001.html'), join(dir, 'u_1001.md')] }]);
    const html = readFileSync(join(dir, 'u_1001.html'), 'utf8');
    expect(html).toContain('<td class="exp">B3 (index 3)</td><td class="got">B1 (index 1)</td>');
    expect(html).toContain('Lovelace, Ada (u/1001)');
    for (const secret of ['secret-depth-7', '98,765', '-417', SUITE, SUB]) expect(html).not.toContain(secret);
    // The instructors' report is untouched: it keeps everything.
    expect(r.submissions[0]!.cases).toHaveLength(3);
  });

  it('two students who would share a file are refused before grading', () => {
    expect(feedbackName('..')).toBe('_..');
    expect(() => checkFeedbackDir(join(work, 'fb2'), ['a b', 'a_b'], () => {})).toThrow('--feedback');
  });
});
