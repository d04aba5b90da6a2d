/**
 * What the suite's reference needs, case by case, for the default time budget of a submission
 * (early-stop.ts, defaultBudgetMs): the nodes the reference's search visits on each case, found by
 * running the reference in this process exactly as `suite bless` does (suites/bless.ts; trusted
 * code, the agents plugin). A count, not a time: the same on every machine and every run, so the
 * budget, which the journal's hash and the "not run" messages carry, is the same too. It costs the
 * reference's own time once a run (the CSC384 hidden suite's 66 cases: about 50 ms).
 */
import { blessCase } from '../suites/bless.ts';
import { GameCache } from '../suites/game.ts';
import type { Suite, SuiteCase } from '../suites/types.ts';

/**
 * The nodes the reference searches on each of `cases` (0: it evaluates a heuristic once), by case
 * id. A case the reference does not run on (a playoff, a check with no reference answer), or fails
 * on, has no entry: its budget is the old rule's.
 */
export async function referenceWork(suite: Suite, cases: readonly SuiteCase[]): Promise<Map<string, number>> {
  const games = new GameCache();
  const nodes = new Map<string, number>();
  for (const c of cases) {
    const work: { nodes?: number } = {};
    try {
      await blessCase(suite.manifest, games, c, work);
    } catch {
      // The grader says of such a case what it must; here it only has no figure.
      continue;
    }
    if (work.nodes !== undefined) nodes.set(c.id, work.nodes);
  }
  return nodes;
}
