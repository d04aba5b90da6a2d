/**
 * When every submission of one kind (one language or runtime) fails every case with the same
 * message, the fault is almost certainly the grading machine's — a missing interpreter, a broken
 * sandbox, a full disk — not a whole class's. This finds such groups so the grader can say so
 * loudly instead of handing out zeros.
 *
 * Messages are compared by their first line (the later lines of a case's message describe the
 * case: its input, how to reproduce), with the submission's own name and paths replaced, since a
 * message such as "cannot open /grading/alice/main.py" differs by student only in that.
 */
import { tmpdir } from 'node:os';
import { resolve } from 'node:path';
import type { GradeReport } from './report.ts';
import { reasonOfNotRun } from './early-stop.ts';

export interface SubmissionOutcome {
  /** its language or runtime ("python3", "TypeScript/JavaScript"); undefined: not a student's submission (a reference agent) */
  kind: string | undefined;
  /** the name reports give it, and the path given on the command line */
  id: string;
  path: string;
  /** one entry a case: why it did not pass, or undefined when it passed */
  failures: readonly (string | undefined)[];
}

export interface CommonFailure {
  kind: string;
  /** how many submissions of the kind there are: every one of them failed this way */
  submissions: number;
  /** the shared message, with `<submission>` where each had its own name or path */
  message: string;
}

/** The kind of an agent submission (grade, check, gauntlet): every one runs on the same Node runtime. */
export const AGENT_KIND = 'TypeScript/JavaScript';

/** Groups of at least this many submissions are telling; one failing submission is just a student's. */
export const MIN_SUBMISSIONS = 2;

/** Every kind whose submissions (at least MIN_SUBMISSIONS) all failed all their cases with one message. */
export function commonFailures(outcomes: readonly SubmissionOutcome[]): CommonFailure[] {
  const byKind = new Map<string, SubmissionOutcome[]>();
  for (const o of outcomes) {
    if (o.kind === undefined) continue;
    byKind.set(o.kind, [...(byKind.get(o.kind) ?? []), o]);
  }
  const found: CommonFailure[] = [];
  for (const [kind, group] of byKind) {
    if (group.length < MIN_SUBMISSIONS) continue;
    const messages = new Set<string>();
    let everyCaseFailed = true;
    for (const o of group) {
      if (o.failures.length === 0) everyCaseFailed = false;
      for (const f of o.failures) {
        if (f === undefined) everyCaseFailed = false;
        else messages.add(normalizedMessage(f, o));
      }
    }
    if (everyCaseFailed && messages.size === 1) found.push({ kind, submissions: group.length, message: [...messages][0]! });
  }
  return found;
}

/** The first line of `message`, the submission's own paths (and its name in a path) replaced by `<submission>`. */
export function normalizedMessage(message: string, o: Pick<SubmissionOutcome, 'id' | 'path'>): string {
  // A case not run after the same start-up failure failed as the first ones did (early-stop.ts).
  let line = reasonOfNotRun(message).split('\n', 1)[0]!.trim();
  // The resolved path contains the given one: longest first.
  for (const path of [...new Set([resolve(o.path), o.path])].sort((a, b) => b.length - a.length)) {
    line = line.replace(new RegExp(`(?<![\\w.-])${escaped(path)}(?![\\w-])`, 'g'), '<submission>');
  }
  // The name only as a part of a path: a submission called "a" must leave the word "a" alone.
  if (o.id !== '') line = line.replace(new RegExp(`(?<=^|/)${escaped(o.id)}(?=[/.]|$)`, 'g'), '<submission>');
  // Each submission's copy lives in its own temporary folder (a random name): one name, <tmp>, stands for all of them.
  return line.replace(new RegExp(`${escaped(tmpdir())}/[^/\\s'"):,]+`, 'g'), '<tmp>');
}

function escaped(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The warning to print and record: it blames the machine, and says what every submission got. */
export function commonFailureWarning(f: CommonFailure): string {
  return `WARNING: all ${f.submissions} ${f.kind} submissions failed every case the same way: "${f.message}" — this is most likely the grading machine, not the students`;
}

/** The outcomes in a report, each submission's kind from `kindOf` (its id and path). */
export function reportOutcomes(report: GradeReport, kindOf: (submission: { id: string; path: string }) => string | undefined): SubmissionOutcome[] {
  return report.submissions.map((s) => ({
    kind: kindOf(s),
    id: s.id,
    path: s.path,
    failures: s.cases.map((c) => (c.status === 'passed' ? undefined : c.message)),
  }));
}
