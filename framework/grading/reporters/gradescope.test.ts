import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { UserError } from '../../errors.ts';
import { toGradescope } from './gradescope.ts';
import { NASTY_MESSAGE, sampleReport, visibleOnly } from '../../../testcases/fixtures/grade-report.ts';

/**
 * Every field of results.json as https://gradescope-autograders.readthedocs.io/en/latest/specs/
 * lists it ("Output format"), with its type; strict, so a misspelt field of ours fails.
 */
const visibility = z.enum(['hidden', 'after_due_date', 'after_published', 'visible']);
const format = z.enum(['text', 'simple_format', 'html', 'md', 'ansi']);
const gradescopeTest = z.strictObject({
  score: z.number().optional(),
  max_score: z.number().optional(),
  status: z.enum(['passed', 'failed']).optional(),
  name: z.string().optional(),
  name_format: format.optional(),
  number: z.string().optional(),
  output: z.string().optional(),
  output_format: format.optional(),
  tags: z.array(z.string()).optional(),
  visibility: visibility.optional(),
  extra_data: z.record(z.string(), z.unknown()).optional(),
});
const gradescopeResults = z.strictObject({
  score: z.number().optional(),
  execution_time: z.number().optional(),
  output: z.string().optional(),
  output_format: format.optional(),
  test_output_format: format.optional(),
  test_name_format: format.optional(),
  visibility: visibility.optional(),
  stdout_visibility: visibility.optional(),
  extra_data: z.record(z.string(), z.unknown()).optional(),
  tests: z.array(gradescopeTest).optional(),
  leaderboard: z
    .array(z.strictObject({ name: z.string(), value: z.union([z.number(), z.string()]), order: z.enum(['asc', 'desc']).optional() }))
    .optional(),
});

describe('toGradescope', () => {
  const report = sampleReport();

  it("matches the spec's field names and types, for every submission, after a JSON round trip", () => {
    report.submissions.forEach((_s, k) => {
      const results = JSON.parse(JSON.stringify(toGradescope(report, k)));
      const parsed = gradescopeResults.safeParse(results);
      expect(parsed.error?.issues ?? []).toEqual([]);
      // "score: optional, but required if not on each test case": we always give both.
      expect(typeof results.score).toBe('number');
      for (const t of results.tests) expect(typeof t.score).toBe('number');
    });
  });

  it('maps each case to a test: name, score, status, output, visibility, number and tags', () => {
    const results = toGradescope(report, 0);
    expect(results.score).toBe(2.3);
    expect(results.tests.map((t) => t.name)).toEqual([
      '[move] move-01 — opening, "free turn" pit',
      '[move] move-02',
      '[nodes] nodes-01',
      '[nodes] nodes-02',
      '[playoff] deep-01',
      '[playoff] secret-02',
    ]);
    expect(results.tests.map((t) => t.status)).toEqual(['passed', 'failed', 'failed', 'failed', 'failed', 'failed']);
    expect(results.tests.map((t) => t.number)).toEqual(['1.1', '1.2', '2.1', '2.2', '3.1', '3.2']);
    expect(results.tests.map((t) => t.visibility)).toEqual(['visible', 'visible', 'visible', 'visible', 'hidden', 'after_due_date']);
    expect(results.tests.map((t) => t.tags)).toEqual([['move'], ['move'], ['nodes'], ['nodes'], ['playoff'], ['playoff']]);
    expect(results.tests.map((t) => [t.score, t.max_score])).toEqual([[2, 2], [0, 2], [0, 2], [0.3, 2], [0, 5], [0, 2]]);
    expect(results.tests[0]!.output).toBeUndefined();
    expect(results.tests[1]!.output).toBe(report.submissions[0]!.cases[1]!.message);
    expect(results.tests[3]!.output).toBe('Status: timeout (over the time limit)\nno answer within 1000 ms (the limit); the process was killed');
    expect(results.tests[4]!.output).toMatch(/^Status: memory \(over the memory limit\)\n/);
    expect(results.tests[2]!.extra_data).toEqual({ id: 'nodes-01', category: 'nodes', status: 'error', ms: 3.1, nodes: null });
    for (const t of results.tests) {
      expect(t.name_format).toBe('text');
      expect(t.output_format).toBe('text');
    }
  });

  it('shows student output as plain text: markup kept verbatim, escapes and control characters shown, not obeyed', () => {
    const output = toGradescope(report, 0).tests[2]!.output!;
    expect(output.startsWith('Status: error (the agent crashed, threw or answered something malformed)\nTypeError: cannot read "pits"')).toBe(true);
    expect(output).toContain("<script>alert('x')</script> & more\n  at chooseMove");
    expect(output).toContain('\\x1b[31mred\\x1b[0m \\x00nul \\x07bell');
    expect(output).toContain('ünïcödé 😀 =cmd()');
    expect(output).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f]|\p{Cs}/u);
    expect(NASTY_MESSAGE).toContain('\u001b[31m');
  });

  it('summarises the visible cases only: no hidden id, message or total score in the top-level output', () => {
    const results = toGradescope(report, 0);
    expect(results.output_format).toBe('text');
    expect(results.stdout_visibility).toBe('hidden');
    expect(results.output).toContain('Visible cases: 1 of 4 passed (1 failed, 1 error, 1 timeout)');
    expect(results.output).toContain('  move: 2 / 4 points, 1 of 2 passed');
    expect(results.output).toContain('  nodes: 0.3 / 4 points, 0 of 2 passed');
    expect(results.output).toContain('Further cases are graded');
    expect(results.output).toContain('  - agents/evil: a symbolic link (refused)');
    expect(results.output).toContain('the network was NOT cut off. unshare is not available here');
    for (const secret of ['deep-01', 'secret-02', 'HIDDEN-ANSWER', 'playoff', '2.3', '15']) expect(results.output).not.toContain(secret);
  });

  it('maps a --visibility visible run as it is: only visible tests, no "further cases" line', () => {
    const results = toGradescope(visibleOnly(report), 0);
    expect(results.tests.map((t) => t.visibility)).toEqual(['visible', 'visible', 'visible', 'visible']);
    expect(results.score).toBe(2.3);
    expect(results.output).not.toContain('Further cases');
  });

  it("lists the run's notes first among the notes of the output", () => {
    const output = toGradescope({ ...sampleReport(), notes: ['limits overridden for this run: time 500 ms'] }, 0).output;
    expect(output).toMatch(/\nNotes:\n  - limits overridden for this run: time 500 ms\n  - role agent: agent\.ts\n/);
  });

  it('gives execution_time in whole seconds, rounded up', () => {
    expect(toGradescope(report, 0).execution_time).toBe(4); // 3.5 s of cases
    expect(toGradescope(report, 2).execution_time).toBe(1); // 0.07 s
  });

  it('refuses a submission the report does not have', () => {
    expect(() => toGradescope(report, 3)).toThrow(UserError);
    expect(() => toGradescope(report, 3)).toThrow('the grade report has no submission #4 (it has 3)');
  });
});
