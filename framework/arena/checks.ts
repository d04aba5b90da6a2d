/**
 * An upload's first stage: the course's public checks, the visible cases `mancala check` runs for
 * a student (course.ts), in the sandbox, graded as `mancala grade` grades them. The text is what
 * `mancala check` prints, for the upload's owner alone.
 */
import { UserError } from '../errors.ts';
import { renderCheck } from '../grading/reporters/console.ts';
import { gradeSubmissions, selectCases } from '../grading/runner.ts';
import { loadProgramSuite } from '../packs/csci561/course-suite.ts';
import type { SandboxMode } from '../sandbox/jail/mechanisms.ts';
import { suiteFolders, type ArenaCourse } from './course.ts';

export interface CheckFeedback {
  /** some case ran (passed or failed on its merits): the submission is something the sandbox can run */
  ran: boolean;
  passed: number;
  total: number;
  /** one line: "18 of 22 visible cases passed", or why none ran */
  summary: string;
  /** what `mancala check` prints, without colours */
  text: string;
}

export async function runPublicChecks(course: ArenaCourse, folder: string, sandbox: SandboxMode): Promise<CheckFeedback> {
  const folders = suiteFolders(course);
  if (folders.length === 0) return { ran: true, passed: 0, total: 0, summary: `${course.name} has no public suite: straight to the sanity stage`, text: '' };
  let passed = 0;
  let total = 0;
  let ranSome = false;
  const texts: string[] = [];
  let firstError: string | undefined;
  for (const dir of folders) {
    const suite = await loadProgramSuite(dir);
    if (selectCases(suite, 'visible').length === 0) continue;
    let report;
    try {
      report = await gradeSubmissions({ suite, submissions: [folder], visibility: 'visible', jobs: 1, sandbox });
    } catch (e) {
      if (!(e instanceof UserError)) throw e;
      texts.push(`${suite.manifest.name}: ${e.message}`);
      firstError ??= e.message;
      continue;
    }
    texts.push(renderCheck(report, { color: false }).replaceAll(folder, 'your submission'));
    const cases = report.submissions[0]!.cases;
    total += cases.length;
    passed += cases.filter((c) => c.status === 'passed').length;
    if (cases.some((c) => c.status !== 'error')) ranSome = true;
    else firstError ??= cases[0]?.message.split('\n')[0];
  }
  const summary = ranSome ? `${passed} of ${total} visible cases passed` : `no case ran: ${(firstError ?? 'no visible case').replaceAll(folder, 'your submission')}`;
  return { ran: ranSome, passed, total, summary, text: texts.join('\n') };
}
