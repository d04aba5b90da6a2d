/**
 * The class-wide warning that catches a wrong run line: when many programs of a run fail every
 * case at start-up (an argument index out of range, a usage message, no next_state.txt written),
 * the likely fault is how they were run (the course ran `java mancala -i input.txt`, and real
 * programs read args[1]), not a whole class's code. Said once, loudly, with the count and the
 * lines they were run with.
 */
import type { SubmissionReport } from '../../grading/report.ts';
import type { ProgramRuns } from './program-runs.ts';

/** What a program that never got going says, whatever its language. */
const START_UP_SIGNS: readonly RegExp[] = [
  /ArrayIndexOutOfBounds|Index \d+ out of bounds for length \d+/,
  /IndexError: list index out of range/,
  /\busage\b/i,
  /std::out_of_range|std::logic_error|basic_string.*null/,
  /next_state\.txt: your program did not write it/,
  /Could not find or load main class|ClassNotFoundException/,
  /Missing parentheses in call to 'print'|SyntaxError/,
  /No such file or directory/,
];

/** A case message's part about the run, without the input and the line to reproduce it. */
function runPart(message: string): string {
  const cut = message.search(/\ninput\.txt \(/);
  return cut < 0 ? message : message.slice(0, cut);
}

/** Every case of `s` failed, each with a sign of a program that never got going. */
export function failedAtStartUp(s: SubmissionReport): boolean {
  return s.cases.length > 0 && s.cases.every((c) => c.status !== 'passed' && START_UP_SIGNS.some((sign) => sign.test(runPart(c.message))));
}

/** At least this many programs, and this share of those graded, make "many". */
export const MIN_PROGRAMS = 2;
export const MIN_SHARE = 1 / 3;

/**
 * The warning for a run where many programs failed at start-up (undefined: none to give).
 * `how` says what the run lines were (the course's, or --run-args).
 */
export function startUpWarning(reports: readonly SubmissionReport[], runs: readonly ProgramRuns[], how: string, shellLine: (argv: readonly string[]) => string): string | undefined {
  // A folder that could not be built or read, or a machine without the runtime, is another story.
  const graded = reports.map((s, k) => ({ s, r: runs[k]! })).filter(({ s, r }) => s.notGraded === undefined && r.setupError === '' && r.argv !== undefined);
  const failed = graded.filter(({ s }) => failedAtStartUp(s));
  if (failed.length < MIN_PROGRAMS || failed.length < graded.length * MIN_SHARE) return undefined;
  const lines = new Map<string, number>();
  for (const { r } of failed) {
    const line = shellLine(r.argv!);
    lines.set(line, (lines.get(line) ?? 0) + 1);
  }
  const shown = [...lines].slice(0, 4).map(([line, n]) => `\`${line}\`${n > 1 ? ` (${n})` : ''}`);
  const more = lines.size > 4 ? ` and ${lines.size - 4} more lines` : '';
  return (
    `WARNING: ${failed.length} of ${graded.length} programs failed every case at start-up (an argument index out of range, a usage message, no next_state.txt written…) — ` +
    `most likely the run line, not the students. They ran as ${shown.join(', ')}${more}; ${how}`
  );
}
