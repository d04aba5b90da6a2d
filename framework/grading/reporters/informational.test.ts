/**
 * What the graders found but did not grade (CaseReport.info: a node count in a suite whose node
 * counts are informational) in every reporter: shown as information, never as a failure, and
 * the JSON report keeps it (and each check's `informational`) through a round trip.
 */
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import type { CaseReport, GradeReport } from '../report.ts';
import { scoreSubmission } from '../score.ts';
import type { Suite, SuiteCase } from '../../suites/types.ts';
import { renderCheck, renderConsole } from './console.ts';
import { toCsv } from './csv.ts';
import { toGradescope } from './gradescope.ts';
import { parseReport, toJson } from './json.ts';
import { toJUnit } from './junit.ts';

const NO_CACHE = 'likely bug: Your search matches the reference with no transposition table where caching is expected (same move, value and node count).';
const info = (got: number, want: number, bug = true) =>
  `nodes: your search visited ${got.toLocaleString('en-US')} nodes; the reference ${want.toLocaleString('en-US')} (informational, not graded)${bug ? `\n${NO_CACHE}` : ''}`;

function kase(id: string, fields: Partial<CaseReport> = {}): CaseReport {
  return { id, category: 'caching', status: 'passed', score: 2, maxScore: 2, message: '', ms: 1.5, nodes: 630, visibility: 'visible', ...fields };
}

function report(cases: CaseReport[]): GradeReport {
  const score = cases.reduce((total, c) => total + c.score, 0);
  return {
    version: 1,
    suite: 'CSC384 A2',
    isolation: { network: true },
    submissions: [{ id: 'no-caching', path: 'subs/no-caching', score, maxScore: 2 * cases.length, cases, notes: [] }],
  };
}

const passedWithInfo = kase('caching-01', { info: [info(2298, 1200)], checks: [{ check: 'move', passed: true, message: '' }, { check: 'nodes', passed: true, message: info(2298, 1200), informational: true }] });
const failedWithInfo = kase('caching-02', {
  status: 'failed',
  score: 0,
  message: 'move: expected B3 (index 3), got B1 (index 1)\nposition: csc384(6,4): …',
  info: [info(900, 700, false)],
  checks: [
    { check: 'move', passed: false, message: 'move: expected B3 (index 3), got B1 (index 1)\nposition: csc384(6,4): …' },
    { check: 'nodes', passed: true, message: info(900, 700, false), informational: true },
  ],
});
const plain = kase('plain-01', { nodes: 40 });

describe('score.ts: CaseReport.info from the informational checks', () => {
  const c = { id: 'x', file: 'c.yaml', category: 'caching', role: 'agent', board: { top: [], bottom: [], topStore: 0, bottomStore: 0 }, options: {}, checks: {}, points: 1, limits: { ms: 1, memoryMb: 16 }, visibility: 'visible' } as SuiteCase;
  const suite = { manifest: { categories: [{ name: 'caching', weight: 10 }] }, cases: [c], expected: {} } as unknown as Suite;

  it('the messages of informational checks that said something, and nothing else; the status and score are the case\'s', () => {
    const checks = [
      { check: 'move', passed: true, message: '' },
      { check: 'nodes', passed: true, message: info(2298, 1200), informational: true },
    ];
    const s = scoreSubmission(suite, 'a', 'a', [], [{ c, status: 'passed', message: '', ms: 1, nodes: 2298, checks }]);
    expect(s.cases[0]).toMatchObject({ status: 'passed', score: 10, info: [info(2298, 1200)] });
    expect(s.score).toBe(10);
    const quiet = scoreSubmission(suite, 'a', 'a', [], [{ c, status: 'passed', message: '', ms: 1, nodes: 1200, checks: [{ check: 'nodes', passed: true, message: '', informational: true }] }]);
    expect(quiet.cases[0]!.info).toBeUndefined();
    expect(Object.keys(quiet.cases[0]!)).not.toContain('info');
  });
});

describe('json', () => {
  it('writes info after the message and informational on its check, and reads both back; a case without info has no key', () => {
    const r = report([passedWithInfo, plain]);
    const text = toJson(r);
    const c = JSON.parse(text).submissions[0].cases;
    expect(Object.keys(c[0])).toEqual(['id', 'category', 'status', 'score', 'maxScore', 'message', 'info', 'ms', 'nodes', 'visibility', 'checks']);
    expect(c[0].info).toEqual([info(2298, 1200)]);
    expect(c[0].checks[1]).toEqual({ check: 'nodes', passed: true, message: info(2298, 1200), informational: true });
    expect(Object.keys(c[1])).not.toContain('info');
    expect(parseReport(text, 'r.json')).toEqual(r);
    expect(() => parseReport(text.replace('"info": [', '"info": [5, '), 'r.json')).toThrow(/^r\.json: field "submissions\[0\]\.cases\[0\]\.info\[0\]": expected a line of information \(a string\), got 5$/);
  });
});

describe('console', () => {
  it('without --verbose: one case shows its information, the bug it names once; a passed case stays passed', () => {
    const text = renderConsole(report([passedWithInfo, plain]), { color: false, verbose: false });
    expect(text).toMatch(/^no-caching  4 \/ 4  all 2 cases passed  \d+\.\d s CPU  subs\/no-caching\n/m);
    expect(text).toContain(`  info (caching-01): ${info(2298, 1200, false)}\n`);
    expect(text).toContain(`  likely bug, not graded (caching-01): ${NO_CACHE.slice('likely bug: '.length)}\n`);
    expect(text).not.toContain('✗');
  });

  it('without --verbose: many cases in one line each for the finding and the bug, with their ids', () => {
    const cases = [1, 2, 3, 4, 5].map((k) => kase(`caching-0${k}`, { info: [info(1000 + k, 700)] }));
    const lines = renderConsole(report([...cases, plain]), { color: false, verbose: false }).split('\n');
    expect(lines.filter((l) => l.startsWith('  info ') || l.startsWith('  likely bug'))).toEqual([
      "  info (caching-01, caching-02, caching-03 and 2 more): nodes differ from the reference's in 5 cases (informational, not graded; --verbose shows each)",
      `  likely bug, not graded (caching-01, caching-02, caching-03 and 2 more): ${NO_CACHE.slice('likely bug: '.length)}`,
    ]);
  });

  it('a failed case gives its submission\'s line its reason; its information is listed apart', () => {
    const lines = renderConsole(report([failedWithInfo]), { color: false, verbose: false }).split('\n');
    expect(lines.find((l) => l.startsWith('no-caching'))).toMatch(/  failed \(caching-02\): move: expected B3 \(index 3\), got B1 \(index 1\)$/);
    expect(lines).toContain(`  info (caching-02): ${info(900, 700, false)}`);
  });

  it('--verbose: the information under each case, passed ones included', () => {
    const lines = renderConsole(report([passedWithInfo, plain]), { color: false, verbose: true }).split('\n');
    const at = lines.findIndex((l) => l.includes('caching-01'));
    expect(lines.slice(at, at + 3)).toEqual(['  ✓ passed  caching-01', `      ${info(2298, 1200, false)}`, `      ${NO_CACHE}`]);
  });

  it("the student's check: under the case, passed or failed, after a failure's message", () => {
    const text = renderCheck(report([passedWithInfo, failedWithInfo]), { color: false });
    expect(text).toContain(`  ✓ [caching] caching-01\n      ${info(2298, 1200, false)}\n      ${NO_CACHE}\n`);
    expect(text).toContain(`  ✗ [caching] caching-02\n      move: expected B3 (index 3), got B1 (index 1)\n      position: csc384(6,4): …\n      ${info(900, 700, false)}\n`);
    expect(text).toContain('1 of 2 cases failed');
  });
});

describe('gradescope, junit, csv', () => {
  it('Gradescope: the information is the test\'s output (after the message of a failure); the status is the case\'s', () => {
    const tests = toGradescope(report([passedWithInfo, failedWithInfo, plain])).tests;
    expect(tests[0]).toMatchObject({ status: 'passed', score: 2, output: info(2298, 1200) });
    expect(tests[1]).toMatchObject({ status: 'failed', output: `move: expected B3 (index 3), got B1 (index 1)\nposition: csc384(6,4): …\n${info(900, 700, false)}` });
    expect(tests[2]!.output).toBeUndefined();
  });

  it('JUnit: <system-out> holds the information; a passed case has no <failure>', () => {
    const xml = toJUnit(report([passedWithInfo, failedWithInfo, plain]));
    expect(XMLValidator.validate(xml)).toBe(true);
    const parsed = new XMLParser({ ignoreAttributes: false, isArray: (name) => name === 'testcase' }).parse(xml) as {
      testsuites: { testsuite: { testcase: Record<string, unknown>[] } };
    };
    const [passed, failed, quiet] = parsed.testsuites.testsuite.testcase;
    expect(passed!['system-out']).toBe(info(2298, 1200));
    expect(passed!.failure).toBeUndefined();
    expect(failed!.failure).toBeDefined();
    expect(failed!['system-out']).toBe(info(900, 700, false));
    expect(quiet!['system-out']).toBeUndefined();
    expect(xml).toContain('failures="1"');
  });

  it('CSV: scores only; the information changes nothing', () => {
    expect(toCsv(report([passedWithInfo, plain]))).toBe(toCsv(report([{ ...passedWithInfo, info: undefined } as CaseReport, plain])));
  });
});
