import { describe, expect, it } from 'vitest';
import type { GradeReport } from '../../grading/report.ts';
import { withoutGraderPaths } from './student-paths.ts';

describe('what a student reads on Gradescope', () => {
  it('names files inside the submission, and none of the autograder\'s folders', () => {
    const root = '/autograder';
    const dir = '/autograder/submission/hw2';
    const report: GradeReport = {
      version: 1,
      suite: 'Kalah basics',
      isolation: { network: true },
      notes: [`graded from ${dir}`],
      submissions: [
        {
          id: 'submission',
          path: dir,
          score: 0,
          maxScore: 10,
          notes: [`role agent: ${dir}/agent.ts`, 'p1: a symbolic link (refused)', `the suites are in ${root}/source/suites`],
          categories: [],
          cases: [{ id: 'c1', category: 'x', visibility: 'visible', status: 'error', message: `${dir}: mancala.yaml: a symbolic link (refused)`, ms: 0, nodes: null, score: 0, maxScore: 10 }],
        } as unknown as GradeReport['submissions'][number],
      ],
    };
    const seen = withoutGraderPaths(report, dir, root);
    expect(seen.notes).toEqual(['graded from your submission']);
    const s = seen.submissions[0]!;
    expect(s.notes).toEqual(['role agent: agent.ts', 'p1: a symbolic link (refused)', 'the suites are in source/suites']);
    expect(s.cases[0]!.message).toBe('your submission: mancala.yaml: a symbolic link (refused)');
    expect(s.path).toBe('submission/hw2');
    expect(JSON.stringify(seen)).not.toContain(root);
  });
});
