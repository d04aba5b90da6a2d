/**
 * An append-only JSON-lines file that a run writes as it goes and a later run resumes from: a
 * tournament's results.jsonl (tournaments/results.ts) and a grading run's journal
 * (grading/grade-journal.ts). A header line, then one line per finished item, each written with
 * one write call, so a kill tears at most the last line.
 *
 * Reading drops a last line cut short (the process was killed while writing it) and, when asked
 * to repair, cuts it off the file (or adds the newline a complete last line lacks), so that
 * appending continues a well-formed file. What a line must hold is the caller's (a zod schema):
 * anything malformed is an error naming the file and line.
 */
import { appendFileSync, closeSync, existsSync, mkdirSync, openSync, readFileSync, statSync, truncateSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import type * as z from 'zod';
import { located, UserError } from './errors.ts';

/** A complete line of the file and its number (from 1). */
export interface NumberedLine {
  no: number;
  text: string;
}

export interface JsonLines {
  /** the complete lines, the header first */
  lines: NumberedLine[];
  /** the number of a last line cut short, which was dropped (and cut off the file when repairing) */
  tornLine?: number;
}

/** The file's complete lines; `repair` (default true) mends its end so that appending continues it. */
export function readJsonLines(file: string, options: { repair?: boolean } = {}): JsonLines {
  const repair = options.repair !== false;
  const text = readFileSync(file, 'utf8');
  const texts = text.split('\n');
  // After the last '\n' comes either nothing or a line whose writing did not finish.
  const tail = texts.pop()!;
  let tornLine: number | undefined;
  if (tail !== '') {
    if (isJson(tail)) {
      texts.push(tail);
      if (repair) writeFix(file, () => appendFileSync(file, '\n'));
    } else {
      if (repair) writeFix(file, () => truncateSync(file, Buffer.byteLength(text, 'utf8') - Buffer.byteLength(tail, 'utf8')));
      tornLine = texts.length + 1;
    }
  }
  return { lines: texts.map((t, k) => ({ no: k + 1, text: t })), ...(tornLine !== undefined ? { tornLine } : {}) };
}

/** A line parsed and checked by `schema`; otherwise an error naming the file, the line and the field. */
export function parseJsonLine<T extends z.ZodType>(file: string, lineNo: number, line: string, schema: T, expected: string): z.output<T> {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    throw located(file, lineNo, `not a JSON line (expected ${expected}): ${excerpt(line)}`);
  }
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const where = issue.path.length === 0 ? 'the line' : `field "${issue.path.join('.')}"`;
  throw located(file, lineNo, `${where}: ${issue.message} (expected ${expected})`);
}

export interface JsonLinesWriter {
  file: string;
  /** one line (ending in '\n'), in one write call */
  append(line: string): void;
  close(): void;
}

/**
 * Opens `file` for appending, writing `header` first when it is empty or new; `create` makes its
 * folder. A failure is one line naming the file.
 */
export function appendJsonLines(file: string, header: string, options: { create?: boolean } = {}): JsonLinesWriter {
  let fd: number;
  try {
    if (options.create === true) mkdirSync(dirname(file), { recursive: true });
    fd = openSync(file, 'a');
    if (statSync(file).size === 0) writeSync(fd, header);
  } catch (e) {
    throw new UserError(`cannot write ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  let open = true;
  return {
    file,
    append(line) {
      writeSync(fd, line);
    },
    close() {
      if (open) closeSync(fd);
      open = false;
    },
  };
}

/** Whether `file` exists and holds at least one line. */
export function hasLines(file: string): boolean {
  return existsSync(file) && statSync(file).size > 0;
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

function writeFix(file: string, fix: () => void): void {
  try {
    fix();
  } catch (e) {
    throw new UserError(`cannot repair ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
}

function excerpt(s: string, max = 60): string {
  return JSON.stringify(s.length > max ? s.slice(0, max) + '…' : s);
}
