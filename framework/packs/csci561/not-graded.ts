/**
 * Programs the grader cannot run through no fault of the student's: the course's line asks for a
 * runtime of a version this machine lacks (CSCI-561's mancala.py is Python 2.7, and Debian ships
 * none). Such a program is not graded, with one line, and counted apart in the run's notes;
 * never a score that looks like the student's.
 */
import { isPython2Word, resolveRuntime } from '../../sandbox/programs/runtimes.ts';
import type { ProgramRuns } from './program-runs.ts';
import type { ProgramSubmission } from './program.ts';

/**
 * Why the grader cannot run `submission` at all when the fault is the machine's: the course's
 * line asks for Python 2.7 and none is here. One line, never a score that blames the student.
 */
export async function missingRuntime(submission: ProgramSubmission): Promise<string | undefined> {
  const word = submission.argv[0];
  if (word === undefined || !isPython2Word(word)) return undefined;
  const found = await resolveRuntime(word);
  if (!('problem' in found)) return undefined;
  const what = submission.course === undefined ? `its command asks for ${word}` : `${submission.course.file} is ${submission.course.language} ${submission.course.version ?? ''}`.trimEnd() + ` in this course`;
  return `${what}; no Python 2.7 found: install one or pass --python2`;
}

/** The run's note counting the programs the machine could not run (each says why), apart from the graded ones. */
export function notGradedNotes(programs: readonly ProgramRuns[]): string[] {
  const byReason = new Map<string, string[]>();
  for (const p of programs) if (p.notGraded !== undefined) byReason.set(p.notGraded, [...(byReason.get(p.notGraded) ?? []), p.id]);
  return [...byReason].map(([reason, ids]) => `${ids.length} of ${programs.length} submission${programs.length === 1 ? '' : 's'} NOT GRADED, not the students' fault (${ids.slice(0, 5).join(', ')}${ids.length > 5 ? ` and ${ids.length - 5} more` : ''}): ${reason}`);
}
