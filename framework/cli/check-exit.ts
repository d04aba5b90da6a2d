/**
 * `--check`: the exit of a student's check for commands that otherwise exit 0 whatever the scores
 * (gauntlet, csci561-grade). Every course's kit runs its `npm run check` through one of them or
 * through `mancala check`, and all must say the same thing to a script or a CI job: exit 1 when a
 * case did not pass, as `mancala check` does.
 */
import { Option } from 'commander';
import { UserError } from '../errors.ts';
import type { GradeReport } from '../grading/report.ts';

/** `when`: "a case did not pass", "an opponent played was not beaten" */
export function checkExitOption(when: string): Option {
  return new Option('--check', `a student's check (the kits' npm run check): exit 1 when ${when}, as mancala check does`);
}

/** The exit-1 error when a case of the report did not pass (undefined: every one passed); `cases` names them ("cases", "opponents"). */
export function failedCheck(report: GradeReport, cases: string): UserError | undefined {
  const all = report.submissions.flatMap((s) => s.cases);
  const failed = all.filter((c) => c.status !== 'passed').length;
  const notGraded = report.submissions.filter((s) => s.notGraded !== undefined).length;
  if (failed === 0 && notGraded === 0 && all.length > 0) return undefined;
  if (all.length === 0) return new UserError(`no ${cases} were checked`, 1);
  return new UserError(`${failed} of ${all.length} ${cases} did not pass`, 1);
}
