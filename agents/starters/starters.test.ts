/**
 * The starters are templates: their TODOs are the homework. What a student relies on before
 * writing a line is that the starter as shipped loads, answers legally and is graded — failing
 * cases, never errors — so `mancala check` on it is the first step of each pack's README.
 * (The csc384 and cpsc4610 starters, the courses' Python, are graded in testcases/kit-starters-python.test.ts;
 * their TypeScript versions, csc384-typescript and cpsc4610-typescript, in testcases/csc384.test.ts and cpsc4610.test.ts.)
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { gradeSubmissions } from '../../framework/grading/runner.ts';
import { playMatch } from '../../framework/matches/match.ts';
import { loadSuite } from '../../framework/suites/load.ts';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '../..');

describe('the starters as shipped', () => {
  it('csci561: every visible case of the public suite is graded (passed or failed), none is an error', async () => {
    const suite = await loadSuite(join(root, 'testcases/csci561-public'));
    const report = await gradeSubmissions({ suite, submissions: [join(here, 'csci561')], visibility: 'visible', jobs: 1 });
    const cases = report.submissions[0]!.cases;
    expect(cases.length).toBe(30);
    for (const c of cases) expect(['passed', 'failed'], `${c.id}: ${c.message}`).toContain(c.status);
    // A template is not a solution: the search cases must not all pass.
    expect(cases.filter((c) => c.status === 'failed').length).toBeGreaterThan(10);
  }, 60_000);

  it('cs540: plays whole games against random under the anytime rule without a forfeit', async () => {
    const r = await playMatch({ A: join(here, 'cs540'), B: 'random', rules: 'cs540', games: 2, timePerMoveMs: 500, seed: 3 });
    expect(r.games).toHaveLength(2);
    for (const g of r.games) expect(g.forfeit).toBeNull();
  }, 60_000);
});
