/**
 * The course's grading rule for one case's files, made strict. As the official graders did: lines
 * compared after stripping surrounding white space, an expected traverse-log line marked
 * `<TAB>OPTIONAL` matched by the same fields with an infinity or left out, everything else line by
 * line; Greedy (task 1) checks next_state.txt only. Unlike them (a deliberate improvement), an
 * extra line at the end, or an extra field on a line, fails the case: the course's graders read
 * only as many lines and fields as they expected, so a file with junk after the answer passed.
 */
import { compareTraverseLog } from '../../search/traverse-log.ts';
import { NEXT_STATE_FILE, TRAVERSE_LOG_FILE } from './files.ts';

export type FileVerdict = { ok: true } | { ok: false; message: string };

/** Lines of a file as the rule reads them: trimmed, trailing blank lines dropped. */
function gradedLines(text: string): string[] {
  const lines = text.split(/\r?\n/).map((l) => l.trim());
  while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

const shown = (line: string | undefined): string => (line === undefined ? 'nothing (the file ends)' : JSON.stringify(line));

/** next_state.txt: the same lines, each equal once trimmed; no line more, no line less. */
export function compareNextState(expected: string, got: string): FileVerdict {
  const want = gradedLines(expected);
  const have = gradedLines(got);
  for (let i = 0; i < Math.max(want.length, have.length); i++) {
    if (want[i] === have[i]) continue;
    const extra = want[i] === undefined ? ' (an extra line)' : '';
    return { ok: false, message: `${NEXT_STATE_FILE} line ${i + 1}${extra}: expected ${shown(want[i])}, got ${shown(have[i])}` };
  }
  return { ok: true };
}

/** traverse_log.txt against an expected log whose optional lines are marked as the official files mark them. */
export function compareLog(expectedMarked: string, got: string): FileVerdict {
  const verdict = compareTraverseLog(expectedMarked.split('\n'), got.split(/\r?\n/));
  if (verdict.ok) return verdict;
  const reason = verdict.reason === 'extra line in our log' ? 'an extra line' : verdict.reason === 'our log ends early' ? 'your log ends early' : 'lines differ';
  return {
    ok: false,
    message: `${TRAVERSE_LOG_FILE} line ${verdict.line} (${reason}): expected ${shown(verdict.expected)}, got ${shown(verdict.actual)}`,
  };
}

export interface ExpectedFiles {
  task: 1 | 2 | 3;
  nextState: string;
  /** the log with OPTIONAL lines marked (tasks 2 and 3) */
  traverseLog?: string;
}

/** Every failure of a case's files, in file order: empty when the case passes. */
export function compareCaseFiles(expected: ExpectedFiles, got: { nextState?: string; traverseLog?: string }): string[] {
  const problems: string[] = [];
  if (got.nextState === undefined) problems.push(`${NEXT_STATE_FILE}: your program did not write it`);
  else {
    const v = compareNextState(expected.nextState, got.nextState);
    if (!v.ok) problems.push(v.message);
  }
  if (expected.task === 1 || expected.traverseLog === undefined) return problems;
  if (got.traverseLog === undefined) problems.push(`${TRAVERSE_LOG_FILE}: your program did not write it`);
  else {
    const v = compareLog(expected.traverseLog, got.traverseLog);
    if (!v.ok) problems.push(v.message);
  }
  return problems;
}
