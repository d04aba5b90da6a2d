/**
 * The graders against the bundled suites as `suite bless` wrote them: the references themselves,
 * standing in for a submission, pass every case (so graders and blessing agree on every field),
 * and the example submission bob (plain minimax) fails the node counts with his bug named.
 */
import { describe, expect, it } from 'vitest';
import type { Agent } from '../framework/contracts/agent.ts';
import type { Observation } from '../framework/sandbox/exchange.ts';
import { loadSuite } from '../framework/suites/load.ts';
import type { Suite, SuiteCase } from '../framework/suites/types.ts';
import { findHeuristic, parseAgentSpec } from '../agents/index.ts';
import { casePosition } from './case-context.ts';
import { caseMessage, gradeCase } from './index.ts';
import { inProcessAsker, observe } from './testing.ts';

async function grade(suite: Suite, c: SuiteCase, agent?: Agent) {
  const { manifest } = suite;
  const role = manifest.roles[c.role]!;
  let observation: Observation;
  const player = agent ?? (role.kind === 'agent' ? parseAgentSpec(role.reference).agent : parseAgentSpec('alphabeta:depth=3').agent);
  if (role.kind === 'heuristic') {
    const { game, state, player: side } = casePosition(manifest, c);
    observation = { heuristicValue: findHeuristic(role.reference)!.evaluate(state, side, game), ms: 0 };
  } else {
    observation = await observe(manifest, c, player);
  }
  const session = inProcessAsker(manifest.game, player);
  return gradeCase({ manifest, case: c, expected: suite.expected[c.id]!, observation, session });
}

describe.each(['testcases/kalah-basics', 'testcases/hidden-example', 'testcases/move-quality'])('%s', (dir) => {
  it('the reference passes every case', async () => {
    const suite = await loadSuite(dir);
    expect(suite.cases.length).toBeGreaterThan(0);
    for (const c of suite.cases) {
      const results = await grade(suite, c);
      expect(results.length, c.id).toBeGreaterThan(0);
      expect(caseMessage(results), c.id).toBe('');
    }
  });
});

describe('bob on kalah-basics', () => {
  it('fails exact node counts and is told he searched without pruning', async () => {
    const suite = await loadSuite('testcases/kalah-basics');
    const bob = (await import('../agents/examples/bob/agent.ts')).default;
    const counted = suite.cases.filter((c) => c.checks.nodes?.mode === 'exact');
    expect(counted.length).toBeGreaterThan(0);
    for (const c of counted) {
      const message = caseMessage(await grade(suite, c, bob));
      expect(message, c.id).toMatch(/^nodes: expected exactly/m);
      expect(message, c.id).toContain('likely bug: Your search matches the reference with no pruning, plain minimax where alpha-beta is expected');
    }
  });
});
