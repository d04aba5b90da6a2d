/**
 * A `quality` verdict in every report format the project writes: the move's lost stones (its
 * message) and the partial credit (its score) reach the console, the JSON report (and back),
 * Gradescope's results.json, JUnit, the CSV gradebook (under the suite's weighted category) and
 * the HTML page. The report is graded for real on testcases/move-quality.
 */
import { describe, expect, it } from 'vitest';
import type { Agent } from '../framework/contracts/agent.ts';
import type { MancalaGame, MancalaState } from '../framework/games/mancala/engine.ts';
import type { GradeReport } from '../framework/grading/report.ts';
import { renderConsole } from '../framework/grading/reporters/console.ts';
import { toCsv } from '../framework/grading/reporters/csv.ts';
import { toGradescope } from '../framework/grading/reporters/gradescope.ts';
import { renderHtmlReport } from '../framework/grading/reporters/html.ts';
import { escapeHtml } from '../framework/grading/reporters/html-text.ts';
import { parseReport, toJson } from '../framework/grading/reporters/json.ts';
import { toJUnit } from '../framework/grading/reporters/junit.ts';
import { scoreSubmission, type CaseResult } from '../framework/grading/score.ts';
import { loadSuite } from '../framework/suites/load.ts';
import { solve } from '../agents/perfect/index.ts';
import { caseMessage, gradeCase } from './index.ts';
import { observe } from './testing.ts';

/** Plays the solver's second-best value where there is one: a move that loses a little. */
const runnerUp: Agent = {
  name: 'runner-up',
  chooseMove(ctx) {
    const { moveValues, value } = solve(ctx.game as unknown as MancalaGame, ctx.state as MancalaState);
    const below = [...moveValues!].filter(([, v]) => v < value!).sort((a, b) => b[1] - a[1]);
    return { move: (below[0] ?? [...moveValues!][0]!)[0] };
  },
};

async function report(): Promise<GradeReport> {
  const suite = await loadSuite('testcases/move-quality');
  const results: CaseResult[] = [];
  for (const c of suite.cases) {
    const checks = await gradeCase({ manifest: suite.manifest, case: c, expected: suite.expected[c.id]!, observation: await observe(suite.manifest, c, runnerUp) });
    results.push({ c, status: checks.every((k) => k.passed) ? 'passed' : 'failed', message: caseMessage(checks), ms: 1, nodes: null, checks });
  }
  return { version: 1, suite: suite.manifest.name, isolation: { network: true }, submissions: [scoreSubmission(suite, 'runner-up', 'runner-up', [], results)] };
}

describe('quality in every report format', () => {
  it('shows the stones lost and scores the partial credit', async () => {
    const r = await report();
    const s = r.submissions[0]!;
    const partial = s.cases.find((c) => c.status === 'failed' && c.score > 0 && c.score < c.maxScore);
    expect(partial, 'a case with partial credit').toBeDefined();
    const line = partial!.message.split('\n')[0]!;
    expect(line).toMatch(/^quality: .* gives up \d+ stones? .*% of the case's points$/);

    // The class's console is one line a submission, led by its most common reason (a quality verdict here);
    // --verbose shows every case's whole message, the partial credit's among them.
    const classLine = renderConsole(r, { color: false, verbose: false }).split('\n').find((l) => l.startsWith('runner-up  '));
    expect(classLine).toMatch(/ failed .*quality: .* gives up \d+ stones?/);
    expect(renderConsole(r, { color: false, verbose: true })).toContain(line);

    const json = toJson(r);
    const back = parseReport(json, 'report.json').submissions[0]!.cases.find((c) => c.id === partial!.id)!;
    expect(back.score).toBe(partial!.score);
    expect(back.checks!.find((k) => k.check === 'quality')!.credit).toBeGreaterThan(0);

    const gradescope = toGradescope(r).tests!.find((t) => t.name.includes(partial!.id))!;
    expect(gradescope.score).toBe(partial!.score);
    expect(gradescope.output).toContain(line);

    const junit = toJUnit(r);
    expect(junit).toContain(`type="quality"`);
    expect(junit).toContain(escapeHtml(line).replace(/&#39;/g, "'").slice(0, 40));

    // The suite's weighted categories are the gradebook's columns, partial credit included.
    const [header, row] = toCsv(r).split('\r\n');
    const cols = header!.split(',');
    const quality = s.cases.filter((c) => c.category === 'move quality').reduce((t, c) => t + c.score, 0);
    expect(cols).toContain('move quality');
    expect(Number(row!.split(',')[cols.indexOf('move quality')])).toBeCloseTo(quality, 5);

    const html = renderHtmlReport(r);
    expect(html).toContain(escapeHtml(line.slice(0, 30)));
  });
});
