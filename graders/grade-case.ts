/**
 * The graders by check name, and grading a case: every check it asks for, in a fixed order.
 *
 * When a search case's move, value or node count is wrong, a diagnosis ("name the bug",
 * name-the-bug/, given by graders/index.ts) may explain it: its sentence is added to the first of
 * those failed checks' messages, or, when only an informational node count differs (a case whose
 * node counts are not graded), to that information. Without one (a student kit holds no
 * reference to compare broken variants of) the checks' own messages stand.
 */
import { DIAGNOSIS_PREFIX } from '../framework/grading/types.ts';
import type { CheckResult, Grader, GradeInput } from '../framework/grading/types.ts';
import type { Checks } from '../framework/suites/types.ts';
import evaluations from './evaluations.ts';
import heuristicValue from './heuristic-value.ts';
import move from './move.ts';
import nextState from './next-state.ts';
import nodes from './nodes.ts';
import playoff from './playoff.ts';
import quality from './quality.ts';
import time from './time.ts';
import trace from './trace.ts';
import value from './value.ts';

export type CheckName = keyof Checks;

/** The order checks run and appear in: what the agent answered first, then how, then games. */
export const CHECK_ORDER: readonly CheckName[] = ['move', 'value', 'quality', 'nodes', 'evaluations', 'trace', 'nextState', 'heuristicValue', 'time', 'playoff'];

export const GRADERS: Readonly<Record<CheckName, Grader>> = {
  move,
  value,
  quality,
  nodes,
  evaluations,
  trace,
  nextState,
  heuristicValue,
  time,
  playoff,
};

/** The checks name the bug may explain. */
const SEARCH_CHECKS = new Set<string>(['move', 'value', 'nodes']);

/** The prefix of the name-the-bug line in a message (the framework's, which the console report looks for). */
export { DIAGNOSIS_PREFIX };

/** What explains a search case's wrong answer, in a sentence (undefined: nothing does). */
export type Diagnose = (input: GradeInput) => string | undefined;

/** Grading a case: the graders of the checks `input.case` has (a check set to false is skipped), in CHECK_ORDER, then `diagnose`. */
export function gradeCaseWith(diagnose?: Diagnose): (input: GradeInput) => Promise<CheckResult[]> {
  return (input) => gradeChecks(input, diagnose);
}

async function gradeChecks(input: GradeInput, diagnose: Diagnose | undefined): Promise<CheckResult[]> {
  const checks = input.case.checks;
  const results: CheckResult[] = [];
  for (const name of CHECK_ORDER) {
    const setting = checks[name];
    if (setting === undefined || setting === false) continue;
    results.push(await GRADERS[name].grade(input));
  }
  // A failed move, value or node count; else a node count told as information (not graded), which
  // the bug that explains it is told with: a search without a working cache, say.
  const explained =
    results.find((r) => !r.passed && SEARCH_CHECKS.has(r.check)) ?? results.find((r) => r.informational === true && r.message !== '' && SEARCH_CHECKS.has(r.check));
  if (explained !== undefined && diagnose !== undefined) {
    const diagnosis = diagnose(input);
    if (diagnosis !== undefined) {
      // The sentence goes right after what differed, before the position and options.
      const lines = explained.message.split('\n');
      const at = lines.findIndex((l) => l.startsWith('position: '));
      lines.splice(at < 0 ? lines.length : at, 0, DIAGNOSIS_PREFIX + diagnosis);
      explained.message = lines.join('\n');
    }
  }
  return results;
}

/** The lines every failure message ends with (message.ts): the same for all checks of a case. */
const CONTEXT_LINE = /^(position: |options: |reproduce: |  then run: |  note: )/;

/**
 * One message for a case from its checks' results: what differed in each failed check, in order,
 * then the position, options and reproduce lines once (each failure message carries the same ones).
 * Empty when every check passed.
 */
export function caseMessage(results: readonly CheckResult[]): string {
  const heads: string[] = [];
  const context: string[] = [];
  for (const r of results) {
    if (r.passed) continue;
    for (const line of r.message.split('\n')) {
      if (!CONTEXT_LINE.test(line)) heads.push(line);
      else if (!context.includes(line)) context.push(line);
    }
  }
  return [...heads, ...context].join('\n');
}
