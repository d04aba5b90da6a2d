/**
 * The early-stop rules case by case (the CLI tests show them on real runaways: grade-class-runs.slow.test.ts).
 */
import { describe, expect, it } from 'vitest';
import type { SuiteCase } from '../suites/types.ts';
import { CASE_START_MS, caseBudgetMs, defaultBudgetMs, EarlyStop, MS_A_REFERENCE_NODE, formatDuration, isStartUpFailure, MIN_BUDGET_MS, reasonOfNotRun, worstCaseMs } from './early-stop.ts';
import type { CaseStatus } from './types.ts';

function cases(categories: readonly string[], ms = 1000): SuiteCase[] {
  return categories.map(
    (category, k) => ({ id: `c${k + 1}`, file: 'x', category, role: 'agent', board: {}, options: {}, checks: {}, points: 1, limits: { ms, memoryMb: 512 }, visibility: 'visible' }) as unknown as SuiteCase,
  );
}

/** Runs `list` through a stop: each case's status from `outcome` (run cases only); the messages of those not run. */
function play(stop: EarlyStop, list: readonly SuiteCase[], outcome: (c: SuiteCase) => { status: CaseStatus; reason?: string; ms?: number }): { ran: string[]; notRun: Map<string, string> } {
  const ran: string[] = [];
  const notRun = new Map<string, string>();
  for (const c of list) {
    const skipped = stop.before(c);
    if (skipped !== undefined) {
      notRun.set(c.id, `${skipped.status}: ${skipped.message}`);
      continue;
    }
    ran.push(c.id);
    const o = outcome(c);
    stop.after(c, o.status, o.reason ?? '', o.ms ?? 10);
  }
  return { ran, notRun };
}

describe('timeouts', () => {
  it('a loop everywhere: 3 timeouts in one category stop it, the next timeout elsewhere stops the submission', () => {
    const list = cases(['a', 'a', 'a', 'a', 'b', 'b', 'c']);
    const { ran, notRun } = play(new EarlyStop({ budgetMs: 1e9 }), list, () => ({ status: 'timeout' }));
    expect(ran).toEqual(['c1', 'c2', 'c3', 'c5']);
    expect(notRun.get('c4')).toBe('timeout: not run: stopped after 3 timeouts in a row in this category (a)');
    expect(notRun.get('c6')).toBe('timeout: not run: stopped after 4 timeouts in a row');
    expect(notRun.get('c7')).toBe('timeout: not run: stopped after 4 timeouts in a row');
  });

  it('a loop in one category only skips that category: the others run', () => {
    const list = cases(['a', 'a', 'a', 'a', 'b', 'b', 'b']);
    const { ran, notRun } = play(new EarlyStop({ budgetMs: 1e9 }), list, (c) => ({ status: c.category === 'a' ? 'timeout' : 'passed' }));
    expect(ran).toEqual(['c1', 'c2', 'c3', 'c5', 'c6', 'c7']);
    expect([...notRun.keys()]).toEqual(['c4']);
  });

  it('3 timeouts across small categories stop the submission at once', () => {
    const list = cases(['a', 'b', 'c', 'd', 'e']);
    const { ran, notRun } = play(new EarlyStop({ budgetMs: 1e9 }), list, () => ({ status: 'timeout' }));
    expect(ran).toEqual(['c1', 'c2', 'c3']);
    expect(notRun.get('c4')).toBe('timeout: not run: stopped after 3 timeouts in a row');
  });

  it('a case that answers in between starts the count again', () => {
    const list = cases(['a', 'a', 'a', 'a', 'a', 'a']);
    const statuses: CaseStatus[] = ['timeout', 'timeout', 'passed', 'timeout', 'timeout', 'failed'];
    const { ran } = play(new EarlyStop({ budgetMs: 1e9 }), list, (c) => ({ status: statuses[list.indexOf(c)]! }));
    expect(ran).toHaveLength(6);
  });
});

describe('start-up failures', () => {
  it('the same start-up failure on the first 2 cases stops the rest, as errors naming it', () => {
    const why = "the submission's process exited with code 3 while loading role agent (the code that runs when its module is imported)";
    const { ran, notRun } = play(new EarlyStop({ budgetMs: 1e9 }), cases(['a', 'a', 'b']), () => ({ status: 'error', reason: why }));
    expect(ran).toEqual(['c1', 'c2']);
    expect(notRun.get('c3')).toBe(`error: not run: stopped after the same start-up failure on the first 2 cases: ${why}`);
    expect(reasonOfNotRun(notRun.get('c3')!.replace(/^error: /, ''))).toBe(why);
  });

  it('a crash that may depend on the case, or two different failures, stop nothing', () => {
    const crash = 'the program exited with code 1: IndexError: list index out of range';
    expect(play(new EarlyStop({ budgetMs: 1e9 }), cases(['a', 'a', 'a']), () => ({ status: 'error', reason: crash })).ran).toHaveLength(3);
    let k = 0;
    const different = () => ({ status: 'error' as const, reason: `the program exited with code 1: SyntaxError at line ${++k}` });
    expect(play(new EarlyStop({ budgetMs: 1e9 }), cases(['a', 'a', 'a']), different).ran).toHaveLength(3);
    // A start-up failure on a later case only is no start-up failure.
    const statuses = [{ status: 'passed' as const }, { status: 'error' as const, reason: 'ModuleNotFoundError: x' }, { status: 'error' as const, reason: 'ModuleNotFoundError: x' }];
    const list = cases(['a', 'a', 'a', 'a']);
    expect(play(new EarlyStop({ budgetMs: 1e9 }), list, (c) => statuses[list.indexOf(c)] ?? { status: 'error', reason: 'ModuleNotFoundError: x' }).ran).toHaveLength(4);
  });

  it('start-up signs: never started, cannot load; not a case-dependent crash', () => {
    expect(isStartUpFailure('the program exited with code 1: Error: Could not find or load main class mancala')).toBe(true);
    expect(isStartUpFailure('the program exited with code 1; on stderr:\n  File "mancala3.py", line 3\n    print "x"\nSyntaxError: Missing parentheses')).toBe(true);
    expect(isStartUpFailure('the program exited with code 1; on stderr:\nTraceback (most recent call last):\nIndexError: list index out of range')).toBe(false);
    expect(isStartUpFailure('the program exited with code 127: sh: 1: ./mancala: not found… command not found')).toBe(true);
    expect(isStartUpFailure('the program exited with code 1: ZeroDivisionError: division by zero')).toBe(false);
  });
});

describe('the time budget', () => {
  it('once the cases took the budget, the rest is not run, as timeouts', () => {
    const { ran, notRun } = play(new EarlyStop({ budgetMs: 25_000 }), cases(['a', 'a', 'a', 'a', 'b']), () => ({ status: 'passed', ms: 10_000 }));
    expect(ran).toEqual(['c1', 'c2', 'c3']);
    expect(notRun.get('c4')).toBe("timeout: not run: the submission's time budget (25 s) was spent");
  });

  it('the default without a reference figure (the old rule): twice the worst cases added up (a playoff counts its games), never under a minute', () => {
    expect(defaultBudgetMs(cases(['a', 'a'], 2000))).toBe(MIN_BUDGET_MS);
    expect(defaultBudgetMs(cases(Array.from({ length: 66 }, () => 'a'), 180_000))).toBe(2 * 66 * 180_000);
    const playoff = { ...cases(['p'], 1000)[0]!, checks: { playoff: { opponent: 'random', games: 4, winRate: 0.5, seed: 1, msPerMove: 500 } } } as unknown as SuiteCase;
    expect(worstCaseMs(playoff)).toBe(1000 + 4 * 50 * 500);
    expect(formatDuration(600_000)).toBe('10 min');
    expect(formatDuration(90_000)).toBe('90 s');
    expect(formatDuration(2 * 66 * 180_000)).toBe('6.6 h');
  });

  it("the default with the reference's work: each case a start and its nodes priced, never over the old rule, never under a minute", () => {
    // CSC384's shape: 66 cases of 180 s, the reference searching 1,000 nodes on each.
    const csc384 = cases(Array.from({ length: 66 }, () => 'a'), 180_000);
    const nodes = new Map(csc384.map((c) => [c.id, 1000]));
    expect(caseBudgetMs(csc384[0]!, 1000)).toBe(CASE_START_MS + 1000 * MS_A_REFERENCE_NODE);
    expect(defaultBudgetMs(csc384, nodes)).toBe(344_000); // 66 × 5.2 s, up to a whole second
    expect(formatDuration(defaultBudgetMs(csc384, nodes))).toBe('5.7 min');
    // Whole seconds: the budget is in the journal's hash and the "not run" message.
    expect(defaultBudgetMs(cases(Array.from({ length: 20 }, () => 'a'), 180_000), new Map(Array.from({ length: 20 }, (_, k) => [`c${k + 1}`, 1003])))).toBe(105_000);
    // A small suite: at least a minute.
    expect(defaultBudgetMs(csc384.slice(0, 3), nodes)).toBe(MIN_BUDGET_MS);
    // Short limits: a case's share is never over twice its worst case (the old rule).
    const short = cases(Array.from({ length: 40 }, () => 'a'), 2000);
    expect(defaultBudgetMs(short, new Map(short.map((c) => [c.id, 10])))).toBe(40 * 2 * 2000);
    // A case with no figure (no reference answer), a playoff, an anytime case: the old rule, whatever the nodes say.
    const playoff = { ...cases(['p'], 1000)[0]!, checks: { playoff: { opponent: 'random', games: 4, winRate: 0.5, seed: 1, msPerMove: 500 } } } as unknown as SuiteCase;
    const anytime = { ...cases(['q'], 180_000)[0]!, options: { ms: 5000 } } as unknown as SuiteCase;
    expect(caseBudgetMs(playoff, 10)).toBe(2 * worstCaseMs(playoff));
    expect(caseBudgetMs(anytime, 10)).toBe(2 * 180_000);
    expect(caseBudgetMs(csc384[0]!, undefined)).toBe(2 * 180_000);
    // A heuristic evaluated once: a start only.
    expect(caseBudgetMs(csc384[0]!, 0)).toBe(CASE_START_MS);
  });
});
