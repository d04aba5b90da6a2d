import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { commonFailures, commonFailureWarning, normalizedMessage, reportOutcomes, type SubmissionOutcome } from './common-failure.ts';
import type { GradeReport } from './report.ts';

function outcome(id: string, kind: string | undefined, failures: (string | undefined)[]): SubmissionOutcome {
  return { id, path: `subs/${id}`, kind, failures };
}

const NO_PYTHON = 'the program could not start: python3: not found';

describe('commonFailures', () => {
  it('finds a kind whose every submission failed every case with the same message', () => {
    const found = commonFailures([outcome('alice', 'python3', [NO_PYTHON, NO_PYTHON]), outcome('bob', 'python3', [NO_PYTHON, NO_PYTHON]), outcome('carol', 'python3', [NO_PYTHON, NO_PYTHON])]);
    expect(found).toEqual([{ kind: 'python3', submissions: 3, message: NO_PYTHON }]);
  });

  it('says nothing when one case of one submission passed, or when the messages differ', () => {
    expect(commonFailures([outcome('alice', 'python3', [NO_PYTHON, undefined]), outcome('bob', 'python3', [NO_PYTHON, NO_PYTHON])])).toEqual([]);
    expect(commonFailures([outcome('alice', 'python3', [NO_PYTHON]), outcome('bob', 'python3', ['expected move B2, got B3'])])).toEqual([]);
    expect(commonFailures([outcome('alice', 'python3', [NO_PYTHON]), outcome('bob', 'python3', [NO_PYTHON, 'timeout'])])).toEqual([]);
  });

  it('needs at least two submissions of the kind: one failing submission is a student\'s own', () => {
    expect(commonFailures([outcome('alice', 'python3', [NO_PYTHON])])).toEqual([]);
  });

  it('groups by kind: a broken interpreter is found though another language passes', () => {
    const found = commonFailures([
      outcome('alice', 'python3', [NO_PYTHON]),
      outcome('bob', 'java', [undefined]),
      outcome('carol', 'python3', [NO_PYTHON]),
      outcome('dave', 'java', ['expected move B2, got B3']),
    ]);
    expect(found.map((f) => [f.kind, f.submissions])).toEqual([['python3', 2]]);
  });

  it('leaves out what is not a student\'s submission (no kind) and submissions with no case', () => {
    expect(commonFailures([outcome('random', undefined, ['x']), outcome('greedy', undefined, ['x'])])).toEqual([]);
    expect(commonFailures([outcome('alice', 'python3', []), outcome('bob', 'python3', [])])).toEqual([]);
  });

  it('compares first lines only, with each submission\'s own name and paths taken out', () => {
    const found = commonFailures([
      { id: 'alice', path: 'subs/alice', kind: 'python3', failures: [`cannot open ${resolve('subs/alice')}/main.py\ninput.txt: case 1`, 'alice: python3 not found\ninput.txt: case 2'] },
      { id: 'bob', path: 'subs/bob', kind: 'python3', failures: [`cannot open ${resolve('subs/bob')}/main.py\ninput.txt: case 1`, 'bob: python3 not found\ninput.txt: case 2'] },
    ]);
    // Two different first lines a submission: not one message.
    expect(found).toEqual([]);
    const same = commonFailures([
      { id: 'alice', path: 'subs/alice', kind: 'python3', failures: [`cannot open ${resolve('subs/alice')}/main.py\ninput.txt: case 1`, `cannot open subs/alice/main.py\ncase 2`] },
      { id: 'bob', path: 'subs/bob', kind: 'python3', failures: [`cannot open ${resolve('subs/bob')}/main.py\ninput.txt: case 7`, `cannot open subs/bob/main.py`] },
    ]);
    expect(same).toEqual([{ kind: 'python3', submissions: 2, message: 'cannot open <submission>/main.py' }]);
  });
});

describe('normalizedMessage', () => {
  it('replaces the submission\'s resolved path, its given path, and its name as a part of a path; never a mere word', () => {
    const o = { id: 'a', path: 'subs/a' };
    expect(normalizedMessage(`${resolve('subs/a')}/agent.ts: a syntax error at a line`, o)).toBe('<submission>/agent.ts: a syntax error at a line');
    expect(normalizedMessage('cannot load subs/a: no agent in /copies/a/src or a.ts', o)).toBe('cannot load <submission>: no agent in /copies/<submission>/src or a.ts');
    expect(normalizedMessage('subs/ab/x and subs/a-b', o)).toBe('subs/ab/x and subs/a-b');
  });

  it('replaces the random name of a temporary copy', () => {
    const o = { id: 'alice', path: 'alice' };
    expect(normalizedMessage(`cannot read ${join(tmpdir(), 'mancala-copy-x81Kq2')}/agent.ts`, o)).toBe('cannot read <tmp>/agent.ts');
  });
});

describe('commonFailureWarning and reportOutcomes', () => {
  it('blames the machine in one line, with the count, the kind and the message', () => {
    expect(commonFailureWarning({ kind: 'python3', submissions: 12, message: NO_PYTHON })).toBe(
      `WARNING: all 12 python3 submissions failed every case the same way: "${NO_PYTHON}" — this is most likely the grading machine, not the students`,
    );
  });

  it('reads a report: a passed case is no failure, any other status is, with its message', () => {
    const report: GradeReport = {
      version: 1,
      suite: 's',
      isolation: { network: true },
      submissions: [
        {
          id: 'alice',
          path: 'subs/alice',
          score: 1,
          maxScore: 2,
          notes: [],
          cases: [
            { id: 'c1', category: 'k', status: 'passed', score: 1, maxScore: 1, message: '', ms: 1, nodes: null, visibility: 'visible' },
            { id: 'c2', category: 'k', status: 'timeout', score: 0, maxScore: 1, message: 'too slow', ms: 1, nodes: null, visibility: 'visible' },
          ],
        },
      ],
    };
    expect(reportOutcomes(report, (s) => `kind of ${s.id}`)).toEqual([{ id: 'alice', path: 'subs/alice', kind: 'kind of alice', failures: [undefined, 'too slow'] }]);
  });
});
