/**
 * `--feedback DIR` (grade, csci561-grade): one file per student, named by the student's id,
 * holding only what the suite lets that student see (student-view.ts):
 *
 *   DIR/<id>.html   the HTML report's student view of their submission (reporters/html.ts)
 *   DIR/<id>.md     the same as Markdown, to paste into an LMS comment or mail
 *
 * A course may add its own files beside them (csci561-grade: DIR/<id>/, the failed cases' inputs
 * and the program's own files, packs/csci561/student-report.ts). Ids are checked before grading:
 * two students whose names would make the same file are refused then, not after the run.
 */
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { UserError } from '../../errors.ts';
import { writeFileAtomically } from '../../write-file.ts';
import type { GradeReport } from '../report.ts';
import { studentOf, type ClassStudents } from '../class-students.ts';
import { renderHtmlReport } from '../reporters/html.ts';
import { feedbackMarkdown } from './markdown.ts';
import { studentView, type VisibilityClock } from './student-view.ts';

/** A student id as one file name: letters, digits, `.`, `_`, `-` kept, the rest `_`. */
export function feedbackName(id: string): string {
  const name = id.replace(/[^\w.-]+/g, '_');
  return /^\.*$/.test(name) ? `_${name}` : name;
}

/** Before grading: DIR can be written, and no two students would share a file. */
export function checkFeedbackDir(dir: string, ids: readonly string[], checkFolder: (flag: string, dir: string) => void, flag = '--feedback'): void {
  checkFolder(flag, dir);
  const seen = new Map<string, string>();
  for (const id of ids) {
    const name = feedbackName(id);
    const other = seen.get(name);
    if (other !== undefined && other !== id) throw new UserError(`${flag} ${dir}: the students ${JSON.stringify(other)} and ${JSON.stringify(id)} would both get ${join(dir, `${name}.html`)}; give them different ids`);
    seen.set(name, id);
    for (const ext of ['html', 'md']) {
      const file = join(dir, `${name}.${ext}`);
      if (existsSync(file) && statSync(file).isDirectory()) throw new UserError(`${flag} ${dir}: ${file} is a folder in the way of a feedback file`);
    }
  }
}

export interface FeedbackOptions {
  students?: ClassStudents;
  clock: VisibilityClock;
  /** folders only the grading machine has (the suite's), to leave out of messages */
  machinePaths?: readonly string[];
}

/** Writes each submission's feedback into `dir`; returns the files written, by student id. */
export function writeFeedback(dir: string, report: GradeReport, o: FeedbackOptions): { id: string; files: string[] }[] {
  mkdirSync(dir, { recursive: true });
  return report.submissions.map((s) => {
    const record = studentOf(o.students, s);
    const student = { id: record.id, ...(record.name !== undefined ? { name: record.name } : {}) };
    const view = studentView(report, s, student, o.clock, o.machinePaths);
    const name = feedbackName(student.id);
    const title = `${report.suite}: feedback for ${student.name ?? student.id}`;
    const html = join(dir, `${name}.html`);
    const md = join(dir, `${name}.md`);
    writeFileAtomically(html, renderHtmlReport(view.report, { audience: 'student', title }));
    writeFileAtomically(md, feedbackMarkdown(view));
    return { id: student.id, files: [html, md] };
  });
}
