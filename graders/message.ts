/**
 * The shape every failure message shares, so a student always finds the same four things in the
 * same place: what differed, the position, the options, and how to reproduce the reference.
 *
 *   move: expected B3 (index 3), got B1 (index 1)
 *   position: kalah(6,4): top [4 4 4 4 4 4] store 0, bottom [4 4 4 4 4 4] store 0, bottom to move
 *   options: alphabeta, depth 4 (unit move), terminal score, heuristic basic, no caching
 *   reproduce: npx mancala search --rules kalah --pits 6 --seeds 4 --algo alphabeta --depth 4 …
 */
import { UserError } from '../framework/errors.ts';
import type { CheckResult, GradeInput } from '../framework/grading/types.ts';
import { casePosition, describeCaseOptions } from './case-context.ts';
import { reproduceLines } from './reproduce.ts';

/** The lines after "what differed": position, options, reproduce. */
export function contextLines(input: GradeInput): string[] {
  const { manifest } = input;
  const c = input.case;
  return [`position: ${casePosition(manifest, c).description}`, `options: ${describeCaseOptions(manifest, c)}`, ...reproduceLines(manifest, c)];
}

/** A failed check whose message starts with `what` (one or more lines) and ends with the context. */
export function failed(check: string, input: GradeInput, what: string | string[]): CheckResult {
  const head = typeof what === 'string' ? [what] : what;
  return { check, passed: false, message: [...head, ...contextLines(input)].join('\n') };
}

export function passed(check: string, message = ''): CheckResult {
  return { check, passed: true, message };
}

/**
 * The blessed answers lack a field the check needs: the suite's mistake, not the student's, so
 * it stops the run with a message naming the case and the fix.
 */
export function missingExpected(input: GradeInput, field: string): never {
  throw new UserError(
    `${input.manifest.dir}: case ${input.case.id}: expected.json has no "${field}" for the ${field} check: run \`mancala suite bless ${input.manifest.dir}\``,
  );
}

/** A number as messages print it: ±Infinity for the searches' "no value yet" (±1e9). */
export function num(v: number): string {
  if (v >= 1e9) return 'Infinity';
  if (v <= -1e9) return '-Infinity';
  return String(v);
}
