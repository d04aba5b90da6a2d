/**
 * A realistic GradeReport for the reporters' tests: several submissions, every status, every
 * visibility, and the strings student output really holds (commas, quotes, newlines, markup,
 * formulas, ANSI escapes, control characters, unicode).
 */
import type { CaseReport, GradeReport } from '../report.ts';

/** What a crashing agent printed: markup, quotes, an ANSI colour, a NUL, a BEL, CRLF, a lone surrogate, U+FFFF. */
export const NASTY_MESSAGE =
  'TypeError: cannot read "pits" of undefined, <script>alert(\'x\')</script> & more\r\n' +
  '  at chooseMove (agent.ts:12:5)\n\u001b[31mred\u001b[0m \u0000nul \u0007bell \ud800 \uffff ünïcödé 😀 =cmd()';

function kase(fields: Partial<CaseReport> & Pick<CaseReport, 'id' | 'category' | 'status'>): CaseReport {
  return { score: 0, maxScore: 2, message: '', ms: 12.345, nodes: null, visibility: 'visible', ...fields };
}

export function sampleReport(): GradeReport {
  return {
    version: 1,
    suite: 'kalah-basics',
    isolation: { network: false, note: 'unshare is not available here: the network was reachable' },
    submissions: [
      {
        id: 'alice',
        path: 'submissions/alice',
        score: 0.1 + 0.2 + 2,
        maxScore: 15,
        cases: [
          kase({ id: 'move-01', category: 'move', status: 'passed', score: 2, nodes: 1234, description: 'opening, "free turn" pit' }),
          kase({
            id: 'move-02',
            category: 'move',
            status: 'failed',
            message: 'expected move B3 (value 4), got B4 (value 2)\nposition: 4,4,4,4,4,4 / 4,4,4,4,4,4\nreproduce: mancala search --rules kalah --depth 4',
            nodes: 987,
            checks: [
              { check: 'move', passed: false, message: 'expected B3, got B4' },
              { check: 'value', passed: false, message: 'expected 4, got 2' },
              { check: 'nodes', passed: true, message: '' },
            ],
          }),
          kase({ id: 'nodes-01', category: 'nodes', status: 'error', message: NASTY_MESSAGE, ms: 3.05 }),
          kase({ id: 'nodes-02', category: 'nodes', status: 'timeout', message: 'no answer within 1000 ms (the limit); the process was killed', ms: 1012.96, score: 0.1 + 0.2 }),
          kase({ id: 'deep-01', category: 'playoff', status: 'memory', message: 'the process went over its 256 MB memory limit', visibility: 'hidden', ms: 2400, maxScore: 5 }),
          kase({ id: 'secret-02', category: 'playoff', status: 'failed', message: 'HIDDEN-ANSWER: won 3 of 10 games', visibility: 'after_due_date', maxScore: 2 }),
        ],
        notes: ['role agent: agent.ts', 'refused symlink agents/evil -> /etc/passwd'],
      },
      {
        id: '=HYPERLINK("http://evil.example","click")',
        path: 'submissions/a, "b"\nc',
        score: 4,
        maxScore: 15,
        cases: [
          kase({ id: 'move-01', category: 'move', status: 'passed', score: 2 }),
          kase({ id: 'move-02', category: 'move', status: 'passed', score: 2 }),
        ],
        notes: [],
      },
      {
        id: 'bob',
        path: 'submissions/bob',
        score: 15,
        maxScore: 15,
        cases: [
          kase({ id: 'move-01', category: 'move', status: 'passed', score: 2 }),
          kase({ id: 'move-02', category: 'move', status: 'passed', score: 2 }),
          kase({ id: 'nodes-01', category: 'nodes', status: 'passed', score: 2 }),
          kase({ id: 'nodes-02', category: 'nodes', status: 'passed', score: 2 }),
          kase({ id: 'deep-01', category: 'playoff', status: 'passed', score: 5, maxScore: 5, visibility: 'hidden' }),
          kase({ id: 'secret-02', category: 'playoff', status: 'passed', score: 2, visibility: 'after_due_date' }),
        ],
        notes: [],
      },
    ],
  };
}

/** The report as `--visibility visible` would produce it: the runner leaves every other case out. */
export function visibleOnly(report: GradeReport): GradeReport {
  return {
    ...report,
    submissions: report.submissions.map((s) => {
      const cases = s.cases.filter((c) => c.visibility === 'visible');
      return {
        ...s,
        cases,
        score: cases.reduce((t, c) => t + c.score, 0),
        maxScore: cases.reduce((t, c) => t + c.maxScore, 0),
      };
    }),
  };
}
