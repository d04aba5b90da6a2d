/**
 * The class-wide warning (startup-failures.ts): programs that never got going, counted; a few
 * broken programs among working ones, a failed build or a machine without the runtime are not it.
 */
import { describe, expect, it } from 'vitest';
import type { CaseReport, SubmissionReport } from '../../grading/report.ts';
import type { ProgramRuns } from './grade-programs.ts';
import { failedAtStartUp, startUpWarning } from './startup-failures.ts';
import { shellCommand } from './grade-programs.ts';

const INPUT = '\ninput.txt (csci561-public/inputs/greedy-01.txt):\n  1\n  usage is not in here\n';
const kase = (status: CaseReport['status'], message: string): CaseReport => ({ id: 'c', category: 'greedy', status, score: 0, maxScore: 1, message, ms: 0, nodes: null, visibility: 'visible' });
const sub = (id: string, ...cases: CaseReport[]): SubmissionReport => ({ id, path: id, score: 0, maxScore: 1, cases, notes: [] });
const runs = (id: string, argv = ['java', '-cp', '.', 'mancala'], setupError = ''): ProgramRuns => ({ id, path: id, argv, setupError, failed: [] });

const JAVA = 'the program exited with code 1; on stderr:\nException in thread "main" java.lang.ArrayIndexOutOfBoundsException: Index 1 out of bounds for length 0';
const PY = 'the program exited with code 1; on stderr:\nTraceback (most recent call last):\nIndexError: list index out of range';
const NONE = 'next_state.txt: your program did not write it';
const WRONG = 'next_state.txt line 1: expected "0 1", got "1 0"';

describe('a program that never got going', () => {
  it('is one whose every case failed with an argument index, a usage message or nothing written, whatever its language', () => {
    expect(failedAtStartUp(sub('a', kase('error', JAVA + INPUT), kase('error', JAVA + INPUT)))).toBe(true);
    expect(failedAtStartUp(sub('b', kase('error', PY + INPUT)))).toBe(true);
    expect(failedAtStartUp(sub('c', kase('failed', NONE + INPUT), kase('error', 'the program exited with code 1; on stdout:\nUsage: java mancala -i input.txt' + INPUT)))).toBe(true);
    // A wrong answer is the student's; one passed case means it got going; the input's own text is not read.
    expect(failedAtStartUp(sub('d', kase('failed', WRONG + INPUT)))).toBe(false);
    expect(failedAtStartUp(sub('e', kase('error', JAVA + INPUT), kase('passed', '')))).toBe(false);
  });
});

describe('the warning', () => {
  const how = "CSCI-561 ran its programs with `-i input.txt`";
  it('counts them, names the lines they ran as, once, when at least 2 and a third of the programs failed so', () => {
    const reports = [sub('a', kase('error', JAVA)), sub('b', kase('error', JAVA)), sub('c', kase('error', PY)), sub('d', kase('failed', WRONG))];
    const r = [runs('a'), runs('b'), runs('c', ['python3', 'mancala3.py']), runs('d')];
    expect(startUpWarning(reports, r, how, shellCommand)).toBe(
      'WARNING: 3 of 4 programs failed every case at start-up (an argument index out of range, a usage message, no next_state.txt written…) — most likely the run line, not the students. ' +
        'They ran as `java -cp . mancala` (2), `python3 mancala3.py`; CSCI-561 ran its programs with `-i input.txt`',
    );
  });

  it('says nothing for one such program, for a few among many, or for builds that failed', () => {
    expect(startUpWarning([sub('a', kase('error', JAVA)), sub('b', kase('passed', ''))], [runs('a'), runs('b')], how, shellCommand)).toBeUndefined();
    const many = Array.from({ length: 7 }, (_, k) => sub(`s${k}`, kase(k < 2 ? 'error' : 'passed', k < 2 ? JAVA : '')));
    expect(startUpWarning(many, many.map((s) => runs(s.id)), how, shellCommand)).toBeUndefined();
    const built = [sub('a', kase('error', 'compile error: x')), sub('b', kase('error', 'compile error: x'))];
    expect(startUpWarning(built, [runs('a', undefined, 'compile error: x'), runs('b', undefined, 'compile error: x')], how, shellCommand)).toBeUndefined();
  });
});
