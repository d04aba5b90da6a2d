/**
 * What one student may see of their graded submission: the suite's visibility tiers applied.
 *
 *   visible          the case whole: expected against got, the likely bug, the reproduce line
 *   after_due_date   the same once the due date has passed (every extension too: nobody who can
 *                    still hand in sees an answer); before it, as hidden
 *   hidden           the score only: points per category, no case, no id, no message
 *
 * The instructors' reports (JSON, HTML) keep everything; this view is what feedback files hold.
 * It also leaves out what only the grading machine knows: the path graded (the student is named by
 * their id) and any mention of it or of the suite's folder in a message, and the run's notes.
 */
import { resolve } from 'node:path';
import type { CaseReport, GradeReport, LateVerdict, SubmissionReport } from '../report.ts';
import type { Visibility } from '../../suites/types.ts';
import { formatPoints } from '../reporters/text.ts';

export interface VisibilityClock {
  /** the latest due date of the class (--due, or a later extension), ms; undefined: no due date given */
  revealAt?: number;
  /** now, ms (a parameter, so tests and re-runs decide it) */
  now: number;
}

/** Points of the cases a student does not see, by category. */
export interface HiddenTotal {
  category: string;
  cases: number;
  score: number;
  maxScore: number;
}

export interface StudentView {
  /** a report of this one submission, with the cases the student sees (all marked visible) */
  report: GradeReport;
  hidden: HiddenTotal[];
  /** after_due_date cases shown (the due date has passed) */
  revealed: boolean;
  late?: LateVerdict;
  /** the student as feedback names them */
  student: { id: string; name?: string };
}

/** Whether a case of this visibility is shown to its student now. */
export function caseShown(visibility: Visibility, clock: VisibilityClock): boolean {
  if (visibility === 'visible') return true;
  if (visibility === 'after_due_date') return clock.revealAt !== undefined && clock.now >= clock.revealAt;
  return false;
}

/** `text` with every occurrence of the machine's paths replaced by what the student knows them as. */
export function withoutPaths(text: string, paths: readonly (readonly [string, string])[]): string {
  let out = text;
  for (const [path, shown] of paths) if (path.length > 1) out = out.split(path).join(shown);
  return out;
}

export function studentView(report: GradeReport, s: SubmissionReport, student: { id: string; name?: string }, clock: VisibilityClock, machinePaths: readonly string[] = []): StudentView {
  // Longest first, so a folder inside another is replaced before its parent.
  const paths = [
    // The path as given only when it is a path (a bare name like "ab" would eat every "ab" of a message).
    ...[resolve(s.path), ...(s.path.includes('/') ? [s.path] : [])].map((p) => [p, 'your submission'] as const),
    ...machinePaths.map((p) => [resolve(p), '(the course\u2019s files)'] as const),
  ].sort((a, b) => b[0].length - a[0].length);
  const clean = (t: string) => withoutPaths(t, paths);
  const shown: CaseReport[] = [];
  const hidden = new Map<string, HiddenTotal>();
  for (const c of s.cases) {
    if (caseShown(c.visibility, clock)) {
      shown.push({
        ...c,
        visibility: 'visible',
        message: clean(c.message),
        ...(c.info !== undefined ? { info: c.info.map(clean) } : {}),
        ...(c.checks !== undefined ? { checks: c.checks.map((k) => ({ ...k, message: clean(k.message) })) } : {}),
      });
      continue;
    }
    let t = hidden.get(c.category);
    if (t === undefined) hidden.set(c.category, (t = { category: c.category, cases: 0, score: 0, maxScore: 0 }));
    t.cases += 1;
    t.score += c.score;
    t.maxScore += c.maxScore;
  }
  const revealed = s.cases.some((c) => c.visibility === 'after_due_date') && caseShown('after_due_date', clock);
  const notes = [...(s.late !== undefined ? [`Late policy: ${s.late.summary}`] : []), ...hiddenNotes([...hidden.values()], s.cases.some((c) => c.visibility === 'after_due_date') && !revealed), ...s.notes.map(clean)];
  const sub: SubmissionReport = {
    id: student.id,
    path: student.name !== undefined ? `${student.name} (${student.id})` : student.id,
    score: s.score,
    maxScore: s.maxScore,
    cases: shown,
    notes,
    ...(s.notGraded !== undefined ? { notGraded: clean(s.notGraded) } : {}),
    ...(s.late !== undefined ? { late: s.late } : {}),
  };
  return {
    report: { version: 1, suite: report.suite, isolation: report.isolation, submissions: [sub] },
    hidden: [...hidden.values()],
    revealed,
    ...(s.late !== undefined ? { late: s.late } : {}),
    student,
  };
}

/** The lines that stand for the cases not shown: their points by category, nothing else. */
export function hiddenNotes(hidden: readonly HiddenTotal[], moreAfterDue: boolean): string[] {
  if (hidden.length === 0) return [];
  const cases = hidden.reduce((t, h) => t + h.cases, 0);
  const score = hidden.reduce((t, h) => t + h.score, 0);
  const max = hidden.reduce((t, h) => t + h.maxScore, 0);
  const by = hidden.map((h) => `${h.category}: ${formatPoints(h.score)} / ${formatPoints(h.maxScore)}`).join('; ');
  return [
    `Cases not shown: ${cases} case${cases === 1 ? '' : 's'}, ${formatPoints(score)} / ${formatPoints(max)} points (${by}).${moreAfterDue ? ' Some are shown after the due date.' : ''}`,
  ];
}
