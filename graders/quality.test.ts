/**
 * The `quality` check on the bundled suite testcases/move-quality: a correct agent gets full
 * marks; an agent that plays the solver's worst move loses exactly the stones the solver says
 * (asked here of the solver itself, not read from expected.json) and the partial credit the
 * case's check gives; a board bigger than the suite declares is refused when the suite loads.
 */
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Agent } from '../framework/contracts/agent.ts';
import type { MancalaGame, MancalaState } from '../framework/games/mancala/engine.ts';
import { scoreSubmission, type CaseResult } from '../framework/grading/score.ts';
import { loadSuite } from '../framework/suites/load.ts';
import { qualityCredit } from '../framework/suites/quality-check.ts';
import type { Suite, SuiteCase } from '../framework/suites/types.ts';
import { parseAgentSpec } from '../agents/index.ts';
import { solve } from '../agents/perfect/index.ts';
import { casePosition } from './case-context.ts';
import { caseMessage, gradeCase } from './index.ts';
import { observe } from './testing.ts';

const work = mkdtempSync(join(tmpdir(), 'quality-test-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

async function gradeWith(suite: Suite, c: SuiteCase, agent: Agent): Promise<CaseResult> {
  const observation = await observe(suite.manifest, c, agent);
  const checks = await gradeCase({ manifest: suite.manifest, case: c, expected: suite.expected[c.id]!, observation });
  const failed = checks.some((r) => !r.passed);
  return { c, status: failed ? 'failed' : 'passed', message: caseMessage(checks), ms: 0, nodes: null, checks };
}

/** Plays the move the solver values lowest (the last such in move order): the weakest choice there is. */
function worstMoveAgent(): Agent {
  return {
    name: 'worst',
    chooseMove(ctx) {
      const { moveValues } = solve(ctx.game as unknown as MancalaGame, ctx.state as MancalaState);
      let worst: number | undefined;
      for (const [m, v] of moveValues!) if (worst === undefined || v <= moveValues!.get(worst)!) worst = m;
      return { move: worst! };
    },
  };
}

describe('quality on testcases/move-quality', () => {
  it('a correct agent (alpha-beta to the end of the game) gets full marks', async () => {
    const suite = await loadSuite('testcases/move-quality');
    const agent = parseAgentSpec('alphabeta').agent;
    const results = await Promise.all(suite.cases.map((c) => gradeWith(suite, c, agent)));
    for (const r of results) expect(r.message, r.c.id).toBe('');
    const report = scoreSubmission(suite, 'ab', 'ab', [], results);
    expect(report.score).toBe(100);
    expect(report.maxScore).toBe(100);
  });

  it('the worst move loses exactly the stones the solver says, and the credit the check gives', async () => {
    const suite = await loadSuite('testcases/move-quality');
    const results: CaseResult[] = [];
    let partial = 0;
    for (const c of suite.cases) {
      const { game, state } = casePosition(suite.manifest, c);
      const truth = solve(game as MancalaGame, state as MancalaState);
      const worst = Math.min(...truth.moveValues!.values());
      const lost = truth.value! - worst;
      expect(lost, c.id).toBeGreaterThan(0); // every case of the suite has a move worth avoiding
      const r = await gradeWith(suite, c, worstMoveAgent());
      results.push(r);
      const credit = qualityCredit(c.checks.quality!, lost);
      if (credit === 1) {
        expect(r.status, c.id).toBe('passed');
        continue;
      }
      expect(r.status, c.id).toBe('failed');
      expect(r.message, c.id).toMatch(new RegExp(`^quality: .* gives up ${lost} stones? `));
      expect(r.message, c.id).toContain(`perfect play ends ${truth.value! > 0 ? '+' : ''}${truth.value} after the best`);
      const check = r.checks!.find((k) => k.check === 'quality')!;
      expect(check.credit ?? 0, c.id).toBeCloseTo(credit, 9);
      if (credit > 0) partial++;
    }
    expect(partial).toBeGreaterThan(0); // the suite shows partial credit somewhere
    const report = scoreSubmission(suite, 'worst', 'worst', [], results);
    for (const [k, c] of report.cases.entries()) {
      const r = results[k]!;
      const credit = r.status === 'passed' ? 1 : (r.checks!.find((x) => !x.passed)!.credit ?? 0);
      expect(c.score, c.id).toBeCloseTo(c.maxScore * credit, 5);
    }
    expect(report.score).toBeGreaterThan(0);
    expect(report.score).toBeLessThan(100);
  });
});

describe('the bound a suite declares', () => {
  function suiteWith(name: string, checks: string, top = '[2, 2, 2, 2]'): string {
    const dir = join(work, name);
    mkdirSync(join(dir, 'cases'), { recursive: true });
    writeFileSync(
      join(dir, 'suite.yaml'),
      ['name: q', 'game: kalah', 'visibility: visible', 'roles:', '  agent: {kind: agent, files: [agent.ts], reference: alphabeta}', 'categories:', '  - {name: quality, weight: 10}', ''].join('\n'),
    );
    writeFileSync(
      join(dir, 'cases', 'c.yaml'),
      ['id: big', 'category: quality', 'position:', '  board:', `    top: ${top}`, '    bottom: [2, 2, 2, 1]', '    top_store: 0', '    bottom_store: 0', `checks: ${checks}`, ''].join('\n'),
    );
    return dir;
  }

  it('a board over max_stones is refused at load, naming the file, line, field and both counts', async () => {
    const dir = suiteWith('over', '{quality: {max_stones: 12}}');
    await expect(loadSuite(dir)).rejects.toThrow(/cases\/c\.yaml:9: checks\.quality\.max_stones: the board holds 15 stones in its pits, more than max_stones 12/);
  });

  it('the default bound (12) applies to quality: true', async () => {
    await expect(loadSuite(suiteWith('default', '{quality: true}'))).rejects.toThrow(/the board holds 15 stones in its pits, more than the default max_stones 12/);
    await expect(loadSuite(suiteWith('fits', '{quality: true}', '[0, 1, 1, 1]'))).resolves.toBeDefined();
  });

  it('max_stones over what any solve may be asked is a schema error', async () => {
    await expect(loadSuite(suiteWith('huge', '{quality: {max_stones: 60}}'))).rejects.toThrow(/max_stones: expected the most stones .*from 1 to 48/);
  });

  it('no_credit_at at or under the tolerance is refused', async () => {
    await expect(loadSuite(suiteWith('credit', '{quality: {max_stones: 16, tolerance: 2, no_credit_at: 2}}'))).rejects.toThrow(/no_credit_at: expected more stones than the tolerance \(2\)/);
  });
});
