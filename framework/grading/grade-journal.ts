/**
 * A grading run's journal: each submission's result, written the moment it is graded, so that
 * Ctrl-C keeps every finished submission and the same command run again grades only the rest.
 * The same append-and-resume file as a tournament's results.jsonl (../json-lines.ts):
 *
 *   {"type":"grade-journal","version":1}
 *   {"type":"submission","key":"3f2a…","id":"alice","kind":"agent","result":{…}}
 *
 * An entry is found again by its key, a hash of everything its result depends on: the
 * submission's files (submission-hash.ts) and its name (the path given, not the intake's
 * snapshot, which is new each run), what every submission of the run is
 * graded on (the job's setup: the suite's cases, answers and limits, the sandbox, the early-stop
 * rules, the run lines…), the Python interpreters given (--python, --python2: a Python 2 file
 * passes on one and fails on the grader's own) and the grader itself (tool-identity.ts). So a later run re-grades
 * exactly the submissions whose files, suite, options or tool changed, and the report it writes
 * is the one a clean run would (the results are the same data, assembled in the same order).
 * Entries keyed alike replace each other (the last wins); a run that completes rewrites the
 * journal with its own entries only, so it does not grow from run to run.
 */
import { createHash } from 'node:crypto';
import { resolve } from 'node:path';
import * as z from 'zod';
import { UserError } from '../errors.ts';
import { appendJsonLines, hasLines, parseJsonLine, readJsonLines, type JsonLinesWriter } from '../json-lines.ts';
import { interpreterOverrides } from '../sandbox/programs/runtimes.ts';
import { writeFileAtomically } from '../write-file.ts';
import { submissionId } from './grade-submission.ts';
import { submissionFilesHash } from './submission-hash.ts';

export const JOURNAL_VERSION = 1;
const HEADER = JSON.stringify({ type: 'grade-journal', version: JOURNAL_VERSION }) + '\n';
const headerSchema = z.strictObject({ type: z.literal('grade-journal'), version: z.literal(JOURNAL_VERSION) });
const entrySchema = z.strictObject({
  type: z.literal('submission'),
  key: z.string().regex(/^[0-9a-f]{64}$/),
  id: z.string(),
  kind: z.string(),
  result: z.record(z.string(), z.unknown()),
});
type Entry = z.output<typeof entrySchema>;

/** What a grading run asks of its journal: a submission graded before, and recording one graded now. */
export interface SubmissionJournal<Result> {
  /** the result recorded for this submission as it is now (same files, suite, options and tool), if any */
  recorded(path: string): Result | undefined;
  /** writes one graded submission's result (one line, at once) */
  record(path: string, result: Result): void;
  /** called once the run knows what it reuses: `reused` of its `total` submissions */
  started(reused: number, total: number): void;
}

/** Opens the journal for a run of `kind` whose every submission is graded on `setup` (plain data). */
export type JournalOpener<Result> = (setup: unknown) => Promise<SubmissionJournal<Result>>;

export interface GradeJournalOptions {
  file: string;
  /** the grader's identity (tool-identity.ts) */
  tool: string;
  /** grade everything again (the journal is started anew) */
  fresh?: boolean;
  /** submission ids graded again even when recorded */
  only?: ReadonlySet<string>;
  /** where the run says what it reuses (describe) */
  announce?: (line: string) => void;
  /**
   * The name a submission is known by from run to run (default: its absolute path). The intake
   * grades a fresh snapshot each run, so its commands give the name the instructor gave instead.
   */
  nameOf?: (path: string) => string;
}

/** Where a recorded result named the path it was graded at: the path graded now is put back there. */
export const PATH_MARK = '<mancala:submission-path>';

/** `text` (JSON) with every mention of `from` (a path, JSON-escaped) replaced by `to` (JSON-escaped too). */
function swapPath(text: string, from: string, to: string): string {
  return text.split(from).join(to);
}

function jsonEscaped(text: string): string {
  return JSON.stringify(text).slice(1, -1);
}

export class GradeJournal {
  private readonly entries = new Map<string, Entry>();
  private writer: JsonLinesWriter | undefined;
  /** the keys of this run's submissions, in the order they were asked for */
  private readonly live = new Map<string, Entry | undefined>();
  readonly notes: string[] = [];
  reused = 0;
  graded = 0;

  private constructor(private readonly o: GradeJournalOptions) {}

  /** Reads `file` when it exists (a torn last line dropped and cut off), to append to it. */
  static open(o: GradeJournalOptions): GradeJournal {
    const journal = new GradeJournal(o);
    if (o.fresh !== true && hasLines(o.file)) journal.read();
    else if (o.fresh === true) writeFileAtomically(o.file, '');
    journal.writer = appendJsonLines(o.file, HEADER, { create: true });
    return journal;
  }

  get file(): string {
    return this.o.file;
  }

  private read(): void {
    const { lines, tornLine } = readJsonLines(this.o.file);
    if (tornLine !== undefined) this.notes.push(`${this.o.file}:${tornLine}: dropped a last line cut short (an interrupted run); its submission is graded again`);
    const [header, ...rest] = lines;
    if (header === undefined) return;
    parseJsonLine(this.o.file, header.no, header.text, headerSchema, `a header line ${HEADER.trim()}`);
    for (const line of rest) {
      if (line.text.trim() === '') continue;
      const entry = parseJsonLine(this.o.file, line.no, line.text, entrySchema, 'a line {"type":"submission","key":…,"result":{…}}');
      this.entries.set(entry.key, entry);
    }
  }

  /** The journal of one run of `kind` ("agent", "program") over `submissions`, each graded on `setup`. */
  async forRun<Result>(kind: string, setup: unknown, submissions: readonly string[]): Promise<SubmissionJournal<Result>> {
    // The interpreters are the process's (set before the run): not in the setup, yet results depend on them.
    const setupHash = sha256(JSON.stringify([setup, interpreterOverrides()]));
    const keys = new Map<string, string | undefined>();
    for (const path of submissions) {
      const files = await submissionFilesHash(path);
      keys.set(path, files === undefined ? undefined : sha256(JSON.stringify([this.o.tool, kind, setupHash, this.o.nameOf?.(path) ?? resolve(path), files])));
    }
    return {
      recorded: (path) => {
        const key = keys.get(path);
        if (key === undefined) return undefined;
        const entry = this.entries.get(key);
        const wanted = entry !== undefined && this.o.only?.has(submissionId(path)) !== true;
        this.live.set(key, wanted ? entry : undefined);
        if (!wanted) return undefined;
        this.reused++;
        // Recorded where it was graded then: put today's path back where that one stood.
        return JSON.parse(swapPath(JSON.stringify(entry.result), PATH_MARK, jsonEscaped(path))) as Result;
      },
      record: (path, result) => {
        this.graded++;
        const key = keys.get(path);
        // A submission too large to hash is graded every time: nothing to find it by.
        if (key === undefined) return;
        // The path graded is this run's (a snapshot's, under the intake): kept as a mark, not as itself.
        const kept = JSON.parse(swapPath(JSON.stringify(result), jsonEscaped(path), PATH_MARK)) as Record<string, unknown>;
        const entry: Entry = { type: 'submission', key, id: submissionId(path), kind, result: kept };
        this.entries.set(key, entry);
        this.live.set(key, entry);
        this.writer?.append(JSON.stringify(entry) + '\n');
      },
      // Said when something is reused: a first run has nothing to say.
      started: (reused, total) => (reused > 0 ? this.o.announce?.(describeReuse(this.o.file, reused, total, kind === 'program' ? 'program' : 'submission')) : undefined),
    };
  }

  /** A run that completed: the journal keeps this run's entries only (rewritten whole). */
  compact(): void {
    this.writer?.close();
    const kept = [...this.live.values()].filter((e) => e !== undefined);
    writeFileAtomically(this.o.file, HEADER + kept.map((e) => JSON.stringify(e) + '\n').join(''));
    this.writer = appendJsonLines(this.o.file, HEADER);
  }

  close(): void {
    this.writer?.close();
    this.writer = undefined;
  }

}

/** The line a run says before grading: how many submissions it reuses. */
export function describeReuse(file: string, reused: number, total: number, noun = 'submission'): string {
  return `journal ${file}: reused ${reused} of ${total} ${noun}${total === 1 ? '' : 's'} (files, suite, options and grader unchanged); grading ${total - reused}`;
}

/**
 * A run's start with its journal: `results` gets what the journal holds of `submissions` (at
 * their places), the journal says what it reused, and the indices of those left to grade come back.
 */
export function takeRecorded<Result>(journal: SubmissionJournal<Result> | undefined, submissions: readonly string[], results: Result[]): number[] {
  const left: number[] = [];
  submissions.forEach((path, k) => {
    const recorded = journal?.recorded(path);
    if (recorded === undefined) left.push(k);
    else results[k] = recorded;
  });
  journal?.started(submissions.length - left.length, submissions.length);
  return left;
}

/** The ids asked for by --only that are no submission of the run: one line naming them and some that are. */
export function checkOnlyIds(only: ReadonlySet<string>, submissions: readonly string[]): void {
  const ids = new Set(submissions.map(submissionId));
  const unknown = [...only].filter((id) => !ids.has(id));
  if (unknown.length === 0) return;
  const some = [...ids].slice(0, 5);
  throw new UserError(`--only ${unknown.join(',')}: no such submission in this run; its submissions are ${some.join(', ')}${ids.size > some.length ? `, … (${ids.size} in all)` : ''}`);
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}
