/**
 * `trace`: the agent's search events (ctx.trace) equal the reference's, either as events or as
 * seed 000's traverse log rendered from them. A failure names the first entry that differs, its
 * index, both versions, and how many entries each trace has. A program over stdio answers with
 * the positions its search visited instead (`visited`): trace-visited.ts compares those with the
 * positions the reference's events visit, and names a prune too late or too early.
 *
 * Traces cross process boundaries as JSON, which writes ±Infinity (the initial values and the
 * open window) as null; `reviveEvent` puts the infinities back where the event's meaning fixes
 * their sign, so a trace compares the same whichever way it travelled.
 */
import type { Grader, GradeInput } from '../framework/grading/types.ts';
import type { TraceEvent } from '../framework/contracts/search-trace.ts';
import { compareTraverseLog, renderTraverseLog } from '../framework/search/traverse-log.ts';
import { referencePlan } from './case-context.ts';
import { failed, missingExpected, passed } from './message.ts';
import { gradeVisited } from './trace-visited.ts';

type Loose = Record<string, unknown>;

/** An event with JSON's nulls turned back into the infinities they were. */
export function reviveEvent(event: unknown): unknown {
  if (event === null || typeof event !== 'object' || Array.isArray(event)) return event;
  const e = { ...(event as Loose) };
  if (e.value === null) e.value = e.maximizing === false ? Infinity : -Infinity;
  if (e.alpha === null) e.alpha = -Infinity;
  if (e.beta === null) e.beta = Infinity;
  return e;
}

/** A stable text of an event: keys sorted, the searches' ±1e9 shown as ±Infinity. */
export function eventText(event: unknown): string {
  const norm = (v: unknown): unknown => {
    if (typeof v === 'number') return v >= 1e9 ? 'Infinity' : v <= -1e9 ? '-Infinity' : v;
    if (v === 'Infinity' || v === '-Infinity') return v;
    if (Array.isArray(v)) return v.map(norm);
    if (v !== null && typeof v === 'object') {
      return Object.fromEntries(Object.keys(v as Loose).sort().map((k) => [k, norm((v as Loose)[k])]));
    }
    return v;
  };
  return JSON.stringify(norm(reviveEvent(event))) ?? String(event);
}

/** Where two lists of entries first differ, or undefined when they are equal. */
export function firstDifference(expected: readonly string[], got: readonly string[]): number | undefined {
  const n = Math.max(expected.length, got.length);
  for (let i = 0; i < n; i++) if (expected[i] !== got[i]) return i;
  return undefined;
}

function differenceMessage(kind: string, index: number, expected: readonly string[], got: readonly string[]): string[] {
  const want = expected[index];
  const have = got[index];
  const lines = [
    `trace: first difference at ${kind} ${index + 1}: expected ${want ?? `nothing (the reference's trace ends after ${expected.length} ${kind}s)`}, got ${have ?? `nothing (your trace ends after ${got.length} ${kind}s)`}`,
    `trace: the reference has ${expected.length} ${kind}s, yours ${got.length}`,
  ];
  if (index > 0) lines.push(`trace: the ${kind} before, the same in both: ${expected[index - 1]}`);
  return lines;
}

function gradeEvents(input: GradeInput, expected: readonly unknown[], got: readonly unknown[]) {
  const want = expected.map(eventText);
  const have = got.map(eventText);
  const index = firstDifference(want, have);
  return index === undefined ? passed('trace') : failed('trace', input, differenceMessage('event', index, want, have));
}

/** compareTraverseLog's reasons speak of "our log" (the one checked): to a student, theirs. */
const REASONS: Record<string, string> = {
  'our log ends early': 'your log ends early',
  'extra line in our log': 'an extra line in your log',
  'lines differ': 'lines differ',
};

function gradeTraverseLog(input: GradeInput, expected: readonly unknown[], got: readonly unknown[]) {
  const want = expected.map(String);
  const header = want[0]?.trim();
  const alphaBeta = header === undefined ? referencePlan(input.manifest, input.case)?.agent === 'alphabeta' : header.split(',').length === 5;
  let have: string[];
  try {
    have = renderTraverseLog(got.map(reviveEvent) as TraceEvent[], { alphaBeta });
  } catch (e) {
    if (!(e instanceof RangeError)) throw e;
    return failed('trace', input, `trace: your events cannot be written as a traverse log: ${e.message}`);
  }
  const verdict = compareTraverseLog(want, have);
  if (verdict.ok) return passed('trace');
  // The comparison knows OPTIONAL lines; report its line with the plain first difference's counts.
  const lines = [
    `trace: first difference at line ${verdict.line} of the traverse log (${REASONS[verdict.reason] ?? verdict.reason}): expected ${verdict.expected ?? 'nothing more'}, got ${verdict.actual ?? 'nothing more'}`,
    `trace: the reference's log has ${want.length} lines, yours ${have.length}`,
  ];
  if (verdict.line > 1) lines.push(`trace: the line before it in the reference's log: ${want[verdict.line - 2]!.trim()}`);
  return failed('trace', input, lines);
}

const trace: Grader = {
  check: 'trace',
  grade(input) {
    const format = input.case.checks.trace?.format ?? 'events';
    const expected = input.expected.trace;
    if (expected === undefined) return missingExpected(input, 'trace');
    const got = input.observation.trace;
    const visited = input.observation.visited;
    if (got === undefined && visited !== undefined) {
      if (format === 'events') return gradeVisited(input, expected, visited);
      return failed('trace', input, 'trace: a traverse log is written from the search\'s events, and your program sent the positions it visited only ("visited"): send the events');
    }
    if (got === undefined || (got.length === 0 && expected.length > 0)) {
      const unit = format === 'events' ? 'events' : 'traverse-log lines';
      return failed('trace', input, `trace: expected ${expected.length} ${unit}, got no trace: emit search events through ctx.trace (a program over stdio: answer with "visited", agents/clients/PROTOCOL.md)`);
    }
    return format === 'events' ? gradeEvents(input, expected, got) : gradeTraverseLog(input, expected, got);
  },
};

export default trace;
