/**
 * What a student reads on Gradescope names none of the grader's folders. Notes and messages name
 * the files they speak of by the path graded (`role agent: /autograder/submission/agent.ts`), which
 * tells a student where the autograder lives and how it is laid out (its suites sit beside the
 * submission). In results.json they name the file inside the submission instead, and any other
 * mention of the autograder's root by what it is.
 */
import { relative } from 'node:path';
import type { GradeReport } from '../../grading/report.ts';

/** `report` with `submissionDir` (the folder graded) and `root` (the autograder's) taken out of every note and message. */
export function withoutGraderPaths(report: GradeReport, submissionDir: string, root: string): GradeReport {
  const scrub = (text: string) => text.split(`${submissionDir}/`).join('').split(submissionDir).join('your submission').split(`${root}/`).join('').split(root).join('the autograder');
  return {
    ...report,
    ...(report.notes !== undefined ? { notes: report.notes.map(scrub) } : {}),
    submissions: report.submissions.map((s) => ({
      ...s,
      // results.json's extra_data: the folder graded, as Gradescope's own layout names it (submission/, or a folder inside).
      path: relative(root, s.path) || '.',
      notes: s.notes.map(scrub),
      ...(s.notGraded !== undefined ? { notGraded: scrub(s.notGraded) } : {}),
      cases: s.cases.map((c) => ({ ...c, message: scrub(c.message) })),
    })),
  };
}
